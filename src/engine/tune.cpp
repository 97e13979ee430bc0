// Texel tuning: a local search over integer weights (each weight nudged up
// or down while the error falls), with the sigmoid scale K fitted first so
// that tuning moves the weights, not the scale. The evaluation is the real
// one (evaluate.cpp), so what is tuned is exactly what plays.
#include "tune.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "evaluate.h"

namespace echecs::engine {

namespace {

struct Sample {
    StateInfo st;
    Position pos;
    double target = 0;  // result, blended with the search score when lambda > 0
};

double sigmoid(double k, double cp) { return 1.0 / (1.0 + std::pow(10.0, -k * cp / 400.0)); }

// Weights whose sign is part of the model: a piece is worth something, an
// attack on the king never helps the defender (the attack units are squared,
// so a negative weight would turn a penalty into nonsense).
int lower_bound(const std::string& name) {
    if (name.rfind("material.", 0) == 0) return 1;
    if (name.rfind("king_attack", 0) == 0) return 0;
    return std::numeric_limits<int>::min();
}

bool selected(const std::string& name, const std::string& only) {
    if (only.empty()) return true;
    std::stringstream ss(only);
    std::string prefix;
    while (std::getline(ss, prefix, ','))
        if (!prefix.empty() && name.compare(0, prefix.size(), prefix) == 0) return true;
    return false;
}

class Tuner {
public:
    Tuner(std::deque<Sample>& train, std::deque<Sample>& check) : train_(train), check_(check) {}

    double error(const std::deque<Sample>& set, const EvalWeights& w, double k) const {
        double sum = 0;
        for (const Sample& s : set) {
            const Value v = evaluate(s.pos, w);
            const double white = s.pos.side_to_move() == WHITE ? v : -v;
            const double d = s.target - sigmoid(k, white);
            sum += d * d;
        }
        return set.empty() ? 0 : sum / double(set.size());
    }
    double train_error(const EvalWeights& w) const { return error(train_, w, k_); }
    double check_error(const EvalWeights& w) const { return error(check_, w, k_); }

    // Golden-section search of K on the starting weights.
    void fit_k(const EvalWeights& w) {
        double lo = 0.1, hi = 3.0;
        const double g = (std::sqrt(5.0) - 1) / 2;
        for (int i = 0; i < 30; ++i) {
            const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
            if (error(train_, w, a) < error(train_, w, b))
                hi = b;
            else
                lo = a;
        }
        k_ = (lo + hi) / 2;
    }
    double k() const { return k_; }

private:
    std::deque<Sample>& train_;
    std::deque<Sample>& check_;
    double k_ = 1.0;
};

}  // namespace

int tune(const TuneOptions& o, std::ostream& out, std::ostream& log) {
    std::ifstream in(o.data);
    if (!in) {
        log << "tune: cannot read --data '" << o.data << "'\n";
        return 2;
    }
    // Positions are kept parsed (a deque keeps each Position's StateInfo in place).
    std::deque<Sample> train, check;
    std::string line;
    std::size_t line_no = 0, kept = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        std::stringstream fields(line);
        std::string fen, result, score;
        if (!std::getline(fields, fen, '\t') || !std::getline(fields, result, '\t')) {
            log << "tune: " << o.data << " line " << line_no << ": expected FEN<tab>result<tab>score\n";
            return 2;
        }
        std::getline(fields, score, '\t');
        double r = 0, sc = 0;
        try {
            r = std::stod(result);
            sc = score.empty() ? 0 : std::stod(score);
        } catch (const std::exception&) {
            log << "tune: " << o.data << " line " << line_no << ": result or score is not a number\n";
            return 2;
        }
        if (r != 0 && r != 0.5 && r != 1) {
            log << "tune: " << o.data << " line " << line_no << ": result '" << result << "' is not 1, 0.5 or 0\n";
            return 2;
        }
        std::deque<Sample>& set = o.validation > 0 && kept % std::size_t(o.validation) == 0 ? check : train;
        Sample& s = set.emplace_back();
        try {
            s.pos.set(o.variant, fen, s.st);
        } catch (const FenError& e) {
            log << "tune: " << o.data << " line " << line_no << ": " << e.what() << "\n";
            return 2;
        }
        s.target = r;
        if (o.lambda > 0) s.target = (1 - o.lambda) * r + o.lambda * sigmoid(1.0, sc);
        if (++kept == o.limit) break;
    }
    if (train.size() < 100) {
        log << "tune: only " << train.size() << " training positions in '" << o.data << "'; need at least 100\n";
        return 2;
    }

    const EvalWeights& start = hand_written_weights(o.variant);  // what is tuned
    EvalWeights w = start;
    struct Param {
        std::string name;
        int* value;
        int min;
    };
    std::vector<Param> params;
    w.visit([&](const std::string& name, int& v) {
        // Weights that the game's evaluation never reads are left alone.
        if (!weight_used_by(o.variant, name) || !selected(name, o.only)) return;
        params.push_back({name, &v, lower_bound(name)});
        v = std::max(v, params.back().min);
    });
    w.finish();
    Tuner tuner(train, check);
    tuner.fit_k(w);
    const double train0 = tuner.train_error(w), check0 = tuner.check_error(w);
    log << "tune: " << variant_name(o.variant) << ", " << train.size() << " training and " << check.size()
        << " held-out positions, " << params.size() << " weights, K = " << tuner.k() << "\n";
    log << "tune: start error " << train0 << " (held out " << check0 << ")\n";

    double best = train0;
    for (int pass = 1; pass <= o.passes; ++pass) {
        int changed = 0;
        const int step = pass <= 2 ? 4 : pass <= 5 ? 2 : 1;  // coarse first, then fine
        for (auto& [name, value, min] : params) {
            for (int dir : {+1, -1}) {
                const int old = *value;
                if (old + dir * step < min) continue;
                *value = old + dir * step;
                w.finish();
                const double e = tuner.train_error(w);
                if (e < best) {
                    best = e;
                    ++changed;
                    break;
                }
                *value = old;
                w.finish();
            }
        }
        log << "tune: pass " << pass << " step " << step << ": error " << best << " (held out " << tuner.check_error(w)
            << "), " << changed << " weights moved\n";
        if (!changed && step == 1) break;
    }
    log << "tune: end error " << best << " (held out " << tuner.check_error(w) << "); started at " << train0
        << " (held out " << check0 << ")\n";

    // The override string: every weight that differs from the hand-set
    // starting point (so it replaces the committed tuned string whole).
    EvalWeights base = hand_set_weights(o.variant);
    std::vector<int> before;
    base.visit([&](const std::string&, int& v) { before.push_back(v); });
    std::size_t i = 0;
    bool first = true;
    w.visit([&](const std::string& name, int& v) {
        if (v != before[i]) {
            out << (first ? "" : ",") << name << '=' << v;
            first = false;
        }
        ++i;
    });
    out << "\n";
    return 0;
}

}  // namespace echecs::engine

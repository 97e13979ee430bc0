#include "wdl.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "protocol_util.h"
#include "wdl_params.h"

namespace echecs::engine {

namespace {

constexpr int MATERIAL_VALUE[PIECE_TYPE_NB] = {0, 1, 3, 3, 5, 9, 0};
constexpr double MIN_B = 5;  // keeps the curve from becoming a step while fitting

struct Probabilities {
    double win, loss;
};
Probabilities model(double s, int m, const WdlParams& p) {
    const double a = p.a0 + p.a1 * m, b = std::max(MIN_B, p.b0 + p.b1 * m);
    return {1 / (1 + std::exp((a - s) / b)), 1 / (1 + std::exp((a + s) / b))};
}

}  // namespace

int wdl_material(const Position& pos) {
    int m = 0;
    for (int pt = PAWN; pt < KING; ++pt) m += MATERIAL_VALUE[pt] * popcount(pos.pieces(PieceType(pt)));
    return m;
}

const WdlParams& wdl_params(Variant v) {
    static constexpr WdlParams table[VARIANT_NB] = {wdl_fit::CHESS, wdl_fit::ALICE, wdl_fit::AVALANCHE};
    return table[int(v)];
}

Wdl wdl_from_score(Value score, int material, const WdlParams& p) {
    if (score >= VALUE_MATE_IN_MAX_PLY) return {1000, 0, 0};
    if (score <= -VALUE_MATE_IN_MAX_PLY) return {0, 0, 1000};
    const Probabilities q = model(score, material, p);
    Wdl w;
    w.win = int(std::lround(1000 * q.win));
    w.loss = int(std::lround(1000 * q.loss));
    w.loss = std::min(w.loss, 1000 - w.win);
    w.draw = 1000 - w.win - w.loss;
    return w;
}

Wdl wdl_from_score(Value score, const Position& pos) {
    return wdl_from_score(score, wdl_material(pos), wdl_params(pos.variant()));
}

double wdl_log_loss(const std::vector<WdlSample>& samples, const WdlParams& p) {
    if (samples.empty()) return 0;
    double sum = 0;
    for (const WdlSample& x : samples) {
        const Probabilities q = model(x.score, x.material, p);
        const double pr = x.result > 0.75 ? q.win : x.result < 0.25 ? q.loss : 1 - q.win - q.loss;
        sum -= std::log(std::max(pr, 1e-9));
    }
    return sum / double(samples.size());
}

WdlParams fit_wdl(const std::vector<WdlSample>& samples, const WdlParams& start) {
    // Coordinate descent with shrinking steps: four smooth parameters, a few
    // hundred evaluations of the likelihood.
    WdlParams p = start;
    double best = wdl_log_loss(samples, p);
    double* coef[4] = {&p.a0, &p.a1, &p.b0, &p.b1};
    double step[4] = {64, 2, 32, 1};
    for (int round = 0; round < 60; ++round) {
        bool improved = false;
        for (int i = 0; i < 4; ++i)
            for (double dir : {1.0, -1.0}) {
                const double keep = *coef[i];
                *coef[i] = keep + dir * step[i];
                const double e = wdl_log_loss(samples, p);
                if (e < best) {
                    best = e;
                    improved = true;
                } else {
                    *coef[i] = keep;
                }
            }
        if (!improved)
            for (double& s : step) s /= 2;
    }
    return p;
}

int wdl_main(const std::vector<std::string>& args, std::ostream& out) {
    std::vector<std::string> files;
    std::optional<Variant> variant;
    for (size_t i = 0; i < args.size(); ++i) {
        if ((args[i] == "--data" || args[i] == "--variant") && i + 1 < args.size()) {
            if (args[i] == "--data")
                files.push_back(args[++i]);
            else if (!(variant = variant_from_name(args[++i]))) {
                out << "wdl: --variant: " << unknown_variant_message(args[i]) << "\n";
                return 2;
            }
        } else {
            out << "usage: echecs wdl --variant chess|alice|avalanche --data FILE [--data FILE ...]\n"
                   "Fits the win/draw/loss model to `echecs selfplay` output (FEN, result, score).\n";
            return 2;
        }
    }
    if (files.empty() || !variant) {
        out << "wdl: --variant and --data are needed\n";
        return 2;
    }
    std::vector<WdlSample> samples;
    for (const std::string& f : files) {
        std::ifstream in(f);
        if (!in) {
            out << "wdl: cannot read '" << f << "'\n";
            return 2;
        }
        int n = 0;
        for (std::string line; std::getline(in, line);) {
            ++n;
            const auto t1 = line.find('\t'), t2 = line.find('\t', t1 == std::string::npos ? t1 : t1 + 1);
            if (t1 == std::string::npos || t2 == std::string::npos) {
                out << "wdl: " << f << ":" << n << ": expected FEN<tab>result<tab>score\n";
                return 2;
            }
            StateInfo st;
            Position pos;
            try {
                pos.set(*variant, line.substr(0, t1), st);
            } catch (const FenError& e) {
                out << "wdl: " << f << ":" << n << ": " << e.what() << "\n";
                return 2;
            }
            const std::string res = line.substr(t1 + 1, t2 - t1 - 1);
            const auto score = parse_int(line.substr(t2 + 1));
            if ((res != "1" && res != "0" && res != "0.5") || !score) {
                out << "wdl: " << f << ":" << n << ": bad result or score\n";
                return 2;
            }
            // The file is from White's side; the model from the side to move's.
            const bool white = pos.side_to_move() == WHITE;
            const double r = res == "1" ? 1 : res == "0" ? 0 : 0.5;
            samples.push_back({double(white ? *score : -*score), white ? r : 1 - r, wdl_material(pos)});
        }
    }
    const WdlParams start = wdl_params(*variant);
    const WdlParams p = fit_wdl(samples, start);
    out << std::fixed << std::setprecision(4);
    out << "samples " << samples.size() << "\nlog loss: committed " << wdl_log_loss(samples, start) << ", fitted "
        << wdl_log_loss(samples, p) << "\n";
    out << std::setprecision(2) << "fitted: a0 " << p.a0 << " a1 " << p.a1 << " b0 " << p.b0 << " b1 " << p.b1 << "\n";
    out << "score bin | n | observed W/D/L % | fitted W/D/L %\n";
    for (int lo = -800; lo < 800; lo += 100) {
        double n = 0, w = 0, d = 0, pw = 0, pl = 0;
        for (const WdlSample& x : samples)
            if (x.score >= lo && x.score < lo + 100) {
                ++n;
                w += x.result > 0.75, d += x.result > 0.25 && x.result < 0.75;
                const Probabilities q = model(x.score, x.material, p);
                pw += q.win, pl += q.loss;
            }
        if (n == 0) continue;
        out << std::setprecision(0) << "[" << lo << "," << lo + 100 << ") | " << n << " | " << std::setprecision(1)
            << 100 * w / n << "/" << 100 * d / n << "/" << 100 * (n - w - d) / n << " | " << 100 * pw / n << "/"
            << 100 * (n - pw - pl) / n << "/" << 100 * pl / n << "\n";
    }
    return 0;
}

}  // namespace echecs::engine

// The NNUE trainer. The float network is exactly the engine's (same
// features, clipped ReLU to [0, 1], output buckets) plus a factoriser: every
// feature also activates the same piece-square feature without the king
// bucket, whose weights are shared by all buckets and folded into them on
// export, so that rarely seen king buckets still learn from every position.
// Loss: squared error between sigmoid(eval / S) and
// lambda * sigmoid(score / S) + (1 - lambda) * result, with S fitted to the
// data (results against search scores). Adam, sparse rows for the inputs.
#include "nnue_train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "core/prng.h"
#include "evaluate.h"

namespace echecs::engine::nnue {

namespace {

struct Sample {
    std::uint16_t f[2][MAX_ACTIVE];  // side to move's features, then the other side's
    std::uint8_t n[2];
    std::uint8_t bucket;
    float result;  // side to move: 1 win, 0.5 draw, 0 loss
    float score;   // side to move, cp
    float hand;    // the hand-written evaluation, side to move, cp (the baseline)
    float net;     // held out only: the game's built-in network, if it plays with one (the next bar)
};

struct Data {
    std::vector<Sample> train, valid;
};

bool parse_line(const std::string& line, Variant v, const Shape& shape, const EvalWeights& hand,
                const EvalWeights* built_in, Sample& s, std::string& error) {
    const std::size_t t1 = line.find('\t'), t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) {
        error = "expected FEN<tab>result<tab>score";
        return false;
    }
    StateInfo st;
    Position pos;
    try {
        pos.set(v, line.substr(0, t1), st);
    } catch (const FenError& e) {
        error = std::string("FEN: ") + e.what();
        return false;
    }
    const std::string res = line.substr(t1 + 1, t2 - t1 - 1);
    float white;
    if (res == "1")
        white = 1;
    else if (res == "0")
        white = 0;
    else if (res == "0.5")
        white = 0.5f;
    else {
        error = "result '" + res + "' (1, 0.5 or 0)";
        return false;
    }
    int score = 0;
    try {
        std::size_t used = 0;
        score = std::stoi(line.substr(t2 + 1), &used);
    } catch (const std::exception&) {
        error = "score '" + line.substr(t2 + 1) + "' is not an integer";
        return false;
    }
    const Color us = pos.side_to_move();
    s.n[0] = std::uint8_t(active_features(shape, pos, us, s.f[0]));
    s.n[1] = std::uint8_t(active_features(shape, pos, ~us, s.f[1]));
    s.bucket = std::uint8_t(output_bucket(shape, pos));
    s.result = us == WHITE ? white : 1 - white;
    s.score = float(us == WHITE ? score : -score);
    s.hand = float(evaluate(pos, hand));
    s.net = built_in ? float(evaluate(pos, *built_in)) : 0.0f;
    return true;
}

bool read_data(const TrainOptions& o, const Shape& shape, Data& d, std::ostream& log) {
    std::ifstream in(o.data);
    if (!in) {
        log << "nnue-train: --data: cannot open '" << o.data << "'\n";
        return false;
    }
    std::string line, error;
    std::size_t n = 0, number = 0;
    Sample s;
    const EvalWeights& hand = hand_written_weights(o.variant);
    const EvalWeights* built_in = nnue::adopted(o.variant) ? &default_weights(o.variant) : nullptr;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        // Whole blocks of consecutive positions are held out, so that the
        // positions of one game are not on both sides.
        const bool held_out = o.validation > 0 && (n / 1000) % std::size_t(o.validation) == 0;
        if (!parse_line(line, o.variant, shape, hand, held_out ? built_in : nullptr, s, error)) {
            log << "nnue-train: " << o.data << " line " << number << ": " << error << '\n';
            return false;
        }
        (held_out ? d.valid : d.train).push_back(s);
        if (++n == o.limit) break;
    }
    if (d.train.empty()) {
        log << "nnue-train: " << o.data << ": no training positions\n";
        return false;
    }
    return true;
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// S minimising the squared error between the results and sigmoid(score / S).
double fit_scale(const std::vector<Sample>& v) {
    auto err = [&](double s) {
        double e = 0;
        for (const Sample& x : v) e += std::pow(x.result - sigmoid(x.score / s), 2);
        return e;
    };
    double a = 50, b = 1500;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 40; ++i) {
        const double c = b - g * (b - a), d = a + g * (b - a);
        if (err(c) < err(d))
            b = d;
        else
            a = c;
    }
    return (a + b) / 2;
}

class Trainer {
public:
    Trainer(const Shape& s, const TrainOptions& o) : s_(s), o_(o), h_(s.hidden), ni_(s.inputs()) {
        nf_ = s.boards * PIECE_INPUTS;
        w_.assign(std::size_t(ni_ + nf_) * h_, 0.f);  // rows ni_.. are the factoriser's
        b_.assign(h_, 0.25f);
        v_.assign(std::size_t(s.output_buckets) * 2 * h_, 0.f);
        c_.assign(std::size_t(s.output_buckets), 0.f);
        Prng rng{o.seed * 2654435761u + 1};
        auto uniform = [&](float a) { return a * (float(rng.rand64() >> 11) / float(1ull << 53) * 2 - 1); };
        for (std::size_t i = std::size_t(ni_) * h_; i < w_.size(); ++i) w_[i] = uniform(0.15f);
        for (float& x : v_) x = uniform(0.5f / std::sqrt(float(h_)));
        gw_.assign(w_.size(), 0.f);
        mw_.assign(w_.size(), 0.f), sw_.assign(w_.size(), 0.f);
        touched_.assign(std::size_t(ni_ + nf_), 0);
        for (auto* p : {&gb_, &mb_, &sb_}) p->assign(b_.size(), 0.f);
        for (auto* p : {&gv_, &mv_, &sv_}) p->assign(v_.size(), 0.f);
        for (auto* p : {&gc_, &mc_, &sc_}) p->assign(c_.size(), 0.f);
    }

    // Forward pass: the accumulators (pre-activation) and the output in cp.
    double forward(const Sample& x, float* acc) const {
        for (int k = 0; k < 2; ++k) {
            float* a = acc + k * h_;
            std::copy(b_.begin(), b_.end(), a);
            for (int i = 0; i < x.n[k]; ++i) {
                const float* r1 = &w_[std::size_t(x.f[k][i]) * h_];
                const float* r2 = &w_[std::size_t(ni_ + x.f[k][i] % nf_) * h_];
                for (std::size_t j = 0; j < h_; ++j) a[j] += r1[j] + r2[j];
            }
        }
        const float* v = &v_[std::size_t(x.bucket) * 2 * h_];
        double o = c_[x.bucket];
        for (std::size_t j = 0; j < 2 * h_; ++j) o += double(v[j]) * std::clamp(acc[j], 0.f, 1.f);
        return o * OUT_SCALE;
    }

    double target(const Sample& x, double scale) const {
        return o_.lambda * sigmoid(x.score / scale) + (1 - o_.lambda) * x.result;
    }

    double loss(const std::vector<Sample>& v, double scale) const {
        if (v.empty()) return 0;
        std::vector<float> acc(2 * h_);
        double e = 0;
        for (const Sample& x : v) e += std::pow(sigmoid(forward(x, acc.data()) / scale) - target(x, scale), 2);
        return e / double(v.size());
    }

    // One minibatch: gradients, then an Adam step on what it touched.
    double step(const std::vector<Sample>& data, const std::uint32_t* idx, std::size_t n, double scale, double lr) {
        std::vector<float> acc(2 * h_);
        double total = 0;
        for (std::size_t t = 0; t < n; ++t) {
            const Sample& x = data[idx[t]];
            const double cp = forward(x, acc.data());
            const double p = sigmoid(cp / scale), y = target(x, scale);
            total += (p - y) * (p - y);
            const float g = float(2 * (p - y) * p * (1 - p) * OUT_SCALE / scale / double(n));  // dL/d(output)
            float* gv = &gv_[std::size_t(x.bucket) * 2 * h_];
            const float* v = &v_[std::size_t(x.bucket) * 2 * h_];
            gc_[x.bucket] += g;
            for (int k = 0; k < 2; ++k) {
                const float* a = acc.data() + k * h_;
                float da[MAX_HIDDEN];
                for (std::size_t j = 0; j < h_; ++j) {
                    const bool live = a[j] > 0.f && a[j] < 1.f;
                    gv[k * h_ + j] += g * std::clamp(a[j], 0.f, 1.f);
                    da[j] = live ? g * v[k * h_ + j] : 0.f;
                    gb_[j] += da[j];
                }
                for (int i = 0; i < x.n[k]; ++i)
                    for (std::uint32_t row : {std::uint32_t(x.f[k][i]), std::uint32_t(ni_ + x.f[k][i] % nf_)}) {
                        float* gr = &gw_[std::size_t(row) * h_];
                        for (std::size_t j = 0; j < h_; ++j) gr[j] += da[j];
                        if (!touched_[row]) touched_[row] = 1, rows_.push_back(row);
                    }
            }
        }
        ++t_;
        const double c1 = 1 - std::pow(B1, double(t_)), c2 = 1 - std::pow(B2, double(t_));
        const float a = float(lr * std::sqrt(c2) / c1);
        for (std::uint32_t row : rows_) {
            adam(&w_[std::size_t(row) * h_], &gw_[std::size_t(row) * h_], &mw_[std::size_t(row) * h_],
                 &sw_[std::size_t(row) * h_], h_, a, FT_CLIP);
            touched_[row] = 0;
        }
        rows_.clear();
        adam(b_.data(), gb_.data(), mb_.data(), sb_.data(), b_.size(), a, FT_CLIP);
        adam(v_.data(), gv_.data(), mv_.data(), sv_.data(), v_.size(), a, OUT_CLIP);
        adam(c_.data(), gc_.data(), mc_.data(), sc_.data(), c_.size(), a, 1e9f);
        return total;
    }

    Network quantise(const std::string& description) const {
        Network net(s_);
        net.description = description;
        auto q = [](double x, double scale) {
            return std::int16_t(std::clamp<long>(std::lround(x * scale), -32767, 32767));
        };
        for (int f = 0; f < ni_; ++f)
            for (std::size_t j = 0; j < h_; ++j)
                net.ft_weights[std::size_t(f) * h_ + j] =
                    q(w_[std::size_t(f) * h_ + j] + w_[std::size_t(ni_ + f % nf_) * h_ + j], QA);
        for (std::size_t j = 0; j < h_; ++j) net.ft_bias[j] = q(b_[j], QA);
        for (std::size_t j = 0; j < v_.size(); ++j) net.out_weights[j] = q(v_[j], QB);
        for (std::size_t k = 0; k < c_.size(); ++k) net.out_bias[k] = std::int32_t(std::lround(c_[k] * QA * QB));
        return net;
    }

private:
    static constexpr double B1 = 0.9, B2 = 0.999;
    static constexpr float FT_CLIP = 1.9f;  // two rows per feature, 32 features: the int16 sums cannot wrap
    static constexpr float OUT_CLIP = 8.f;

    static void adam(float* w, float* g, float* m, float* s, std::size_t n, float a, float clip) {
        for (std::size_t j = 0; j < n; ++j) {
            m[j] = float(B1) * m[j] + float(1 - B1) * g[j];
            s[j] = float(B2) * s[j] + float(1 - B2) * g[j] * g[j];
            w[j] = std::clamp(w[j] - a * m[j] / (std::sqrt(s[j]) + 1e-8f), -clip, clip);
            g[j] = 0;
        }
    }

    Shape s_;
    const TrainOptions& o_;
    std::size_t h_;
    int ni_, nf_ = 0;
    std::vector<float> w_, b_, v_, c_;
    std::vector<float> gw_, mw_, sw_, gb_, mb_, sb_, gv_, mv_, sv_, gc_, mc_, sc_;
    std::vector<char> touched_;
    std::vector<std::uint32_t> rows_;
    long t_ = 0;
};

// Mean |quantised - float| in cp on up to 10,000 held-out positions.
template <class F>
double quantisation_error(const Network& net, const std::vector<Sample>& v, F float_eval) {
    // The quantised network evaluated from the same features (the engine's
    // kernels; the features were computed by the engine's own code).
    double e = 0;
    std::size_t n = std::min<std::size_t>(v.size(), 10000);
    alignas(32) std::int16_t acc[2][MAX_HIDDEN];
    for (std::size_t i = 0; i < n; ++i) {
        const Sample& x = v[i];
        const int h = net.shape.hidden;
        for (int k = 0; k < 2; ++k) {
            std::copy(net.ft_bias.get(), net.ft_bias.get() + h, acc[k]);
            for (int f = 0; f < x.n[k]; ++f)
                for (int j = 0; j < h; ++j)
                    acc[k][j] = std::int16_t(acc[k][j] + net.ft_weights[std::size_t(x.f[k][f]) * std::size_t(h) + j]);
        }
        std::int64_t y = net.out_bias[x.bucket];
        for (int j = 0; j < h; ++j) {
            y += std::int64_t(std::clamp<int>(acc[0][j], 0, QA)) * net.out_weights[x.bucket * 2 * h + j];
            y += std::int64_t(std::clamp<int>(acc[1][j], 0, QA)) * net.out_weights[x.bucket * 2 * h + h + j];
        }
        e += std::abs(double(y * OUT_SCALE / (QA * QB)) - float_eval(x));
    }
    return n ? e / double(n) : 0;
}

}  // namespace

int train(const TrainOptions& o, std::ostream& log) {
    Shape shape;
    shape.variant = o.variant;
    shape.boards = variant_info(o.variant).boards;
    shape.hidden = o.hidden;
    shape.output_buckets = o.output_buckets;
    if (o.king_buckets == 1)
        shape.kings = KingBuckets::One;
    else if (o.king_buckets == 2)
        shape.kings = KingBuckets::HomeRanks;
    else if (o.king_buckets == 4)
        shape.kings = KingBuckets::Four;
    else {
        log << "nnue-train: --king-buckets: 1, 2 or 4, not " << o.king_buckets << '\n';
        return 2;
    }
    try {
        Network check(shape);
    } catch (const NnueError& e) {
        log << "nnue-train: " << e.what() << '\n';
        return 2;
    }
    if (o.epochs < 1 || o.batch < 1 || !(o.lr > 0) || !(o.lambda >= 0 && o.lambda <= 1) || o.validation < 0) {
        log << "nnue-train: --epochs and --batch at least 1, --lr above 0, --lambda from 0 to 1\n";
        return 2;
    }
    if (o.out.empty()) {
        log << "nnue-train: --out: no file name\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    Position::init();
    Data d;
    if (!read_data(o, shape, d, log)) return 2;
    const double scale = fit_scale(d.train);
    char line[256];
    std::snprintf(line, sizeof line,
                  "nnue-train: %zu training and %zu held-out positions, %d inputs x %d hidden, scale S = %.1f cp "
                  "(%.1f s)\n",
                  d.train.size(), d.valid.size(), shape.inputs(), shape.hidden, scale, secs());
    log << line;

    double hand = 0, net = 0;
    for (const Sample& x : d.valid) {
        const double y = o.lambda * sigmoid(x.score / scale) + (1 - o.lambda) * x.result;
        hand += std::pow(sigmoid(x.hand / scale) - y, 2);
        net += std::pow(sigmoid(x.net / scale) - y, 2);
    }
    const double held_out = d.valid.empty() ? 1.0 : double(d.valid.size());
    std::snprintf(line, sizeof line, "nnue-train: the hand-written evaluation's held-out loss: %.6f\n",
                  hand / held_out);
    log << line;
    // A game that plays with a network: the one to beat is that network.
    if (nnue::adopted(o.variant)) {
        std::snprintf(line, sizeof line, "nnue-train: the built-in network's held-out loss: %.6f\n", net / held_out);
        log << line;
    }

    Trainer t(shape, o);
    std::vector<std::uint32_t> order(d.train.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::uint32_t(i);
    Prng rng{o.seed * 0x9E3779B97F4A7C15ULL | 1};
    std::string best;
    double best_loss = 1e9, qerr = 0;
    int best_epoch = 0;
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.rand64() % i]);
        const double lr = epoch > o.epochs * 7 / 10 ? o.lr / 10 : o.lr;
        double sum = 0;
        for (std::size_t i = 0; i < order.size(); i += std::size_t(o.batch))
            sum += t.step(d.train, &order[i], std::min<std::size_t>(std::size_t(o.batch), order.size() - i), scale, lr);
        const double valid = t.loss(d.valid, scale);
        std::snprintf(line, sizeof line, "epoch %2d  lr %.5f  train %.6f  validation %.6f  (%.0f s)\n", epoch, lr,
                      sum / double(order.size()), valid, secs());
        log << line << std::flush;
        // The epoch with the lowest held-out loss is the one written (the
        // last one without a held-out set).
        if (d.valid.empty() || valid < best_loss) {
            best_loss = valid, best_epoch = epoch;
            char text[512];
            std::snprintf(text, sizeof text,
                          "echecs %s network: %zu positions of %s, epoch %d of %d, batch %d, lr %g, lambda %g, seed "
                          "%llu, S %.1f, validation loss %.6f",
                          std::string(variant_name(o.variant)).c_str(), d.train.size(),
                          std::filesystem::path(o.data).filename().string().c_str(), epoch, o.epochs, o.batch, o.lr,
                          o.lambda, (unsigned long long)o.seed, scale, valid);
            const Network net = t.quantise(text);
            std::vector<float> acc(2 * std::size_t(shape.hidden));
            qerr = quantisation_error(net, d.valid.empty() ? d.train : d.valid,
                                      [&](const Sample& x) { return t.forward(x, acc.data()); });
            best = save(net);
        }
    }
    try {
        std::ofstream f(o.out, std::ios::binary | std::ios::trunc);
        f.write(best.data(), std::streamsize(best.size()));
        f.close();
        if (!f) throw NnueError(o.out + ": cannot write the network file");
    } catch (const NnueError& e) {
        log << "nnue-train: " << e.what() << '\n';
        return 2;
    }
    std::snprintf(line, sizeof line,
                  "nnue-train: wrote %s (%zu bytes, epoch %d); quantised vs float: %.2f cp mean (%.0f s)\n",
                  o.out.c_str(), best.size(), best_epoch, qerr, secs());
    log << line;
    return 0;
}

namespace {

constexpr const char* TRAIN_USAGE =
    "usage: echecs nnue-train --variant chess|alice|avalanche --data FILE --out FILE\n"
    "                         [--hidden 128] [--king-buckets 2] [--output-buckets 4] [--epochs 20]\n"
    "                         [--batch 256] [--lr 0.001] [--lambda 0.75] [--validation 10] [--limit 0]\n"
    "                         [--seed 1]\n"
    "Trains the game's network on `echecs selfplay` positions (FEN, result, score) and writes it.\n";

}  // namespace

int train_main(const std::vector<std::string>& args, std::ostream& log) {
    TrainOptions o;
    bool have_variant = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            log << TRAIN_USAGE;
            return 0;
        }
        if (i + 1 >= args.size()) {
            log << "nnue-train: " << a << ": unknown option or missing value\n" << TRAIN_USAGE;
            return 2;
        }
        const std::string& v = args[++i];
        try {
            std::size_t used = 0;
            auto whole = [&](auto x) {
                if (used != v.size()) throw std::invalid_argument(v);
                return x;
            };
            if (a == "--variant") {
                const auto game = variant_from_name(v);
                if (!game) throw std::invalid_argument(v);
                o.variant = *game;
                have_variant = true;
            } else if (a == "--data") {
                o.data = v;
            } else if (a == "--out") {
                o.out = v;
            } else if (a == "--hidden") {
                o.hidden = whole(std::stoi(v, &used));
            } else if (a == "--king-buckets") {
                o.king_buckets = whole(std::stoi(v, &used));
            } else if (a == "--output-buckets") {
                o.output_buckets = whole(std::stoi(v, &used));
            } else if (a == "--epochs") {
                o.epochs = whole(std::stoi(v, &used));
            } else if (a == "--batch") {
                o.batch = whole(std::stoi(v, &used));
            } else if (a == "--lr") {
                o.lr = whole(std::stod(v, &used));
            } else if (a == "--lambda") {
                o.lambda = whole(std::stod(v, &used));
            } else if (a == "--validation") {
                o.validation = whole(std::stoi(v, &used));
            } else if (a == "--limit") {
                o.limit = whole(std::size_t(std::stoull(v, &used)));
            } else if (a == "--seed") {
                o.seed = whole(std::uint64_t(std::stoull(v, &used)));
            } else {
                log << "nnue-train: unknown option '" << a << "'\n" << TRAIN_USAGE;
                return 2;
            }
        } catch (const std::exception&) {
            log << "nnue-train: " << a << ": bad value '" << v << "'\n";
            return 2;
        }
    }
    if (!have_variant || o.data.empty() || o.out.empty()) {
        log << "nnue-train: --variant, --data and --out are required\n" << TRAIN_USAGE;
        return 2;
    }
    return train(o, log);
}

}  // namespace echecs::engine::nnue

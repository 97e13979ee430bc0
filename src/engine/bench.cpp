// `echecs bench`: a fixed set of positions from the three games searched to
// a fixed depth. The total node count is a signature of the search's
// behaviour (any change to it alters the count); nodes per second measure speed.
#include "bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>
#include <thread>

#include "core/game.h"
#include "entry.h"
#include "protocol_util.h"
#include "search.h"

namespace echecs {

using namespace engine;

namespace {

struct BenchPosition {
    Variant variant;
    const char* fen;
    int depth;  // at the default depth; scaled by the depth argument
};

constexpr BenchPosition POSITIONS[] = {
    {Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 13},
    {Variant::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10", 9},
    {Variant::Chess, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 9},
    {Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 13},
    {Variant::Chess, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8", 10},
    {Variant::Alice, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 9},
    {Variant::Alice, "rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3", 9},
    {Variant::Alice, "3u2Rl/2O1o3/4S2s/p1N5/S2SB3/6SU/1PP4P/6L1 w - - 9 44", 11},
    {Variant::Avalanche, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
    {Variant::Avalanche, "rnbqkbnr/pppp1ppp/8/4p3/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2", 6},
    {Variant::Avalanche, "7k/5r1p/2q4P/4b3/5N2/8/3n2R1/7K b - - 2 37", 9},
};

// How long `stop` takes to end an infinite search in each game (ms).
int stop_latency(std::ostream& out) {
    for (const VariantInfo& g : VARIANTS) {
        const Variant v = g.variant;
        std::int64_t worst = 0;
        for (int i = 0; i < 5; ++i) {
            auto game = std::make_unique<Game>(v, Position::START_FEN);
            TranspositionTable tt(16);
            Searcher searcher(tt);
            std::atomic<bool> stop{false};
            Limits limits;
            limits.infinite = true;
            std::chrono::steady_clock::time_point stopped_at;
            std::thread t([&] { searcher.run(game->position(), limits, SearchOptions{}, &stop, nullptr); });
            std::this_thread::sleep_for(std::chrono::milliseconds(200 + 50 * i));
            stopped_at = std::chrono::steady_clock::now();
            stop = true;
            t.join();
            worst = std::max(worst, elapsed_ms(stopped_at));
        }
        out << "stop latency " << variant_name(v) << ": worst of 5 = " << worst << " ms\n";
    }
    return 0;
}

struct Run {
    std::uint64_t nodes = 0;
    std::int64_t us = 0;
};

Run search_position(const BenchPosition& p, int delta, int threads) {
    auto game = std::make_unique<Game>(p.variant, p.fen);
    TranspositionTable tt(16);
    Searcher searcher(tt);
    searcher.set_threads(threads);
    Limits limits;
    limits.depth = std::max(1, p.depth + delta);
    const auto start = std::chrono::steady_clock::now();
    const SearchResult r = searcher.run(game->position(), limits, SearchOptions{}, nullptr, nullptr);
    return {r.nodes, elapsed_us(start)};
}

// `echecs bench threads [N [DEPTH_DELTA]]`: every position to its depth at one
// thread, then at N, side by side (the same machine load for both): time to
// depth, nodes and nodes per second, and the ratios.
int threads_bench(int threads, int delta, std::ostream& out) {
    Run one_total, n_total;
    double speedup_product = 1;
    int i = 0;
    out << "position | depth | 1 thread: ms nodes | " << threads << " threads: ms nodes | time ratio | nps ratio\n";
    for (const BenchPosition& p : POSITIONS) {
        const Run one = search_position(p, delta, 1), n = search_position(p, delta, threads);
        one_total.nodes += one.nodes, one_total.us += one.us;
        n_total.nodes += n.nodes, n_total.us += n.us;
        const double time_ratio = double(one.us) / double(std::max<std::int64_t>(1, n.us));
        const double nps_ratio = (double(n.nodes) / double(std::max<std::int64_t>(1, n.us))) /
                                 (double(one.nodes) / double(std::max<std::int64_t>(1, one.us)));
        speedup_product *= time_ratio;
        ++i;
        out << i << " " << variant_name(p.variant) << " | " << std::max(1, p.depth + delta) << " | " << one.us / 1000
            << " " << one.nodes << " | " << n.us / 1000 << " " << n.nodes << " | " << time_ratio << " | " << nps_ratio
            << "\n";
    }
    const auto nps = [](const Run& r) { return r.nodes * 1000000 / std::uint64_t(std::max<std::int64_t>(1, r.us)); };
    out << "total: 1 thread " << one_total.us / 1000 << " ms " << nps(one_total) << " nps; " << threads << " threads "
        << n_total.us / 1000 << " ms " << nps(n_total) << " nps\n";
    out << "time-to-depth speed-up: total " << double(one_total.us) / double(std::max<std::int64_t>(1, n_total.us))
        << ", geometric mean " << std::pow(speedup_product, 1.0 / i) << "; nps ratio "
        << double(nps(n_total)) / double(std::max<std::uint64_t>(1, nps(one_total))) << "\n";
    return 0;
}

}  // namespace

namespace engine {
std::uint64_t bench_signature_nodes() {
    std::uint64_t total = 0;
    for (const BenchPosition& p : POSITIONS) total += search_position(p, 0, 1).nodes;
    return total;
}
}  // namespace engine

int bench_main(const std::vector<std::string>& args, std::ostream& out) {
    int delta = 0;  // depth added to every position's default
    auto small = [](const std::string& s, int lo, int hi) -> std::optional<int> {
        auto v = parse_int(s);
        if (!v || *v < lo || *v > hi) return std::nullopt;
        return int(*v);
    };
    if (!args.empty() && args[0] == "stop") return stop_latency(out);
    if (!args.empty() && args[0] == "threads") {
        const auto n = args.size() > 1 ? small(args[1], 1, MAX_SEARCH_THREADS) : std::optional<int>(2);
        const auto d = args.size() > 2 ? small(args[2], -5, 5) : std::optional<int>(0);
        if (!n || !d || args.size() > 3) {
            out << "usage: echecs bench threads [THREADS (1..64) [DEPTH_DELTA (-5..5)]]\n";
            return 2;
        }
        return threads_bench(*n, *d, out);
    }
    if (!args.empty()) {
        auto v = small(args[0], -5, 5);
        if (!v || args.size() > 1) {
            out << "usage: echecs bench [DEPTH_DELTA (-5..5)] | echecs bench stop | echecs bench threads [N [DELTA]]\n";
            return 2;
        }
        delta = *v;
    }
    std::uint64_t total = 0;
    std::int64_t total_ms = 0;
    int i = 0;
    for (const BenchPosition& p : POSITIONS) {
        const Run r = search_position(p, delta, 1);
        total += r.nodes;
        total_ms += r.us / 1000;
        out << "position " << ++i << "/" << std::size(POSITIONS) << " " << variant_name(p.variant) << " depth "
            << std::max(1, p.depth + delta) << ": nodes " << r.nodes << " time " << r.us / 1000 << " ms\n";
    }
    out << "\n===========================\n";
    out << "Total time (ms) : " << total_ms << "\n";
    out << "Nodes searched  : " << total << "\n";
    out << "Nodes/second    : " << total * 1000 / std::uint64_t(std::max<std::int64_t>(1, total_ms)) << "\n";
    if (delta == 0)
        out << "Signature       : " << (total == BENCH_SIGNATURE ? "as committed" : "CHANGED")
            << " (bench.h: " << BENCH_SIGNATURE << ")\n";
    return 0;
}

}  // namespace echecs

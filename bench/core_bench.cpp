// Google Benchmark of the rules core: perft (nodes/s, counter "nodes") and
// raw legal move generation, side by side for the three games.
#include <benchmark/benchmark.h>

#include "core/movegen.h"

using namespace echecs;

namespace {

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

void perft_bench(benchmark::State& state, Variant v, const char* fen, int depth) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        nodes = perft(pos, depth);
        benchmark::DoNotOptimize(nodes);
    }
    state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

void movegen_bench(benchmark::State& state, Variant v, const char* fen) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    MoveList list;
    for (auto _ : state) {
        generate_legal(pos, list);
        benchmark::DoNotOptimize(list.count);
    }
    state.counters["moves"] = list.count;
}

}  // namespace

BENCHMARK_CAPTURE(perft_bench, chess_start_d5, Variant::Chess, kStart, 5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perft_bench, chess_kiwipete_d4, Variant::Chess, kKiwipete, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perft_bench, alice_start_d5, Variant::Alice, kStart, 5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perft_bench, avalanche_start_d3, Variant::Avalanche, kStart, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(movegen_bench, chess_kiwipete, Variant::Chess, kKiwipete);
BENCHMARK_CAPTURE(movegen_bench, alice_start, Variant::Alice, kStart);
BENCHMARK_CAPTURE(movegen_bench, avalanche_start, Variant::Avalanche, kStart);

BENCHMARK_MAIN();

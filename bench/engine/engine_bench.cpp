// Google Benchmark: evaluation, move generation + ordering, and fixed-depth
// searches from the start position of each game.
#include <benchmark/benchmark.h>

#include "core/movegen.h"
#include "engine/evaluate.h"
#include "engine/search.h"

namespace {

using namespace echecs;

constexpr const char* MIDGAME[3] = {
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3",
    "rnbqkbnr/pppp1ppp/8/4p3/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2",
};

void BM_Evaluate(benchmark::State& state) {
    const Variant v = Variant(state.range(0));
    StateInfo st;
    Position pos;
    pos.set(v, MIDGAME[state.range(0)], st);
    for (auto _ : state) benchmark::DoNotOptimize(engine::evaluate(pos));
    state.SetLabel(std::string(variant_name(v)));
}
BENCHMARK(BM_Evaluate)->Arg(0)->Arg(1)->Arg(2);

void BM_SearchStartPosition(benchmark::State& state) {
    const Variant v = Variant(state.range(0));
    const int depth = int(state.range(1));
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        StateInfo st;
        Position pos;
        pos.set(v, Position::START_FEN, st);
        engine::TranspositionTable tt(16);
        engine::Searcher searcher(tt);
        engine::Limits limits;
        limits.depth = depth;
        nodes += searcher.run(pos, limits, engine::SearchOptions{}, nullptr, nullptr).nodes;
    }
    state.counters["nps"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
    state.SetLabel(std::string(variant_name(v)));
}
BENCHMARK(BM_SearchStartPosition)->Args({0, 10})->Args({1, 9})->Args({2, 5})->Unit(benchmark::kMillisecond);

}  // namespace

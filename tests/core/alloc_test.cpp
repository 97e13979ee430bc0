// Move generation, make and unmake never allocate: count every operator new
// while perft runs in each game.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "helpers.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

[[gnu::noinline]] void* operator new(std::size_t n) {
    if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
// None of the three inlined: inlined into a `new` expression's caller, the
// malloc() and free() look to GCC's -Wmismatched-new-delete like the wrong
// release of operator new's memory (at -O1 for delete, at -O3 for new).
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace echecs::test {
namespace {

TEST(Allocation, PerftAllocatesNothingInAnyGame) {
    const std::pair<Variant, const char*> cases[] = {
        {Variant::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
        {Variant::Alice, "r1b1kb1r/p1t5/2sss1s1/1p2Ss2/Sn2n2P/O1SS3S/1PR1CP2/R1BQK1N1 w Qkq f6 0 16"},
        {Variant::Avalanche, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        {Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1"},
    };
    for (const auto& [v, fen] : cases) {
        Pos p(v, fen);
        allocations = 0;
        counting = true;
        const std::uint64_t n = perft(p.pos, 3);
        counting = false;
        EXPECT_GT(n, 0u);
        EXPECT_EQ(allocations.load(), 0) << variant_name(v) << ' ' << fen;
    }
    // The counter does count: a vector allocates.
    counting = true;
    { std::vector<int> v(10); }
    counting = false;
    EXPECT_GT(allocations.load(), 0);
}

}  // namespace
}  // namespace echecs::test

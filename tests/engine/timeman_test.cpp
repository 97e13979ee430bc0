// Time allocation and the transposition table's mate-score handling.
#include "engine/timeman.h"

#include <gtest/gtest.h>

#include "engine/tt.h"

namespace echecs::test {
namespace {

using namespace engine;

TEST(TimeManagement, BudgetStaysWithinTheClock) {
    for (std::int64_t t : {50, 300, 1000, 10000, 60000, 600000})
        for (std::int64_t inc : {0, 100, 2000})
            for (int mtg : {0, 1, 5, 40}) {
                Limits l;
                l.time[WHITE] = t, l.time[BLACK] = t;
                l.inc[WHITE] = l.inc[BLACK] = inc;
                l.movestogo = mtg;
                const TimeBudget b = allocate_time(l, WHITE);
                EXPECT_GT(b.soft, 0);
                EXPECT_LE(b.soft, b.hard);
                EXPECT_LT(b.hard, std::max<std::int64_t>(t, 2)) << t << " " << inc << " " << mtg;
            }
}

TEST(TimeManagement, MovetimeInfiniteAndDepthOnly) {
    Limits l;
    l.movetime = 1000;
    TimeBudget b = allocate_time(l, BLACK);
    EXPECT_EQ(b.soft, b.hard);
    EXPECT_LE(b.hard, 1000);
    EXPECT_GE(b.hard, 950);
    Limits inf;
    inf.infinite = true;
    inf.time[WHITE] = 1000;
    EXPECT_EQ(allocate_time(inf, WHITE).hard, 0);
    Limits depth;
    depth.depth = 5;
    EXPECT_EQ(allocate_time(depth, WHITE).hard, 0);
}

TEST(TranspositionTable, StoresProbesAndKeepsMateDistanceRelative) {
    TranspositionTable tt(1);
    const Key k = 0x123456789ABCDEFULL;
    TTEntry probe;
    EXPECT_FALSE(tt.probe(k, probe));
    // A mate in 3 plies seen from ply 5 is stored as mate in 3 from the node.
    tt.store(k, value_to_tt(mate_in(8), 5), BOUND_EXACT, 7, Move(SQ_E2, SQ_E4));
    ASSERT_TRUE(tt.probe(k, probe));
    const TTEntry* e = &probe;
    EXPECT_EQ(e->best_move(), Move(SQ_E2, SQ_E4));
    EXPECT_EQ(e->depth, 7);
    EXPECT_EQ(e->bound(), BOUND_EXACT);
    // Probed again from ply 1, it is mate at ply 4.
    EXPECT_EQ(value_from_tt(e->value, 1), mate_in(4));
    EXPECT_EQ(value_from_tt(value_to_tt(-123, 9), 2), -123);
    tt.clear();
    EXPECT_FALSE(tt.probe(k, probe));
}

}  // namespace
}  // namespace echecs::test

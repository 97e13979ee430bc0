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

TEST(TimeManagement, BulletClocksStillGiveTimeToThink) {
    // Under a second, with and without increment: a budget of whole
    // milliseconds that grows with the clock, never the whole clock.
    std::int64_t last_soft = 0;
    for (std::int64_t t : {20, 50, 100, 200, 500, 1000}) {
        Limits l;
        l.time[WHITE] = l.time[BLACK] = t;
        const TimeBudget b = allocate_time(l, WHITE);
        EXPECT_GE(b.soft, 1) << t;
        EXPECT_GE(b.hard, b.soft) << t;
        EXPECT_LT(b.hard, t / 2) << t;
        EXPECT_GE(b.soft, last_soft) << t;
        last_soft = b.soft;
        // 1s+0.01s-like: the increment is spent once the clock holds it several times.
        l.inc[WHITE] = l.inc[BLACK] = 10;
        const TimeBudget bi = allocate_time(l, WHITE);
        EXPECT_GE(bi.soft, b.soft) << t;
        EXPECT_LT(bi.hard, t) << t;
    }
    Limits hundred;  // the case that used to give a 0 ms depth-1 move
    hundred.time[WHITE] = hundred.time[BLACK] = 100;
    EXPECT_GE(allocate_time(hundred, WHITE).soft, 3);
}

TEST(TimeManagement, MeasuredLagComesOutOfTheBudget) {
    Limits l;
    l.time[WHITE] = l.time[BLACK] = 1000;
    l.inc[WHITE] = l.inc[BLACK] = 10;
    const TimeBudget plain = allocate_time(l, WHITE);
    l.lag = 30;
    const TimeBudget lagged = allocate_time(l, WHITE);
    EXPECT_EQ(lagged.hard, plain.hard - 30);
    EXPECT_LT(lagged.soft, plain.soft);
    EXPECT_GE(lagged.soft, 1);
    l.lag = 100000;  // never more than half the hard limit
    EXPECT_GE(allocate_time(l, WHITE).hard, plain.hard / 2);
}

TEST(TimeManagement, MovetimeInfiniteAndDepthOnly) {
    Limits l;
    l.movetime = 1000;
    TimeBudget b = allocate_time(l, BLACK);
    EXPECT_EQ(b.soft, b.hard);
    EXPECT_TRUE(b.exact);  // all of it: no early stop between iterations
    EXPECT_EQ(b.hard, 1000 - MOVETIME_RESERVE);
    l.movetime = 10;
    EXPECT_EQ(allocate_time(l, WHITE).hard, 10 - MOVETIME_RESERVE);
    Limits inf;
    inf.infinite = true;
    inf.time[WHITE] = 1000;
    EXPECT_EQ(allocate_time(inf, WHITE).hard, 0);
    Limits depth;
    depth.depth = 5;
    EXPECT_EQ(allocate_time(depth, WHITE).hard, 0);
}

TEST(TimeManagement, AnUnsettledSearchGetsMoreTimeThanASettledOne) {
    const SearchTrend quiet{};  // the best move kept, the score steady
    EXPECT_DOUBLE_EQ(soft_scale(quiet), 1.0);
    SearchTrend changing = quiet;
    changing.best_changes = 1.5;
    SearchTrend falling = quiet;
    falling.score_drop = 60;
    SearchTrend rising = quiet;
    rising.score_drop = -60;
    SearchTrend settled = quiet;
    settled.stable = 8;
    EXPECT_GT(soft_scale(changing), soft_scale(quiet));
    EXPECT_GT(soft_scale(falling), soft_scale(quiet));
    EXPECT_LT(soft_scale(rising), soft_scale(quiet));
    EXPECT_LT(soft_scale(settled), soft_scale(quiet));
    // Bounded both ways, however wild the search.
    SearchTrend wild{9.0, 5000, 0};
    SearchTrend calm{0.0, -5000, 40};
    EXPECT_LE(soft_scale(wild), 2.5);
    EXPECT_GE(soft_scale(calm), 0.5);
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

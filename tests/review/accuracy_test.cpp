// Accuracy (server/review/accuracy.h) on examples worked out by hand from
// the formulas (docs/ANALYSIS.md "Accuracy").
#include "server/review/accuracy.h"

#include <gtest/gtest.h>

using namespace echecs;
using namespace echecs::review;

TEST(Accuracy, WinPercentFromCentipawnsMatesAndEnds) {
    EXPECT_DOUBLE_EQ(win_percent(0, std::nullopt, 0.5), 50);
    // 50 + 50 (2 / (1 + e^-0.368208) - 1) = 50 + 50 * 0.182052
    EXPECT_NEAR(win_percent(100, std::nullopt, 0.5), 59.1026, 1e-4);
    EXPECT_NEAR(win_percent(-300, std::nullopt, 0.5), 24.8874, 1e-4);
    // beyond 1000 cp and mates: the value at 1000 cp
    EXPECT_NEAR(win_percent(5000, std::nullopt, 0.5), 97.5447, 1e-4);
    EXPECT_NEAR(win_percent(std::nullopt, 3, 0.5), 97.5447, 1e-4);
    EXPECT_NEAR(win_percent(std::nullopt, -1, 0.5), 100 - 97.5447, 1e-4);
    // the game is over: the result
    EXPECT_DOUBLE_EQ(win_percent(std::nullopt, std::nullopt, 1.0), 100);
    EXPECT_DOUBLE_EQ(win_percent(std::nullopt, std::nullopt, 0.5), 50);
}

TEST(Accuracy, AMoveLosesAccuracyWithTheWinPercentItGivesAway) {
    EXPECT_DOUBLE_EQ(move_accuracy(50, 50), 100);
    EXPECT_DOUBLE_EQ(move_accuracy(40, 70), 100);  // a gain is perfect
    // 103.1668 e^(-0.043544 * 10) - 3.1669 + 1 = 103.1668 * 0.647000 - 2.1669
    EXPECT_NEAR(move_accuracy(60, 50), 64.5798, 1e-4);
    EXPECT_NEAR(move_accuracy(50, 20), 25.7720, 1e-4);
    EXPECT_DOUBLE_EQ(move_accuracy(100, 0), 0);            // never below 0
    EXPECT_DOUBLE_EQ(move_accuracy(50.0, 49.99999), 100);  // +1 allowance, capped at 100
}

// Six positions (five moves, White first); windows of 2 positions:
// standard deviations 0, 5, 0, 15, 0 -> weights 0.5, 5, 0.5, 12, 0.5.
// White never loses win%: 100. Black: 64.5798 (weight 5) and 100 (weight
// 12): weighted mean (322.899 + 1200) / 17 = 89.5823, harmonic mean
// 2 / (1/64.5798 + 1/100) = 78.4784, accuracy (89.5823 + 78.4784) / 2.
TEST(Accuracy, GameAccuracyIsTheMeanOfTheWeightedAndHarmonicMeans) {
    const GameAccuracy a = game_accuracy({50, 50, 60, 60, 30, 30}, WHITE);
    ASSERT_TRUE(a.white && a.black);
    EXPECT_DOUBLE_EQ(*a.white, 100);
    EXPECT_NEAR(*a.black, 84.0304, 1e-4);
    // Black moved first (a position with Black to move): the roles swap.
    const GameAccuracy b = game_accuracy({50, 50, 60, 60, 30, 30}, BLACK);
    ASSERT_TRUE(b.white && b.black);
    EXPECT_NEAR(*b.black, 100 - 0, 1e-9);  // Black's moves: 50->50, 60->60, 30->30 (White's view)
    EXPECT_LT(*b.white, 100);
}

TEST(Accuracy, ASideWithoutAMoveHasNone) {
    const GameAccuracy a = game_accuracy({50, 40}, WHITE);
    ASSERT_TRUE(a.white);
    EXPECT_FALSE(a.black);
    EXPECT_NEAR(*a.white, move_accuracy(50, 40), 1e-9);
    EXPECT_FALSE(game_accuracy({50}, WHITE).white);
}

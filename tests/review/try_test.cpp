// "Learn from your mistakes": the verdict on a move tried instead of the one
// played (review::judge_try), against the review's evaluation before it.
#include <gtest/gtest.h>

#include "server/review/game_review.h"

using namespace echecs;
using namespace echecs::review;

namespace {
Evaluation eval(double white_expected, std::vector<std::string> best = {}) {
    Evaluation e;
    e.white_expected = white_expected;
    e.best_line = std::move(best);
    return e;
}
}  // namespace

TEST(LearnFromMistakes, TheVerdictComesFromTheLossAndTheReviewsThresholds) {
    const Evaluation before = eval(0.60, {"e2e4", "e7e5"});
    // The engine's own move.
    EXPECT_EQ(judge_try(Variant::Chess, WHITE, before, "e2e4", eval(0.55)).verdict, "best");
    // Loses 0.02 (< 0.05, an inaccuracy): as good as the engine's.
    const TryVerdict good = judge_try(Variant::Chess, WHITE, before, "d2d4", eval(0.58));
    EXPECT_EQ(good.verdict, "good");
    EXPECT_NEAR(good.loss, 0.02, 1e-12);
    EXPECT_EQ(judge_try(Variant::Chess, WHITE, before, "g2g4", eval(0.53)).verdict, "inaccuracy");
    EXPECT_EQ(judge_try(Variant::Chess, WHITE, before, "g2g4", eval(0.48)).verdict, "mistake");
    EXPECT_EQ(judge_try(Variant::Chess, WHITE, before, "g2g4", eval(0.40)).verdict, "blunder");
    // Black's view: White's 0.60 -> 0.72 is a loss of 0.12 for Black.
    const TryVerdict black = judge_try(Variant::Avalanche, BLACK, eval(0.60), "e7e5,d2d3", eval(0.72));
    EXPECT_EQ(black.verdict, "mistake");
    EXPECT_NEAR(black.loss, 0.12, 1e-12);
    // A gain is good, never a negative loss.
    EXPECT_EQ(judge_try(Variant::Alice, BLACK, eval(0.60), "e7e5", eval(0.30)).loss, 0);
}

TEST(LearnFromMistakes, APositionIsEvaluatedWithTheReviewsBudget) {
    // After 1.f3 e5 2.g4 Black mates in one: the engine sees it.
    const Evaluation e = evaluate_position(Variant::Chess, "", {"f2f3", "e7e5", "g2g4"}, 20'000);
    ASSERT_TRUE(e.mate);
    EXPECT_LT(*e.mate, 0);
    EXPECT_LT(e.white_expected, 0.05);
    EXPECT_EQ(e.best_san, "Qh4#");
    // The game over: its result, no search.
    EXPECT_EQ(evaluate_position(Variant::Chess, "", {"f2f3", "e7e5", "g2g4", "d8h4"}, 20'000).white_expected, 0.0);
    EXPECT_THROW(evaluate_position(Variant::Chess, "", {"e2e5"}, 20'000), std::invalid_argument);
}

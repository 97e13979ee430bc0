// Accounts' puzzle ratings (puzzle_ratings.h) against Glicko-2 computed
// here: the first finished attempt at a puzzle rated from the stored
// rating, a second one not; the deviation grown by the days since the last
// rated puzzle; the standing the next puzzle is chosen by; every game in
// the profile's `puzzle_ratings`.
#include "server/accounts/puzzle_ratings.h"

#include <gtest/gtest.h>

#include "accounts_fixture.h"

using namespace echecs::server::accounts;
using echecs::server::accounts::testing::AccountsTest;

namespace {

class PuzzleRatingsTest : public AccountsTest {};

TEST_F(PuzzleRatingsTest, TheFirstFinishedAttemptAtAPuzzleIsRatedTheNextOnesNot) {
    const std::int64_t ann = sign_up("AnnLee").account_id;
    const PuzzleRated first = rate_puzzle_attempt(*accounts_, ann, {"c1", "chess", 1300, true});
    EXPECT_TRUE(first.rated);
    EXPECT_EQ(first.puzzles, 1);
    EXPECT_DOUBLE_EQ(first.before.rating, 1500);
    const Glicko expected = rate_against_puzzle(new_rating(), 0, 1300, true);
    EXPECT_DOUBLE_EQ(first.after.rating, expected.rating);
    EXPECT_DOUBLE_EQ(first.after.deviation, expected.deviation);

    // Again, failed: nothing moves.
    now_ += 60'000;
    const PuzzleRated again = rate_puzzle_attempt(*accounts_, ann, {"c1", "chess", 1300, false});
    EXPECT_FALSE(again.rated);
    EXPECT_EQ(again.puzzles, 1);
    EXPECT_DOUBLE_EQ(again.after.rating, expected.rating);
    EXPECT_DOUBLE_EQ(again.before.rating, again.after.rating);

    // 30 days later, another puzzle failed: the deviation first grows by those days.
    now_ += 30LL * 86'400'000 - 60'000;
    const PuzzleRated later = rate_puzzle_attempt(*accounts_, ann, {"c2", "chess", 1700, false});
    EXPECT_TRUE(later.rated);
    const Glicko after = rate_against_puzzle(expected, 30, 1700, false);
    EXPECT_NEAR(later.after.rating, after.rating, 1e-9);
    EXPECT_NEAR(later.after.deviation, after.deviation, 1e-9);
    EXPECT_GT(after.deviation, rate_against_puzzle(expected, 0, 1700, false).deviation);

    const PuzzleStanding s = puzzle_standing(*accounts_, ann, "chess");
    EXPECT_EQ(s.puzzles, 2);
    EXPECT_EQ(s.attempted, (std::vector<std::string>{"c1", "c2"}));
    EXPECT_NEAR(s.rating.rating, after.rating, 1e-9);
    EXPECT_TRUE(puzzle_standing(*accounts_, ann, "alice").attempted.empty());
}

TEST_F(PuzzleRatingsTest, TheProfileShowsEveryGamesPuzzleRating) {
    const std::int64_t ann = sign_up("AnnLee").account_id;
    rate_puzzle_attempt(*accounts_, ann, {"v1", "avalanche", 1500, true});
    const nlohmann::json p = accounts_->profile("annlee")["puzzle_ratings"];
    ASSERT_EQ(p.size(), 3u) << p.dump();
    EXPECT_EQ(p["chess"], nlohmann::json({{"rating", 1500}, {"rd", 500}, {"puzzles", 0}, {"provisional", true}}));
    EXPECT_GT(p["avalanche"]["rating"].get<int>(), 1500) << p.dump();
    EXPECT_EQ(p["avalanche"]["puzzles"], 1);
    EXPECT_EQ(p["alice"]["puzzles"], 0);
}

}  // namespace

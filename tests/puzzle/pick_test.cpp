// The next puzzle's candidates: the nearest to the rating, the finished ones
// skipped, all of them again once every one is finished.
#include <gtest/gtest.h>

#include <set>

#include "puzzle/puzzle_pick.h"

using namespace echecs::puzzle;

namespace {

std::vector<Puzzle> ladder(const std::vector<int>& ratings) {
    std::vector<Puzzle> out;
    for (int r : ratings) {
        Puzzle p;
        p.id = "p" + std::to_string(r);
        p.rating = r;
        out.push_back(p);
    }
    return out;
}

std::vector<int> ratings_of(const std::vector<Puzzle>& list, const std::vector<std::size_t>& picked) {
    std::vector<int> out;
    for (std::size_t k : picked) out.push_back(list[k].rating);
    return out;
}

TEST(NearestPuzzles, NearestFirstOnBothSides) {
    const auto list = ladder({800, 1000, 1250, 1390, 1420, 1600, 2000});
    EXPECT_EQ(ratings_of(list, nearest_puzzles(list, 1400, 3)), (std::vector<int>{1390, 1420, 1250}));
    EXPECT_EQ(ratings_of(list, nearest_puzzles(list, 0, 2)), (std::vector<int>{800, 1000}));
    EXPECT_EQ(ratings_of(list, nearest_puzzles(list, 4000, 2)), (std::vector<int>{2000, 1600}));
    EXPECT_EQ(nearest_puzzles(list, 1400, 100).size(), list.size());
    EXPECT_TRUE(nearest_puzzles({}, 1500, 20).empty());
}

TEST(NearestPuzzles, FinishedOnesAreSkippedUntilAllAre) {
    const auto list = ladder({800, 1000, 1250, 1390, 1420, 1600, 2000});
    std::set<std::string> done = {"p1390", "p1420"};
    auto is_done = [&](const Puzzle& p) { return done.count(p.id) > 0; };
    EXPECT_EQ(ratings_of(list, nearest_puzzles(list, 1400, 2, is_done)), (std::vector<int>{1250, 1600}));
    // Fewer left than asked for: those left.
    for (int r : {800, 1000, 1250, 1600}) done.insert("p" + std::to_string(r));
    EXPECT_EQ(ratings_of(list, nearest_puzzles(list, 1400, 3, is_done)), (std::vector<int>{2000}));
    // All finished: the nearest of all again.
    done.insert("p2000");
    EXPECT_EQ(ratings_of(list, nearest_puzzles(list, 1400, 3, is_done)), (std::vector<int>{1390, 1420, 1250}));
}

}  // namespace

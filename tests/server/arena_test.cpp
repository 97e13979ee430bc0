// Arena points (lichess's rules, as its tournament pages state them) and the
// pairing of free players, against worked examples and, for the exact
// pairing, against every matching of small random cases.
#include "server/tournament/arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace echecs::server::tournament;

namespace {

using Pairs = std::vector<std::pair<std::int64_t, std::int64_t>>;

int total(std::initializer_list<Outcome> games) {
    ArenaSheet s;
    for (Outcome o : games) s.add(o);
    return s.score();
}

TEST(ArenaPoints, TwoWinsSetTheStreakThatDoublesUntilAGameIsNotWon) {
    using enum Outcome;
    EXPECT_EQ(total({Win, Win, Draw}), 6) << "lichess's example: 2 + 2 + (2 x 1)";
    EXPECT_EQ(total({Win, Win, Win}), 8);
    EXPECT_EQ(total({Win, Win, Win, Loss, Win}), 10) << "the loss ends the streak: the next win is 2";
    EXPECT_EQ(total({Win, Win, Draw, Draw}), 7) << "the draw ends the streak too";
    EXPECT_EQ(total({Draw, Draw, Loss}), 2);
    ArenaSheet s;
    for (Outcome o : {Win, Loss, Win, Win, Win, Win}) s.add(o);
    EXPECT_EQ(s.points(), (std::vector<int>{2, 0, 2, 2, 4, 4}));
    EXPECT_TRUE(s.on_fire());
}

TEST(ArenaPoints, ABerserkWinWithSevenMovesGainsOnePointNeverDoubled) {
    using enum Outcome;
    ArenaSheet s;
    EXPECT_EQ(s.add(Win, true, 7), 3);
    EXPECT_EQ(s.add(Win, true, 6), 2) << "six moves: no berserk point";
    EXPECT_EQ(s.add(Win, true, 30), 5) << "on fire: 4, and the berserk point";
    EXPECT_EQ(s.add(Draw, true, 30), 2) << "berserk gives nothing but on a win";
    EXPECT_EQ(s.add(Loss, true, 30), 0);
    EXPECT_EQ(s.score(), 12);
}

std::set<std::int64_t> paired(const Pairs& p) {
    std::set<std::int64_t> ids;
    for (auto [a, b] : p) {
        EXPECT_TRUE(ids.insert(a).second) << a << " twice";
        EXPECT_TRUE(ids.insert(b).second) << b << " twice";
    }
    return ids;
}

Pairs sorted(Pairs p) {
    for (auto& [a, b] : p)
        if (a > b) std::swap(a, b);
    std::sort(p.begin(), p.end());
    return p;
}

TEST(ArenaPairing, NeighboursInTheStandingsAndNeverTheLastOpponentWhenAnotherIsFree) {
    EXPECT_EQ(sorted(pair_free_players({{1, 0, 0}, {2, 1, 0}, {3, 2, 0}, {4, 3, 0}})), (Pairs{{1, 2}, {3, 4}}));
    // 1 and 2 have just played each other.
    EXPECT_EQ(sorted(pair_free_players({{1, 0, 2}, {2, 1, 1}, {3, 2, 0}, {4, 3, 0}})), (Pairs{{1, 3}, {2, 4}}));
    // Only the two of them are free: an arena of two still plays.
    EXPECT_EQ(sorted(pair_free_players({{1, 0, 2}, {2, 1, 1}})), (Pairs{{1, 2}}));
    // Three: one waits, the two nearest play.
    EXPECT_EQ(sorted(pair_free_players({{1, 0, 0}, {2, 5, 0}, {3, 6, 0}})), (Pairs{{2, 3}}));
    EXPECT_TRUE(pair_free_players({{1, 0, 0}}).empty());
    EXPECT_TRUE(pair_free_players({}).empty());
}

// The cost the exact pairing minimises, after the number of pairs: the
// repeated opponents first, then the sum of squared rank differences.
std::pair<int, int> cost(const std::vector<FreePlayer>& f, const Pairs& p) {
    std::map<std::int64_t, FreePlayer> by_id;
    for (const FreePlayer& x : f) by_id[x.id] = x;
    int repeats = 0, ranks = 0;
    for (auto [a, b] : p) {
        const FreePlayer &x = by_id.at(a), &y = by_id.at(b);
        repeats += x.last_opponent == y.id || y.last_opponent == x.id;
        const int d = std::min(std::abs(x.rank - y.rank), int(f.size()));
        ranks += d * d;
    }
    return {repeats, ranks};
}

// Every matching of as many pairs as possible, by brute force.
void best(const std::vector<FreePlayer>& f, std::vector<bool>& used, Pairs& current, std::size_t& best_size,
          std::pair<int, int>& best_cost) {
    std::size_t i = 0;
    while (i < f.size() && used[i]) ++i;
    if (i == f.size() || (f.size() % 2 == 1 && std::count(used.begin(), used.end(), false) == 1)) {
        const auto c = cost(f, current);
        if (current.size() > best_size || (current.size() == best_size && c < best_cost))
            best_size = current.size(), best_cost = c;
        return;
    }
    used[i] = true;
    if (f.size() % 2 == 1) best(f, used, current, best_size, best_cost);  // i waits
    for (std::size_t j = i + 1; j < f.size(); ++j) {
        if (used[j]) continue;
        used[j] = true;
        current.emplace_back(f[i].id, f[j].id);
        best(f, used, current, best_size, best_cost);
        current.pop_back();
        used[j] = false;
    }
    used[i] = false;
}

TEST(ArenaPairing, TheExactPairingIsTheBestOfAllMatchings) {
    std::mt19937 rng(20261204);
    for (int round = 0; round < 150; ++round) {
        const int n = 2 + int(rng() % 9);  // 2..10 players
        std::vector<FreePlayer> f;
        for (int i = 0; i < n; ++i) f.push_back({i + 1, int(rng() % 12), 0});
        for (FreePlayer& x : f)  // some last opponents among the free players, both ways
            if (rng() % 2) {
                FreePlayer& y = f[rng() % f.size()];
                if (y.id != x.id && !y.last_opponent && !x.last_opponent)
                    x.last_opponent = y.id, y.last_opponent = x.id;
            }
        const Pairs got = pair_free_players(f);
        ASSERT_EQ(paired(got).size(), got.size() * 2);
        std::vector<bool> used(f.size());
        Pairs current;
        std::size_t best_size = 0;
        std::pair<int, int> best_cost{1 << 30, 1 << 30};
        best(f, used, current, best_size, best_cost);
        ASSERT_EQ(got.size(), best_size) << "round " << round;
        ASSERT_EQ(cost(f, got), best_cost) << "round " << round;
    }
}

TEST(ArenaPairing, HundredsArePairedWithNeighboursAndNoRepeatedOpponent) {
    std::vector<FreePlayer> f;
    for (int i = 0; i < 501; ++i) f.push_back({i + 1, i, 0});
    for (int i = 0; i + 1 < 501; i += 2) f[i].last_opponent = i + 2, f[i + 1].last_opponent = i + 1;
    const Pairs got = pair_free_players(f);
    EXPECT_EQ(got.size(), 250u);
    EXPECT_EQ(paired(got).size(), 500u);
    const auto [repeats, ranks] = cost(f, got);
    EXPECT_EQ(repeats, 0);
    EXPECT_LE(ranks, 4 * 250) << "each pair within two places";
}

}  // namespace

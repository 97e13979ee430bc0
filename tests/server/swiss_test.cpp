// Swiss pairing (FIDE Dutch, C.04.3) and tie-breaks: worked examples from
// published sources, invariants over simulated tournaments, completeness
// against a brute-force search on small random cases, and a hand-checked
// crosstable. The checks here are written apart from the pairing code: the
// legality test and the brute force do not call into it.
#include "server/tournament/swiss.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <random>
#include <set>

using namespace echecs::server::tournament;

namespace {

using Games = std::vector<std::pair<std::int64_t, std::int64_t>>;
constexpr Colour W = Colour::White, B = Colour::Black, N = Colour::None;

SwissPlayer player(std::int64_t id, int points2, std::vector<Colour> colours = {},
                   std::vector<std::int64_t> opponents = {}) {
    SwissPlayer p;
    p.id = id;
    p.rating = 3000 - static_cast<int>(id);  // pairing number = id
    p.points2 = points2;
    p.colours = std::move(colours);
    p.floats.assign(p.colours.size(), Float::None);
    p.opponents = std::move(opponents);
    return p;
}

std::vector<SwissPlayer> fresh(int n) {
    std::vector<SwissPlayer> ps;
    for (int i = 1; i <= n; ++i) ps.push_back(player(i, 0));
    return ps;
}

DutchPairing pair(const std::vector<SwissPlayer>& ps, int round, int total, Colour initial = W) {
    auto p = pair_dutch(ps, {round, total, initial});
    EXPECT_TRUE(p.has_value());
    return p.value_or(DutchPairing{});
}

// ---- An independent legality check (A.6, A.7, C.1-C.3) ---------------------

bool absolute(const SwissPlayer& p, Colour& want) {
    std::vector<Colour> c;
    for (Colour x : p.colours)
        if (x != N) c.push_back(x);
    int cd = static_cast<int>(std::count(c.begin(), c.end(), W)) - static_cast<int>(std::count(c.begin(), c.end(), B));
    if (cd >= 2 || cd <= -2) {
        want = cd > 0 ? B : W;
        return true;
    }
    if (c.size() >= 2 && c[c.size() - 1] == c[c.size() - 2]) {
        want = c.back() == W ? B : W;
        return true;
    }
    return false;
}

bool topscorer(const SwissPlayer& p, int round, int total) { return round == total && p.points2 > round - 1; }

bool may_meet(const SwissPlayer& a, const SwissPlayer& b, int round, int total) {
    if (std::count(a.opponents.begin(), a.opponents.end(), b.id)) return false;
    if (std::count(b.opponents.begin(), b.opponents.end(), a.id)) return false;
    Colour wa, wb;
    if (absolute(a, wa) && absolute(b, wb) && wa == wb && !topscorer(a, round, total) && !topscorer(b, round, total))
        return false;
    return true;
}

// Returns an empty string when the pairing is legal, else what is wrong.
std::string illegal(const std::vector<SwissPlayer>& ps, const DutchPairing& p, int round, int total) {
    std::map<std::int64_t, const SwissPlayer*> by;
    for (const auto& x : ps) by[x.id] = &x;
    std::map<std::int64_t, int> seen;
    for (auto [w, b] : p.games) {
        ++seen[w];
        ++seen[b];
        if (!by.count(w) || !by.count(b)) return "unknown player";
        if (!may_meet(*by[w], *by[b], round, total))
            return "forbidden pair " + std::to_string(w) + "-" + std::to_string(b);
    }
    if (p.bye) {
        ++seen[p.bye];
        if (by[p.bye]->bye_received) return "second bye for " + std::to_string(p.bye);
    }
    if ((p.bye != 0) != (ps.size() % 2 == 1)) return "bye with an even number, or none with an odd";
    if (seen.size() != ps.size()) return "someone unpaired";
    for (auto [id, k] : seen)
        if (k != 1) return "paired twice: " + std::to_string(id);
    return "";
}

// Is there any legal pairing at all? Every matching, by brute force.
bool exists(const std::vector<SwissPlayer>& ps, std::vector<char>& used, bool bye_left, int round, int total) {
    std::size_t i = 0;
    while (i < ps.size() && used[i]) ++i;
    if (i == ps.size()) return true;
    used[i] = 1;
    bool found = false;
    for (std::size_t j = i + 1; j < ps.size() && !found; ++j) {
        if (used[j] || !may_meet(ps[i], ps[j], round, total)) continue;
        used[j] = 1;
        found = exists(ps, used, bye_left, round, total);
        used[j] = 0;
    }
    if (!found && bye_left && !ps[i].bye_received) found = exists(ps, used, false, round, total);
    used[i] = 0;
    return found;
}

bool exists(const std::vector<SwissPlayer>& ps, int round, int total) {
    std::vector<char> used(ps.size(), 0);
    return exists(ps, used, ps.size() % 2 == 1, round, total);
}

// ---- Colour preferences (A.6) ----------------------------------------------

TEST(SwissColours, PreferencesFollowA6) {
    auto is = [](std::vector<Colour> h, Colour c, Strength s) {
        auto p = colour_preference(h);
        return p.colour == c && p.strength == s;
    };
    EXPECT_TRUE(is({}, N, Strength::None));
    EXPECT_TRUE(is({N}, N, Strength::None)) << "a bye is no game";
    EXPECT_TRUE(is({W}, B, Strength::Strong)) << "colour difference +1";
    EXPECT_TRUE(is({W, B}, W, Strength::Mild)) << "difference 0: alternate";
    EXPECT_TRUE(is({W, W}, B, Strength::Absolute)) << "two in a row";
    EXPECT_TRUE(is({W, N, W}, B, Strength::Absolute)) << "the two latest games played";
    EXPECT_TRUE(is({B, W, W, B, W}, B, Strength::Strong));
    EXPECT_TRUE(is({B, W, B, B, W, W}, B, Strength::Absolute)) << "difference 0 but the same twice";
    EXPECT_TRUE(is({W, B, W, B, W, N, W}, B, Strength::Absolute)) << "difference +2";
}

// ---- Worked examples --------------------------------------------------------

// Round 1 by the rules' text (C.04.3 B: S1 the upper half against S2; E.5:
// pairing number 1 takes the drawn colour, and colours alternate down the
// boards), worked by hand. The field of 14 is the size of the Arbiters'
// Manual example "Mastering the Dutch" (FA Mario Held; FIDE Arbiters' Manual
// 2014, pp. 65-92); its published pairings were not at hand to copy, so the
// expected round 1 here is ours, from the rules.
TEST(SwissDutch, RoundOneIsUpperHalfAgainstLowerHalf) {
    EXPECT_EQ(pair(fresh(14), 1, 5).games, (Games{{1, 8}, {9, 2}, {3, 10}, {11, 4}, {5, 12}, {13, 6}, {7, 14}}));
    EXPECT_EQ(pair(fresh(8), 1, 5, B).games, (Games{{5, 1}, {2, 6}, {7, 3}, {4, 8}})) << "black drawn for 1";
    DutchPairing odd = pair(fresh(9), 1, 5);
    EXPECT_EQ(odd.games, (Games{{1, 5}, {6, 2}, {3, 7}, {8, 4}}));
    EXPECT_EQ(odd.bye, 9) << "the lowest player of the lowest bracket";
}

// K. Ballou, "An In-Depth Comparison of US Chess Swiss Pairings and FIDE
// Dutch System Swiss Pairings" (2015), discussed on uschess.discourse.group
// ("FIDE vs US Chess Swiss pairing rules"): S1 {1,2,3} against S2 {5,6,7},
// where 1-5, 2-6, 3-7 breaks a colour on every board and both {5,7,6} and
// {6,5,7} break one: FIDE takes {5,7,6}, the first transposition (D.1).
// The source describes the colours only; the histories below are ours,
// built to give that situation.
TEST(SwissDutch, FirstTranspositionThatBestMeetsColours) {
    // Round 2. Winners 1,2,3,5,6,7 (colours give 1,3,5,7 due white, 2,6 due
    // black); losers 4,8,9,10,11,12.
    std::vector<SwissPlayer> ps = {
        player(1, 2, {B}, {9}),  player(2, 2, {W}, {10}), player(3, 2, {B}, {11}), player(4, 0, {B}, {6}),
        player(5, 2, {B}, {12}), player(6, 2, {W}, {4}),  player(7, 2, {B}, {8}),  player(8, 0, {W}, {7}),
        player(9, 0, {W}, {1}),  player(10, 0, {B}, {2}), player(11, 0, {W}, {3}), player(12, 0, {W}, {5}),
    };
    Games g = pair(ps, 2, 5).games;
    ASSERT_EQ(g.size(), 6u);
    // 1 and 5 both due white (strong): E.3 finds no round they differed, E.4 gives 1 white.
    EXPECT_EQ(Games(g.begin(), g.begin() + 3), (Games{{1, 5}, {7, 2}, {3, 6}}));
    // The losers, worked by hand the same way: S1 {4,8,9} (due W,B,B) against
    // S2 {10,11,12} (due W,B,B): the first transposition with one colour broken is {11,10,12}.
    EXPECT_EQ(Games(g.begin() + 3, g.end()), (Games{{4, 11}, {10, 8}, {12, 9}}));
}

// uschess.discourse.group, "FIDE versus USCF pairings" (L. Cohen): four
// players on 1 point, the natural 1-3 and 2-4 would put two players due
// white together and two due black; FIDE pairs 1-4 and 2-3. (The
// histories are ours, giving those colours due.)
TEST(SwissDutch, TranspositionForColoursInAFourPlayerBracket) {
    std::vector<SwissPlayer> ps = {player(1, 2, {B}, {5}), player(2, 2, {W}, {6}), player(3, 2, {B}, {7}),
                                   player(4, 2, {W}, {8}), player(5, 0, {W}, {1}), player(6, 0, {B}, {2}),
                                   player(7, 0, {W}, {3}), player(8, 0, {B}, {4})};
    Games g = pair(ps, 2, 4).games;
    ASSERT_EQ(g.size(), 4u);
    EXPECT_EQ(Games(g.begin(), g.begin() + 2), (Games{{1, 4}, {3, 2}}));
}

// C.4 (completion): the two leaders could meet, but then the two others,
// who have met, could not. Both leaders float, and the heterogeneous bracket
// pairs the MDPs (S1) against the residents (S2).
TEST(SwissDutch, UpperBracketLeavesTheRestPairable) {
    std::vector<SwissPlayer> ps = {player(1, 4, {W, B}, {5, 6}), player(2, 4, {B, W}, {7, 8}),
                                   player(3, 0, {B, W}, {4, 9}), player(4, 0, {W, B}, {3, 10})};
    DutchPairing p = pair(ps, 3, 5);
    std::set<std::pair<std::int64_t, std::int64_t>> met;
    for (auto [w, b] : p.games) met.insert({std::min(w, b), std::max(w, b)});
    EXPECT_EQ(met, (std::set<std::pair<std::int64_t, std::int64_t>>{{1, 3}, {2, 4}}));
    std::map<std::int64_t, Float> f(p.floats.begin(), p.floats.end());
    EXPECT_EQ(f[1], Float::Down);
    EXPECT_EQ(f[3], Float::Up);
}

TEST(SwissDutch, ByeSkipsAPlayerWhoHadOne) {
    // Three players on 1 point who have played no game yet (absent, then a
    // bye for 3): no colour preference to weigh. S1 {1} against S2 {2,3}:
    // 1-2 would leave the bye to 3, who had one (C.2); the next transposition is 1-3.
    std::vector<SwissPlayer> ps = {player(1, 2, {N, N}), player(2, 2, {N, N}), player(3, 2, {N, N})};
    ps[2].bye_received = true;
    DutchPairing p = pair(ps, 3, 4);
    EXPECT_EQ(p.bye, 2);
    EXPECT_EQ(p.games, (Games{{1, 3}})) << "E.5: pairing number 1 is odd, white was drawn";
}

// C.12: the lowest player of an odd bracket floated down last round; the
// next transposition lets another float instead. No colours to weigh (the
// players were absent so far), so E.5 gives the colours.
TEST(SwissDutch, NoSecondDownfloatInARowWhenAvoidable) {
    std::vector<SwissPlayer> ps = {player(1, 4, {N, N}), player(2, 4, {N, N}), player(3, 4, {N, N}),
                                   player(4, 0, {N, N}), player(5, 0, {N, N})};
    ps[2].floats = {Float::None, Float::Down};
    DutchPairing p = pair(ps, 3, 5);
    EXPECT_EQ(p.games, (Games{{1, 3}, {4, 2}})) << "2 floats to meet 4; 2's even number gives it black";
    EXPECT_EQ(p.bye, 5);
    std::map<std::int64_t, Float> f(p.floats.begin(), p.floats.end());
    EXPECT_EQ(f[2], Float::Down);
    EXPECT_EQ(f[4], Float::Up);
    EXPECT_EQ(f[3], Float::None);
}

// D.2: no transposition pairs 1 (who has met 4, 5 and 6), so the first
// exchange is taken: the smallest difference of bracket numbers, 3 for 4,
// giving S1 {1,2,4} against S2 {3,5,6}. (Any matching taken upper players
// first would give 1-2, 3-4, 5-6 instead.)
TEST(SwissDutch, ExchangeInTheRulesOrderWhenNoTranspositionWorks) {
    std::vector<SwissPlayer> ps;
    for (int i = 1; i <= 6; ++i) ps.push_back(player(i, 0, {N, N, N}));
    ps[0].opponents = {4, 5, 6};
    for (int i = 3; i < 6; ++i) ps[i].opponents = {1};
    EXPECT_EQ(pair(ps, 4, 5).games, (Games{{1, 3}, {5, 2}, {6, 4}}));
}

TEST(SwissDutch, SameAbsoluteColourNeverMeetsButTopscorersMayInTheLastRound) {
    // 1 and 3 have had white twice, 2 and 4 black twice.
    std::vector<SwissPlayer> ps = {player(1, 4, {W, W}, {9}), player(2, 4, {B, B}, {9}), player(3, 4, {W, W}, {9}),
                                   player(4, 4, {B, B}, {9})};
    EXPECT_EQ(pair(ps, 3, 5).games, (Games{{4, 1}, {2, 3}}));
    std::vector<SwissPlayer> two = {player(1, 4, {W, W}, {9}), player(2, 4, {W, W}, {8})};
    EXPECT_FALSE(pair_dutch(two, {3, 5}).has_value()) << "non-topscorers, both due black absolutely";
    auto last = pair_dutch(two, {3, 3});
    ASSERT_TRUE(last.has_value()) << "2 points of 2 in the last round: topscorers";
    EXPECT_EQ(last->games.size(), 1u);
}

TEST(SwissDutch, RematchImpossibleMeansNoPairing) {
    std::vector<SwissPlayer> ps = {player(1, 2, {W}, {2}), player(2, 0, {B}, {1})};
    EXPECT_FALSE(pair_dutch(ps, {2, 3}).has_value());
    EXPECT_TRUE(pair_dutch({}, {1, 3}).has_value()) << "nobody: an empty round";
}

// ---- Simulated tournaments ----------------------------------------------------

struct Sim {
    std::vector<SwissPlayer> ps;
    std::mt19937 rng;
    Sim(int n, unsigned seed) : rng(seed) {
        for (int i = 1; i <= n; ++i) {
            SwissPlayer p;
            p.id = i;
            p.rating = 1000 + static_cast<int>(rng() % 1500);
            ps.push_back(p);
        }
    }
    void play(const DutchPairing& p) {
        std::map<std::int64_t, SwissPlayer*> by;
        for (auto& x : ps) by[x.id] = &x;
        for (auto [w, b] : p.games) {
            int r = static_cast<int>(rng() % 5);  // white wins 2 in 5, draws 1 in 5
            int wp = r < 2 ? 2 : r == 2 ? 1 : 0;
            by[w]->points2 += wp;
            by[b]->points2 += 2 - wp;
            by[w]->colours.push_back(W);
            by[b]->colours.push_back(B);
            by[w]->opponents.push_back(b);
            by[b]->opponents.push_back(w);
        }
        if (p.bye) {
            by[p.bye]->points2 += 2;  // a pairing-allocated bye scores as a win
            by[p.bye]->colours.push_back(N);
            by[p.bye]->bye_received = true;
        }
        for (auto [id, f] : p.floats) by[id]->floats.push_back(f);
    }
};

// No three of a colour in a row and a colour difference within 2, except
// for topscorers and their opponents in the last round (C.3).
std::string colours_broken(const SwissPlayer& p) {
    std::vector<Colour> c;
    for (Colour x : p.colours)
        if (x != N) c.push_back(x);
    int cd = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
        cd += c[i] == W ? 1 : -1;
        if (i >= 2 && c[i] == c[i - 1] && c[i] == c[i - 2]) return "three in a row";
    }
    return cd > 2 || cd < -2 ? "colour difference " + std::to_string(cd) : "";
}

TEST(SwissDutch, SimulatedTournamentsKeepTheAbsoluteCriteria) {
    int rounds_paired = 0, stuck = 0;
    for (unsigned seed = 1; seed <= 60; ++seed) {
        int n = 4 + static_cast<int>(seed % 21);  // 4 to 24 players
        int total = std::min(9, n - 1);
        Sim sim(n, seed);
        for (int round = 1; round <= total; ++round) {
            auto p = pair_dutch(sim.ps, {round, total});
            if (!p) {
                EXPECT_FALSE(exists(sim.ps, round, total)) << "seed " << seed << " round " << round;
                ++stuck;
                break;
            }
            ++rounds_paired;
            ASSERT_EQ(illegal(sim.ps, *p, round, total), "") << "seed " << seed << " round " << round;
            std::set<std::int64_t> top, top_games;
            for (const auto& x : sim.ps)
                if (topscorer(x, round, total)) top.insert(x.id);
            for (auto [w, b] : p->games)
                if (top.count(w) || top.count(b)) top_games.insert({w, b});
            sim.play(*p);
            for (const auto& x : sim.ps) {
                if (!top_games.count(x.id)) {
                    EXPECT_EQ(colours_broken(x), "") << "player " << x.id << " seed " << seed << " round " << round;
                }
            }
        }
        for (const auto& x : sim.ps) EXPECT_LE(std::count(x.colours.begin(), x.colours.end(), N), 1);
    }
    EXPECT_GT(rounds_paired, 300);
    std::printf("%d rounds paired; %d tournaments stopped where no legal pairing existed\n", rounds_paired, stuck);
}

// The pairing depends on the players' data only, not on the order the room
// lists them in.
TEST(SwissDutch, InputOrderDoesNotMatter) {
    for (unsigned seed = 100; seed < 110; ++seed) {
        Sim sim(15 + static_cast<int>(seed % 4), seed);
        std::mt19937 shuffle(seed);
        for (int round = 1; round <= 6; ++round) {
            auto p = pair_dutch(sim.ps, {round, 6});
            ASSERT_TRUE(p.has_value());
            std::vector<SwissPlayer> other = sim.ps;
            std::shuffle(other.begin(), other.end(), shuffle);
            auto q = pair_dutch(other, {round, 6});
            ASSERT_TRUE(q.has_value());
            EXPECT_EQ(p->games, q->games) << "seed " << seed << " round " << round;
            EXPECT_EQ(p->bye, q->bye);
            sim.play(*p);
        }
    }
}

// The pairing says "none" exactly when the brute force finds none, on small
// random histories (inconsistent on purpose, to reach awkward constraints).
TEST(SwissDutch, NoPairingOnlyWhenNoneExists) {
    std::mt19937 rng(29);
    int none = 0, some = 0;
    for (int k = 0; k < 3000; ++k) {
        int n = 2 + static_cast<int>(rng() % 9);
        int round = 2 + static_cast<int>(rng() % 5);
        int total = round + static_cast<int>(rng() % 2);
        std::vector<SwissPlayer> ps;
        for (int i = 1; i <= n; ++i) {
            SwissPlayer p;
            p.id = i;
            p.rating = static_cast<int>(rng() % 3);  // ties broken by id
            p.points2 = static_cast<int>(rng() % (2 * (round - 1) + 1));
            for (int r = 1; r < round; ++r) {
                int c = static_cast<int>(rng() % 7);
                p.colours.push_back(c < 3 ? W : c < 6 ? B : N);
                p.floats.push_back(static_cast<Float>(rng() % 3));
            }
            p.bye_received = rng() % 4 == 0;
            ps.push_back(p);
        }
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                if (rng() % 100 < 45) {
                    ps[i].opponents.push_back(j + 1);
                    ps[j].opponents.push_back(i + 1);
                }
        auto p = pair_dutch(ps, {round, total});
        bool any = exists(ps, round, total);
        ASSERT_EQ(p.has_value(), any) << "case " << k;
        if (p) {
            ++some;
            ASSERT_EQ(illegal(ps, *p, round, total), "") << "case " << k;
        } else {
            ++none;
        }
    }
    EXPECT_GT(none, 100);
    EXPECT_GT(some, 1000);
}

// A large Swiss: every round of 301 players is paired, and legally. Its
// speed is a figure, not an assertion (TOURNAMENTS.md: 42 ms a round, -O2).
TEST(SwissDutch, ThreeHundredPlayersArePairedLegallyEveryRound) {
    Sim sim(301, 7);
    double worst = 0;
    for (int round = 1; round <= 9; ++round) {
        // Processor time, not wall time: the machine is shared.
        std::clock_t t0 = std::clock();
        auto p = pair_dutch(sim.ps, {round, 9});
        double s = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
        worst = std::max(worst, s);
        ASSERT_TRUE(p.has_value());
        ASSERT_EQ(illegal(sim.ps, *p, round, 9), "");
        sim.play(*p);
    }
    std::printf("301 players, 9 rounds: the slowest round paired in %.0f ms\n", worst * 1000);
}

// ---- Tie-breaks ---------------------------------------------------------------

// Five players, three rounds, a pairing-allocated bye each round. Worked by
// hand (docs/TOURNAMENTS.md): an unplayed round counts a virtual opponent
// with the player's score before it, the opposite result, and draws after;
// in an opponent's score their own unplayed rounds count as draws.
TEST(SwissTieBreaks, HandCheckedCrosstable) {
    using K = RoundKind;
    std::vector<CrossRow> rows = {
        {1, 2400, {{K::Played, 2, 2}, {K::Played, 3, 2}, {K::Played, 5, 1}}},      // A 2.5
        {2, 2300, {{K::Played, 1, 0}, {K::Played, 5, 0}, {K::Played, 4, 2}}},      // B 1
        {3, 2200, {{K::Played, 4, 1}, {K::Played, 1, 0}, {K::PairingBye, 0, 2}}},  // C 1.5
        {4, 2100, {{K::Played, 3, 1}, {K::PairingBye, 0, 2}, {K::Played, 2, 0}}},  // D 1.5
        {5, 2000, {{K::PairingBye, 0, 2}, {K::Played, 2, 2}, {K::Played, 1, 1}}},  // E 2.5
    };
    auto s = swiss_standings(rows);
    ASSERT_EQ(s.size(), 5u);
    std::vector<std::int64_t> order;
    for (const auto& x : s) order.push_back(x.id);
    EXPECT_EQ(order, (std::vector<std::int64_t>{5, 1, 3, 4, 2})) << "E before A on Buchholz Cut-1, C before D";
    std::map<std::int64_t, Standing> by;
    for (const auto& x : s) by[x.id] = x;
    // A: opponents B 1, C 1 (the bye as a draw), E 2 (the bye as a draw).
    EXPECT_DOUBLE_EQ(by[1].buchholz, 4);
    EXPECT_DOUBLE_EQ(by[1].buchholz_cut1, 3);
    EXPECT_DOUBLE_EQ(by[1].sonneborn_berger, 3);
    EXPECT_DOUBLE_EQ(by[2].buchholz, 5.5);
    EXPECT_DOUBLE_EQ(by[2].buchholz_cut1, 4.5);
    EXPECT_DOUBLE_EQ(by[2].sonneborn_berger, 1);
    // C's round 3 bye: 0.5 before it, the virtual opponent lost it, no round after: 0.5.
    EXPECT_DOUBLE_EQ(by[3].buchholz, 4);
    EXPECT_DOUBLE_EQ(by[3].buchholz_cut1, 3.5);
    EXPECT_DOUBLE_EQ(by[3].sonneborn_berger, 1);
    // D's round 2 bye: 0.5 before, lost, a draw after: 1.
    EXPECT_DOUBLE_EQ(by[4].buchholz, 3);
    EXPECT_DOUBLE_EQ(by[4].buchholz_cut1, 2);
    EXPECT_DOUBLE_EQ(by[4].sonneborn_berger, 1.5);
    // E's round 1 bye: 0 before, lost, two draws after: 1.
    EXPECT_DOUBLE_EQ(by[5].buchholz, 4.5);
    EXPECT_DOUBLE_EQ(by[5].buchholz_cut1, 3.5);
    EXPECT_DOUBLE_EQ(by[5].sonneborn_berger, 3.25);
    EXPECT_EQ(by[5].points2, 5);
}

// A forfeit: both sides count a virtual opponent for that round, and in
// the others' Buchholz the forfeit counts as a draw for both.
TEST(SwissTieBreaks, ForfeitCountsAVirtualOpponent) {
    using K = RoundKind;
    std::vector<CrossRow> rows = {
        {1, 2000, {{K::ForfeitWin, 0, 2}, {K::Played, 3, 1}}},   // A 1.5
        {2, 1900, {{K::ForfeitLoss, 0, 0}, {K::Played, 4, 2}}},  // B 1
        {3, 1800, {{K::Played, 4, 2}, {K::Played, 1, 1}}},       // C 1.5
        {4, 1700, {{K::Played, 3, 0}, {K::Played, 2, 0}}},       // D 0
    };
    auto s = swiss_standings(rows);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0].id, 1) << "A's Cut-1 1.5 against C's 1";
    EXPECT_EQ(s[1].id, 3);
    // A: the virtual opponent 0 + 0 + 0.5 = 0.5; C counts 1.5 (its own unplayed nothing).
    EXPECT_DOUBLE_EQ(s[0].buchholz, 2);
    EXPECT_DOUBLE_EQ(s[0].buchholz_cut1, 1.5);
    EXPECT_DOUBLE_EQ(s[0].sonneborn_berger, 1.25);
    // C: D 0, A 1 (the forfeit win counted as a draw).
    EXPECT_DOUBLE_EQ(s[1].buchholz, 1);
    EXPECT_DOUBLE_EQ(s[1].sonneborn_berger, 0.5);
    // B: the virtual opponent 0 + 1 + 0.5 = 1.5, and D 0.
    EXPECT_EQ(s[2].id, 2);
    EXPECT_DOUBLE_EQ(s[2].buchholz, 1.5);
    EXPECT_DOUBLE_EQ(s[2].sonneborn_berger, 0);
    EXPECT_EQ(s[3].id, 4);
    EXPECT_DOUBLE_EQ(s[3].buchholz, 3);
}

TEST(SwissTieBreaks, EqualTieBreaksFallBackToRatingThenId) {
    using K = RoundKind;
    std::vector<CrossRow> rows = {{7, 1500, {{K::Played, 8, 1}}},
                                  {8, 1600, {{K::Played, 7, 1}}},
                                  {9, 1600, {{K::Absent, 0, 0}}},
                                  {3, 1600, {{K::Absent, 0, 0}}}};
    auto s = swiss_standings(rows);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0].id, 8);
    EXPECT_EQ(s[1].id, 7);
    EXPECT_EQ(s[2].id, 3) << "equal in everything: the lower id";
    EXPECT_EQ(s[3].id, 9);
}

}  // namespace

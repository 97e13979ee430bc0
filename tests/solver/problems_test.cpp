// Published problems with known solutions (orthodox classics, Alice problems
// of Andernach 2025, each verified with Popeye), and composed problems that
// show what only the variants' rules allow, each answer checked against the
// brute-force reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "reference.h"
#include "solver/output.h"
#include "solver/popeye.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

std::vector<PopeyeProblem> read_data(const std::string& name) {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return read_popeye(ss.str());
}

Options quick(bool tries = false) {
    Options o;
    o.threads = 2;
    o.hash_megabytes = 16;
    o.tries = tries;
    return o;
}

std::vector<std::string> keys_of(const Result& r) {
    std::vector<std::string> out;
    for (const auto& k : r.keys) out.push_back(k.move.uci);
    return out;
}

std::vector<std::string> tries_of(const Result& r) {
    std::vector<std::string> out;
    for (const auto& t : r.tries) out.push_back(t.move.uci + " " + t.refutations.at(0).move.uci);
    std::sort(out.begin(), out.end());
    return out;
}

Result solve_fen(Variant v, const std::string& fen, const char* stip, Options o = quick()) {
    Problem p;
    p.variant = v;
    p.fen = fen;
    p.stipulation = parse_stipulation(stip);
    return solve(p, o);
}

}  // namespace

TEST(Classics, MorphyTwoMoverKeyAndTries) {
    const auto probs = read_data("classics.inp");
    const Result r = solve(probs[0].twins[0], quick(true));
    ASSERT_TRUE(r.complete());
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"a1a6"});
    EXPECT_TRUE(r.keys[0].zugzwang);
    EXPECT_EQ(r.keys[0].move.text, "Ra1-a6");
    EXPECT_EQ(tries_of(r), (std::vector<std::string>{"a1a5 a7a6", "a1a7 b8a7"}));
    // 1...bxa6 2.b7#: the variation is written in composers' notation.
    const std::string text = to_text(r);
    EXPECT_NE(text.find("1.Ra1-a6! zugzwang\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n   1...b7xa6 2.b6-b7#\n"), std::string::npos) << text;
}

// A key that forces the goal sooner than asked: its play is written for its
// own length, as Popeye writes it, so it threatens nothing longer (found side
// by side with compare_random.py; Popeye 4.104: "1.Rg3*g2 ! zugzwang.
// 1...Ke1-d1 2.Rg2-g1 # 2.Rf2-f1 #"). Written for the #3's length, a waiting
// move (2.Kc5-b4) was a threat.
TEST(BattlePlay, AShortKeysPlayIsWrittenForItsOwnLength) {
    const Result r = solve_fen(Variant::Chess, "8/8/8/2K5/8/6R1/5Rb1/4k3 w - - 0 1", "#3");
    ASSERT_TRUE(r.complete());
    const auto key =
        std::find_if(r.keys.begin(), r.keys.end(), [](const AttackLine& k) { return k.move.uci == "g3g2"; });
    ASSERT_NE(key, r.keys.end());
    EXPECT_TRUE(key->zugzwang);
    EXPECT_TRUE(key->threats.empty());
    ASSERT_EQ(key->defences.size(), 1u);
    EXPECT_EQ(key->defences[0].move.text, "Ke1-d1");
    EXPECT_EQ(key->defences[0].continuations.size(), 2u);
    // a key that needs the whole length keeps its two-move threat
    const auto full =
        std::find_if(r.keys.begin(), r.keys.end(), [](const AttackLine& k) { return k.move.uci == "f2a2"; });
    ASSERT_NE(full, r.keys.end());
    EXPECT_TRUE(full->zugzwang);  // Popeye: "1.Rf2-a2 ! zugzwang."
}

TEST(Classics, LoydTwinsThreeFourFiveMovers) {
    const auto probs = read_data("classics.inp");
    ASSERT_EQ(probs[1].twins.size(), 3u);
    const char* expected[] = {"g7g3", "h2g3", "g7b7"};
    for (int i = 0; i < 3; ++i) {
        const Result r = solve(probs[1].twins[i], quick());
        ASSERT_TRUE(r.complete());
        EXPECT_EQ(keys_of(r), std::vector<std::string>{expected[i]}) << probs[1].twin_labels[i];
    }
    // a) 1.Rxg3! threat 2.Rh3+ Bh4 3.g4#; 1...Bxg3 2.Sf3 zugzwang.
    const Result a = solve(probs[1].twins[0], quick());
    ASSERT_EQ(a.keys[0].threats.size(), 1u);
    EXPECT_EQ(a.keys[0].threats[0].move.text, "Rg3-h3+");
    ASSERT_EQ(a.keys[0].defences.size(), 1u);
    EXPECT_EQ(a.keys[0].defences[0].continuations.at(0).move.text, "Se1-f3");
    EXPECT_TRUE(a.keys[0].defences[0].continuations[0].zugzwang);
    EXPECT_EQ(a.keys[0].defences[0].continuations[0].defences.size(), 9u);
}

TEST(Classics, LoydSelfmateByCastling) {
    const auto probs = read_data("classics.inp");
    const Result r = solve(probs[2].twins[0], quick());
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"e1c1"});
    EXPECT_EQ(r.keys[0].move.text, "0-0-0");
    // Every black reply mates White.
    ASSERT_FALSE(r.keys[0].defences.empty());
    for (const auto& d : r.keys[0].defences) EXPECT_TRUE(d.goal) << d.move.text;
}

TEST(Classics, LoydEnPassantKey) {
    const auto probs = read_data("classics.inp");
    const Result r = solve(probs[3].twins[0], quick());
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"g5f6"});
    EXPECT_EQ(r.keys[0].move.text, "g5xf6 e.p.+");
}

TEST(Alice, Andernach2025TwoMoverKeyThreatAndTries) {
    const auto probs = read_data("andernach2025.inp");
    const Problem& p = probs[4].twins[0];
    ASSERT_EQ(p.stipulation.str(), "#2");
    const Result r = solve(p, quick(true));
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"d7e8"});
    EXPECT_EQ(r.keys[0].move.text, "Qd7-e8B");
    ASSERT_EQ(r.keys[0].threats.size(), 1u);
    EXPECT_EQ(r.keys[0].threats[0].move.text, "Se6-f4A#");
    EXPECT_EQ(r.keys[0].defences.size(), 2u);
    EXPECT_EQ(tries_of(r), (std::vector<std::string>{"c6b4 d3c3", "c6e5 f6e5", "d7c8 h6g4", "d7e7 d8c6", "d7f5 h6f5",
                                                     "d7g4 h6g4", "e6c5 a7c5", "e6f4 d3e4"}));
}

TEST(Alice, Andernach2025ThreeMoverZugzwang) {
    const auto probs = read_data("andernach2025.inp");
    const Result r = solve(probs[0].twins[0], quick());
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"h4g3"});
    EXPECT_TRUE(r.keys[0].zugzwang);
    EXPECT_NE(to_text(r).find("1.Bh4-g3A! zugzwang\n"), std::string::npos);
    EXPECT_NE(to_text(r).find("   1...Ra4-a1A 2.Ke5xd4B#\n"), std::string::npos);
}

TEST(Alice, Andernach2025HelpmatesAndTwin) {
    const auto probs = read_data("andernach2025.inp");
    auto lines = [](const Result& r) {
        std::vector<std::string> out;
        for (const auto& h : r.solutions) {
            std::string s;
            for (const auto& m : h.moves) s += (s.empty() ? "" : " ") + m.text;
            out.push_back(s);
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    ASSERT_EQ(probs[1].twins.size(), 2u);
    EXPECT_EQ(lines(solve(probs[1].twins[0], quick())), std::vector<std::string>{"Bd5-b7B Rg2-e2B Re7-a7B e6-e7B#"});
    EXPECT_EQ(lines(solve(probs[1].twins[1], quick())), std::vector<std::string>{"Rd2-b2B Rg2-g1B Bg7-a1B g6-g7B#"});
    EXPECT_EQ(lines(solve(probs[2].twins[0], quick())),
              (std::vector<std::string>{"Ke5-e4A Qc5-e5B d2-d1=BA Rc3-e3A#", "Ke5-f4A Qc5-f5B d2-d1=SA Rc3-f3A#"}));
    EXPECT_EQ(lines(solve(probs[3].twins[0], quick())),
              (std::vector<std::string>{"Ra1-a7B Bf4xc7A Ra7xd7A Sg4-e3A#", "Ra1-g1B Bf4xg3A Rg1xg4A Sd7-b6A#"}));
}

// The rook mates only by passing to board B, and only because the king may
// not step onto squares occupied on board A: no orthodox counterpart.
TEST(Alice, MateOnlyThroughTheTransfer) {
    const std::string fen = "7l/6pp/8/8/8/8/8/R3K3 w - - 0 1";
    const Result r = solve_fen(Variant::Alice, fen, "#1");
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"a1a8"});
    EXPECT_EQ(r.keys[0].move.text, "Ra1-a8B#");
    EXPECT_EQ(reference::answer(Variant::Alice, fen, parse_stipulation("#1")), std::set<std::string>{"a1a8"});
    // With the king on board A too, 1.Ra8 passes to board B and gives no check
    // at all (in orthodox chess it would mate).
    const std::string all_on_a = "7k/6pp/8/8/8/8/8/R3K3 w - - 0 1";
    EXPECT_TRUE(keys_of(solve_fen(Variant::Alice, all_on_a, "#1")).empty());
    EXPECT_EQ(keys_of(solve_fen(Variant::Chess, all_on_a, "#1")), std::vector<std::string>{"a1a8"});
}

// Avalanche: the knight covers g8 and the push c3-c2 opens the bishop's
// diagonal; neither part mates alone.
TEST(Avalanche, MateOnlyThroughThePush) {
    const std::string fen = "7k/7p/8/3N4/K7/2p5/8/B7 w - - 0 1";
    const Result r = solve_fen(Variant::Avalanche, fen, "#1");
    EXPECT_EQ(reference::solver_answer(r), reference::answer(Variant::Avalanche, fen, parse_stipulation("#1")));
    ASSERT_FALSE(r.keys.empty());
    for (const auto& k : r.keys) {
        EXPECT_TRUE(k.move.move.has_push()) << k.move.text;
        EXPECT_EQ(k.move.move.push_from(), SQ_C3) << k.move.text;
    }
    EXPECT_NE(to_text(r).find("1.Sd5-e7 c3-c2#!"), std::string::npos) << to_text(r);
    EXPECT_TRUE(keys_of(solve_fen(Variant::Chess, fen, "#1")).empty());
}

// 1.Ra8 would be mate, but the only push, f3-f2, checks White's king: the
// move cannot be played at all (RULES.md §3), so there is no mate in 1.
TEST(Avalanche, MatingFirstPartWithOnlySelfCheckingPushesIsIllegal) {
    const std::string fen = "7k/1R6/8/8/8/5p2/8/R5K1 w - - 0 1";
    EXPECT_EQ(keys_of(solve_fen(Variant::Chess, fen, "#1")), std::vector<std::string>{"a1a8"});
    const Result r = solve_fen(Variant::Avalanche, fen, "#1");
    EXPECT_TRUE(r.keys.empty()) << to_text(r);
    EXPECT_TRUE(r.complete());
    EXPECT_EQ(reference::solver_answer(r), reference::answer(Variant::Avalanche, fen, parse_stipulation("#1")));
}

// A white pawn waits on a8 (Black pushed it there): White, its owner,
// chooses the piece, and only a knight mates, from b6.
TEST(Avalanche, PendingPromotionChosenByItsOwner) {
    const std::string fen = "P1qbr3/2rkp3/2ppp3/2PPP3/8/8/8/7K w - - 0 1";
    const Result r = solve_fen(Variant::Avalanche, fen, "#1");
    EXPECT_EQ(reference::solver_answer(r), reference::answer(Variant::Avalanche, fen, parse_stipulation("#1")));
    ASSERT_EQ(r.keys.size(), 1u) << to_text(r);
    EXPECT_EQ(r.keys[0].move.move.choice(), KNIGHT);
    EXPECT_EQ(r.keys[0].move.uci, "n:a8b6");
    EXPECT_EQ(r.keys[0].move.text, "(a8=S)Sa8-b6#");
    // The other choices are legal too (the owner picks among four), but none mates.
    StateInfo si;
    Position pos;
    pos.set(Variant::Avalanche, fen, si);
    MoveList legal;
    generate_legal(pos, legal);
    std::set<PieceType> choices;
    for (Move m : legal) choices.insert(m.choice());
    EXPECT_EQ(choices, (std::set<PieceType>{KNIGHT, BISHOP, ROOK, QUEEN}));
}

TEST(Cooks, TwoKeysAreBothFound) {
    // Two back-rank mates: 1.Ra8# and 1.Rb8#... and nothing else.
    const std::string fen = "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1";
    const Result r = solve_fen(Variant::Chess, fen, "#1");
    EXPECT_EQ(keys_of(r), (std::vector<std::string>{"a1a8", "b1b8"}));
    EXPECT_EQ(reference::solver_answer(r), reference::answer(Variant::Chess, fen, parse_stipulation("#1")));
    EXPECT_NE(to_text(r).find("2 solutions (complete)"), std::string::npos);
}

TEST(NoSolution, AnsweredAndSaidSo) {
    // Bare kings and a knight: no mate in 3, and the search says it looked everywhere.
    const Result r = solve_fen(Variant::Chess, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "#3");
    EXPECT_TRUE(r.keys.empty());
    EXPECT_TRUE(r.complete());
    EXPECT_EQ(r.first_moves_done, r.first_moves);
    EXPECT_NE(to_text(r).find("no solution (complete)"), std::string::npos);
}

namespace {
std::vector<PopeyeProblem> read_all(const std::string& name) {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return read_popeye_all(ss.str());
}
std::vector<std::string> lines_of(const Result& r) {
    std::vector<std::string> out;
    std::istringstream in(to_text(r));
    std::string l;
    while (std::getline(in, l))
        if (!l.empty() && std::isdigit(static_cast<unsigned char>(l[0]))) out.push_back(l);
    out.pop_back();  // the summary line
    return out;
}
}  // namespace

// Series reciprocal helpplay: Popeye 4.104's lines of BEISPIEL/intell.inp 117
// (both twins), and the short solutions Popeye prints once the series has
// begun (270 lines in all, the same as Popeye's; not the diagram's).
TEST(PopeyeExamples, SeriesReciprocalHelpplay) {
    const auto probs = read_all("popeye_series_reci.inp");
    ASSERT_EQ(probs.size(), 2u);
    ASSERT_EQ(probs[0].twins.size(), 2u);
    EXPECT_EQ(lines_of(solve(probs[0].twins[0], quick())),
              (std::vector<std::string>{
                  "1.h5-h4  2.h4-h3  3.h3-h2  4.h2-h1=R  5.Rh1-d1  6.Rd1-d7  7.Rd7-d8 Qh7-b7#",
                  "1.h5-h4  2.h4-h3  3.h3-h2  4.h2-h1=R  5.Rh1-d1  6.Rd1-d7  7.Rd7xh7=",
              }));
    EXPECT_EQ(lines_of(solve(probs[0].twins[1], quick())),
              (std::vector<std::string>{
                  "1.d7-d5  2.d5-d4  3.d4-d3  4.d3-d2  5.d2-d1=Q  6.Qd1-d6  7.Qd6-e7 Qh7xe7=",
                  "1.d7-d5  2.d5-d4  3.d4-d3  4.d3-d2  5.d2-d1=Q  6.Qd1-d6  7.Qd6-b8#",
              }));
    const auto lines = lines_of(solve(probs[1].twins.at(0), quick()));
    EXPECT_EQ(lines.size(), 270u);
    auto has = [&](const char* l) { return std::find(lines.begin(), lines.end(), l) != lines.end(); };
    EXPECT_TRUE(has("1.Re8-b8  2.Rb8-a8 Ra7xa8#"));  // short: Black's own line and the help line
    EXPECT_TRUE(has("1.Re8-b8  2.Rb8-b1#"));
    EXPECT_TRUE(has("1.Re8-e2  2.Re2-e3  3.Re3-e1#"));
    EXPECT_FALSE(has("1.Re8-e1#"));  // the diagram's own reci-h#1: not a solution, as in Popeye
}

// Exact play in help and series play: no short solution (Popeye 4.104's
// answers, TESTS/help_play.inp 7 and TESTS/series_play.inp 5, and its 187
// lines of the exact-ser-#3, the same line by line).
TEST(PopeyeExamples, ExactPlay) {
    const auto probs = read_all("popeye_exact.inp");
    ASSERT_EQ(probs.size(), 6u);
    EXPECT_EQ(lines_of(solve(probs[0].twins.at(0), quick())),
              std::vector<std::string>{"1.Qb5-e2 Ka3-b3  2.Qe2-b2+ c3xb2#"});
    EXPECT_EQ(lines_of(solve(probs[1].twins.at(0), quick())), std::vector<std::string>{"1.Qb5-e2  2.Qe2-b2+ c3xb2#"});
    Problem series = probs[2].twins.at(0);
    EXPECT_EQ(series.stipulation.str(), "exact-ser-#3");
    const auto exact = lines_of(solve(series, quick()));
    EXPECT_EQ(exact.size(), 187u);
    for (const auto& l : exact) EXPECT_NE(l.find("3."), std::string::npos) << l;
    series.stipulation.exact = false;  // the six short mates again
    const auto all = lines_of(solve(series, quick()));
    EXPECT_EQ(all.size(), 193u);
    EXPECT_NE(std::find(all.begin(), all.end(), "1.Qd1-d7  2.Qd7-b7#"), all.end());
}

// Exact play in battle play: the goal reached before the last move refutes
// (Popeye's TESTS/battle_play.inp 28, 37 and 42, its trees; the same trees on
// 26 more of its selfmates and reflexmates made exact, and on random problems).
TEST(PopeyeExamples, ExactBattlePlay) {
    const auto probs = read_all("popeye_exact.inp");
    ASSERT_EQ(probs.size(), 6u);
    Options tries = quick();
    tries.tries = true;
    const std::string s2 = to_text(solve(probs[3].twins.at(0), tries));
    EXPECT_NE(s2.find("1.Sd1-b2! zugzwang\n   1...a4-a3\n      2.e2-e3\n         2...a3xb2#\n"), std::string::npos)
        << s2;
    EXPECT_NE(s2.find("1.Sd1-f2? zugzwang\n"), std::string::npos) << s2;  // a key without exact-
    EXPECT_NE(s2.find("   but 1...b3-b2#!\n"), std::string::npos) << s2;  // the mate too early refutes
    EXPECT_NE(s2.find("1 solution (complete)"), std::string::npos) << s2;
    const Result r2 = solve(probs[4].twins.at(0), quick());
    ASSERT_EQ(r2.keys.size(), 1u);  // not 1.f6-f7, an r#1
    EXPECT_EQ(r2.keys[0].move.text, "Ra2-a8+");
    EXPECT_EQ(solve(probs[5].twins.at(0), quick()).solution_count(), 0);  // its r#2 solves no exact r#3
    Problem plain = probs[5].twins.at(0);
    plain.stipulation.exact = false;
    EXPECT_EQ(solve(plain, quick()).solution_count(), 1);
}

// Popeye's own German examples (intelligent mode, twins, a series helpmate),
// with a refused parry series proof game between them: the same solutions as Popeye 4.104.
TEST(PopeyeExamples, GermanIntelligentAndSeries) {
    const auto probs = read_all("popeye_dialect.inp");
    ASSERT_EQ(probs.size(), 3u);
    ASSERT_EQ(probs[0].twins.size(), 2u);
    EXPECT_EQ(lines_of(solve(probs[0].twins[0], quick())),
              std::vector<std::string>{"1.Sf6-d7 Re6-h6  2.Rf1-f2 Rh6-h3  3.Rf2-c2 Bf3-d5#"});
    EXPECT_EQ(lines_of(solve(probs[0].twins[1], quick())),
              std::vector<std::string>{"1.Sg4-f2 Bf3-h5  2.Bc8-d7 Bh5-f7  3.Bd7-a4 Re6-e3#"});

    EXPECT_TRUE(probs[1].twins.empty());
    EXPECT_NE(probs[1].refused.find("line 13: stipulation 'pser-hdia2': parry series proof games"), std::string::npos)
        << probs[1].refused;

    ASSERT_EQ(probs[2].twins.size(), 4u);
    EXPECT_EQ(probs[2].twins[0].stipulation.str(), "ser-h#4");
    const char* expected[] = {
        "1.Kd4-d3  2.Kd3-c2  3.Kc2-b1  4.Kb1-a1 Qa3-c1#", "1.Kd4-d5  2.Kd5-c6  3.Kc6-b7  4.Kb7-a8 Qa3xa6#",
        "1.Kd4-e4  2.Ke4-f3  3.Kf3-g2  4.Kg2-h1 Qa3-a8#", "1.Kd4-e5  2.Ke5-f6  3.Kf6-g7  4.Kg7-h8 Qa3-f8#"};
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(lines_of(solve(probs[2].twins[i], quick())), std::vector<std::string>{expected[i]}) << i;
}

// Popeye's TESTS/intell.inp in abbreviations: the same solution as Popeye;
// a king-less problem is refused with its reason; WhiteToPlay shortens h#2.
TEST(PopeyeExamples, EnglishAbbreviations) {
    const auto probs = read_all("popeye_english.inp");
    ASSERT_EQ(probs.size(), 4u);
    ASSERT_EQ(probs[0].twins.size(), 1u);
    EXPECT_EQ(lines_of(solve(probs[0].twins[0], quick())),
              std::vector<std::string>{"1...Bh6-g7+  2.e7-e5 d5xe6 e.p.#"});
    ASSERT_EQ(probs[0].warnings.size(), 1u);
    EXPECT_NE(probs[0].warnings[0].find("line 3: 'LaTeX' is ignored"), std::string::npos);
    ASSERT_EQ(probs[1].twins.size(), 1u) << probs[1].refused;  // nowk: no white king
    EXPECT_EQ(lines_of(solve(probs[1].twins[0], quick())), std::vector<std::string>{"1.Sc8-b6  2.Bh3-f1#"});
    ASSERT_EQ(probs[2].twins.size(), 1u);
    EXPECT_EQ(probs[2].twins[0].stipulation.str(), "h#1.5");
    EXPECT_EQ(lines_of(solve(probs[2].twins[0], quick())),
              std::vector<std::string>{"1...Bh6-g7+  2.e7-e5 d5xe6 e.p.#"});
    EXPECT_NE(probs[3].refused.find("line 23: sstipulation '3h[>1a[x]d]h': this form is not supported"),
              std::string::npos)
        << probs[3].refused;
}

// Duplex, as Popeye 4.104 solves it (its answers, side by side, docs/SOLVER.md):
// the h#3 with the parts exchanged (White starts, Black mates) has these four
// solutions, numbered at White's moves; the h#2 exchanged has none, and its
// normal part 54 (short solutions included, as Popeye prints them).
TEST(PopeyeExamples, DuplexSolvesBothWaysAsPopeye) {
    const auto h3 = read_popeye("begin\nstip h#3\nopt duplex\npieces white kd1 qa5 black kf3 pe4 sg6\nend\n");
    ASSERT_EQ(h3[0].twins.size(), 2u);
    const Result normal = solve(h3[0].twins[0], quick());
    const Result exchanged = solve(h3[0].twins[1], quick());
    EXPECT_EQ(normal.solutions.size(), 51u);
    std::vector<std::string> lines;
    for (const auto& s : exchanged.solutions) lines.push_back(solution_text(s, exchanged.problem.stipulation));
    std::sort(lines.begin(), lines.end());
    EXPECT_EQ(lines, (std::vector<std::string>{"1.Kd1-e1 e4-e3  2.Qa5-d2 e3xd2+  3.Ke1-f1 d2-d1=Q#\n",
                                               "1.Kd1-e1 e4-e3  2.Qa5-d2 e3xd2+  3.Ke1-f1 d2-d1=R#\n",
                                               "1.Qa5-d2 e4-e3  2.Kd1-e1 e3xd2+  3.Ke1-f1 d2-d1=Q#\n",
                                               "1.Qa5-d2 e4-e3  2.Kd1-e1 e3xd2+  3.Ke1-f1 d2-d1=R#\n"}));
    EXPECT_NE(to_text(exchanged).find("h#3 halfduplex"), std::string::npos);
    const auto h2 = read_popeye("begin\nstip h#2\nopt duplex\npieces white kc8 pb6 black ka8 pa7 rh1 bh2\nend\n");
    EXPECT_EQ(solve(h2[0].twins[0], quick()).solutions.size(), 54u);
    const Result none = solve(h2[0].twins[1], quick());
    EXPECT_TRUE(none.solutions.empty());
    EXPECT_TRUE(none.complete());
}

// A series helpmate's shorter series are solutions too, as Popeye 4.104
// prints them: this ser-h#3 has 168 solutions of three series moves and 17
// of two (185 in Popeye's output, side by side).
TEST(PopeyeExamples, SeriesHelpmatesKeepTheirShortSolutions) {
    const Result r = solve_fen(Variant::Chess, "k1K5/p7/1P6/8/8/8/8/7b b - - 0 1", "ser-h#3");
    ASSERT_TRUE(r.complete());
    std::size_t two = 0;  // two series moves and the mate
    for (const auto& s : r.solutions) two += s.moves.size() == 3;
    EXPECT_EQ(r.solutions.size(), 185u);
    EXPECT_EQ(two, 17u);
}

namespace {
// The play as the text output writes it, without the header and the summary.
std::string play_of(const PopeyeProblem& pp, const Problem& p) {
    Options o = quick(pp.tries);
    o.set_play = pp.set_play;
    std::istringstream in(to_text(solve(p, o)));
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string out;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        if (lines[i].find(" r#") == std::string::npos && lines[i].find(" semi-r#") == std::string::npos &&
            lines[i].find(" hs#") == std::string::npos && lines[i] != p.title)
            out += lines[i] + "\n";
    return out;
}
}  // namespace

// Reflexmates, semi-reflexmates (TESTS/battle_play.inp) and helpselfmates
// (BEISPIEL/helpself.inp, REGRESSIONS/4_61_to_4_63.inp) of Popeye's own
// files, and an Alice hs#1: Popeye 4.104's answers.
TEST(PopeyeExamples, ReflexAndHelpSelfMates) {
    const auto probs = read_all("popeye_reflex.inp");
    const char* expected[] = {
        // r#1
        "1.Kb1-a1!\n   1...Se1-c2#\n",
        // r#1 with set play
        "set play:\n   1...Se1-c2#\n1.h3-h4!\n   1...Se1-c2#\n",
        // r#1, but White must deliver mate (Popeye: "1.Bg7-f8 # ?!?")
        "",
        // r#2
        "1.Bh7-c2! zugzwang\n   1...b4-b3 2.Bc2-b1\n      2...b3-b2#\n",
        // r#2 with short set play and short solution
        "set play:\n   1...b3-b2#\n1.h3-h4!\n   1...b3-b2#\n",
        // r#2, but White must deliver mate immediately
        "",
        // r#3
        "1.Sd8-c6! zugzwang\n   1...a5xb4 2.Bd1-c2 zugzwang\n      2...b4-b3 3.Bc2-b1\n         3...b3-b2#\n",
        // r#3, but White must deliver mate immediately
        "",
        // r#2: no threat, White at the move would have to mate
        "1.Kc1-b1! zugzwang\n"
        "   1...Kh6-h5 2.Rd1-e1\n      2...d2xe1=Q#\n      2...d2xe1=R#\n"
        "   1...Kh6-h7 2.Rd1-e1\n      2...d2xe1=Q#\n      2...d2xe1=R#\n"
        "   1...g5-g4 2.Rd1-e1\n      2...d2xe1=Q#\n      2...d2xe1=R#\n",
        // semi-r#1
        "1.Bg7-h6!\n   1...b3-b2#\n",
        // semi-r#2: White need not mate
        "1.Bg7-h6!\n   1...b3-b2#\n",
        // r#2 with tries and set play
        "set play:\n   1...b4-b3 2.Bh7-b1\n      2...b3-b2#\n"
        "1.Bh7-c2! zugzwang\n   1...b4-b3 2.Bc2-b1\n      2...b3-b2#\n"
        "1.Bh7-d3? zugzwang\n   1...b4-b3 2.Bd3-b1\n      2...b3-b2#\n   but 1...Ka3-b3!\n"
        "1.Bh7-e4? zugzwang\n   1...b4-b3 2.Be4-b1\n      2...b3-b2#\n   but 1...Ka3-b3!\n"
        "1.Bh7-f5? zugzwang\n   1...b4-b3 2.Bf5-b1\n      2...b3-b2#\n   but 1...Ka3-b3!\n"
        "1.Bh7-g6? zugzwang\n   1...b4-b3 2.Bg6-b1\n      2...b3-b2#\n   but 1...Ka3-b3!\n"
        "1.Bh7-g8? zugzwang\n   but 1...b4-b3!\n",
        // hs#3
        "1.a7-a8=Q g2xf1=B  2.Qa8-a6 Bf1xe2  3.Qa6-d3+ Be2xd3#\n"
        "1.a7-a8=R g2-g1=Q  2.Ra8xa5 Qg1-g8  3.Ra5-d5+ e6xd5#\n"
        "1.a7-a8=S c2-c1=R  2.Sa8xb6 Rc1-c2  3.Sb6-c4+ Rc2xc4#\n"
        "1.d7-d8=B g2-g1=S  2.Bd8xf6 Sg1xf3  3.Bf6-g5+ Sf3xg5#\n",
        // hs#2, big 129
        "1.Sb2-d1 g3xh2  2.Sd1-f2+ Bh4xf2#\n1.Sh8-f7 g5xf4  2.Sf7-g5+ Bh4xg5#\n"
        "1.Ra5-a1 g3xh2  2.Ra1-e1+ Bh4xe1#\n1.Ra5-e5+ Ke4xf4  2.h2xg3+ Bh4xg3#\n"
        "1.Ra5-a7 g5xf4  2.Ra7-e7+ Bh4xe7#\n1.g7-g8=S g5xf4  2.Sg8-f6+ Bh4xf6#\n",
        // Alice hs#1
        "1.Bd6-e7A+ Qc7xe7B#\n",
    };
    ASSERT_EQ(probs.size(), std::size(expected));
    for (std::size_t i = 0; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), 1u) << i << " " << probs[i].refused;
        EXPECT_EQ(play_of(probs[i], probs[i].twins[0]), expected[i]) << probs[i].twins[0].title;
    }
}

// Reciprocal helpmates of Popeye's BEISPIEL/intell.inp and TESTS/castling.inp
// (twins, both goals bracketed or not, castling and en passant in the last
// moves): Popeye 4.104's answers, the help line before Black's own.
TEST(PopeyeExamples, ReciprocalHelpmates) {
    const auto probs = read_all("popeye_reci.inp");
    using Lines = std::vector<std::string>;
    const std::vector<std::vector<Lines>> expected = {
        {{"1.Kg6-h6 Be4-b1  2.Sf5xe3 Qc1-c2  3.Qg3-g5 Qc2-h7#", "1.Kg6-h6 Be4-b1  2.Sf5xe3 Qc1-c2  3.Se3-d1#"},
         {"1.Kg6-h7 Re6-a6  2.Sf6-d7 Qc1-c6  3.Qg3-g8 Qc6-h6#", "1.Kg6-h7 Re6-a6  2.Sf6-d7 Qc1-c6  3.Qg3-b8#"}},
        {{"1.e3-e2 g7-g8=Q  2.e2-e1=Q Qg8-g3  3.Qe1-e2 Qg3-g1#", "1.e3-e2 g7-g8=Q  2.e2-e1=Q Qg8-g3  3.Qe1xg3="}},
        {{"1.e2-e1=Q e7-e8=Q  2.Qe1-e3 Qe8xe3=", "1.e2-e1=Q e7-e8=Q  2.Qe1-h4#"}},
        {{"1.d3-d2 e7-e8=R  2.d2-d1=Q+ Re8-e1  3.Qd1-e2+ Re1xe2=", "1.d3-d2 e7-e8=R  2.d2-d1=Q+ Re8-e1  3.Qd1-f3#"}},
        {{"1.f2-f1=S d2-d4  2.0-0-0 Sa4-b6#", "1.f2-f1=S d2-d4  2.e4xd3 e.p.#"},
         {"1.h2xg1=B f2-f4  2.0-0 Rh5-g5#", "1.h2xg1=B f2-f4  2.e4xf3 e.p.#"}},
    };
    ASSERT_EQ(probs.size(), expected.size());
    for (std::size_t i = 0; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), expected[i].size()) << i << " " << probs[i].refused;
        for (std::size_t t = 0; t < expected[i].size(); ++t)
            EXPECT_EQ(lines_of(solve(probs[i].twins[t], quick())), expected[i][t]) << i << " " << t;
    }
}

// Popeye's postkeyplay: the position after the key, its play written as a
// key's. Popeye 4.104's answers on its TESTS/battle_play.inp (the last with
// "threat 1").
TEST(PopeyeExamples, PostKeyPlay) {
    const auto probs = read_all("popeye_postkey.inp");
    const char* expected[] = {
        // #1.5
        "after the key: zugzwang\n   1...Se8-d6 2.Sd5-c7#\n   1...Se8-f6 2.Sd5-c7#\n   1...Se8-c7 2.Sd5xc7#\n"
        "   1...Se8-g7 2.Sd5-c7#\n",
        // #1.5 incomplete: Popeye's "1...h5-h4 refutes."
        "after the key: zugzwang\n   1...Se8-d6 2.Sd5-c7#\n   1...Se8-f6 2.Sd5-c7#\n   1...Se8-c7 2.Sd5xc7#\n"
        "   1...Se8-g7 2.Sd5-c7#\n   but 1...h5-h4!\n",
        // #2.5
        "after the key: zugzwang\n   1...Se8-d6 2.Se6-c7#\n   1...Se8-f6 2.Se6-c7#\n   1...Se8-c7+ 2.Se6xc7#\n"
        "   1...Se8-g7 2.Se6-c7#\n   1...c6-c5 2.c3-c4 zugzwang\n      2...Se8-d6 3.Se6-c7#\n"
        "      2...Se8-f6 3.Se6-c7#\n      2...Se8-c7+ 3.Se6xc7#\n      2...Se8-g7 3.Se6-c7#\n",
        // s#0.5
        "after the key:\n   1...b3-b2#\n",
        // s#1.5
        "after the key: zugzwang\n   1...b4-b3 2.Qd1-g4\n      2...b3-b2#\n",
        // r#0.5
        "after the key:\n   1...Se1-c2#\n",
        // r#1.5
        "after the key: zugzwang\n   1...b4-b3 2.Sc1-e2\n      2...b3-b2#\n",
        // r#1.5 with immediate mate
        "after the key:\n   1...b3-b2#\n",
        // r#2.5
        "after the key: zugzwang\n   1...a5xb4 2.Bd1-c2 zugzwang\n      2...b4-b3 3.Bc2-b1\n         3...b3-b2#\n",
        // semi-r#0.5
        "after the key:\n   1...b3-b2#\n",
        // #3.5 with restricted threat length (threat 1)
        "after the key: threat: 2.Rh5-h8#\n   1...Ra4-e4+ 2.Sg3xe4 threat: 3.Rh5-h8#\n      2...f7-f6\n"
        "         3.Bf5-e6 threat: 4.Rh5-h8#\n         3.Rh5-h8+\n            3...Ke8-f7 4.Rh8-f8#\n"
        "   1...Ra4-h4 2.Rh5xh4 threat: 3.Rh4-h8#\n      2...f7-f6\n         3.Bf5-e6 threat: 4.Rh4-h8#\n"
        "         3.Rh4-h8+\n            3...Ke8-f7 4.Rh8-f8#\n   1...f7-f6 2.Rh5-h8+\n      2...Ke8-f7 3.Rh8-f8#\n",
    };
    ASSERT_EQ(probs.size(), std::size(expected));
    for (std::size_t i = 0; i < probs.size(); ++i) {
        const Problem& p = probs[i].twins.at(0);
        ASSERT_TRUE(p.stipulation.post_key) << p.title;
        EXPECT_NE(p.fen.find(" b "), std::string::npos) << p.fen;  // the defender moves first
        std::istringstream in(to_text(solve(p, quick())));
        std::vector<std::string> lines;
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        std::string play;  // without the title, the header and the summary
        for (std::size_t j = 0; j + 1 < lines.size(); ++j)
            if (lines[j] != p.title && lines[j].rfind("chess ", 0) != 0) play += lines[j] + "\n";
        EXPECT_EQ(play, expected[i]) << p.title;
    }
}

// The play after the key is the key's own play: Morphy's and Loyd's keys
// played on their diagrams, then solved with postkeyplay, give the same tree.
TEST(PostKeyPlay, IsTheKeysPlay) {
    const auto probs = read_data("classics.inp");
    std::size_t shown = 0;
    for (const Problem* p : {&probs[0].twins[0], &probs[1].twins[0], &probs[1].twins[1]}) {
        const Result keyed = solve(*p, quick());
        ASSERT_EQ(keyed.keys.size(), 1u) << p->title;
        StateInfo st, after;
        Position pos;
        pos.set(p->variant, keyed.fen, st);
        pos.do_move(keyed.keys[0].move.move, after);
        Problem q = *p;
        q.fen = pos.fen();
        q.stipulation.post_key = true;
        const Result post = solve(q, quick());
        ASSERT_TRUE(post.post_key.has_value());
        EXPECT_EQ(post.solution_count(), 1);
        auto tree = [](const Result& r, const char* field) {
            auto j = nlohmann::json::parse(to_json(r));
            auto node = field == std::string("keys") ? j["keys"][0] : j[field];
            node.erase("move");
            node.erase("uci");
            return node;
        };
        EXPECT_EQ(tree(post, "post_key"), tree(keyed, "keys")) << p->title;
        shown += tree(post, "post_key")["defences"].size();
    }
    EXPECT_GT(shown, 7u);  // Morphy's seven variations and Loyd's
}

// A series selfmate of Popeye's TESTS/castling.inp (C. of Whitefield, PK
// 1987): castling inside the series; Popeye 4.104's one solution.
TEST(PopeyeExamples, SeriesSelfmateWithCastling) {
    const auto probs = read_popeye(
        "begin\nauthor C. of Whitefield\nstip ser-s#6\npieces white ke1 rh1 bf1 sg1 pf2g2 black kg4 rh5 sh4\nend\n");
    const Result r = solve(probs.at(0).twins.at(0), quick());
    ASSERT_TRUE(r.complete());
    EXPECT_EQ(lines_of(r), std::vector<std::string>{"1.f2-f4  2.Sg1-f3  3.Bf1-e2  4.0-0  5.Kg1-h2  6.Sf3-d4+ Sh4-f3#"});
}

// Popeye's "threat n": an attacker's move that threatens no win within n has
// been defended. Morphy's key Ra1-a6 is a zugzwang, so with "threat 1" there
// is no key, and Ra1-a5 is no try either (no one defence refutes it); Popeye
// 4.104 gives the one try 1.Ra1xa7+? Bb8xa7!. Without the rule, the key again.
TEST(PopeyeExamples, ThreatBoundRefutesQuietMoves) {
    const auto probs =
        read_popeye("begin\npieces white kc8 ra1 pb6 black ka8 bb8 pa7b7\nstipulation #2\noption try threat 1\nend\n");
    Problem p = probs.at(0).twins.at(0);
    ASSERT_EQ(p.stipulation.max_threat, 1);
    Result r = solve(p, quick(true));
    ASSERT_TRUE(r.complete());
    EXPECT_TRUE(r.keys.empty());
    EXPECT_EQ(tries_of(r), std::vector<std::string>{"a1a7 b8a7"});
    p.stipulation.max_threat = 0;
    r = solve(p, quick(true));
    EXPECT_EQ(keys_of(r), std::vector<std::string>{"a1a6"});
}

namespace {
// The set play and solution lines of the text output, sorted (Popeye lists them in its own order).
std::vector<std::string> sorted_play(const PopeyeProblem& pp, const Problem& p) {
    Options o = quick();
    o.set_play = pp.set_play;
    const Result r = solve(p, o);
    EXPECT_TRUE(r.complete()) << p.title;
    std::vector<std::string> out;
    std::istringstream in(to_text(r));
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && std::isdigit(static_cast<unsigned char>(l[0])) && l.find("(complete)") == std::string::npos)
            out.push_back(l);
    std::sort(out.begin(), out.end());
    return out;
}
}  // namespace

// Series reflexmates and series helpselfmates (tests/solver/data/popeye_series_reflex.inp):
// the ser-r#2 of Popeye's own files and positions found side by side, with
// Popeye 4.104's answers. ser-r#: Black, able to mate after a move of the
// series, must (a short solution, and the series stops there); White, able
// to mate, must, and has lost (Popeye: "1.Bc3-b2 # ?!?"). ser-hs#: Black's
// series, then a White move after which every Black move mates. Set play:
// the play after the series, the other side first.
TEST(PopeyeExamples, SeriesReflexAndHelpSelfMates) {
    const auto probs = read_all("popeye_series_reflex.inp");
    using Lines = std::vector<std::string>;
    const Lines expected[] = {
        {"1...d3-d2#", "1.g3-g4  2.g4-g5 d3-d2#"},
        {"1.h3-h4 b3-b2#"},  // not 1.h3-h4 2.h4-h5: Black must mate at once
        {"1...Rb8-b1#", "1...d3-d2#", "1.g3-g4 Rb8-b1#"},
        {},  // White must mate at once (1.Bc3-b2#)
        {"1.Kd8-e7  2.Ke7-f8 Qg6-g7+  3.Qg1xg7#"},
        {"1.Qg6-b6  2.Rh8-h5 Qe3-g3+  3.Kh4xg3#", "1.Rh8-h5  2.Qg6-b6 Qe3-g3+  3.Kh4xg3#"},
        {"1...h3-h4  2.b3-b2#"},  // set play only
        {"1.Bc8-f5B  2.Kf4-e4B Qa7-e3B#", "1.Bc8-f5B  2.Kf4-e5B Qa7-e7B#", "1.Bc8-g4B  2.Kf4-f3B Qa7-e3B#",
         "1.Kf4-e4B  2.Bc8-f5B Qa7-e3B#", "1.Kf4-e5B  2.Bc8-f5B Qa7-e7B#", "1.Kf4-f3B  2.Bc8-g4B Qa7-e3B#"},
        {"1.Re8-f8B  2.Rf8-f3A Qg3-e5A+  3.Ke3-d2B#", "1.Re8-f8B  2.Rf8-f3A Qg3-e5A+  3.Ke3-d3B#",
         "1.Re8-f8B  2.Rf8-f3A Qg3-e5A+  3.Ke3-f2B#", "1.Re8-h8B  2.Rh8-h3A Qg3-e5A+  3.Ke3-d2B#",
         "1.Re8-h8B  2.Rh8-h3A Qg3-e5A+  3.Ke3-d3B#", "1.Re8-h8B  2.Rh8-h3A Qg3-e5A+  3.Ke3-f2B#",
         "1.Re8-h8B  2.Rh8-h3A Qg3-e5A+  3.Ke3-f3B#"},
    };
    ASSERT_EQ(probs.size(), std::size(expected));
    for (std::size_t i = 0; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), 1u) << i << " " << probs[i].refused;
        EXPECT_EQ(sorted_play(probs[i], probs[i].twins[0]), expected[i]) << probs[i].twins[0].title;
    }
    // The bound White move is named, as Popeye's "?!?" names it.
    const Result bound = solve(probs[3].twins[0], quick());
    EXPECT_NE(bound.note.find("1.Bc3-b2#"), std::string::npos) << bound.note;
    // One move fewer: no ser-hs#1 (Black's one move, then White's, then the mate).
    Problem shorter = probs[4].twins[0];
    shorter.stipulation = parse_stipulation("ser-hs#1");
    EXPECT_TRUE(solve(shorter, quick()).solutions.empty());
    // A longer series keeps the short one: ser-r#3 of the second is still 1.h3-h4 b3-b2#.
    Problem longer = probs[1].twins[0];
    longer.stipulation = parse_stipulation("ser-r#3");
    EXPECT_EQ(sorted_play(probs[1], longer), Lines{"1.h3-h4 b3-b2#"});
    // Series play has no meaning in Avalanche (a pass would skip a pending choice).
    Problem avalanche = probs[0].twins[0];
    avalanche.variant = Variant::Avalanche;
    EXPECT_THROW(solve(avalanche, quick()), ProblemError);
    avalanche.stipulation = parse_stipulation("ser-hs#2");
    EXPECT_THROW(solve(avalanche, quick()), ProblemError);
}

// The set play of series play (tests/solver/data/popeye_series_set_play.inp),
// with Popeye 4.104's answers: the other side's move at once, reaching the
// goal (ser-h#, ser-h=) or forced to (ser-s#); none in ser-#.
TEST(PopeyeExamples, SeriesSetPlay) {
    const auto probs = read_all("popeye_series_set_play.inp");
    using Lines = std::vector<std::string>;
    const Lines expected[] = {
        {"1...Kd1-e2=", "1.Kg1xf1  2.Rg2-g1  3.g3-g2  4.Bh2-f4  5.Bf4-d2 Kd1xd2="},
        {"1...b3xa2#", "1.Sa2-c1  2.Sc1-a2 b3xa2#"},
        {"1...Qd1-d8#", "1.Ka8-b8 Qd1-d8#"},
        {"1.Qd1-d8#"},
    };
    ASSERT_EQ(probs.size(), std::size(expected));
    for (std::size_t i = 0; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), 1u) << i << " " << probs[i].refused;
        EXPECT_TRUE(probs[i].set_play) << i;
        EXPECT_EQ(sorted_play(probs[i], probs[i].twins[0]), expected[i]) << probs[i].twins[0].title;
    }
    // ser-#: the option is not applicable, and the note says so.
    Options o = quick();
    o.set_play = true;
    EXPECT_NE(solve(probs[3].twins[0], o).note.find("set play is not applicable"), std::string::npos);
    EXPECT_EQ(solve(probs[2].twins[0], o).note.find("set play"), std::string::npos);
}

namespace {
// The text output's play: every line but the title, the problem's line and the summary.
std::string play_text(const PopeyeProblem& pp, const Problem& p) {
    Options o = quick(pp.tries);
    o.set_play = pp.set_play;
    o.threats = pp.threats;
    const Result r = solve(p, o);
    EXPECT_TRUE(r.complete()) << p.title;
    std::istringstream in(to_text(r));
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string out;
    for (std::size_t i = p.title.empty() ? 1 : 2; i + 1 < lines.size(); ++i) out += lines[i] + "\n";
    return out;
}
}  // namespace

// Popeye's goals of the last move itself (+ x ~ 00 ep z) and mate or
// stalemate (#=), tests/solver/data/popeye_goals.inp: the problems of
// Popeye's own files that use them and composed ones, with Popeye 4.104's
// answers (its signs too: a goal move's check only, then " x", " z", "#=").
TEST(PopeyeExamples, OtherGoals) {
    const auto probs = read_all("popeye_goals.inp");
    const char* expected[] = {
        // hep1
        "1.g7-g5 h5xg6 e.p.\n",
        // h001.5
        "1...h3-h4  2.Bh6-g7 0-0-0\n",
        // ser-003: not 1.Kxe2 2.Ke1 (the king has moved)
        "1.Sb5-d4  2.Sd4xe2  3.0-0\n",
        // #=2: a mate and a stalemate, each in one
        "1.Rc3-c1#=!\n1.Rc3-b3#=!\n",
        // sep1: Black must take en passant
        "1.f2-f4!\n   1...e4xf3 e.p.\n",
        // ser-sx7 (Suwe)
        "1.0-0-0  2.Kc1-c2  3.Kc2xb3  4.Kb3-c4  5.Kc4-d5  6.Kd5-e6  7.Rd1-d8+ Ke8xd8 x\n",
        // ser-r+3 (Roesler)
        "1.Rh1-g1  2.Bh5-e2  3.Ke1-f1 Ba6xe2+\n",
        // ser-szh33 (Werner)
        "1.0-0  2.Rf1-f4  3.Bh8-e5 Kg3-h3 z\n",
        // hze73 (Werner)
        "1.Bf8-g7 Ke6-d6  2.Sg8-f6 Kd6-e6  3.0-0 Ke6-e7 z\n",
        // h+1: seven, castling among them
        "1.Ke8-d7 0-0-0+\n1.Ke8-d7 Ra1-d1+\n1.Ke8-d7 Ra1xa7+\n1.Ke8-e7 Ra1xa7+\n1.Ke8-f7 Ra1xa7+\n"
        "1.Ke8-d8 0-0-0+\n1.Ke8-d8 Ra1-d1+\n",
        // hx0.5: a capture that checks keeps its sign
        "1...Ra1xa7 x\n1...Qd1xd8+ x\n",
        // x1: a capture that mates is written as a check
        "1.Qa1xa8+ x!\n",
        // ~1: every move
        "1.Ke1-d1!\n1.Ke1-f1!\n1.Ke1-d2!\n1.Ke1-e2!\n1.Ke1-f2!\n",
        // 001
        "1.0-0!\n",
        // s#2 with short solution: the defender's only move mates, shown
        "1.Rc3-c4! zugzwang\n   1...b3-b2#\n",
        // s#2 with complete short set play: after the key the defender would
        // not mate at once (1...b3-b2# left out), in the set play it must
        "set play:\n   1...b3-b2#\n1.Rc4-e4!\n   1...c5-c4 2.Re4xc4\n      2...b3-b2#\n",
        // sx2: 1...Kxb7 and 1...Kxc7 at once left out, as Popeye does
        "1.Qh7-b7+!\n   1...Kb6-a5\n      2.Qb7-b5+\n         2...Ka5xb5 x\n      2.Qb7-a6+\n"
        "         2...Ka5xa6 x\n      2.Qb7-b6+\n         2...Ka5xb6 x\n   1...Kb6-c5 2.Qb7-c6+\n"
        "      2...Kc5xc6 x\n1.Qh7-c7+!\n   1...Kb6-b5 2.Qc7-b6+\n      2...Kb5xb6 x\n"
        "   1...Kb6-a6 2.Qc7-b6+\n      2...Ka6xb6 x\n",
        nullptr,  // ser-x3: below
        nullptr,  // ser-s+3: below
    };
    ASSERT_EQ(probs.size(), std::size(expected));
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), 1u) << i << " " << probs[i].refused;
        texts.push_back(play_text(probs[i], probs[i].twins[0]));
        if (expected[i]) {
            EXPECT_EQ(texts.back(), expected[i]) << probs[i].twins[0].title;
        }
    }
    auto lines = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) out.push_back(l);
        return out;
    };
    auto has = [](const std::vector<std::string>& v, const std::string& l) {
        return std::find(v.begin(), v.end(), l) != v.end();
    };
    // ser-x3: Popeye's 29 lines; a capture at the second move ends the series (a short solution).
    const auto capture = lines(texts[17]);
    EXPECT_EQ(capture.size(), 29u) << texts[17];
    EXPECT_TRUE(has(capture, "1.Rd3-b3  2.Rb3xb5+ x")) << texts[17];
    EXPECT_TRUE(has(capture, "1.Kc2-b3  2.Kb3-a4  3.Ka4xb5 x")) << texts[17];
    // ser-s+3: Popeye's 26 lines; Black bound to check after two moves ends the
    // series, and a move that leaves Black no move (2.Kf4-e3) does not.
    const auto check = lines(texts[18]);
    EXPECT_EQ(check.size(), 26u) << texts[18];
    EXPECT_TRUE(has(check, "1.Kg4-g3  2.Kg3-f2 e4-e3+")) << texts[18];
    EXPECT_TRUE(has(check, "1.Kg4-f4  2.Kf4-e3  3.Ke3-d2 e4-e3+")) << texts[18];
    for (const auto& l : check) EXPECT_FALSE(l.starts_with("1.Kg4-g3  2.Kg3-f2  3.")) << l;
}

// Helpreflexmates (hr#) of Popeye's TESTS/help_play.inp: Black able to mate
// must (at once in the diagram of hr#1.5, after White's first move in hr#2,
// whatever else the lines could be); White able to mate must, and has lost.
TEST(PopeyeExamples, HelpReflexMates) {
    const auto probs = read_popeye_all(
        "begin\ntitle hr#1.5 - don't write long solutions because Black must mate immediately\n"
        "pieces white ka1 ph3\n       black ka3 pa2b3h6\nstip hr#1.5\nnext\n"
        "title hr#2 - don't write long solutions because Black must mate immediately\n"
        "pieces white ka1 pf3\n       black ka3 pa2b3h6\nstip hr#2\nnext\n"
        "title no solution because White must mate\nstip hr#1\npieces white ka6 qf6\n       black kb8 rg4h5\nend\n");
    ASSERT_EQ(probs.size(), 3u);
    EXPECT_EQ(play_text(probs[0], probs[0].twins[0]), "1...b3-b2#\n");
    EXPECT_EQ(play_text(probs[1], probs[1].twins[0]), "1.f3-f4 b3-b2#\n");
    Options o = quick(false);
    const Result bound = solve(probs[2].twins[0], o);
    EXPECT_EQ(bound.solution_count(), 0);
    EXPECT_NE(bound.note.find("must reach the goal at once (1.Qf6-d8#)"), std::string::npos) << bound.note;
}

// Double mates and counter-mates (tests/solver/data/popeye_double_mate.inp):
// the orthodox ones of Popeye's own files, composed ones and Alice ones found
// side by side, with Popeye
// 4.104's answers. The last move leaves its own king attacked; after it both
// kings are attacked and neither side can move (a capture of the other king
// counts as a move); before it the mover could move (##) or was mated (##!).
TEST(PopeyeExamples, DoubleMatesAndCounterMates) {
    const auto probs = read_all("popeye_double_mate.inp");
    ASSERT_EQ(probs.size(), 13u);
    // ##1 and its twins: b) and c) have none, White being immobile in the diagram.
    ASSERT_EQ(probs[0].twins.size(), 3u);
    EXPECT_EQ(play_text(probs[0], probs[0].twins[0]), "1.Kh6-h7##!\n");
    EXPECT_EQ(play_text(probs[0], probs[0].twins[1]), "");
    EXPECT_EQ(play_text(probs[0], probs[0].twins[2]), "");
    const char* expected[] = {
        nullptr,
        // h##!2: Black mates White, which mates back with a self-checking move
        "1.Rg7-g4 Bh7-b1  2.Qh8-c3# Ka3-a2##!\n",
        // h##2
        "1.Kg4-h3 Ke4-f3  2.g5-g4+ Kf3xg2##\n",
        // ##!2 with tries that fail only because White is not mated before its last move
        "1.Ra5-a8! zugzwang\n   1...Bh8xg7# 2.Ra8xa4##!\n"
        "1.Bb1-c2? zugzwang\n   but 1...Bh8xg7+!\n1.Bb1-d3? zugzwang\n   but 1...Bh8xg7+!\n"
        "1.Bb1-e4? zugzwang\n   but 1...Bh8xg7+!\n1.Bb1-f5? zugzwang\n   but 1...Bh8xg7+!\n"
        "1.Bb1-g6? zugzwang\n   but 1...Bh8xg7+!\n1.Bb1-h7? zugzwang\n   but 1...Bh8xg7+!\n"
        "1.Ra5-a6? zugzwang\n   but 1...Bh8xg7+!\n1.Ra5-a7? zugzwang\n   but 1...Bh8xg7+!\n",
        // ##!2 with a short solution: White, mated in the diagram, double-mates at once
        "1.Kc8-b7##!!\n",
        // ser-##2: none, 1.Kh2-h3 stalemates Black
        "",
        // ser-h##!2
        "1.Rg7-g4  2.Qh8-c3# Ka3-a2##!\n",
        // ##1: the kings attack each other, each guarded
        "1.Kc3-b2##!\n",
        // ##1: none, Black's king may take White's
        "",
        // s##!1
        "1.Qa5-c5#!\n   1...Kc8-b7##!\n",
        // Alice h##2: the kings meet on board B
        "1.d7xc6B Qa6-d6B  2.Bd8-f6B Kd4-c5B##\n",
        // Alice h##2: White's king goes to board B, its move legal on board A
        "1.Qg1-g5B Qa2-f2A+  2.Kf7-g8B Kh6-h7B##\n",
        // ##1: castling, the king's arrival attacked
        "1.0-0-0##!\n",
    };
    for (std::size_t i = 1; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), 1u) << i << " " << probs[i].refused;
        EXPECT_EQ(play_text(probs[i], probs[i].twins[0]), expected[i]) << probs[i].twins[0].title;
    }
    // A plain mate is no double mate: the h#2 of the h##2 diagram has its own solutions, the h##2 not those.
    Problem plain = probs[2].twins[0];
    plain.stipulation = parse_stipulation("h#2");
    const Result mates = solve(plain, quick());
    for (const auto& line : lines_of(mates)) EXPECT_EQ(line.find("##"), std::string::npos) << line;
    // A series double mate: the ##1 as ser-##1 (Popeye: 1.Kh6-h7 ##).
    Problem series = probs[0].twins[0];
    series.stipulation = parse_stipulation("ser-##1");
    EXPECT_EQ(play_text(probs[0], series), "1.Kh6-h7##\n");
    // Counter-mate needs the mover mated first: the ##1 position has no ##!1.
    Problem counter = probs[7].twins[0];
    counter.stipulation = parse_stipulation("##!1");
    EXPECT_TRUE(solve(counter, quick()).keys.empty());
    // Too short: h##!1 of the h##!2 diagram has none.
    Problem shorter = probs[1].twins[0];
    shorter.stipulation = parse_stipulation("h##!1");
    EXPECT_TRUE(solve(shorter, quick()).solutions.empty());
    // Not defined in Avalanche chess, where the solver says so.
    Problem avalanche = probs[1].twins[0];
    avalanche.variant = Variant::Avalanche;
    try {
        solve(avalanche, quick());
        ADD_FAILURE() << "an Avalanche h##!2 was solved";
    } catch (const ProblemError& e) {
        EXPECT_NE(std::string(e.what()).find("not defined in Avalanche chess"), std::string::npos) << e.what();
    }
}

TEST(PopeyeExamples, SelfmatesWhoseLastDefenceIsInCheck) {
    // Popeye's TESTS/battle_play.inp 16 (s#1) and 23 (s#2): White's last move checks, so the
    // defender's killer from a sibling line (Search::killer_refutes) is often illegal here and
    // must not count as a refutation.
    for (const auto& [fen, stip, key] : {std::tuple{"8/8/8/8/8/kp5R/p7/K7 w - - 0 1", "s#1", "h3h4"},
                                         std::tuple{"8/8/8/8/1p4Q1/k7/p7/K7 w - - 0 1", "s#2", "g4d1"}}) {
        EXPECT_EQ(keys_of(solve_fen(Variant::Chess, fen, stip)), std::vector<std::string>{key}) << stip;
    }
}

// Parry series (tests/solver/data/popeye_parry.inp), every line Popeye 4.104's:
// its EXAMPLES/pseries.inp (pser-#2, pser-#3, pser-#6, pser-h#6, pser-h#7 and
// its twin, pser-h=4, pser-s=8, and phser-007 for its sstipulation), the
// pser-s#2 and pser-h#2 of its regressions with their set play, and a pser-#3
// and a phser-#3 of 150 and 280 lines. A check of the series side is answered
// (every answer in pser-, one that helps in pser-h and phser-), else the other
// side passes; a number before each move of the series side.
TEST(PopeyeExamples, ParrySeries) {
    const auto probs = read_all("popeye_parry.inp");
    using Lines = std::vector<std::string>;
    const Lines expected[] = {
        {"1.Rh4xh7+ Qg8xh7  2.Qh3xh7#"},
        {"1.h2-h1=Q  2.Kg1-h2  3.Qh1-c1+ Sd5-f4  4.Qc1-c6+ Sf4-e6  5.Qc6-c1+ Se6-g5  6.Qc1-h1 Sg5-f3#"},
        {"1.e2-e1=S  2.Se1-d3+ Kb2-c2  3.Sd3-e1+ Kc2-d2  4.Se1-f3+ Kd2-e2  5.Sf3-g1+ Ke2-f2  6.Sg1-h3+ Kf2-g3  "
         "7.Sh3-g1 Sd1-f2#"},
        {"1.Qe1-g3+ Ke5-d4  2.Qg3-e1  3.Qe1-a1#", "1.Qe1-g3+ Ke5-e6  2.Qg3-c7  3.Ba6-c8#",
         "1.Qe1-g3+ Ke5-f5  2.Ba6-f1  3.Bf1-h3#"},
        {"1.Bh5-f7  2.Rh4-h7  3.Bf7-d5+ Kb7-a6  4.Bd5-e6  5.Rh7-h6  6.Be6-c8#",
         "1.Bh5-f7  2.Rh4-h7  3.Bf7-d5+ Kb7-c8  4.Rh7-d7  5.Bd5-e6  6.Rd7-c7#"},
        {"1.h7-h8=Q  2.Qh8-a8+ Sb2-a4  3.Qa8-h1+ Ka1-a2  4.Qh1-b1+ Ka2-a3  5.Qb1-e1  6.Kc2-b1  7.Kb1-a1  "
         "8.Qe1-c3+ Sa4xc3="},
        {"1.d2-d1=Q  2.Qd1-d8+ e7-e8=S  3.Qd8-f6+ Se8xf6  4.g4-g3 Rb1-f1="},
        {"1.Bb6-d4  2.Bd4-b2  3.Bb2-a3+ Kb4-a5  4.Ba3-c5+ Bc2-a4  5.Bc5-b6+ Ka5-b4  6.Bb6-c5+ Kb4-b3  7.0-0-0"},
        {"1...d3-d2#", "1.Sh2-f3  2.Sf3-h2 d3-d2#"},
        {"1...d6-d7#", "1.g6-g5  2.g5-g4 d6-d7#"},
    };
    ASSERT_EQ(probs.size(), std::size(expected) + 2);
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        ASSERT_FALSE(probs[i].twins.empty()) << i << " " << probs[i].refused;
        EXPECT_EQ(sorted_play(probs[i], probs[i].twins[0]), expected[i]) << i << " " << probs[i].twins[0].title;
    }
    ASSERT_EQ(probs[2].twins.size(), 2u);
    EXPECT_EQ(sorted_play(probs[2], probs[2].twins[1]),
              Lines{"1.e2-e1=B  2.Be1-c3+ Kb2-c1  3.Bc3-b2+ Kc1-d2  4.Bb2-c1+ Kd2-e1  5.Bc1-d2+ Ke1-f2  "
                    "6.Bd2xe3+ Kf2-g3  7.Be3-g1 Bd1-f3#"});
    // pser-#3: short mates, and the series goes on past a stalemate (1.Qb1-g6).
    const Lines pser = sorted_play(probs[10], probs[10].twins.at(0));
    EXPECT_EQ(pser.size(), 150u);
    auto has = [](const Lines& l, const char* s) { return std::find(l.begin(), l.end(), s) != l.end(); };
    EXPECT_TRUE(has(pser, "1.Qb1-b7#"));
    EXPECT_TRUE(has(pser, "1.Kc6-c7  2.Qb1-a2#"));
    EXPECT_TRUE(has(pser, "1.Qb1-g6  2.Kc6-b6  3.Qg6-e8#"));
    EXPECT_TRUE(has(pser, "1.Qb1-a2+ Ka8-b8  2.Qa2-b3+ Kb8-c8  3.Qb3-g8#"));
    EXPECT_FALSE(has(pser, "1.Qb1-h7  2.Kc6-b6  3.Qh7-g8#"));  // White's shortest wins only
    // phser-#3: one parry chosen, and every line of every length (Popeye's help play).
    const Lines phser = sorted_play(probs[11], probs[11].twins.at(0));
    EXPECT_EQ(phser.size(), 280u);
    EXPECT_TRUE(has(phser, "1.Qb1-h7  2.Kc6-b6  3.Qh7-g8#"));
    EXPECT_TRUE(has(phser, "1.Qb1-a2+ Ka8-b8  2.Qa2-b1+ Kb8-a7  3.Qb1-b7#"));
    EXPECT_FALSE(has(phser, "1.Qb1-a2+ Ka8-b8  2.Qa2-b1+ Kb8-c8  3.Qb1-b7#"));  // not a mate
    // The stipulations read back as written, and the forms not played are refused with their name.
    EXPECT_EQ(probs[8].twins[0].stipulation.str(), "pser-s#2");
    EXPECT_EQ(probs[7].twins[0].stipulation.str(), "phser-007");
    for (const char* refused :
         {"pser-r#2", "pser-hs#2", "phser-s#2", "phser-r#2", "pser-dia1", "exact-pser-#2", "pser-##2"})
        EXPECT_THROW(parse_stipulation(refused), StipulationError) << refused;
    // Parry series has passes: not in Avalanche chess.
    Problem avalanche = probs[0].twins[0];
    avalanche.variant = Variant::Avalanche;
    EXPECT_THROW(solve(avalanche, quick()), ProblemError);
}

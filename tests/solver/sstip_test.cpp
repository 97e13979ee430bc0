// Popeye's structured stipulations beyond the synonyms: its parry construct
// "?+?" (the parry series) and its capture-zugzwang "[/1d[G]a{!+}]"
// (Goal::Zugzwang), each answer Popeye 4.104's; and the forms still
// refused, each with its reason, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "solver/output.h"
#include "solver/popeye.h"
#include "solver/popeye_sstip.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

using Lines = std::vector<std::string>;

std::vector<PopeyeProblem> read_data(const std::string& name) {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return read_popeye_all(ss.str());
}

// The lines of the answer that begin with a number (help lines, keys), sorted;
// with `tree`, every line of the tree (variations), trimmed, in order.
Lines play_of(const PopeyeProblem& pp, const Problem& p, bool tree = false) {
    Options o;
    o.threads = 2;
    o.hash_megabytes = 16;
    o.set_play = pp.set_play;
    o.variations = tree;
    const Result r = solve(p, o);
    EXPECT_TRUE(r.complete()) << p.title;
    Lines out;
    std::istringstream in(to_text(r));
    for (std::string l; std::getline(in, l);) {
        const auto first = l.find_first_not_of(' ');
        if (first == std::string::npos || !std::isdigit(static_cast<unsigned char>(l[first])) ||
            l.find("(complete)") != std::string::npos)
            continue;
        out.push_back(tree ? l.substr(first) : l);
    }
    if (!tree) std::sort(out.begin(), out.end());
    return out;
}

Stipulation sstip(const std::string& text) {
    const auto p = read_popeye("begin\npieces white ke1 qd1 black ke8 pe7\nsstipulation " + text + "\nend\n");
    return p.at(0).twins.at(0).stipulation;
}

std::string refusal(const std::string& text) {
    try {
        read_popeye("begin\npieces white ke1 qd1 black ke8 pe7\nsstipulation " + text + "\nend\n");
    } catch (const PopeyeError& e) {
        return e.what();
    }
    return "read";
}

}  // namespace

// Popeye's EXAMPLES/capzug.inp (but its 4, 15 s): after the play, the side to
// move is not in check, has a move, and every move of it captures (checks,
// mates, stalemates); those moves are not shown, nor a goal's sign. Help play
// is numbered by the side the sstipulation names ("white 5h": White's moves).
TEST(PopeyeExamples, CaptureZugzwang) {
    const auto probs = read_data("popeye_sstip.inp");
    ASSERT_EQ(probs.size(), 9u);
    for (const auto& p : probs) ASSERT_EQ(p.twins.size(), 1u) << p.refused;
    const Lines expected[] = {
        {"1...e7xf8=B  2.e2-e1=B Bf8xd6  3.Be1-h4 Bd6-g3", "1...e7xf8=Q  2.e2-e1=Q Qf8-b8  3.Qe1-c3 Qb8-b3",
         "1...e7xf8=R  2.e2-e1=R Rf8-b8  3.Re1-a1 Rb8-b1", "1...e7xf8=S  2.e2-e1=S Sf8-e6  3.Se1-c2 Rc4xc2"},
        {"1...Ka5-b4  2.Kb7-a6 Kb4-c5  3.Ka6-a5 a2-a4  4.a7-a6 a4xb5",
         "1.Kb7-c6 Ka5-a6  2.b5-b4 Ka6xa7  3.Kc6-b5 Ka7-b7  4.Kb5-a5 a2-a4",
         "1.b5-b4 Ka5-b5  2.a7-a6+ Kb5-c4  3.Kb7-b6 a2-a3  4.Kb6-a5 Kc4-c5"},
        {"1.Ka8-b7 a7-a8=R  2.g2-g1=Q Ra8-a6  3.Qg1-a7 Ke6-d7  4.Kb7-a8+ Kd7-c8"},
        {},  // battle play: below
        {"1.a7-a5  2.a5-a4  3.a4-a3  4.a3-a2  5.a2-a1=B  6.Ba1-e5  7.Be5-b8  8.Bb8-a7 Kc8-c7"},
        {"1.a2-a3 Qh2-a2  2.Re1-e2 f3xe2  3.Rh1-e1"},
        {"1.a2-a4 Kb2-a3  2.Ke4-d3 b3-b2  3.Kd3-c2 b5xa4  4.Kc2-b1"},
    };
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        EXPECT_EQ(probs[i].twins[0].stipulation.goal, Goal::Zugzwang) << i;
        if (i != 3) {
            EXPECT_EQ(play_of(probs[i], probs[i].twins[0]), expected[i]) << i;
        }
    }
    // 3a[/1d[+]a{!+}]d: a direct two-mover whose every line ends in Black's check-zugzwang.
    EXPECT_EQ(play_of(probs[3], probs[3].twins[0], true),
              (Lines{"1.Sf2-h1! zugzwang", "1...g2xh1=Q+ 2.Kf3-f2", "1...g2xh1=R 2.Kf3-g2", "1...g2xh1=B+ 2.Re2-g2",
                     "1...g2xh1=S 2.Kf3xe4"}));
    // Read back as written, and written back as an sstipulation that reads the same.
    EXPECT_EQ(probs[0].twins[0].stipulation.str(), "5h[/1d[x]a{!+}]h");
    EXPECT_EQ(probs[4].twins[0].stipulation.str(), "8s[1a[/1d[+]a{!+}]d]");
    for (const auto& p : probs) {
        const Problem& q = p.twins[0];
        const auto again = read_popeye(write_popeye(q));
        ASSERT_EQ(again.size(), 1u);
        EXPECT_EQ(again[0].twins.at(0).stipulation, q.stipulation) << write_popeye(q);
    }
    EXPECT_NE(write_popeye(probs[0].twins[0]).find("sstipulation black - 5h[/1d[x]a{!+}]h\n"), std::string::npos);
}

// EXAMPLES/pseries.inp's two sstipulations: Popeye's ?+? grants a move to a
// side in check only, its parry; they are pser-h#7 and phser-007, and Popeye
// 4.104 gives both forms the same lines (the pser-h#7 takes about 2 s).
TEST(PopeyeExamples, StructuredParrySeries) {
    const auto probs = read_data("popeye_sstip.inp");
    ASSERT_EQ(probs.size(), 9u);
    EXPECT_EQ(probs[7].twins.at(0).stipulation.str(), "pser-h#7");
    EXPECT_EQ(probs[8].twins.at(0).stipulation.str(), "phser-007");
    EXPECT_EQ(play_of(probs[7], probs[7].twins[0]),
              Lines{"1.Sc2-a1  2.Qb1-h7  3.Qh7-b7+ Ra4-e4  4.Kb3-a2  5.Qb7-b1  6.Rb8-b2  7.Sa1-b3 Re4-a4#"});
    // The second is the phser-007 of PopeyeExamples.ParrySeries, solved there (Popeye's
    // "1.Bb6-d4  2.Bd4-b2  3.Bb2-a3+ Kb4-a5 ... 7.0-0-0"): the same problem, read alike.
    EXPECT_FALSE(probs[8].twins[0].stipulation.exchanged);
}

// The forms of Popeye's manual, read as the stipulation they are synonyms of.
TEST(PopeyeDialect, StructuredParryAndZugzwangForms) {
    const std::pair<const char*, const char*> forms[] = {
        {"white 15a[#]?+?d", "pser-#8"},
        {"white 15a[1d[#]a]?+?d", "pser-s#8"},
        {"black 15h[1a[#]d]?+?h", "pser-h#8"},
        {"black 13h[1h[=]h]?+?h", "pser-h=7"},
        {"white 7h[#]?+?h", "phser-#4"},
        {"white 13h[00]?+?h", "phser-007"},
        {"black 2s[1a[#]d]", "ser-h#2"},
        {"white 3a[/1d[x]a{!+}]d", "3a[/1d[x]a{!+}]d"},
        {"black 8hh[/1d[zc8]a{!+}]", "8hh[/1d[zc8]a{!+}]"},
    };
    for (const auto& [text, str] : forms) EXPECT_EQ(sstip(text).str(), str) << text;
    EXPECT_TRUE(sstip("black 7h[#]?+?h").exchanged);  // phser-#4 with Black's series
    const Stipulation z = sstip("black - 5h[/1d[+]a{!+}]h");
    EXPECT_EQ(z.play, Play::Help);
    EXPECT_EQ(z.goal, Goal::Zugzwang);
    EXPECT_EQ(z.zug_goal, Goal::Check);
    EXPECT_EQ(z.starts(), WHITE);
    EXPECT_FALSE(z.exchanged);
    EXPECT_EQ(z.numbered(), BLACK);
    EXPECT_EQ(sstip("white 5h[/1d[+]a{!+}]h").numbered(), WHITE);
    EXPECT_EQ(sstip("white 3h[#]h").numbered(), WHITE);  // Popeye: "1.Rb1-h1 Ka8-b8  2.Rh1-h8#"
    EXPECT_EQ(sstip("black - 3h[#]h").numbered(), BLACK);
    EXPECT_EQ(sstipulation_text(sstip("white 3h[#]h")), "white 3h[#]h");
    EXPECT_EQ(sstipulation_text(sstip("black 4:4hh[#]")), "black 4:4hh[#]");
    EXPECT_EQ(sstipulation_text(sstip("white 3a[#]d")), "");  // a stipulation says it: #2
}

// Hostile and unsupported forms: refused with the form's text and the reason.
TEST(PopeyeDialect, StructuredFormsRefusedWithTheirReason) {
    const std::pair<const char*, const char*> refused[] = {
        {"white 15a[>1a[#]d]?+?d", "this form is not supported"},                  // pser-semi-r
        {"white 15a[>1a[#]d]?+?d{!1a[#]d}", "this form is not supported"},         // pser-r
        {"white 15h[1d[#]a]?+?h", "help parry series selfplay is not supported"},  // phser-s
        {"white 14a[#]?+?d", "14 half-moves do not fit this form"},
        {"white 7h[#]?#?h", "read only as Popeye's ?+?"},
        {"white 7:7h[#]?+?h", "exact parry series"},
        {"white 7h[#]?+?", "this form is not supported"},
        {"white ?+?", "this form is not supported"},
        {"black 8hh[/1d[##]a{!+}]", "double mate or counter-mate"},
        {"black 8hh[/1d[x]a]", "'/' (play not shown) is read only in the capture-zugzwang"},
        {"black 8hh[1d[x]a{!+}]", "this form is not supported"},
        {"black 8s[/1d[x]a{!+}]", "read only as the goal of"},
        {"white 4ad[/1d[x]a{!+}]", "read only as the goal of"},
        {"white 5h[/1d[x]a{!+}]?+?h", "read only as the goal of"},
        {"black 8hh[/1d[%]a{!+}]", "is not a goal"},
        {"black 8hh[/1d[@]a{!+}]", "is not a goal"},
        {"black 8hh[@]", "no goal"},
        {"black 8hh[/1d[/1d[x]a{!+}]a{!+}]", "only one capture-zugzwang"},
        {"black 8hh[/1d[x]a{!+}]|4hh[#]", "this form is not supported"},
        {"black 9999hh[/1d[x]a{!+}]", "too many half-moves"},
        {"black 0hh[/1d[x]a{!+}]", "0 half-moves do not fit"},
        {"black 7hh[/1d[x]a{!+}]", "7 half-moves do not fit"},
        {"black 998hh[/1d[x]a{!+}]", "at most"},
        {"black [/1d[x]a{!+}]", "this form is not supported"},
        {"white /", "'/' (play not shown)"},
        {"white [/1d[x]a{!+}", "'/' (play not shown)"},
    };
    for (const auto& [text, why] : refused) {
        const std::string e = refusal(text);
        EXPECT_NE(e.find("line 3: sstipulation '"), std::string::npos) << text << ": " << e;
        EXPECT_NE(e.find(why), std::string::npos) << text << ": " << e;
    }
    // A very long tree is cut in the message, and refused.
    EXPECT_NE(refusal("white " + std::string(300, '[')).find("too long"), std::string::npos);
    // Series play has passes: a series-help capture-zugzwang is refused in Avalanche chess.
    const auto ava = read_popeye_all(
        "begin\npieces white kc8 pb6 black ka8 pa7\nsstip black 2s[1a[/1d[+]a{!+}]d]\ncondition avalanche\nend\n");
    ASSERT_EQ(ava.size(), 1u);
    EXPECT_NE(ava[0].refused.find("series play is not defined in Avalanche"), std::string::npos) << ava[0].refused;
}

// A capture-zugzwang reached early is a short solution, and the play goes
// on past it (a nested branch without Popeye's ">"): Popeye 4.104's 88 lines,
// among them 1.Kb1-a1 Rc3-b3 and its longer line.
TEST(CaptureZugzwang, ShortSolutionsAndThePlayGoesOn) {
    const auto p =
        read_popeye("begin\npieces white kh6 ba5f5 se5 pc4a2 rc3 black kb1\nsstip black 4hh[/1d[x]a{!+}]\nend\n");
    const PopeyeProblem none;
    const Lines lines = play_of(none, p.at(0).twins.at(0));
    EXPECT_EQ(lines.size(), 88u);
    for (const char* l : {"1.Kb1-a1 Rc3-b3", "1.Kb1-a1 Rc3-b3  2.Ka1xa2 Ba5-c3", "1.Kb1xa2 Rc3-b3  2.Ka2-a1 Rb3-b2"})
        EXPECT_NE(std::find(lines.begin(), lines.end(), l), lines.end()) << l;
}

// Avalanche: the capture-zugzwang is the game's own, its moves the game's
// legal moves (a first part and its push). After 1.Sb5-a7 Black's only move
// is Ka8xa7 once White's push has blocked its pawn (h7-h6 against h5); in
// orthodox chess h7-h6 is a move, and there is no solution (Popeye 4.104 too).
TEST(CaptureZugzwang, InAvalancheThePushCounts) {
    const std::string text = "begin\npieces white kc7 sb5 ph5 black ka8 ph7\nsstip white 1h[/1d[x]a{!+}]h\n";
    const auto chess = read_popeye(text + "end\n");
    const auto avalanche = read_popeye(text + "condition avalanche\nend\n");
    const PopeyeProblem none;
    EXPECT_EQ(play_of(none, chess.at(0).twins.at(0)), Lines{});
    EXPECT_EQ(play_of(none, avalanche.at(0).twins.at(0)), Lines{"1.Sb5-a7 h7-h6"});
}

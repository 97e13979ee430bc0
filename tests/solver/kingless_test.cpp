// Popeye's own problems without a king (options nowk and nobk): read and
// solved, with Popeye 4.104's answers. The brute-force comparison on random
// positions without a king is ReferenceTest.KinglessPositionsMatchBruteForce.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "solver/output.h"
#include "solver/popeye.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

// The solution lines of one twin, sorted (Popeye's order of moves differs).
std::vector<std::string> solution_lines(const Problem& p) {
    Options o;
    o.threads = 1;
    o.hash_megabytes = 8;
    const Result r = solve(p, o);
    EXPECT_TRUE(r.complete());
    std::vector<std::string> out;
    std::istringstream in(to_text(r));
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && std::isdigit(static_cast<unsigned char>(l[0])) && l.find(" (complete)") == std::string::npos)
            out.push_back(l);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(PopeyeExamples, WithoutAKing) {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/popeye_kingless.inp");
    std::stringstream ss;
    ss << f.rdbuf();
    const auto probs = read_popeye_all(ss.str());
    using Lines = std::vector<std::string>;
    const std::vector<std::vector<Lines>> expected = {
        // ~1, Alice, no black king: every move, the king's among them
        {{"1.Bh4-d8B!", "1.Bh4-e7B!", "1.Bh4-f6B!", "1.Bh4xg3B!", "1.Kd1-c1B!", "1.Kd1-c2B!", "1.Kd1-d2B!",
          "1.Kd1-e1B!", "1.Kd1-e2B!", "1.f4-f5A!", "1.f4xg5A!"}},
        {{"1.e3-e4A+!"}},                // +1: a check only from the king's board
        {{"1.Ka1-a2B!", "1.Ka1-b1B!"}},  // ~1: the king's move judged on both boards
        {{}, {"1.b6-b7A+!"}},            // +1, and its twin with the pawn on board B
        {{"1.0-0-0BB!"}},                // 001: both partners pass to board B
        {{}},                            // 001: not over a square occupied on board B
        // hep1: Popeye lets only the pawn on the captured pawn's board take en
        // passant (its "only of pawns on same board"); RULES.md §2.2 lets either
        // (the rule's text: "whatever the boards of the two pawns"), so d5xe6B too.
        {{"1.e7-e5B d5xe6B e.p.", "1.e7-e5B f5xe6A e.p."}},
        {{"1.Sc8-b6  2.Bh3-f1#"}},  // ser-#2, no white king
        {{"1...Sc5-d3#"}},          // h#0.5, no white king
        {{"1.Ba6-c8 z!"}},          // zc81, no king at all
        {{"1.h3-h4 Ka8xa7 x"}},     // ser-sx2, no white king
        {{}, {}},                   // h#2 and hs#2 on an empty board (postkeyplay ignored)
    };
    ASSERT_EQ(probs.size(), expected.size());
    for (std::size_t i = 0; i < probs.size(); ++i) {
        ASSERT_EQ(probs[i].twins.size(), expected[i].size()) << i << " " << probs[i].refused;
        for (std::size_t t = 0; t < probs[i].twins.size(); ++t)
            EXPECT_EQ(solution_lines(probs[i].twins[t]), expected[i][t]) << i << " " << probs[i].twins[t].title;
    }
    // Each option was given where a king is missing: no warning but the last
    // problem's ignored postkeyplay (in each twin, h#2 and hs#2).
    for (std::size_t i = 0; i + 1 < probs.size(); ++i) EXPECT_TRUE(probs[i].warnings.empty()) << i;
    ASSERT_EQ(probs.back().warnings.size(), 2u);
    for (const auto& w : probs.back().warnings) EXPECT_NE(w.find("postkeyplay"), std::string::npos) << w;
}

// Without the option, Popeye warns ("both sides need a king") and solves on;
// a proof game's diagram still needs both kings.
TEST(PopeyeDialect, MissingKingWithoutTheOptionIsSolvedWithAWarning) {
    const auto p = read_popeye("begin\npieces white qc1 sc5 black kh8 ph7\nstip ser-#2\nend\n");
    ASSERT_EQ(p.size(), 1u);
    ASSERT_EQ(p[0].warnings.size(), 1u);
    EXPECT_NE(p[0].warnings[0].find("line 4: no white king (Popeye's option nowk says it is meant)"),
              std::string::npos);
    EXPECT_EQ(solution_lines(p[0].twins[0]), (std::vector<std::string>{"1.Qc1-f1  2.Qf1-f8#", "1.Qc1-f4  2.Qf4-f8#",
                                                                       "1.Qc1-h6  2.Qh6-f8#", "1.Sc5-e6  2.Qc1-c8#"}));
    const auto dia = read_popeye_all("begin\npieces white ke1 black pe7\nstip dia1\nend\n");
    ASSERT_EQ(dia.size(), 1u);
    EXPECT_NE(dia[0].refused.find("no black king"), std::string::npos) << dia[0].refused;
    // Written back as Popeye input, the options say which king is missing.
    EXPECT_NE(write_popeye(p[0].twins[0]).find("option variation nowk\n"), std::string::npos);
}

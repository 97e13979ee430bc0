// Popeye's options that change what is solved: maxflightsquares (a defender
// whose king has too many flights has defended) and castlingmutuallyexclusive
// (a retro rule: one castling takes the other's right). Popeye 4.104's trees
// on tests/solver/data/popeye_options.inp (the same, path by path, with
// bench/solver/compare_random.py's reading), and each option's effect shown
// against the same problem without it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "solver/output.h"
#include "solver/popeye.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

std::vector<PopeyeProblem> read_data() {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/popeye_options.inp");
    std::stringstream ss;
    ss << f.rdbuf();
    return read_popeye(ss.str());
}

Options one_thread(bool tries) {
    Options o;
    o.threads = 1;
    o.hash_megabytes = 8;
    o.tries = tries;
    return o;
}

// The play as text, without the title, the header and the summary.
std::string play_of(const Problem& p, bool tries) {
    const Result r = solve(p, one_thread(tries));
    EXPECT_TRUE(r.complete());
    std::istringstream in(to_text(r));
    std::string out;
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && l != p.title && l.rfind("chess ", 0) != 0 && l.find(" (complete)") == std::string::npos)
            out += l + "\n";
    return out;
}

std::vector<std::string> keys_of(const Problem& p) {
    std::vector<std::string> out;
    for (const auto& k : solve(p, one_thread(false)).keys) out.push_back(k.move.text);
    return out;
}

}  // namespace

TEST(PopeyeExamples, MaxFlightsquares) {
    const auto probs = read_data();
    ASSERT_EQ(probs.size(), 6u);
    const char* expected[] = {
        // Without the option 1.Qb8-b6 is a key too: it leaves the king three flights.
        "1.Rd2-d6! threat:\n      2.Qb8-c7+\n         2...Ke7-e8 3.Rd6-d8#\n         2...Ke7-f8 3.Rd6-d8#\n",
        "1.Bf6-d4+!\n   1...Kf2-g3\n      2.Qd1-g1+\n         2...Kg3-h3 3.Qg1-g2#\n      2.Qd1-f3+\n"
        "         2...Kg3-h2 3.Qf3-g2#\n      2.Qd1-g4+\n         2...Kg3-h2 3.Qg4-g2#\n",
        // Popeye's guard stands only before a defence that leaves two moves or more.
        "1.Ba7-e3! threat: 2.Rc6-c1#\n1.Rc6-e6! threat: 2.Re6-e1#\n1.Rc6-f6! threat: 2.Rf6-f1#\n"
        "1.Rc6-h6! threat: 2.Rh6-h1#\n",
    };
    const std::vector<std::string> without[] = {
        {"Rd2-d6", "Qb8-b6"},
        {"Bf6-d4+", "Qd1-f3+"},
        {"Ba7-e3", "Rc6-e6", "Rc6-f6", "Rc6-h6"},
    };
    for (std::size_t i = 0; i < std::size(expected); ++i) {
        Problem p = probs[i].twins.at(0);
        ASSERT_NE(p.stipulation.max_flights, Stipulation::NO_MAX_FLIGHTS) << p.title;
        EXPECT_EQ(play_of(p, false), expected[i]) << p.title;
        p.stipulation.max_flights = Stipulation::NO_MAX_FLIGHTS;
        EXPECT_EQ(keys_of(p), without[i]) << p.title;
    }
}

TEST(PopeyeExamples, CastlingMutuallyExclusive) {
    const auto probs = read_data();
    ASSERT_EQ(probs.size(), 6u);
    // Remling and Vatarescu: castling is the key, as the other side's
    // castling, which refutes the rook's move, is then lost; without the rule
    // both are tries (Popeye 4.104, BEISPIEL/castling.inp).
    EXPECT_EQ(play_of(probs[3].twins.at(0), true),
              "1.0-0-0! threat: 2.Rd1-d8#\n1.Ra1-d1? threat: 2.Rd1-d8#\n   but 1...0-0!\n");
    EXPECT_EQ(play_of(probs[4].twins.at(0), true),
              "1.0-0! threat: 2.Rf1-f8#\n1.Rh1-f1? threat: 2.Rf1-f8#\n   but 1...0-0-0!\n");
    // Hazebrouck: every pair excluded; two keys (each castling) with Popeye's
    // trees (169 lines of play, compared path by path in SOLVER.md's run).
    const Problem& h = probs[5].twins.at(0);
    EXPECT_EQ(h.exclusive_castlings.size(), 4u);
    EXPECT_EQ(keys_of(h), (std::vector<std::string>{"0-0", "0-0-0"}));
    const std::string tree = play_of(h, false);
    EXPECT_NE(tree.find("   1...c7-c6 2.Qe4xc6+\n      2...Ke8-d8 3.Se5-f7#\n"), std::string::npos) << tree;
    for (std::size_t i = 3; i < 6; ++i) {
        Problem p = probs[i].twins.at(0);
        ASSERT_FALSE(p.exclusive_castlings.empty());
        p.exclusive_castlings.clear();
        EXPECT_TRUE(keys_of(p).empty()) << p.title;
    }
}

TEST(PopeyeDialect, MaxFlightsquaresAndExclusiveCastlingsReadAndWritten) {
    for (const auto& prob : read_data()) {
        const Problem& p = prob.twins.at(0);
        const auto again = read_popeye(write_popeye(p));
        ASSERT_EQ(again.size(), 1u);
        EXPECT_EQ(again[0].twins.at(0).stipulation, p.stipulation) << p.title;
        EXPECT_EQ(again[0].twins.at(0).exclusive_castlings, p.exclusive_castlings) << p.title;
    }
    auto error_of = [](const std::string& options, const char* stip = "#2") {
        try {
            read_popeye("begin\npieces white ke1 ra1 black ke8 rh8\nstip " + std::string(stip) + "\noption " + options +
                        "\nend\n");
        } catch (const PopeyeError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(error_of("castlingmutuallyexclusive a1a2").find("line 4: option castlingmutuallyexclusive: a1a2 is not"),
              std::string::npos);
    EXPECT_NE(error_of("castlingmutuallyexclusive a8h1").find("a8h1 is not"), std::string::npos);
    EXPECT_NE(error_of("castlingmutuallyexclusive a1").find("expected 2 squares"), std::string::npos);
    EXPECT_NE(error_of("maxflightsquares 1", "h#2").find("maxflightsquares applies to battle play"), std::string::npos);
    EXPECT_NE(error_of("maxflightsquares 65").find("65 is not in 0..64"), std::string::npos);
    EXPECT_NE(error_of("castlingmutuallyexclusive h1h8", "dia2").find("not supported in proof games"),
              std::string::npos);
    EXPECT_EQ(error_of("castlingmutuallyexclusive a1h8 maxflightsquares 2"), "no error");
}

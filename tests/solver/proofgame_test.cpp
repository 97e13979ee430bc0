// Proof games (dia n, a=>b n) in the three games: short ones with known
// solutions (Popeye 4.104's answers for chess and Alice), one with two
// solutions, one with none, and Avalanche checked against a brute-force
// enumeration of every line.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "solver/output.h"
#include "solver/popeye.h"
#include "solver/solver.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

Problem proof(Variant v, const std::string& fen, const char* stip, const std::string& target = "") {
    Problem p;
    p.variant = v;
    p.fen = fen;
    p.stipulation = parse_stipulation(stip);
    p.target = target;
    return p;
}

Options one_thread() {
    Options o;
    o.threads = 1;
    o.hash_megabytes = 8;
    return o;
}

// Each solution as its moves in composers' notation, space-separated, sorted.
std::vector<std::string> texts(const Result& r) {
    std::vector<std::string> out;
    for (const HelpLine& h : r.solutions) {
        std::string s;
        for (const PlayedMove& m : h.moves) s += (s.empty() ? "" : " ") + m.text;
        out.push_back(s);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Every line of `plies` legal half-moves, as UCI, ending on the placement of
// `target`; a line that reaches it earlier after a move of the same side ends
// there (a short solution, as Popeye's helpplay has them).
void brute_force(Position& pos, const Position& target, int plies, std::vector<std::string>& line,
                 std::set<std::string>& out) {
    bool same = pos.pieces() == target.pieces() && pos.on_board_b() == target.on_board_b();
    for (Square s = SQ_A1; same && s <= SQ_H8; ++s) same = pos.piece_on(s) == target.piece_on(s);
    if (plies % 2 == 0 && !line.empty() && same) {
        std::string s;
        for (const auto& m : line) s += (s.empty() ? "" : " ") + m;
        out.insert(s);
        return;
    }
    if (plies == 0) return;
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
        StateInfo st;
        line.push_back(to_uci(m));
        pos.do_move(m, st);
        brute_force(pos, target, plies - 1, line, out);
        pos.undo_move(m);
        line.pop_back();
    }
}

std::set<std::string> ucis(const Result& r) {
    std::set<std::string> out;
    for (const HelpLine& h : r.solutions) {
        std::string s;
        for (const PlayedMove& m : h.moves) s += (s.empty() ? "" : " ") + m.uci;
        out.insert(s);
    }
    return out;
}

}  // namespace

TEST(ProofGame, StipulationForms) {
    EXPECT_EQ(parse_stipulation("dia4").str(), "dia4");
    EXPECT_EQ(parse_stipulation("dia4").plies(), 8);
    EXPECT_EQ(parse_stipulation("dia4").starts(), WHITE);
    EXPECT_EQ(parse_stipulation("dia10.5").plies(), 21);
    EXPECT_EQ(parse_stipulation("a=>b5.5").plies(), 11);
    EXPECT_EQ(parse_stipulation("a=>b5.5").starts(), BLACK);
    EXPECT_EQ(parse_stipulation("a=>b3").str(), "a=>b3");
    EXPECT_THROW(parse_stipulation("ser-dia4"), StipulationError);
    EXPECT_THROW(parse_stipulation("dia0"), StipulationError);
}

// Geza Schweig, Tukon 1938 (Popeye's BEISPIEL/proof.inp): unique.
TEST(ProofGame, ChessSchweigIsUnique) {
    const Result r =
        solve(proof(Variant::Chess, "r1bqkbnr/ppp2ppp/3p4/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", "dia4"), one_thread());
    ASSERT_TRUE(r.complete());
    EXPECT_EQ(texts(r), std::vector<std::string>{"Sb1-c3 d7-d6 Sc3-d5 Sb8-d7 Sd5xe7 Sd7-f6 Se7xg8 Sf6xg8"});
}

// Two solutions: White's two moves in either order, Black's in one.
TEST(ProofGame, ChessTwoSolutions) {
    const Result r = solve(
        proof(Variant::Chess, "rn1qkbnr/ppp1pppp/3pb3/8/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1", "dia2"), one_thread());
    ASSERT_TRUE(r.complete());
    EXPECT_EQ(texts(r), (std::vector<std::string>{"Sg1-f3 d7-d6 e2-e4 Bc8-e6", "e2-e4 d7-d6 Sg1-f3 Bc8-e6"}));
    EXPECT_NE(to_text(r).find("2 solutions (complete)"), std::string::npos);
}

// Three White moves cannot be made in two: no solution, and the search is complete.
TEST(ProofGame, ChessNoSolution) {
    const Result r = solve(
        proof(Variant::Chess, "rnbqkbnr/pppppppp/8/8/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1", "dia2"), one_thread());
    EXPECT_TRUE(r.complete());
    EXPECT_TRUE(r.solutions.empty());
}

// a=>b from Popeye's BEISPIEL/atob.inp (Andernach 5/2001, with whitetoplay), read as Popeye input.
TEST(ProofGame, ChessAtoBFromPopeyeInput) {
    const auto probs = read_popeye(
        "begin\npieces white Kb3 Rb6 Re8 Pc3 black Kc7 Rg3 Ba6\nstipulation a=>b6\noption whitetoplay\n"
        "pieces white Kd5 Rd6 Re5 Pc3 black Kb5 Rg4 Bc4\nend\n");
    ASSERT_EQ(probs.size(), 1u);
    const Problem& p = probs[0].twins.at(0);
    EXPECT_EQ(p.stipulation.starts(), WHITE);
    EXPECT_EQ(p.stipulation.plies(), 12);
    const Result r = solve(p, one_thread());
    ASSERT_TRUE(r.complete());
    EXPECT_EQ(texts(r),
              std::vector<std::string>{"Rb6-h6 Ba6-f1 Re8-e2 Rg3-g6 Kb3-c4 Kc7-b6 Kc4-d5 Kb6-b5 Re2-e5 Rg6-g4 "
                                       "Rh6-d6 Bf1-c4#"});
    // Written back as Popeye input, it reads back the same.
    const std::string text = write_popeye(p);
    EXPECT_NE(text.find("stipulation a=>b6\npieces white kd5"), std::string::npos) << text;
    EXPECT_NE(text.find("whitetoplay"), std::string::npos) << text;
    const auto again = read_popeye(text);
    EXPECT_EQ(again[0].twins.at(0).target, p.target);
    EXPECT_EQ(again[0].twins.at(0).stipulation, p.stipulation);
}

// A limit that stops the search says so.
TEST(ProofGame, NodeLimitSaysIncomplete) {
    Options o = one_thread();
    o.max_nodes = 2000;
    const Result r =
        solve(proof(Variant::Chess, "r1bqkbnr/ppp2ppp/3p4/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", "dia4"), o);
    EXPECT_EQ(r.status, Status::NodeLimit);
    EXPECT_NE(to_text(r).find("incomplete (node limit"), std::string::npos);
}

// Avalanche: every line of the search is a line of the brute force and back.
TEST(ProofGame, AvalancheMatchesBruteForce) {
    struct Case {
        const char* start;
        const char* target;
        const char* stip;
    };
    // From the initial position (dia1: two half-moves) and from sparse positions (a=>b).
    const std::vector<Case> cases = {
        {nullptr, "rnbqkbnr/ppp1pppp/8/3p4/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1", "dia1"},
        {nullptr, "rnbqkbnr/pppp1ppp/8/4p3/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "dia0.5"},
        {"4k3/2p5/8/8/8/8/3P4/4K3 w - - 0 1", "3k4/8/2p5/8/8/3P4/8/3K4 w - - 0 1", "a=>b2"},
        {"4k3/2p2p2/8/8/8/8/3P2P1/4K2R w K - 0 1", "4k3/5p2/2p5/8/8/3P4/6P1/5RK1 w - - 0 1", "a=>b1.5"},
    };
    for (const Case& c : cases) {
        Stipulation st = parse_stipulation(c.stip);
        if (st.atob) st.white_first = true;
        Problem p;
        p.variant = Variant::Avalanche;
        p.stipulation = st;
        p.fen = c.start ? c.start : c.target;
        if (c.start) p.target = c.target;
        const Result r = solve(p, one_thread());
        ASSERT_TRUE(r.complete()) << c.stip;

        StateInfo s0, s1;
        Position pos, target;
        pos.set(Variant::Avalanche, c.start ? c.start : std::string(Position::START_FEN), s0);
        target.set(Variant::Avalanche, c.target, s1);
        std::vector<std::string> line;
        std::set<std::string> expected;
        brute_force(pos, target, st.plies(), line, expected);
        EXPECT_EQ(ucis(r), expected) << c.stip << " " << c.target;
    }
}

// Short Alice proof games (tests/solver/data/alice_proofgames.inp): Popeye 4.104's solutions.
TEST(ProofGame, AliceMatchesPopeye) {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/alice_proofgames.inp");
    std::stringstream text;
    text << f.rdbuf();
    const auto probs = read_popeye(text.str());
    ASSERT_EQ(probs.size(), 5u);
    const std::vector<std::vector<std::string>> expected = {
        {"1.a2-a4B b7-b6B  2.a4-a5A Bc8-b7B"},
        {"1.Sb1-c3B Sb8-c6B  2.Sg1-f3B Sg8-f6B", "1.Sb1-c3B Sg8-f6B  2.Sg1-f3B Sb8-c6B",
         "1.Sg1-f3B Sb8-c6B  2.Sb1-c3B Sg8-f6B", "1.Sg1-f3B Sg8-f6B  2.Sb1-c3B Sb8-c6B"},
        {"1.e2-e4B"},  // a short solution
        {"1.Sg1-h3B e7-e5B  2.e2-e4B Bf8-b4B  3.Bf1-e2B Sg8-f6B  4.0-0BB",
         "1.Sg1-h3B e7-e5B  2.e2-e4B Sg8-f6B  3.Bf1-e2B Bf8-b4B  4.0-0BB",
         "1.Sg1-h3B Sg8-f6B  2.e2-e4B e7-e5B  3.Bf1-e2B Bf8-b4B  4.0-0BB",
         "1.e2-e4B e7-e5B  2.Bf1-e2B Bf8-b4B  3.Sg1-h3B Sg8-f6B  4.0-0BB",
         "1.e2-e4B e7-e5B  2.Bf1-e2B Sg8-f6B  3.Sg1-h3B Bf8-b4B  4.0-0BB",
         "1.e2-e4B e7-e5B  2.Sg1-h3B Bf8-b4B  3.Bf1-e2B Sg8-f6B  4.0-0BB",
         "1.e2-e4B e7-e5B  2.Sg1-h3B Sg8-f6B  3.Bf1-e2B Bf8-b4B  4.0-0BB",
         "1.e2-e4B Sg8-f6B  2.Bf1-e2B e7-e5B  3.Sg1-h3B Bf8-b4B  4.0-0BB",
         "1.e2-e4B Sg8-f6B  2.Sg1-h3B e7-e5B  3.Bf1-e2B Bf8-b4B  4.0-0BB"},
        {},  // the diagram cannot arise
    };
    for (std::size_t i = 0; i < probs.size(); ++i) {
        const Result r = solve(probs[i].twins.at(0), one_thread());
        ASSERT_TRUE(r.complete()) << i;
        std::vector<std::string> got;
        for (const HelpLine& h : r.solutions) {
            std::string s = solution_text(h, r.problem.stipulation);
            s.pop_back();  // the newline
            got.push_back(s);
        }
        std::vector<std::string> want = expected[i];
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        EXPECT_EQ(got, want) << i;
    }
}

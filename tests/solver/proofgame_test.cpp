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
#include "core/vocabulary.h"
#include "solver/output.h"
#include "solver/popeye.h"
#include "solver/proof_bound.h"
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

// A target reached by a line of legal moves (chosen by index, so that it
// exists), solved from the same start in as many half-moves, and compared
// line for line with the brute-force enumeration. Returns the number of solutions.
struct WalkCase {
    const char* start;  // nullptr: the initial position (dia)
    int plies;
    unsigned pick;  // which legal move to play at each ply: (pick * (ply + 1)) % count
    bool white_first;
};

std::size_t check_walk(Variant v, const WalkCase& c) {
    StateInfo s0, s1;
    Position pos, walker;
    const std::string start = c.start ? c.start : std::string(variant_info(v).start_fen);
    pos.set(v, start, s0);
    walker.set(v, start, s1);
    StateInfo walked[8];
    for (int i = 0; i < c.plies; ++i) {
        MoveList l;
        generate_legal(walker, l);
        if (l.empty()) {
            ADD_FAILURE() << "no move at ply " << i << " from " << start;
            return 0;
        }
        walker.do_move(l.moves[(c.pick * (i + 1)) % l.size()], walked[i]);
    }
    Problem p;
    p.variant = v;
    const std::string n = std::to_string(c.plies / 2) + (c.plies % 2 ? ".5" : "");
    p.stipulation = parse_stipulation((c.start ? "a=>b" : "dia") + n);
    p.stipulation.white_first = c.white_first;
    p.fen = c.start ? start : walker.fen();
    if (c.start) p.target = walker.fen();
    const Result r = solve(p, one_thread());
    EXPECT_TRUE(r.complete()) << p.stipulation.str();

    std::vector<std::string> line;
    std::set<std::string> expected;
    brute_force(pos, walker, c.plies, line, expected);
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(ucis(r), expected) << variant_name(v) << " " << p.stipulation.str() << " " << walker.fen();
    return expected.size();
}

// Chess and Alice: sparse positions (pawns on their first rank, a shut-in
// bishop, castling), each target compared with the brute force.
TEST(ProofGame, ChessAndAliceMatchBruteForce) {
    const std::vector<WalkCase> cases = {
        {"4k3/8/8/8/8/8/PPB5/1K6 w - - 0 1", 4, 3, true},    {"2b1k3/1p1p4/8/8/8/8/8/4K3 b - - 0 1", 4, 2, false},
        {"r3k3/p7/8/8/8/8/6PP/4K2R w Kq - 0 1", 3, 5, true}, {"4k3/8/8/3n4/8/8/1P6/R3K3 w Q - 0 1", 4, 7, true},
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", 3, 4, true},
    };
    for (Variant v : {Variant::Chess, Variant::Alice}) {
        std::size_t several = 0;
        for (const WalkCase& c : cases)
            if (check_walk(v, c) >= 2) ++several;
        EXPECT_GE(several, 1u) << variant_name(v);
    }
}

// Avalanche: every line of the search is a line of the brute force and back.
TEST(ProofGame, AvalancheMatchesBruteForce) {
    const std::vector<WalkCase> cases = {
        {nullptr, 2, 5, true},
        {nullptr, 1, 77, true},
        {"4k3/2p5/8/8/8/8/3P4/4K3 w - - 0 1", 4, 3, true},
        {"4k3/2p2p2/8/8/8/8/3P2P1/4K2R w K - 0 1", 3, 2, true},
        {"r3k3/1p6/8/8/8/8/6P1/4K2R b Kq - 0 1", 4, 1, false},
    };
    std::size_t several = 0;
    for (const WalkCase& c : cases)
        if (check_walk(Variant::Avalanche, c) >= 2) ++several;
    EXPECT_GE(several, 1u);  // some target is reached by two lines or more

    // No solution: Black's push must move a White pawn, so 1.e2-e4 and a
    // Black pawn's step cannot be all that changed after two half-moves.
    const char* after = "rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
    const Result none = solve(proof(Variant::Avalanche, after, "dia1"), one_thread());
    EXPECT_TRUE(none.complete());
    EXPECT_TRUE(none.solutions.empty());
    StateInfo s0, s1;
    Position start, target;
    start.set(Variant::Avalanche, Position::START_FEN, s0);
    target.set(Variant::Avalanche, after, s1);
    std::vector<std::string> line;
    std::set<std::string> lines;
    brute_force(start, target, 2, line, lines);
    EXPECT_TRUE(lines.empty());
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

// The lower bound itself (src/solver/proof_bound.h), on cases whose answer is plain.
TEST(ProofGame, BoundCountsWhatEachSideNeeds) {
    auto needs = [](Variant v, const char* target) {
        StateInfo s0, s1;
        Position start, goal;
        start.set(v, variant_info(v).start_fen, s0);
        goal.set(v, target, s1);
        const ProofBound bound(v, goal);
        std::pair<int, int> out;
        int n[COLOR_NB];
        bound.needed(start, n);
        out = {n[WHITE], n[BLACK]};
        return out;
    };
    constexpr int NO = ProofBound::UNREACHABLE_MOVES;
    // 1.e4 e5 2.Sf3: two White moves, one Black.
    EXPECT_EQ(needs(Variant::Chess, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1"),
              std::make_pair(2, 1));
    // A bishop on e3 while b2 and d2 never moved: shut in for good.
    EXPECT_EQ(needs(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/4B3/PPPPPPPP/RN1QKBNR b KQkq - 0 1").first, NO);
    // Alice: a knight from g1 to f3 always takes an odd number of moves, so it
    // ends on board B; on board A it can never stand there.
    EXPECT_EQ(needs(Variant::Alice, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 0 1").first, NO);
    EXPECT_EQ(needs(Variant::Alice, "rnbqkbnr/pppppppp/8/8/8/5O2/PPPPPPPP/RNBQKB1R b KQkq - 0 1").first, 1);
    // A pawn that changes file (d2 to e3) needs a capture: none while every Black man stays.
    EXPECT_EQ(needs(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/4P3/PPP1PPPP/RNBQKBNR b KQkq - 0 1").first, NO);
    // A White man gone: Black must capture it (a move), White needs its own move only.
    EXPECT_EQ(needs(Variant::Chess, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPP1/RNBQKBNR b KQkq - 0 1"),
              std::make_pair(1, 1));
    // Avalanche: a pawn may be pushed by the enemy, so its advance costs its owner nothing.
    EXPECT_EQ(needs(Variant::Avalanche, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").first, 0);
}

// The solver against the brute-force reference (reference.h) on positions
// from random play in each game: every stipulation kind, short enough for
// the reference. Any difference is a pruning or proof-table error.
#include "reference.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>

using namespace echecs;
using namespace echecs::solver;

namespace {

// Positions reached by random moves from sparse starting diagrams, so that
// mates and stalemates are near.
const std::vector<const char*> STARTS = {
    "4k3/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQ - 0 1",     "r3k3/1p4p1/8/3q4/8/8/1P3P2/3QK2R w Kq - 0 1",
    "6k1/5p2/6p1/8/3N4/8/1B3PPP/6K1 w - - 0 1",       "2r3k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1",
    "r3k2r/1P4pp/8/2pP4/8/8/6p1/R3K2R w KQkq c6 0 1",
};
// Diagrams where each side can mate the other (random ones with a reci-h#1,
// reci-h#1.5 or reci-h(#)=1 solution in chess): reciprocal helpplay is rare
// in random play.
const std::vector<const char*> MUTUAL_STARTS = {
    "K7/6B1/1k6/3r4/1P6/5Q2/7p/8 b - - 0 1",   "1k4r1/2r1Q3/bP6/8/7N/2r5/8/7K b - - 0 1",
    "7k/7r/2q1q3/K7/1Qp5/8/8/3B4 b - - 0 1",   "4Q3/q7/p1P5/1R6/8/8/8/5k1K b - - 0 1",
    "4K3/2q1PQ2/p2b4/2k5/5R2/8/8/8 b - - 0 1", "2r1r3/2P4N/1R5P/8/8/8/6r1/k1K5 b - - 0 1",
    "8/8/b2R4/K7/5RR1/3q4/7k/5R2 w - - 0 1",   "3K4/8/3q4/6Q1/8/6P1/1r6/k2n4 w - - 0 1",
    "5b2/8/Pr2r3/2Q5/8/6k1/8/5K2 w - - 0 1",   "8/8/8/4p1q1/1Q2P3/5p2/1Q3P1K/5k2 b - - 0 1",
    "8/B3q3/8/1Q6/8/8/8/K1k5 b - - 0 1",
};

std::vector<std::string> random_positions(Variant v, int count, unsigned seed,
                                          const std::vector<const char*>& starts = STARTS, int least = 4,
                                          int spread = 24) {
    std::mt19937 rng(seed);
    std::vector<std::string> out;
    while (int(out.size()) < count) {
        StateInfo st[40];
        Position pos;
        pos.set(v, starts[rng() % starts.size()], st[0]);
        const int plies = least + int(rng() % spread);
        bool ok = true;
        for (int i = 1; i <= plies && ok; ++i) {
            MoveList l;
            generate_legal(pos, l);
            if (l.empty())
                ok = false;
            else
                pos.do_move(l.moves[rng() % l.size()], st[i]);
        }
        if (ok) out.push_back(pos.fen());
    }
    return out;
}

// The reference's set of keys / help lines, and the solver's.
// Returns how many solutions the two found.
int compare(Variant v, const std::string& fen, const char* stip, Kings kings = Kings::One) {
    Stipulation st = parse_stipulation(stip);
    // The side to move of the FEN must be the stipulation's: skip others.
    if ((fen.find(" w ") != std::string::npos) != (st.starts() == WHITE)) return 0;
    Problem p;
    p.variant = v;
    p.fen = fen;
    p.stipulation = st;
    p.kings = kings;
    Options o;
    o.threads = 2;
    o.hash_megabytes = 8;
    o.variations = false;
    const Result r = solve(p, o);
    EXPECT_TRUE(r.complete());
    const auto expected = reference::answer(v, fen, st, kings);
    EXPECT_EQ(reference::solver_answer(r), expected) << variant_name(v) << " " << stip << " " << fen;
    return int(expected.size());
}

}  // namespace

class ReferenceTest : public ::testing::TestWithParam<Variant> {};

TEST_P(ReferenceTest, BattlePlayMatchesBruteForce) {
    int n = 0;
    for (const auto& fen : random_positions(GetParam(), 24, 7 + int(GetParam()))) {
        // Avalanche's moves are first parts times pushes: the reference is too slow for its #2.
        for (const char* s : {"#1", "#2", "s#1", "=1"})
            if (GetParam() != Variant::Avalanche || s[1] != '2') compare(GetParam(), fen, s);
        if (++n > 24) break;
    }
}

TEST_P(ReferenceTest, SelfmateInTwoMatchesBruteForce) {
    if (GetParam() == Variant::Avalanche) GTEST_SKIP() << "too slow for the reference";
    for (const auto& fen : random_positions(GetParam(), 40, 101 + int(GetParam()))) compare(GetParam(), fen, "s#2");
}

// Popeye's goals of the last move (and mate or stalemate): help play, where
// the reference reads them from the move it has just made.
TEST_P(ReferenceTest, HelpPlayToOtherGoalsMatchesBruteForce) {
    int found = 0;
    for (const auto& fen : random_positions(GetParam(), 10, 57 + int(GetParam())))
        for (const char* s : {"h+1", "hx1", "h~0.5", "h001", "hep1", "hze41", "h#=1", "hx1.5"})
            found += compare(GetParam(), fen, s);
    EXPECT_GT(found, 50);
}

// The FEN without colour c's king and its castling rights (Popeye's nowk, nobk).
std::string without_king(Variant v, const std::string& fen, Color c) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    std::array<Piece, SQUARE_NB> board{};
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        board[s] = pos.piece_on(s) == make_piece(c, KING) ? NO_PIECE : pos.piece_on(s);
    const int ours = c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    return write_fen(v, board, pos.on_board_b(), pos.side_to_move(), pos.castling_rights() & ~ours, pos.ep_square(), 0,
                     1);
}

// A side without a king: never mated, its every move legal (the core's
// rules), and the search's prunes that count on kings (the mate bound, the
// targets) must not lose a solution.
TEST_P(ReferenceTest, KinglessPositionsMatchBruteForce) {
    int found = 0;
    int n = 0;
    for (const auto& fen : random_positions(GetParam(), 24, 89 + int(GetParam())))
        for (Color c : {WHITE, BLACK}) {
            const std::string k = without_king(GetParam(), fen, c);
            for (const char* s : {"#1", "s#1", "=1", "h#1", "h#1.5", "h=1", "hx1", "h~0.5", "ser-#2", "ser-h=2"})
                if (GetParam() != Variant::Avalanche || s[0] != 's')
                    found += compare(GetParam(), k, s, Kings::AtMostOne);
            ++n;
        }
    EXPECT_GT(found, 50);
}

// Helpreflexplay (hr#: either side able to reach the goal must).
TEST_P(ReferenceTest, HelpReflexPlayMatchesBruteForce) {
    int found = 0;
    for (const auto& fen : random_positions(GetParam(), 16, 61 + int(GetParam())))
        for (const char* s : {"hr#1", "hr#1.5", "hr=1", "hr#2"})
            if (GetParam() != Variant::Avalanche || s[3] != '2') found += compare(GetParam(), fen, s);
    EXPECT_GT(found, 5);
}

TEST_P(ReferenceTest, HelpPlayMatchesBruteForce) {
    for (const auto& fen : random_positions(GetParam(), 16, 31 + int(GetParam())))
        for (const char* s : {"h#1", "h#1.5", "h=1", "h#0.5"}) compare(GetParam(), fen, s);
}

// Reflexplay (either side, or only the defender, bound to reach the goal when
// it can) and helpselfplay (the last attacker's move forces the goal).
TEST_P(ReferenceTest, ReflexAndHelpSelfPlayMatchBruteForce) {
    int solved = 0;
    for (const auto& fen : random_positions(GetParam(), 40, 73 + int(GetParam())))
        for (const char* s : {"r#1", "semi-r#1", "r=1", "hs#1", "hs#1.5", "hs=1"})
            solved += compare(GetParam(), fen, s);
    EXPECT_GT(solved, 0);  // some keys and lines were found and compared
}

TEST_P(ReferenceTest, ReflexAndHelpSelfPlayInTwoMatchBruteForce) {
    if (GetParam() == Variant::Avalanche) GTEST_SKIP() << "too slow for the reference";
    int solved = 0;
    for (const auto& fen : random_positions(GetParam(), 20, 89 + int(GetParam())))
        for (const char* s : {"r#2", "semi-r#2", "hs#2", "hs#1.5", "r=2"}) solved += compare(GetParam(), fen, s);
    EXPECT_GT(solved, 0);
}

TEST_P(ReferenceTest, SeriesPlayMatchesBruteForce) {
    if (GetParam() == Variant::Avalanche) {
        // The passing side could not make a pending promotion's choice: refused, not solved.
        Problem p{Variant::Avalanche, std::string(Position::START_FEN), parse_stipulation("ser-#2"), ""};
        EXPECT_THROW(solve(p), ProblemError);
        return;
    }
    int solved = 0;
    for (const auto& fen : random_positions(GetParam(), 16, 57 + int(GetParam())))
        for (const char* s : {"ser-#2", "ser-=2", "ser-h#1", "ser-h#2", "ser-h=2", "h==1"})
            solved += compare(GetParam(), fen, s);
    EXPECT_GT(solved, 0);  // some series lines were found and compared
}

// Reciprocal helpplay: Black's part mates (or stalemates) by its own last
// move and can also be mated.
TEST_P(ReferenceTest, ReciprocalHelpPlayMatchesBruteForce) {
    int solved = 0;
    int n = 0;
    for (const auto& fen : random_positions(GetParam(), 30, 211 + int(GetParam()), MUTUAL_STARTS, 0, 4)) {
        for (const char* s : {"reci-h#1", "reci-h#1.5", "reci-h=1", "reci-h(=)#1", "reci-h(#)=1"})
            solved += compare(GetParam(), fen, s);
        // Two moves: the reference's brute force is slow, in Alice and most in Avalanche.
        const int most = GetParam() == Variant::Chess ? 12 : GetParam() == Variant::Alice ? 4 : 0;
        if (++n <= most) solved += compare(GetParam(), fen, "reci-h#2");
    }
    std::printf("%d solutions compared\n", solved);
    EXPECT_GT(solved, 10);
}

// ser-#n: a mate before the last move ends the series, a short solution
// (Popeye's). On random positions where White can mate at once.
TEST_P(ReferenceTest, SeriesMatesKeepTheirShortSolutions) {
    if (GetParam() == Variant::Avalanche) GTEST_SKIP() << "series play is refused in Avalanche";
    int shorts = 0, positions = 0;
    const Stipulation mate1 = parse_stipulation("#1");
    for (const auto& fen : random_positions(GetParam(), 400, 113 + int(GetParam()))) {
        if (positions == 3 || fen.find(" w ") == std::string::npos || reference::answer(GetParam(), fen, mate1).empty())
            continue;
        ++positions;
        for (const char* s : {"ser-#2", "ser-#3"}) {
            compare(GetParam(), fen, s);
            for (const auto& line : reference::answer(GetParam(), fen, parse_stipulation(s)))
                shorts += line.find(' ') == std::string::npos;  // the mate at once
        }
    }
    EXPECT_EQ(positions, 3);
    EXPECT_GT(shorts, 3);
}

// Series selfmates: diagrams of random ones with a ser-s#1 or ser-s#2
// solution in each game (Black forced to mate is rare in random play), a
// few random half-moves on.
TEST_P(ReferenceTest, SeriesSelfmatesMatchBruteForce) {
    if (GetParam() == Variant::Avalanche)
        GTEST_SKIP() << "series play is refused in Avalanche (SeriesPlayMatchesBruteForce)";
    static const std::vector<const char*> CHESS = {
        "8/8/k7/4Qq2/K2B4/B7/b2R4/8 w - - 0 1",     "2KQ4/8/r1k5/5R2/2r2q2/5R2/8/n7 w - - 0 1",
        "4q3/3Q4/7k/B7/1P2n2K/6R1/1P6/8 w - - 0 1", "7k/8/5n1K/8/6q1/2qQ2P1/2p5/8 w - - 0 1",
        "3K4/q3p3/3k4/6Q1/8/4Q3/1pP5/8 w - - 0 1",  "8/2Q4P/PB6/6q1/3R4/k7/P7/1K6 w - - 0 1",
    };
    static const std::vector<const char*> ALICE = {
        "5Q2/8/8/8/P7/8/3r4/2rk2K1 w - - 0 1",        "8/P7/K7/8/k7/q5B1/6p1/1r6 w - - 0 1",
        "k2K1R1r/4Q3/1P6/7p/8/q7/5P2/8 w - - 0 1",    "3r1k1K/4r3/R1q5/1P6/2p5/8/8/4Q3 w - - 0 1",
        "3rk1K1/1q6/2q5/2r5/4B3/1R6/8/3b4 w - - 0 1",
    };
    const auto& starts = GetParam() == Variant::Chess ? CHESS : ALICE;
    int solved = 0;
    for (const auto& fen : random_positions(GetParam(), 16, 307 + int(GetParam()), starts, 0, 3))
        for (const char* s : {"ser-s#1", "ser-s#2", "ser-s=1"}) solved += compare(GetParam(), fen, s);
    std::printf("%d solutions compared\n", solved);
    EXPECT_GT(solved, 3);
}

// Series reflexmates and helpselfmates (Black's series: the diagrams with Black to move).
TEST_P(ReferenceTest, SeriesReflexAndHelpSelfMatchBruteForce) {
    if (GetParam() == Variant::Avalanche) GTEST_SKIP() << "series play is refused in Avalanche";
    static const std::vector<const char*> CHESS = {
        "8/8/k7/4Qq2/K2B4/B7/b2R4/8 w - - 0 1",     "2KQ4/8/r1k5/5R2/2r2q2/5R2/8/n7 w - - 0 1",
        "4q3/3Q4/7k/B7/1P2n2K/6R1/1P6/8 b - - 0 1", "7k/8/5n1K/8/6q1/2qQ2P1/2p5/8 b - - 0 1",
        "3K4/q3p3/3k4/6Q1/8/4Q3/1pP5/8 w - - 0 1",  "8/2Q4P/PB6/6q1/3R4/k7/P7/1K6 b - - 0 1",
    };
    static const std::vector<const char*> ALICE = {
        "5Q2/8/8/8/P7/8/3r4/2rk2K1 w - - 0 1",        "8/P7/K7/8/k7/q5B1/6p1/1r6 b - - 0 1",
        "k2K1R1r/4Q3/1P6/7p/8/q7/5P2/8 w - - 0 1",    "3r1k1K/4r3/R1q5/1P6/2p5/8/8/4Q3 b - - 0 1",
        "3rk1K1/1q6/2q5/2r5/4B3/1R6/8/3b4 w - - 0 1",
    };
    const auto& starts = GetParam() == Variant::Chess ? CHESS : ALICE;
    int reflex = 0, helpself = 0;
    for (const auto& fen : random_positions(GetParam(), 24, 409 + int(GetParam()), starts, 0, 3)) {
        for (const char* s : {"ser-r#1", "ser-r#2", "ser-r=1"}) reflex += compare(GetParam(), fen, s);
        for (const char* s : {"ser-hs#1", "ser-hs=1"}) helpself += compare(GetParam(), fen, s);
    }
    std::printf("%d ser-r and %d ser-hs solutions compared\n", reflex, helpself);
    EXPECT_GT(reflex, 3);
    EXPECT_GT(helpself, 3);
}

INSTANTIATE_TEST_SUITE_P(Games, ReferenceTest, ::testing::Values(Variant::Chess, Variant::Alice, Variant::Avalanche),
                         [](const auto& info) { return std::string(variant_name(info.param)); });

// The solver's own "gives check" test against making the move, on every
// legal move of random orthodox positions (castling, en passant and
// promotions included in the starting diagrams).
TEST(GivesCheck, AgreesWithMakingTheMove) {
    int checks = 0, moves = 0;
    for (const auto& fen : random_positions(Variant::Chess, 300, 5)) {
        StateInfo si;
        Position pos;
        pos.set(Variant::Chess, fen, si);
        MoveList l;
        generate_legal(pos, l);
        for (Move m : l) {
            StateInfo st;
            pos.do_move(m, st);
            const bool check = pos.in_check();
            pos.undo_move(m);
            ASSERT_EQ(pos.gives_check(m), check) << fen << " " << to_uci(m);
            checks += check;
            ++moves;
        }
    }
    EXPECT_GT(checks, 100);
    EXPECT_GT(moves, 3000);
}

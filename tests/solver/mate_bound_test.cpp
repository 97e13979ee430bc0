// The helpmates' "moves left" test (solver/mate_bound.h) never refuses a
// position where a mate (a stalemate) exists: checked against every line of play, by
// brute force, on sparse random positions like a helpmate's, in help play
// (alternating) and series play (one side in a row). It must also refuse
// some, or it would prune nothing.
#include "solver/mate_bound.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "board_fen.h"
#include "core/movegen.h"
#include "solver/notation.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

// Kings and one to five men at random, either side to move, as a composer's
// sparse diagram; only legal positions.
std::string random_diagram(std::mt19937& rng) {
    for (;;) {
        char board[64];
        std::fill(std::begin(board), std::end(board), '.');
        const char* MEN = "PPPNBRQpppnbrq";
        board[rng() % 64] = 'K';
        int s = int(rng() % 64);
        while (board[s] != '.') s = int(rng() % 64);
        board[s] = 'k';
        for (int n = 1 + int(rng() % 5); n > 0; --n) {
            const char m = MEN[rng() % 14];
            s = int(rng() % 64);
            if (board[s] != '.' || ((m == 'P' || m == 'p') && (s < 8 || s >= 56))) continue;
            board[s] = m;
        }
        std::string fen = test_helpers::board_fen(board);
        fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
        try {
            StateInfo st;
            Position pos;
            pos.set(Variant::Chess, fen, st);
            return fen;
        } catch (const FenError&) {
        }
    }
}

bool mated_now(Position& pos, Color mated, bool stalemate) {
    if (pos.side_to_move() != mated) return false;
    return stalemate ? !pos.in_check() && is_stalemated(pos) : pos.in_check() && is_mated(pos);
}

// Some line of `plies` alternating half-moves (or fewer) mates (stalemates) `mated`.
bool help_mates(Position& pos, int plies, Color mated, bool stalemate) {
    if (plies == 0) return false;
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
        StateInfo st;
        pos.do_move(m, st);
        const bool ok = mated_now(pos, mated, stalemate) || help_mates(pos, plies - 1, mated, stalemate);
        pos.undo_move(m);
        if (ok) return true;
    }
    return false;
}

// The side to move plays `left` moves in a row, the other passing; with
// `then_other` the other side then has one move. Some line mates
// (stalemates) `mated`.
bool series_mates(Position& pos, int left, bool then_other, Color mated, bool stalemate) {
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
        StateInfo st, null;
        pos.do_move(m, st);
        bool ok = mated_now(pos, mated, stalemate) || (then_other && left == 1 && help_mates(pos, 1, mated, stalemate));
        if (!ok && left > 1 && !pos.in_check()) {
            pos.do_null_move(null);
            ok = series_mates(pos, left - 1, then_other, mated, stalemate);
            pos.undo_null_move();
        }
        pos.undo_move(m);
        if (ok) return true;
    }
    return false;
}

}  // namespace

TEST(MateBound, NeverRefusesAHelpmateThatExists) {
    std::mt19937 rng(20261205);
    int refused = 0, without_mate = 0, with_mate = 0;
    for (int i = 0; i < 600; ++i) {
        const std::string fen = random_diagram(rng);
        StateInfo st;
        Position pos;
        pos.set(Variant::Chess, fen, st);
        for (int plies = 1; plies <= (i < 80 ? 4 : 3); ++plies) {
            // As the search asks it: the mating side plays the last half-move.
            const Color mated = plies % 2 ? ~pos.side_to_move() : pos.side_to_move();
            const bool stalemate = i % 3 == 2;  // a third of them h=
            const bool possible = mate_possible(pos, mated, (plies + 1) / 2, plies / 2, stalemate);
            if (help_mates(pos, plies, mated, stalemate)) {
                ++with_mate;
                EXPECT_TRUE(possible) << fen << (stalemate ? " stalemate" : " mate") << " in " << plies
                                      << " half-moves";
            } else {
                ++without_mate;
                refused += !possible;
            }
        }
    }
    EXPECT_GT(with_mate, 20);
    std::printf("help: %d with a mate, %d refused of %d without\n", with_mate, refused, without_mate);
    // Most positions without a mate are refused without a move being made.
    EXPECT_GT(refused, without_mate / 2) << refused << " of " << without_mate;
}

TEST(MateBound, NeverRefusesASeriesMateThatExists) {
    std::mt19937 rng(5122026);
    int refused = 0, without_mate = 0, with_mate = 0;
    for (int i = 0; i < 250; ++i) {
        const std::string fen = random_diagram(rng);
        StateInfo st;
        Position pos;
        pos.set(Variant::Chess, fen, st);
        const Color stm = pos.side_to_move();
        for (int left = 1; left <= 3; ++left)
            for (const bool helped : {false, true}) {
                // ser-#: the series side mates; ser-h#: it is mated by the other side's one move.
                const Color mated = helped ? stm : ~stm;
                const bool stalemate = i % 3 == 2;
                const bool possible = mate_possible(pos, mated, helped ? 1 : left, helped ? left : 0, stalemate);
                if (series_mates(pos, left, helped, mated, stalemate)) {
                    ++with_mate;
                    EXPECT_TRUE(possible) << fen << (helped ? " ser-h" : " ser-") << (stalemate ? "=" : "#") << left;
                } else {
                    ++without_mate;
                    refused += !possible;
                }
            }
    }
    EXPECT_GT(with_mate, 20);
    EXPECT_GT(refused, without_mate / 2) << refused << " of " << without_mate;
    std::printf("series: %d with a mate, %d refused of %d without\n", with_mate, refused, without_mate);
}

TEST(MateBound, KnownPositions) {
    struct Case {
        const char* fen;
        Color mated;
        int w, b;
        bool possible;
        bool stalemate = false;
    } cases[] = {
        // Bare kings: never a mate.
        {"8/8/8/3k4/8/8/8/3K4 w - - 0 1", BLACK, 4, 4, false},
        // Popeye's BEISPIEL/intell.inp, first problem (h#4, solved by 4...f2-f3#).
        {"8/8/2Nq4/5k2/3P4/5K2/2b2P2/8 b - - 0 1", BLACK, 4, 4, true},
        // The same with one move each: the knight cannot check and guard the flights.
        {"8/8/2Nq4/5k2/3P4/5K2/2b2P2/8 b - - 0 1", BLACK, 1, 1, false},
        // Back-rank mate in one: Ra1-a8#.
        {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", BLACK, 1, 0, true},
        // Without the pawns the king has flights on the seventh rank.
        {"6k1/8/8/8/8/8/8/R5K1 w - - 0 1", BLACK, 1, 0, false},
        // The king steps into the corner, where Rh1-h8 mates.
        {"1k6/8/1K6/8/8/8/8/7R b - - 0 1", BLACK, 1, 1, true},
        // In the other corner nothing covers its flights.
        {"k7/8/2K5/8/8/8/8/7R b - - 0 1", BLACK, 1, 1, false},
        // Qc1-c7 stalemates the king in the corner; in the centre a king and a queen's move cannot.
        {"k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", BLACK, 1, 0, true, true},
        {"8/8/8/3k4/8/8/1K6/2Q5 w - - 0 1", BLACK, 1, 0, false, true},
    };
    for (const auto& c : cases) {
        StateInfo st;
        Position pos;
        pos.set(Variant::Chess, c.fen, st);
        EXPECT_EQ(mate_possible(pos, c.mated, c.w, c.b, c.stalemate), c.possible) << c.fen << " " << c.w << "+" << c.b;
    }
}

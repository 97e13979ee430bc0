// King and pawn against king (engine/kpk.h): the table checked against the
// rules' own move generator, position by position, and against the
// textbook; the evaluation scores it for the search.
#include "engine/kpk.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/endgame.h"
#include "engine/evaluate.h"

namespace echecs::test {
namespace {

std::string fen(const std::map<Square, char>& pieces, bool white_to_move) {
    std::string s;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const auto it = pieces.find(make_square(f, r));
            if (it == pieces.end()) {
                ++empty;
                continue;
            }
            if (empty) s += char('0' + empty), empty = 0;
            s += it->second;
        }
        if (empty) s += char('0' + empty);
        if (r) s += '/';
    }
    return s + (white_to_move ? " w - - 0 1" : " b - - 0 1");
}

// Whether White wins the position as the rules play it one move on: a
// king and pawn against king by the table, a new queen or rook unless
// Black takes it or is stalemated, anything else not.
bool white_wins_after(Position& pos) {
    const Bitboard pawns = pos.pieces(WHITE, PAWN);
    if (pos.count(WHITE, PAWN) == 1 && pos.pieces(WHITE) == (pos.pieces(WHITE, KING) | pawns))
        return engine::kpk::probe(WHITE, pos.king_square(WHITE), lsb(pawns), pos.king_square(BLACK),
                                  pos.side_to_move() == WHITE);
    if (!pos.pieces(WHITE, QUEEN) && !pos.pieces(WHITE, ROOK)) return false;
    MoveList moves;
    generate_legal(pos, moves);
    if (moves.empty()) return pos.in_check();
    for (Move m : moves)
        if (pos.is_capture(m)) return false;
    return true;
}

TEST(Kpk, EachPositionAgreesWithTheRulesOneMoveOn) {
    // Every legal position of a sample (one index in 7), each pawn square
    // and side to move: White wins if one move wins, Black loses if every
    // move loses, as the rules' move generator finds the moves.
    int checked = 0, wins = 0;
    for (int i = 0; i < 48 * 64 * 64 * 2; i += 7) {
        const Square p = Square(8 + (i >> 13) % 48), wk = Square((i >> 7) & 63), bk = Square((i >> 1) & 63);
        const bool wtm = i & 1;
        if (p == wk || p == bk || wk == bk || (king_attacks(wk) & square_bb(bk))) continue;
        if (wtm && (pawn_attacks(WHITE, p) & square_bb(bk))) continue;  // Black in check, White to move
        StateInfo st;
        Position pos;
        pos.set(Variant::Chess, fen({{wk, 'K'}, {p, 'P'}, {bk, 'k'}}, wtm), st);
        MoveList moves;
        generate_legal(pos, moves);
        bool expected = !wtm && moves.empty() && pos.in_check();  // mate
        if (!moves.empty()) {
            expected = !wtm;
            for (Move m : moves) {
                StateInfo next;
                pos.do_move(m, next);
                const bool win = white_wins_after(pos);
                pos.undo_move(m);
                if (wtm && win) expected = true;
                if (!wtm && !win) expected = false;
            }
        }
        const bool got = engine::kpk::probe(WHITE, wk, p, bk, wtm);
        ASSERT_EQ(got, expected) << pos.fen();
        ++checked;
        wins += got;
    }
    EXPECT_GT(checked, 20000);
    EXPECT_GT(wins, checked / 3);  // both answers are common
    EXPECT_LT(wins, checked * 9 / 10);
}

engine::Value eval(const std::string& f) {
    StateInfo st;
    Position pos;
    pos.set(Variant::Chess, f, st);
    return engine::evaluate(pos, engine::default_weights(Variant::Chess));
}

TEST(Kpk, TheTextbookAsTheEvaluationScoresIt) {
    const engine::Value win = engine::VALUE_KNOWN_WIN;
    // The opposition: White's king in front of its pawn, Black's facing it.
    EXPECT_EQ(eval("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1"), 0);
    EXPECT_LT(eval("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1"), -win);
    // A king on a key square wins whoever moves.
    EXPECT_LT(eval("4k3/8/3K4/8/4P3/8/8/8 b - - 0 1"), -win);
    EXPECT_GT(eval("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"), win);
    // The square of the pawn: outside it the king is too late, inside it in time.
    EXPECT_GT(eval("7k/8/8/8/P7/8/8/K7 w - - 0 1"), win);
    EXPECT_EQ(eval("8/8/8/3k4/P7/8/8/7K w - - 0 1"), 0);
    // A rook pawn with the defending king in its corner.
    EXPECT_EQ(eval("k7/8/8/8/8/8/P7/7K w - - 0 1"), 0);
    // The same with colours and files exchanged: the same answers.
    EXPECT_EQ(eval("8/8/8/3p4/3k4/8/3K4/8 b - - 0 1"), 0);
    EXPECT_LT(eval("8/8/8/3p4/3k4/8/3K4/8 w - - 0 1"), -win);
    EXPECT_GT(eval("k7/8/8/p7/8/8/8/7K b - - 0 1"), win);
    EXPECT_EQ(eval("k7/7p/8/8/8/8/8/7K b - - 0 1"), 0);
    // A pawn further on is worth more: the search pushes it.
    EXPECT_GT(eval("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"), eval("4k3/8/8/4K3/4P3/8/8/8 w - - 0 1"));
}

}  // namespace
}  // namespace echecs::test

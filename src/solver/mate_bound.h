// Helpmates' "moves left" test (the part of Popeye's intelligent mode that
// needs no enumeration of mating positions): can one side still be mated
// when the other has at most `w` more moves and it at most `b`? At the end
// its king stands on some square within its reach, attacked by an enemy man
// other than the king, and every flight is attacked by an enemy man or
// occupied by a man of its own side, a different man for each blocked
// flight, their moves and the king's adding up to at most `b`. A stalemate
// needs the same of the flights, without the check (the other men's
// immobility is not counted).
//
// Each man's reach is counted on an empty board (pawns capture and promote
// at will, castling is one king's move), and pins, interpositions, captures
// of the checker and the order of moves are ignored: every test is
// necessary for a mate, never sufficient, so a position it refuses has no
// mate within those moves, and pruning it keeps the search exhaustive.
// Orthodox chess only: in Alice a flight is free on the other board, in
// Avalanche the pushes move pawns between a side's moves.
#pragma once

#include <cstdint>

#include "core/position.h"

namespace echecs::solver {

// False when `mated` cannot be checkmated (with `stalemate`: stalemated)
// with at most w moves by the other side and b by itself (any order). True
// beyond the tables' reach (15 moves).
bool mate_possible(const Position& pos, Color mated, int w, int b, bool stalemate = false);

// The same tables for one man on one square: the moves it needs on an empty
// board to stand on `to` as `as` (a pawn promoting on the way), NEVER beyond
// 15; and the squares where it can stand as `as` within `moves`. Made once
// per man and square, then read inline: the targets' listing and search
// (intelligent.h) ask millions of times.
constexpr int NEVER = 99;
class ManTables {
public:
    ManTables() = default;
    ManTables(Piece man, Square from);
    int moves(Square to, PieceType as) const {
        const int d = dist_[to * 6 + (as - PAWN)];
        return d < 0 ? NEVER : d;
    }
    Bitboard reach(int moves, PieceType as) const {
        return moves < 0 ? 0 : reach_[(moves < MOST ? moves : MOST) * 6 + (as - PAWN)];
    }

private:
    static constexpr int MOST = 15;      // the tables' reach
    const std::int8_t* dist_ = nullptr;  // [to][as - PAWN], -1 beyond MOST
    const Bitboard* reach_ = nullptr;    // [moves][as - PAWN]
};

}  // namespace echecs::solver

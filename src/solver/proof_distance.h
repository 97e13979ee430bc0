// Distances on an empty board for the proof-game search (proof_bound.h):
// the least number of moves a king, knight, bishop, rook or queen needs from
// one square to another, per Alice board change (a piece lands on the other
// board after each move, so an odd number of moves changes its board, an
// even one keeps it; castling moves king and rook together). Blockers are
// ignored, so each distance is a lower bound of the real one.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace echecs::solver {

constexpr std::uint8_t UNREACHABLE = 100;

// Moves of a piece of type pt from `from` to `to` that change its Alice board
// (flip = 1) or keep it (flip = 0). Castling counts as the king's move; the
// rook's part of it costs nothing, so that one castling is not counted twice.
std::uint8_t piece_distance(PieceType pt, int flip, Square from, Square to);
// The least of the two (games with one board).
std::uint8_t piece_distance_any(PieceType pt, Square from, Square to);

// The same distances with some squares never free (men that cannot move for
// the rest of the game): no piece stops on them or passes over them.
// [type: N B R Q K][flip][from][to]
using DistanceTable = std::uint8_t[5][2][64][64];
void blocked_distances(Bitboard blocked, DistanceTable& out);
constexpr int distance_index(PieceType pt) { return pt - KNIGHT; }

}  // namespace echecs::solver

// Static evaluation for the three games, from the side to move's point of
// view, in centipawns.
#pragma once

#include "core/position.h"

namespace echecs::engine {

using Value = int;

constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr int SEARCH_MAX_PLY = 120;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - SEARCH_MAX_PLY;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }

// Middle-game piece values, used by move ordering and pruning margins.
constexpr Value PIECE_VALUE[PIECE_TYPE_NB] = {0, 100, 320, 330, 500, 950, 0};

// The full evaluation of the position's variant. `variant_terms` false
// leaves out the Alice and Avalanche specific terms (to measure their worth).
Value evaluate(const Position& pos, bool variant_terms = true);
// Material only (P=1, N=B=3, R=5, Q=9 pawns): the 2-ply beginner player of
// Skill Level 0.
Value evaluate_material(const Position& pos);

}  // namespace echecs::engine

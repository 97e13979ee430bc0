// Proof games: Popeye's "dia n" (from the game's initial position to the
// diagram in exactly n moves, White first; "dia n.5" one half-move more) and
// "a=>b n" (from a given position a to a position b; Black first unless
// whitetoplay). Every sequence of exactly that many legal half-moves whose
// last position has the diagram's placement (and, in Alice, each man's board)
// is a solution; all are reported, as Popeye reports them.
//
// The search follows every legal move and prunes a position only when a
// lower bound of the moves still needed (proof_bound.h) exceeds the moves
// left, or the proof table has proven that no continuation of that length
// exists from it: both are exact, so the answer is complete unless a limit
// stops it, and then the result says so.
#pragma once

#include "solver/solver.h"

namespace echecs::solver {

// Called by solve() for a Play::Proof stipulation. Throws ProblemError for a
// position that cannot be read (or an a=>b without its position b).
Result solve_proof_game(const Problem& problem, const Options& options);

}  // namespace echecs::solver

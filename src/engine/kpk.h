// King and pawn against king, solved: a table of every position (the pawn's
// side as White, the pawn on files a-d; the rest by symmetry) saying whether
// White wins. Built by retrograde analysis on first use, about 25 ms.
// The network guesses these endings; an engine that trades into a drawn one
// believing it won, or shuffles in a won one, gives away half a point.
#pragma once

#include "core/types.h"

namespace echecs::engine::kpk {

// Whether the side with the pawn wins, `strong_to_move` saying whose turn it
// is. Squares as the position has them: any pawn owner, any file. The
// position must be legal (kings apart, the side not to move not in check).
bool probe(Color strong, Square strong_king, Square pawn, Square weak_king, bool strong_to_move);

// Builds the table now if it is not built: a GUI's new game calls it, so that
// the first probe does not pay inside a timed search. Safe from any thread.
void init();

}  // namespace echecs::engine::kpk

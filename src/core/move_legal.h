// One move's legality without the generator (movegen.h), for a search that
// tries a single move first (the solver's killer). Apart from movegen.h so
// that its many includers do not depend on it.
#pragma once

#include "position.h"

namespace echecs {

// Whether `m`, a move without castling, en passant or promotion, is legal in
// `pos`. Chess only (one board, no pushes); false in the other games.
bool plain_move_legal(const Position& pos, Move m);

}  // namespace echecs

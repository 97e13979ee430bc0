// Static exchange evaluation: the material balance of the captures on one
// square that a move starts, each side taking back with its least valuable
// piece and free to stop. How each game's exchanges are played out is said
// in see.cpp.
#pragma once

#include "core/position.h"

namespace echecs::engine {

// Material (PIECE_VALUE) the side to move wins or loses with the legal move
// m: the victim's value, minus what the exchange on m's destination gives
// back. A quiet move scores 0 when its piece is safe where it lands, minus
// its value when it can be taken for nothing. Castling scores 0.
int see(const Position& pos, Move m);

// see(pos, m) >= threshold, answered without the exchange when the first
// capture decides it.
bool see_ge(const Position& pos, Move m, int threshold);

}  // namespace echecs::engine

// Whether an orthodox move gives check, without making it: the solver's
// mating-move filter at the last move of a mate (only a check can mate).
// Alice (checks from a transfer) and Avalanche (checks from the push) are
// answered by making the move instead, which is exact for every game.
#pragma once

#include "core/position.h"

namespace echecs::solver {

// Orthodox chess only; m must be a legal move of pos.
bool gives_check(const Position& pos, Move m);

}  // namespace echecs::solver

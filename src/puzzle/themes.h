// The themes that can be told from the first move alone, and the rating
// seed (docs/PUZZLES.md).
#pragma once

#include <string>
#include <vector>

#include "core/position.h"
#include "puzzle.h"

namespace echecs::puzzle {

// Themes of the legal move m in pos (left as it was): capture, promotion,
// fork, push (Avalanche), lookingGlass (Alice). The mate themes come from
// the search (finder.cpp).
std::vector<std::string> themes_of(Position& pos, Move m);

// The moved man attacks two or more enemy men, each the king, worth more
// than itself, or undefended (on the board where it stands, in Alice).
bool is_fork(Position& pos, Move m);

// Alice: the move checks (the checking piece arrived through the glass, or a
// line on the king's board opened when the piece left it), or it captures a
// defended man and passes to a board where nothing attacks it.
bool is_looking_glass(Position& pos, Move m);

// Avalanche: another legal move has the same first part with another push.
bool push_matters(Position& pos, Move m);

// A seed for the puzzle's rating: longer lines and quiet first moves are
// harder.
int rating_seed(const Puzzle& p, int mate_in);

}  // namespace echecs::puzzle

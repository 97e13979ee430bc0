// Composers' long algebraic notation, the one problem books and Popeye print:
// "Bh4-g3", "Kxd4", "e7-e8=Q", "0-0", "e5xd6 e.p.", knights as S; in Alice the
// board a piece arrives on after its move ("Bh4-g3A", castling "0-0BB");
// in Avalanche the first part then the push ("Sg1-f3 e7-e6"), a pending
// promotion's choice first ("(a1=S)Sa1-b3 e4-e3"); then "+", "#" (mate) or
// "=" (stalemate).
#pragma once

#include <string>

#include "core/position.h"
#include "solver/stipulation.h"

namespace echecs::solver {

// The side to move has no legal move at all (Avalanche: no first part for any
// pending choice, RULES.md §3; a position whose first parts all end in
// self-checking pushes is an avalanche loss, not a mate or a stalemate).
bool no_legal_move(Position& pos);
// The side to move is checkmated / stalemated.
bool is_mated(Position& pos);
bool is_stalemated(Position& pos);

// The legal move m of pos in composers' notation, with its check, mate or stalemate suffix.
std::string problem_notation(Position& pos, Move m);

// The text of the move that reaches goal g, as Popeye writes it: unchanged
// for the goals that end the game but mate or stalemate; for the others its
// check sign alone ("+", a mate's too: Popeye writes "#" for a mate goal
// only), then the goal's sign: "e7xd8+ x" (capture), "Ke6-e7 z" (arrival),
// "Rc3-c1#=" (mate or stalemate).
std::string goal_marked(std::string text, Goal g);

}  // namespace echecs::solver

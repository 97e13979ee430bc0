// Double mate (##) and counter-mate (##!), Popeye's goals: the move that
// reaches one leaves its own king attacked, which no legal move does, so the
// solver makes such moves itself, and only as that last move.
//
// Popeye (goals/doublemate, goals/countermate, selfcheck_guard.c): after the
// move both sides are in check and neither has a legal move (a capture of
// the other king counts as one); before it, the mover had a legal move (##)
// or was mated (##!). The move itself follows the men's moves and the rules
// of where a man may go (in Alice: the other board's square empty, and a
// king's move legal on its departure board), but may leave its own king
// attacked: in chess a castling too (the king not in check nor passing an
// attacked square, as Popeye generates it). Not made so: an Alice castling
// or en passant capture.
#pragma once

#include "core/movegen.h"
#include "solver/stipulation.h"

namespace echecs::solver {

// The moves of the side to move, other than its legal ones, that leave its
// own king attacked (in Alice, a king's move only if legal on its departure
// board), capturing no king. Chess and Alice.
void generate_self_checks(const Position& pos, MoveList& list);

// For a ## or ##! goal (Stipulation's self_check_goal), the side to move's
// self-checking moves when its goal's prerequisite holds (##: it has a legal
// move; ##!: it is mated), appended to `list`; nothing for the other goals.
void add_goal_self_checks(Position& pos, Goal goal, MoveList& list);

}  // namespace echecs::solver

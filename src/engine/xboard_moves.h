// How the three games look to XBoard (CECP): the `setup` line that defines
// Alice and Avalanche as engine-defined variants, moves in both directions,
// and the square highlights that let a human enter Alice moves.
//
// Alice: board B is drawn with its own pieces (XBoard's promoted-piece
// images), named by the FEN letters of RULES.md (pawn S, knight O, bishop C,
// rook U, queen T, king L). Every move passes the piece to the other board,
// so every move is sent with the arriving piece's letter as a promotion
// suffix (`e2e4s`), which XBoard without legality testing obeys. For a
// human's move, XBoard asks the engine (`lift`/`put`, feature highlight):
// the engine marks the legal destinations as "engine chooses the piece" and
// answers `choice s`, so the human's piece changes board as it should.
//
// Avalanche: XBoard's only multi-piece move is its multi-leg (locust) move
// of one piece, so it cannot draw the push; the engine writes its moves as
// `g1f3,e7e6` and reads both that and XBoard's relay of it (`g1e7,e7f3`:
// from, the pushed pawn's square as a "kill", to) — see PROTOCOLS.md.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"

namespace echecs::engine {

// The `setup` command answering `variant <v>`, "" for chess.
std::string xboard_setup(Variant v);
// The move as sent to XBoard, from the position before it.
std::string xboard_move(Position& pos, Move m);
// A move from XBoard; throws NotationError.
Move parse_xboard_move(Position& pos, std::string_view s);
// Alice: the `highlight` answer to `lift SQ` (legal destinations of the piece
// there, each marked for the engine's piece choice); "" when none.
std::string xboard_highlight(Position& pos, std::string_view square);
// Alice: the `choice` answer to `put SQ` after `lift FROM`: the letter of
// the piece arriving on SQ, or 0 when that is no legal move.
char xboard_choice(Position& pos, std::string_view from, std::string_view to);

}  // namespace echecs::engine

// Moves of PGN move text as real tools and old archives write them: the
// lenient reading (docs/PGN.md, "Lenient spellings"), internal to the core.
// The strict SAN reader (notation.h) stays as it is for the engine and the
// solver; this tries it first and reads other spellings only when it fails.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pgn.h"

namespace echecs::pgn_moves {

// A game written with French piece letters (R D T F C for K Q R B N): one of
// its moves has a D or F piece letter (C or T too, but in Alice, where they
// are the seed's board-B letters).
bool writes_french(const PgnGame& g, Variant v);

struct Reading {
    Move move;
    bool guessed = false;  // not read by the strict SAN reader as written
};

// The legal move `written` names. Throws NotationError (its kind: unreadable,
// illegal, or ambiguous, the message quoting what was written).
Reading read_move(Position& pos, std::string_view written, bool french);

}  // namespace echecs::pgn_moves

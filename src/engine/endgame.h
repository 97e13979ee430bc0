// Endgame knowledge the chess network lacks. It learnt from self-play games
// adjudicated long before their endings, so it scores a rook and bishop
// against a rook, or a bishop with the wrong rook pawn, as a won game, and
// gives no way forward in a won one (a bishop and knight against a king, a
// queen against a rook). Against Stockfish 15.1 at UCI_Elo 2400, 42 of 300
// games ended drawn by the fifty-move rule, nearly all with echecs "ahead"
// (docs/STRENGTH.md).
#pragma once

#include "core/position.h"
#include "core/vocabulary.h"
#include "evaluate.h"

namespace echecs::engine {

// Far beyond what the network gives any position, below every mate score:
// a won ending the engine can force (a bare king against mating material).
constexpr Value VALUE_KNOWN_WIN = 2000;

// Whether the game's endings are orthodox chess's: one board and no pushes
// (in Alice a piece changes boards, in Avalanche a move pushes a pawn, and
// neither game's endings are these).
inline bool orthodox_endings(Variant v) {
    const VariantInfo& info = variant_info(v);
    return info.boards == 1 && !info.has_pushes;
}

// The chess network's score `v` of `pos` (side to move's view) corrected by
// what is known of the ending: a known win is scored by how near the mate
// is, a drawn ending is scaled towards 0; any other score is the network's.
// (Damping every score by the fifty-move count, as Stockfish does, measured
// -12 +/- 20 Elo in self-play here: docs/STRENGTH.md.)
Value endgame_correct(const Position& pos, Value v);

}  // namespace echecs::engine

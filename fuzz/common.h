// Helpers shared by the fuzz targets.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"

namespace echecs::fuzz {

inline Variant variant_from(std::uint8_t b) { return Variant(b % 3); }

// Aborts (a finding) when `cond` is false.
inline void check(bool cond, const char* what) {
    if (!cond) {
        std::fprintf(stderr, "invariant broken: %s\n", what);
        std::abort();
    }
}

// Every legal move is made and unmade; the key and FEN come back, and its
// coordinate and SAN strings read back as the same move.
inline void exercise(Position& pos) {
    const std::string fen = pos.fen();
    const Key key = pos.key();
    MoveList list;
    generate_legal(pos, list);
    StateInfo st;
    for (Move m : list) {
        check(parse_uci(pos, to_uci(m)) == m, "uci round trip");
        check(parse_san(pos, to_san(pos, m)) == m, "san round trip");
        pos.do_move(m, st);
        check(!pos.king_attacked(~pos.side_to_move()), "legal move leaves own king attacked");
        pos.undo_move(m);
    }
    check(pos.fen() == fen && pos.key() == key, "make/unmake restores the position");
}

}  // namespace echecs::fuzz

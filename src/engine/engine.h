// The engine as a library call, for the game server and tools that do not
// speak UCI. Thread-safe: each call searches on its own state.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"

namespace echecs::engine {

// Chooses a move for the side to move in the position reached from `fen` by
// the coordinate `moves`, playing at `level` 1 (weakest) to 8 (strongest),
// spending at most `max_ms` milliseconds. Returns the move as a coordinate
// string (notation.h to_uci), or "" when there is no legal move. Stops early
// when *cancel becomes true (cancel may be null).
std::string choose_move(Variant v, const std::string& fen, const std::vector<std::string>& moves, int level,
                        std::int64_t max_ms, const std::atomic<bool>* cancel);

}  // namespace echecs::engine

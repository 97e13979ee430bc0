// The engine as a library call, for the game server and tools that do not
// speak UCI. Thread-safe: each call searches on its own state.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
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

// What the analysis board shows: the engine's best line at full strength.
struct Analysis {
    std::string best_move;        // coordinate string; "" when there is no legal move
    std::optional<int> score_cp;  // centipawns from the side to move's view, unless a mate is seen
    std::optional<int> mate;      // moves to mate (negative: the side to move is mated)
    int depth = 0;                // last completed iteration
    std::vector<std::string> pv;  // principal variation, coordinate strings
};

// Searches at full strength for at most `max_ms` milliseconds (same inputs,
// errors and thread safety as choose_move).
Analysis analyse(Variant v, const std::string& fen, const std::vector<std::string>& moves, std::int64_t max_ms,
                 const std::atomic<bool>* cancel);

}  // namespace echecs::engine

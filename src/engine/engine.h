// The engine as a library call, for the game server and tools that do not
// speak UCI. Thread-safe: each call searches on its own state.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"
#include "strength.h"

namespace echecs::engine {

// Chooses a move for the side to move in the position reached from `fen` by
// the coordinate `moves`, playing at `level` 1 (weakest) to level_count(v) (strongest),
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

// A transposition table a caller keeps across analyse() calls on one
// position, so that an analysis resumed after a pause (the server runs its
// continuous analyses in slices) finds its earlier work again instead of
// starting from nothing. Not shared by two calls at once.
class AnalysisTable;
std::shared_ptr<AnalysisTable> make_analysis_table(int hash_mb);

// Continuous analysis (the server's analysis board): several lines at once,
// reported after every iteration.
struct AnalysisRequest {
    Variant variant = Variant::Chess;
    std::string fen;                 // "": the initial position
    std::vector<std::string> moves;  // coordinate strings played from `fen`
    int multipv = 1;                 // lines (distinct first moves), 1..5
    // Limits; all zero: until *cancel becomes true (cancel must then be set).
    std::int64_t max_ms = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    int threads = 1;                       // 1..64 search threads on a shared table
    int hash_mb = 16;                      // table size
    std::shared_ptr<AnalysisTable> table;  // kept by the caller; null: a fresh table of hash_mb
};

struct AnalysisLine {
    int multipv = 1;                  // 1 = best
    std::vector<std::string> pv;      // coordinate strings, first = the line's move
    std::optional<int> score_cp;      // side to move's view, unless a mate is seen
    std::optional<int> mate;          // moves to mate (negative: the side to move is mated)
    int win = 0, draw = 0, loss = 0;  // per mille (the WDL model), side to move's view
    int depth = 0, seldepth = 0;
};

struct AnalysisUpdate {
    int depth = 0;            // the iteration just completed
    std::uint64_t nodes = 0;  // all threads
    std::int64_t time_ms = 0;
    std::uint64_t nps = 0;
    std::vector<AnalysisLine> lines;  // best first; fewer than multipv when there are fewer legal moves
    bool final = false;               // the search has ended (the returned value)
};

using AnalysisCallback = std::function<void(const AnalysisUpdate&)>;

// Analyses at full strength until a limit or *cancel, calling `on_iteration`
// (may be empty) from the calling thread after each completed iteration, and
// returns the last complete set of lines with final = true (no lines when
// there is no legal move). Same input errors as choose_move (FenError,
// NotationError); std::invalid_argument when no limit and no cancel are given.
// Thread-safe: each call has its own table and threads.
AnalysisUpdate analyse(const AnalysisRequest& request, const std::atomic<bool>* cancel,
                       const AnalysisCallback& on_iteration);

}  // namespace echecs::engine

// Time management: how long to think from the UCI/xboard limits.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace echecs::engine {

struct Limits {
    int depth = 0;              // 0: no depth limit
    std::uint64_t nodes = 0;    // 0: no node limit (all threads together)
    std::int64_t movetime = 0;  // exact time per move, ms
    std::int64_t time[COLOR_NB] = {0, 0};
    std::int64_t inc[COLOR_NB] = {0, 0};
    int movestogo = 0;
    int mate = 0;  // go mate N: stop once a mate in at most N moves is found
    bool infinite = false;
    // go ponder: while *ponder is true the search ignores the clock and does
    // not answer; when it turns false (ponderhit) the limits above apply.
    const std::atomic<bool>* ponder = nullptr;
    std::vector<Move> searchmoves;  // go searchmoves: only these root moves (empty: all)
    // Time per move that the clock loses outside the search (the protocol
    // round trip, a loaded machine), as measured by the protocol loop (ms).
    std::int64_t lag = 0;

    bool use_clock() const { return time[WHITE] > 0 || time[BLACK] > 0; }
};

using Clock = std::chrono::steady_clock;
inline std::int64_t elapsed_ms(Clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
}
inline std::int64_t elapsed_us(Clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - since).count();
}

// Soft limit: do not start a new iteration past it; hard limit: stop at once.
struct TimeBudget {
    std::int64_t soft = 0, hard = 0;  // ms; 0 = unlimited
    bool exact = false;               // movetime: use all of it (no early stop between iterations)
};

// Reserve for the protocol round trip on a fixed movetime (ms).
constexpr std::int64_t MOVETIME_RESERVE = 3;

TimeBudget allocate_time(const Limits& limits, Color us);

// How the search has gone so far, read after each completed iteration.
struct SearchTrend {
    double best_changes = 0;  // best-move changes, each iteration's count halved at the next
    int score_drop = 0;       // the last iteration's score minus this one's (cp; > 0: falling)
    int stable = 0;           // iterations since the best move last changed
};

// The factor on the soft budget before the next iteration is started (as
// Stockfish's time manager): more time while the best move changes or the
// score falls, less once one move has stood for many iterations.
double soft_scale(const SearchTrend& t);

}  // namespace echecs::engine

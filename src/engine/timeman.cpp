#include "timeman.h"

#include <algorithm>

namespace echecs::engine {

namespace {
// Kept back from the clock for the protocol round trip and a loaded machine;
// with under a second left it shrinks with the clock (a twentieth of it), so
// that a bullet clock still leaves something to think with.
constexpr std::int64_t MOVE_OVERHEAD = 30;
}  // namespace

TimeBudget allocate_time(const Limits& limits, Color us) {
    TimeBudget b;
    if (limits.infinite) return b;
    if (limits.movetime > 0) {
        b.soft = b.hard = std::max<std::int64_t>(1, limits.movetime - MOVETIME_RESERVE);
        b.exact = true;
        return b;
    }
    if (!limits.use_clock()) return b;
    const std::int64_t time = std::max<std::int64_t>(1, limits.time[us]);
    const std::int64_t inc = std::max<std::int64_t>(0, limits.inc[us]);
    const std::int64_t overhead = std::min(MOVE_OVERHEAD, time / 20);
    const std::int64_t left = std::max<std::int64_t>(1, time - overhead);
    const int mtg = limits.movestogo > 0 ? std::min(limits.movestogo, 40) : 30;
    // The increment is only spent when the clock holds it several times over.
    const std::int64_t base = left / mtg + (left > 4 * inc ? inc * 3 / 4 : inc / 4);
    b.soft = std::max<std::int64_t>(1, std::min(base, left / 2));
    b.hard = std::max<std::int64_t>(1, std::min(base * 4, left * 2 / 5));
    if (limits.movestogo == 1) b.soft = b.hard = std::max<std::int64_t>(1, left * 3 / 4);
    // Lag the clock has been seen to lose on each move comes out of the
    // budget, but never more than half of it.
    const std::int64_t lag = std::clamp<std::int64_t>(limits.lag, 0, b.hard / 2);
    b.hard -= lag;
    b.soft = std::max<std::int64_t>(1, b.soft - lag / 2);
    b.soft = std::min(b.soft, b.hard);
    return b;
}

double soft_scale(const SearchTrend& t) {
    const double instability = 1.0 + std::min(t.best_changes, 2.0) / 2.0;
    const double falling = std::clamp(1.0 + t.score_drop / 250.0, 0.75, 1.5);
    const double settled = t.stable >= 6 ? 0.75 : 1.0;
    return std::clamp(instability * falling * settled, 0.5, 2.5);
}

}  // namespace echecs::engine

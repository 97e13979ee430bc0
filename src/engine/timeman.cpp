#include "timeman.h"

#include <algorithm>

namespace echecs::engine {

namespace {
constexpr std::int64_t MOVE_OVERHEAD = 50;  // ms kept for the protocol round trip and a loaded machine
}

TimeBudget allocate_time(const Limits& limits, Color us) {
    TimeBudget b;
    if (limits.infinite) return b;
    if (limits.movetime > 0) {
        b.soft = b.hard = std::max<std::int64_t>(1, limits.movetime - MOVE_OVERHEAD / 2);
        return b;
    }
    if (!limits.use_clock()) return b;
    const std::int64_t left = std::max<std::int64_t>(1, limits.time[us] - MOVE_OVERHEAD);
    const int mtg = limits.movestogo > 0 ? std::min(limits.movestogo, 40) : 30;
    const std::int64_t base = left / mtg + limits.inc[us] * 3 / 4;
    b.soft = std::max<std::int64_t>(1, std::min(base, left / 2));
    b.hard = std::max<std::int64_t>(1, std::min(base * 4, left * 2 / 5));
    if (limits.movestogo == 1) b.soft = b.hard = std::max<std::int64_t>(1, left * 3 / 4);
    b.soft = std::min(b.soft, b.hard);
    return b;
}

}  // namespace echecs::engine

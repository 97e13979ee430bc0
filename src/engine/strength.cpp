#include "strength.h"

#include <algorithm>
#include <cmath>

#include "engine.h"

namespace echecs::engine {

namespace {

// Each level's settings. Levels 3-10 are the eight levels of the previous
// ladder (then numbered 1-8), points chosen by self-play matches so that each
// step costs about the same (docs/STRENGTH.md "The levels": 285-400 Elo in
// chess self-play, much less against Stockfish), kept exactly as the matches
// played them. Levels 1 and 2 extend the ladder down towards a beginner's 800:
// a depth-1 search (still with quiescence) that misses captures and threats
// more often and misjudges positions more. The node caps do most of the work
// from level 6 up; below, a shallow depth, a noisy evaluation and captures
// not seen (the search misses its own chances and the opponent's threats
// alike) make the mistakes a beginner makes: pieces left hanging, captures
// overlooked.
constexpr Strength LEVEL_SETTINGS[LEVEL_COUNT] = {
    {1, 45, 205, 515},   // 1
    {1, 100, 120, 300},  // 2
    {2, 165, 83, 185},   // 3
    {3, 444, 62, 96},    // 4
    {5, 1129, 45, 48},   // 5
    {6, 1924, 38, 29},   // 6
    {13, 3981, 29, 12},  // 7
    {0, 8000, 20, 0},    // 8
    {0, 30000, 10, 0},   // 9
    {0, 0, 0, 0},        // 10: full strength
};

// The last level seen as a point of the ladder for interpolation.
constexpr Strength FULL_POINT = {0, 1000000, 0, 0};

}  // namespace

Strength level_strength(int level) { return LEVEL_SETTINGS[std::clamp(level, 1, LEVEL_COUNT) - 1]; }

Strength ladder_strength(double x) {
    x = std::clamp(x, 1.0, double(LEVEL_COUNT));
    if (x >= LEVEL_COUNT) return LEVEL_SETTINGS[LEVEL_COUNT - 1];
    const int i = int(x);  // 1..LEVEL_COUNT-1
    const double t = x - i;
    const Strength& a = LEVEL_SETTINGS[i - 1];
    const Strength& b = i + 1 == LEVEL_COUNT ? FULL_POINT : LEVEL_SETTINGS[i];
    Strength s;
    const auto depth = [](int d) { return d == 0 ? 24 : d; };
    const int d = int(std::lround(depth(a.depth) + t * (depth(b.depth) - depth(a.depth))));
    s.depth = d >= 24 ? 0 : d;
    s.nodes = std::uint64_t(std::llround(
        std::exp(std::log(double(a.nodes)) + t * (std::log(double(b.nodes)) - std::log(double(a.nodes))))));
    s.noise = int(std::lround(a.noise + t * (b.noise - a.noise)));
    s.blind = int(std::lround(a.blind + t * (b.blind - a.blind)));
    return s;
}

Strength strength_for_elo(int elo) {
    const auto rating = [](int level) { return level_rating(Variant::Chess, level); };
    if (elo <= rating(1)) return level_strength(1);
    for (int i = 1; i < LEVEL_COUNT; ++i)
        if (elo < rating(i + 1)) return ladder_strength(i + double(elo - rating(i)) / (rating(i + 1) - rating(i)));
    return level_strength(LEVEL_COUNT);
}

Strength strength_for_skill(int skill) {
    skill = std::clamp(skill, 0, 20);
    return ladder_strength(1.0 + (LEVEL_COUNT - 1) * skill / 20.0);
}

}  // namespace echecs::engine

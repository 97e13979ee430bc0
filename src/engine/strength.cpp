#include "strength.h"

#include <algorithm>
#include <cmath>

#include "engine.h"

namespace echecs::engine {

namespace {

// Each level's settings, per game. Levels 3-10 are the eight levels of the
// previous ladder (then numbered 1-8), points chosen by self-play matches so
// that each step costs about the same (docs/STRENGTH.md "The levels": 285-400
// Elo in chess self-play, much less against Stockfish), kept exactly as the
// matches played them, the same in the three games. Levels 1 and 2 extend the
// ladder down towards a beginner's 800: a depth-1 search (still with
// quiescence) that misses captures and threats more often and misjudges
// positions more. Their noise and blindness are per game: chess's settings
// lose less in Alice and Avalanche (their level 1 was about 1000 on those
// games' scales), so those games have more of both, chosen by matches
// against the fixed anchors (docs/STRENGTH.md "Levels 1 and 2 in Alice and
// Avalanche": about 870 and 890 now), and no more: Avalanche's level 1 with
// more lost to the one-ply greedy player. The node
// caps do most of the work from level 6 up; below, a shallow depth, a noisy
// evaluation and captures not seen (the search misses its own chances and the
// opponent's threats alike) make the mistakes a beginner makes: pieces left
// hanging, captures overlooked.
constexpr Strength UPPER_LEVELS[LEVEL_COUNT - 2] = {
    {2, 165, 83, 185},   // 3
    {3, 444, 62, 96},    // 4
    {5, 1129, 45, 48},   // 5
    {6, 1924, 38, 29},   // 6
    {13, 3981, 29, 12},  // 7
    {0, 8000, 20, 0},    // 8
    {0, 30000, 10, 0},   // 9
    {0, 0, 0, 0},        // 10: full strength
};
constexpr Strength LOWER_LEVELS[VARIANT_NB][2] = {
    {{1, 45, 205, 515}, {1, 100, 120, 300}},  // chess: levels 1, 2
    {{1, 45, 350, 750}, {1, 100, 200, 480}},  // Alice
    {{1, 45, 320, 700}, {1, 100, 200, 450}},  // Avalanche
};

constexpr Strength settings(Variant v, int level) {
    return level <= 2 ? LOWER_LEVELS[int(v)][level - 1] : UPPER_LEVELS[level - 3];
}

// The last level seen as a point of the ladder for interpolation.
constexpr Strength FULL_POINT = {0, 1000000, 0, 0};

}  // namespace

Strength level_strength(Variant v, int level) { return settings(v, std::clamp(level, 1, LEVEL_COUNT)); }

Strength ladder_strength(Variant v, double x) {
    x = std::clamp(x, 1.0, double(LEVEL_COUNT));
    if (x >= LEVEL_COUNT) return settings(v, LEVEL_COUNT);
    const int i = int(x);  // 1..LEVEL_COUNT-1
    const double t = x - i;
    const Strength a = settings(v, i);
    const Strength b = i + 1 == LEVEL_COUNT ? FULL_POINT : settings(v, i + 1);
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

Strength strength_for_elo(Variant v, int elo) {
    const auto rating = [v](int level) { return level_rating(v, level); };
    if (elo <= rating(1)) return level_strength(v, 1);
    for (int i = 1; i < LEVEL_COUNT; ++i)
        if (elo < rating(i + 1)) return ladder_strength(v, i + double(elo - rating(i)) / (rating(i + 1) - rating(i)));
    return level_strength(v, LEVEL_COUNT);
}

Strength strength_for_skill(Variant v, int skill) {
    skill = std::clamp(skill, 0, 20);
    return ladder_strength(v, 1.0 + (LEVEL_COUNT - 1) * skill / 20.0);
}

}  // namespace echecs::engine

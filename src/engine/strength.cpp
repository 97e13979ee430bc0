#include "strength.h"

#include <algorithm>
#include <cmath>

namespace echecs::engine {

namespace {

// The line of settings every game's ladder is drawn on: ten points, from a
// depth-1 search that misjudges positions and overlooks captures (1) to
// full strength (10). Points 3-10 are the eight levels of an earlier ladder,
// kept exactly as their matches played them (docs/STRENGTH.md); points 1
// and 2 extend it down towards a beginner's 800 and are per game: chess's
// settings lose less in Alice and Avalanche, so those games have more noise
// and blindness there (chosen by matches against fixed anchors, and no more:
// Avalanche's point 1 with more lost to the one-ply greedy player). The node
// caps do most of the work from point 6 up; below, a shallow depth, a noisy
// evaluation and captures not seen (the search misses its own chances and the
// opponent's threats alike) make the mistakes a beginner makes: pieces left
// hanging, captures overlooked.
constexpr int LINE_POINTS = 10;
constexpr Strength UPPER_LINE[LINE_POINTS - 2] = {
    {2, 165, 83, 185},   // 3
    {3, 444, 62, 96},    // 4
    {5, 1129, 45, 48},   // 5
    {6, 1924, 38, 29},   // 6
    {13, 3981, 29, 12},  // 7
    {0, 8000, 20, 0},    // 8
    {0, 30000, 10, 0},   // 9
    {0, 0, 0, 0},        // 10: full strength
};
constexpr Strength LOWER_LINE[VARIANT_NB][2] = {
    {{1, 45, 205, 515}, {1, 100, 120, 300}},  // chess: points 1, 2
    {{1, 45, 350, 750}, {1, 100, 200, 480}},  // Alice
    {{1, 45, 320, 700}, {1, 100, 200, 450}},  // Avalanche
};
// Full strength seen as a point of the line, for interpolating towards it.
constexpr Strength FULL_POINT = {0, 1000000, 0, 0};

// Each game's ladder: its levels as points of the line (1.0 .. 10.0), placed
// so that neighbouring levels are about 200 Elo apart in self-play (every
// pair measured: docs/STRENGTH.md "Each game's ladder"), and each level's
// approximate rating. A game whose line spans less in self-play has fewer
// levels. The ratings follow the measured self-play chain from level 1
// (chess 770, Alice 870, Avalanche 890, the earlier ladder's), scaled as
// Stockfish's scale counts self-play: in chess linearly up to full
// strength's 2230 (its 200 games against UCI_Elo 2400), in Alice and
// Avalanche, which have no outside scale, by 0.44 (the slope chess's
// matches against Stockfish gave).
struct Ladder {
    int count;
    double points[MAX_LEVELS];
    int ratings[MAX_LEVELS];
};
constexpr Ladder LADDERS[VARIANT_NB] = {
    {19,  // chess
     {1.0, 1.39, 1.81, 2.49, 3.15, 3.64, 4.15, 4.65, 5.2, 5.83, 6.36, 6.81, 7.35, 8.0, 8.45, 9.0, 9.2, 9.4, 10.0},
     {770, 860, 940, 1012, 1105, 1177, 1239, 1335, 1412, 1490, 1534, 1636, 1688, 1783, 1874, 1973, 2064, 2142, 2230}},
    {16,  // Alice
     {1.0, 1.5, 1.91, 2.31, 2.69, 3.06, 3.84, 4.53, 5.19, 6.54, 7.16, 7.89, 8.52, 9.0, 9.25, 10.0},
     {870, 962, 1040, 1126, 1214, 1274, 1390, 1478, 1546, 1648, 1698, 1760, 1883, 1933, 2021, 2089}},
    {15,  // Avalanche
     {1.0, 1.54, 2.13, 2.64, 3.23, 4.06, 5.04, 5.93, 6.76, 7.63, 8.39, 9.0, 9.2, 9.4, 10.0},
     {890, 1001, 1093, 1192, 1270, 1346, 1413, 1470, 1554, 1638, 1737, 1839, 1906, 1965, 2024}},
};

constexpr bool ladders_well_formed() {
    for (const Ladder& l : LADDERS) {
        if (l.count < 2 || l.count > MAX_LEVELS || l.points[0] != 1.0 || l.points[l.count - 1] != 10.0) return false;
        for (int i = 1; i < l.count; ++i)
            if (l.points[i] <= l.points[i - 1] || l.ratings[i] <= l.ratings[i - 1]) return false;
    }
    return true;
}
static_assert(ladders_well_formed(), "each ladder rises from point 1 to full strength");

constexpr Strength line_point(Variant v, int i) { return i <= 2 ? LOWER_LINE[int(v)][i - 1] : UPPER_LINE[i - 3]; }

// The settings at point x of the line: depth and noise linearly, nodes
// geometrically, between the two points around it.
Strength on_line(Variant v, double x) {
    x = std::clamp(x, 1.0, double(LINE_POINTS));
    if (x >= LINE_POINTS) return line_point(v, LINE_POINTS);
    const int i = int(x);  // 1..LINE_POINTS-1
    const double t = x - i;
    const Strength a = line_point(v, i);
    const Strength b = i + 1 == LINE_POINTS ? FULL_POINT : line_point(v, i + 1);
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

}  // namespace

int level_count(Variant v) { return LADDERS[int(v)].count; }

int level_rating(Variant v, int level) {
    const Ladder& l = LADDERS[int(v)];
    return l.ratings[std::clamp(level, 1, l.count) - 1];
}

Strength level_strength(Variant v, int level) {
    const Ladder& l = LADDERS[int(v)];
    return on_line(v, l.points[std::clamp(level, 1, l.count) - 1]);
}

Strength ladder_strength(Variant v, double level) {
    const Ladder& l = LADDERS[int(v)];
    level = std::clamp(level, 1.0, double(l.count));
    const int i = std::min(int(level), l.count - 1);  // 1..count-1
    return on_line(v, l.points[i - 1] + (level - i) * (l.points[i] - l.points[i - 1]));
}

Strength strength_for_elo(Variant v, int elo) {
    const int n = level_count(v);
    const auto rating = [v](int level) { return level_rating(v, level); };
    if (elo <= rating(1)) return level_strength(v, 1);
    for (int i = 1; i < n; ++i)
        if (elo < rating(i + 1)) return ladder_strength(v, i + double(elo - rating(i)) / (rating(i + 1) - rating(i)));
    return level_strength(v, n);
}

Strength strength_for_skill(Variant v, int skill) {
    skill = std::clamp(skill, 0, 20);
    return ladder_strength(v, 1.0 + (level_count(v) - 1) * skill / 20.0);
}

}  // namespace echecs::engine

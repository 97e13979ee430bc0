// The weakened levels: how a level plays below full strength, made weak the
// way people are weak — a shallow and short search, a noisy judgement of
// positions, and, at the lowest levels, captures and threats not seen —
// never a random move. Levels 1..10 (engine.h's choose_move and its rating
// table), UCI_Elo and Skill Level all map onto this one ladder.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace echecs::engine {

struct Strength {
    int depth = 0;            // deepest iteration (0: no cap)
    std::uint64_t nodes = 0;  // nodes per move (0: no cap); counted from the second iteration
    int noise = 0;            // evaluation noise, +-centipawns, fixed per position within a move
    int blind = 0;            // per mille: a capture or promotion the search does not see (per node)
    bool full() const { return depth == 0 && nodes == 0 && noise == 0 && blind == 0; }
};

// The fixed players used as anchors at the bottom of the ladder.
enum class Player : std::uint8_t {
    Engine,     // the search, at the Strength asked for
    Greedy1,    // one ply, material only: takes the most valuable piece it can
    Material2,  // two plies, material only (plain alpha-beta, no quiescence)
};

constexpr int LEVEL_COUNT = 10;

// Level 1..LEVEL_COUNT (clamped) of a game; the last is full strength. The
// levels differ between the games only at the bottom (levels 1 and 2).
Strength level_strength(Variant v, int level);
// A point between the levels (1.0 .. LEVEL_COUNT), interpolated.
Strength ladder_strength(Variant v, double x);
// UCI_Elo on the game's ladder (engine.h's ratings); above the last
// weakened level's rating it approaches full strength.
Strength strength_for_elo(Variant v, int elo);
// Skill Level 0..20: 0 is level 1, 20 full strength, linear between.
Strength strength_for_skill(Variant v, int skill);

}  // namespace echecs::engine

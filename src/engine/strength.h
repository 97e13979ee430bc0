// The weakened levels: how a level plays below full strength, made weak the
// way people are weak — a shallow and short search, a noisy judgement of
// positions, and, at the lowest levels, captures and threats not seen —
// never a random move. The levels (engine.h's choose_move, the server's
// computer), UCI_Elo and Skill Level all map onto each game's ladder.
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

// Each game has its own number of levels (its row in strength.cpp): enough
// for neighbours to be about 200 Elo apart in self-play (the stronger scores
// 70-80%) from a beginner's level to full strength, which spans more in some
// games than in others (docs/STRENGTH.md "The levels").
constexpr int MAX_LEVELS = 20;
int level_count(Variant v);

// Level 1..level_count(v) (clamped) of a game; the last is full strength.
Strength level_strength(Variant v, int level);
// A point between the levels (1.0 .. level_count(v)), interpolated.
Strength ladder_strength(Variant v, double level);
// Each level's approximate rating in its game, for the server's level picker
// and UCI_Elo (docs/STRENGTH.md gives the matches); level clamped.
int level_rating(Variant v, int level);
// UCI_Elo on the game's ladder (its ratings); above the last weakened
// level's rating it approaches full strength.
Strength strength_for_elo(Variant v, int elo);
// Skill Level 0..20: 0 is level 1, 20 full strength, linear between.
Strength strength_for_skill(Variant v, int skill);

}  // namespace echecs::engine

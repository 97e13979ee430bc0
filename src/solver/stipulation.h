// What a problem asks: who plays, towards which goal, in how many moves.
// "#3" direct mate, "h#2" helpmate (Black starts), "h#2.5" helpmate with a
// White half-move first, "s#2" selfmate, "=3", "h=2", "s=2" stalemates.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "core/types.h"

namespace echecs::solver {

// A stipulation that cannot be read; the message says what and where.
class StipulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class Play : std::uint8_t { Direct, Help, Self };
enum class Goal : std::uint8_t { Mate, Stalemate };

struct Stipulation {
    Play play = Play::Direct;
    Goal goal = Goal::Mate;
    int moves = 2;      // n of #n, h#n, s#n (the whole part of h#n.5)
    bool half = false;  // h#n.5: White's half-move comes first

    static constexpr int MAX_MOVES = 30;  // keeps every line within the core's MAX_PLY

    // The side that moves first in the diagram.
    Color starts() const { return play == Play::Help && !half ? BLACK : WHITE; }
    // Half-moves of a complete solution (battle play: the attacker's moves and the defences between).
    int plies() const { return play == Play::Help ? 2 * moves + (half ? 1 : 0) : 2 * moves - 1; }
    std::string str() const;
    bool operator==(const Stipulation&) const = default;
};

// Throws StipulationError.
Stipulation parse_stipulation(std::string_view text);

}  // namespace echecs::solver

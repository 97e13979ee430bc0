// Rating categories: one rating per game (chess, Alice, Avalanche) and speed.
// The speed of a real-time game is that of its estimated duration, minutes +
// 40 moves of increment (as lichess): bullet < 3 min, blitz < 8, rapid < 25,
// classical beyond; correspondence games are their own speed; unlimited games
// have no clock and are never rated.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace echecs::server::accounts {

enum class Speed { Bullet, Blitz, Rapid, Classical, Correspondence };

inline constexpr std::array<std::string_view, 5> SPEED_NAMES = {"bullet", "blitz", "rapid", "classical",
                                                                "correspondence"};

constexpr std::string_view speed_name(Speed s) { return SPEED_NAMES[std::size_t(s)]; }
std::optional<Speed> speed_from_name(std::string_view name);

// Estimated minutes of a real-time control: minutes + 40 * increment / 60.
constexpr double estimated_minutes(double minutes, double increment_seconds) {
    return minutes + 40.0 * increment_seconds / 60.0;
}
constexpr Speed realtime_speed(double minutes, double increment_seconds) {
    const double m = estimated_minutes(minutes, increment_seconds);
    return m < 3 ? Speed::Bullet : m < 8 ? Speed::Blitz : m < 25 ? Speed::Rapid : Speed::Classical;
}

}  // namespace echecs::server::accounts

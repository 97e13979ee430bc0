// Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), with
// instant updates as lichess does them: each game is its own rating period
// for the two players, and a player's deviation first grows with the time
// since their last rated game (fractional rating periods).
#pragma once

#include <cstdint>
#include <span>

namespace echecs::server::accounts {

struct GlickoParams {
    double tau = 0.75;               // constrains volatility changes
    double default_rating = 1500;    // a new player
    double default_deviation = 500;  // (lichess: 500)
    double default_volatility = 0.09;
    double min_deviation = 45;  // never more certain than this
    double max_deviation = 500;
    double max_volatility = 0.1;
    double provisional_deviation = 110;  // shown as provisional ("?") above
    double rating_periods_per_day = 0.21436;
};

struct Glicko {
    double rating = 1500;
    double deviation = 500;
    double volatility = 0.09;
};

Glicko new_rating(const GlickoParams& p = {});
bool provisional(const Glicko& g, const GlickoParams& p = {});

// One game of a rating period, from the rated player's point of view.
struct GlickoGame {
    Glicko opponent;
    double score;  // 1 win, 0.5 draw, 0 loss
};

// The paper's update of one rating period (all its games at once), with the
// deviation growing by `periods` rating periods before it (the paper: 1;
// lichess: the fractional number of periods since the player's last rated
// game). No games: only that growth. No clamping: this is the published
// algorithm, tested against the paper's worked example.
Glicko rate_period(const Glicko& player, std::span<const GlickoGame> games, double tau, double periods = 1.0);

// What one finished rated game does to a player: a rating period of its own
// (instant update), `days_since_last` their last rated game, then deviation
// and volatility clamped to the parameters' ranges.
Glicko rate_game(const Glicko& player, double days_since_last, const Glicko& opponent, double score,
                 const GlickoParams& p = {});

}  // namespace echecs::server::accounts

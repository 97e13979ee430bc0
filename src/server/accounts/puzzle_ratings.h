// Puzzle ratings (docs/PUZZLES.md "Rating"): Glicko-2, one per game, a
// finished puzzle being one game against the puzzle, won when solved. An
// account's rating is stored (the accounts store) and moved only by its
// first finished attempt at each puzzle, so that a puzzle cannot be farmed;
// an anonymous solver's is kept by the browser and sent with each attempt.
// Runs on the accounts thread (AccountService::request) for accounts.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/accounts/accounts.h"
#include "server/accounts/glicko2.h"

namespace echecs::server::accounts {

// The puzzle as the solver's opponent: its seed rating, with a deviation
// that says the seed is an estimate.
inline constexpr double PUZZLE_DEVIATION = 100;

// The solver's rating after a finished puzzle, `days` after their last one.
Glicko rate_against_puzzle(const Glicko& solver, double days, int puzzle_rating, bool solved,
                           const GlickoParams& p = {});
// {"rating", "deviation", "volatility", "provisional"}: an attempt's `player`.
nlohmann::json puzzle_player_json(const Glicko& g, const GlickoParams& p = {});

struct PuzzleAttempt {
    std::string puzzle_id;
    std::string variant;  // chess | alice | avalanche
    int puzzle_rating = 1500;
    bool solved = false;
};

struct PuzzleRated {
    bool rated = false;  // false: the account had finished this puzzle before (nothing changed)
    Glicko before, after;
    int puzzles = 0;  // rated in this game, after
};

// The account's finished attempt, rated from its stored rating and written
// (durable) before this returns. Throws StoreError.
PuzzleRated rate_puzzle_attempt(Accounts& a, std::int64_t account_id, const PuzzleAttempt& attempt);

// The account's rating in a game (a new one when none is stored) and the
// puzzles of that game it has finished: what the next puzzle is chosen by.
struct PuzzleStanding {
    Glicko rating;
    int puzzles = 0;
    std::vector<std::string> attempted;  // sorted
};
PuzzleStanding puzzle_standing(Accounts& a, std::int64_t account_id, const std::string& variant);

// {"chess": {"rating", "rd", "puzzles", "provisional"}, "alice": ..., "avalanche": ...}:
// every game, a new rating for a game never played (profiles, GET /api/account).
nlohmann::json puzzle_ratings_json(AccountStore& store, std::int64_t account_id, const GlickoParams& p = {});

}  // namespace echecs::server::accounts

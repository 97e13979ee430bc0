// A puzzle attempt judged (POST /api/puzzles/<id>/attempt): the solver's
// moves against the solution, by the rules alone (a few moves replayed, no
// engine), and the browser's puzzle rating read and moved (anonymous
// solvers; an account's is the stored one: server/accounts/puzzle_ratings.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "puzzle/puzzle.h"
#include "server/accounts/glicko2.h"

namespace echecs::server {

struct JudgedAttempt {
    nlohmann::json answer;  // {"id", "result", and "reply" | "expected", "solution"}
    bool finished = false;  // solved or failed
    bool solved = false;
    std::optional<accounts::Glicko> player;  // the browser's rating (`player`), checked
};

// The body {"moves": [...], "player"?: {...}} judged; throws ApiError for a
// bad body (the `player` checked before the moves).
JudgedAttempt judge_attempt(const puzzle::Puzzle& p, const nlohmann::json& body);

// A finished attempt with the browser's rating: the new one in the answer
// ("player", "rating_diff"); nothing is stored.
void rate_for_browser(const puzzle::Puzzle& p, JudgedAttempt& j);

}  // namespace echecs::server

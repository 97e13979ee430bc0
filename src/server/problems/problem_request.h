// A composer's request as the HTTP API receives it, read once into a typed
// request: the problem (game, diagram, stipulation) and the solving options,
// each field checked with an error that names it. Also the Popeye export and
// import of the problems page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "server/api/reasons.h"
#include "solver/solver.h"

namespace echecs::problems {

struct SolveRequest {
    solver::Problem problem;
    bool tries = false, set_play = false, threats = true;
    int max_solutions = 0;       // 0: all, which the jobs cap at MAX_SOLUTIONS
    double timeout_seconds = 0;  // 0: the server's maximum
};

constexpr std::size_t MAX_FEN_BYTES = 256;
constexpr std::size_t MAX_TITLE_BYTES = 200;
constexpr int MAX_SOLUTIONS = 1000;
// Longer problems are refused: the server's time limit would end them unsolved.
constexpr int MAX_SOLVE_MOVES = 8;

// {"variant","fen","stipulation", optional "tries","set_play","threats",
//  "max_solutions","timeout","title"}. Throws server::ApiError naming the
// field (its reasons: `missing`, `not_text`, `too_long`, `bad_fen`, ...).
SolveRequest read_solve_request(const nlohmann::json& body);

// Popeye input for the problem of `body` (the fields above): {"popeye": text}.
nlohmann::json popeye_export(const nlohmann::json& body);
// {"text": Popeye input} -> {"problems": [{"title","twins": [{"label","variant","fen","stipulation"}],
// "tries","set_play","max_solutions"}]}. Throws server::ApiError (field "text", the line in the message).
nlohmann::json popeye_import(const nlohmann::json& body);

}  // namespace echecs::problems

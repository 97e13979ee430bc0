// PGN pasted or uploaded into the analysis board: every game read and
// replayed by the core (PGN as lichess, ChessBase and other tools write it),
// returned as what the board loads — the game, its start position, its moves
// in coordinates and SAN with their comments, how it ended — or, for a game
// that cannot be replayed, the error that says where.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "server/api/reasons.h"

namespace echecs::study {

constexpr std::size_t MAX_PGN_BYTES = 1 << 20;
constexpr std::size_t MAX_GAMES = 200;

// {"text": PGN} -> {"games": [{"index","tags":{...},"variant","initial_fen",
//   "moves":[{"uci","san","comment"}],"result","termination","summary",
//   "readings":[{"ply","written","read"}] (moves read from a lenient spelling),
//   "error","reason","params"}], "truncated": bool}; `reason` and `params`
//   say the error for the client (docs/API.md, "PGN import"). Throws server::ApiError for a missing or oversized text.
nlohmann::json import_pgn(const nlohmann::json& body);

}  // namespace echecs::study

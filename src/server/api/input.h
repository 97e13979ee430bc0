// The fields of HTTP request bodies, each checked once, with an ApiError
// that names the field and the reason. No I/O: the fuzz target and the unit
// tests call these directly.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "server/api/errors.h"
#include "server/app/options.h"
#include "server/storage/storage.h"

namespace echecs::server {

// A request body: empty means {}; otherwise a JSON object of bounded depth.
nlohmann::json parse_body(std::string_view text);

// A string member; "" when absent or null and not required.
std::string string_field(const nlohmann::json& j, const char* name, bool required, const std::string& prefix = "");
double number_field(const nlohmann::json& j, const char* name, double lo, double hi, const std::string& prefix = "");
bool bool_field(const nlohmann::json& j, const char* name, bool fallback);

// 1-20 characters, trimmed, default "Anonymous". Refuses invalid UTF-8,
// control and invisible characters, bidirectional controls and the names
// the server uses itself ("Computer", ...).
std::string parse_nickname(const nlohmann::json& body, const char* name);
// `time`; absent means unlimited when default_unlimited, else an error.
TimeControl parse_time(const nlohmann::json& body, bool default_unlimited, const ServerOptions& opt);
Variant parse_variant(const nlohmann::json& body);
// The creator's colour: "white", "black" or "random" (default).
std::string parse_color(const nlohmann::json& body);

// The analysis board: `fen` (default: the start) and `moves` replayed.
struct Analysis {
    std::unique_ptr<Game> game;
    std::string fen;
    std::vector<std::string> uci, san;
};
// An optional "fen" to start a game from (the start position without it):
// a legal position of `v` where the game goes on.
std::string parse_start_fen(const nlohmann::json& body, Variant v);
Analysis replay_analysis(const nlohmann::json& body);

}  // namespace echecs::server

// The server's errors: the one ApiError and its table (reasons.h, where the
// HTTP status and the code of every reason are decided, and nowhere else),
// and the WebSocket `error` message. docs/API.md lists every reason (the
// `reasons` tests check it, and the client's translations).
#pragma once

#include <optional>
#include <string>

#include "server/api/reasons.h"

namespace echecs::server {

// nullopt: the action was done.
using ActionResult = std::optional<ApiError>;

// The WebSocket `error` message; `game` and `id` (a JSON scalar's text)
// are echoed when not empty.
std::string ws_error_text(const ApiError& e, const std::string& game, const std::string& id_json);

}  // namespace echecs::server

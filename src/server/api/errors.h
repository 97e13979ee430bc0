// The server's errors: a general `code`, a stable snake_case `reason` per
// distinct failure (the client translates it), the JSON path of the bad
// input (`field`) and the values the message needs (`params`). The HTTP
// status of an error is decided here and nowhere else. docs/API.md lists
// every reason.
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace echecs::server {

struct ApiError : std::exception {
    ApiError(std::string code_, std::string reason_, std::string message_, std::string field_ = "",
             nlohmann::json params_ = nlohmann::json::object())
        : code(std::move(code_)),
          reason(std::move(reason_)),
          message(std::move(message_)),
          field(std::move(field_)),
          params(std::move(params_)) {}
    const char* what() const noexcept override { return message.c_str(); }

    std::string code;
    std::string reason;
    std::string message;  // English, for people reading logs or raw answers
    std::string field;    // "" when the error is not about one input field
    nlohmann::json params;
};

// nullopt: the action was done.
using ActionResult = std::optional<ApiError>;

int http_status(const ApiError& e);
// {"error": {"code", "message", "reason", "field", "params"}}
nlohmann::json error_body(const ApiError& e);
// The WebSocket `error` message; `game` and `id` (a JSON scalar's text)
// are echoed when not empty.
std::string ws_error_text(const ApiError& e, const std::string& game, const std::string& id_json);

// The error for an exception that is not an ApiError (a bug, or a library
// refusing something): `internal`, with the exception's text.
ApiError internal_error(const std::exception& e);

}  // namespace echecs::server

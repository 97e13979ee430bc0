// The accounts library's errors are the server's one ApiError
// (server/api/reasons.h): a reason of the server's table, which decides the
// HTTP status and the code; the library never decides a status itself.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "server/api/reasons.h"

namespace echecs::server::accounts {

using AccountError = ApiError;

// Constructors of the errors every part uses.
ApiError bad_field(std::string field, Reason reason, std::string message,
                   nlohmann::json params = nlohmann::json::object());
// A reason by its name (credentials.h's checks name theirs): a name the
// table does not hold is a bug, answered `internal` (the accounts tests
// meet every one).
ApiError bad_field(std::string field, std::string_view reason, std::string message);
ApiError unauthorized(Reason reason, std::string message);
// `retry_after_ms` goes in params as "retry_after" (whole seconds, at least 1).
ApiError rate_limited(Reason reason, std::string message, std::int64_t retry_after_ms);

}  // namespace echecs::server::accounts

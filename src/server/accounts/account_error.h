// The accounts library's one error type. It carries what the server's
// ApiError carries (a general code, a stable snake_case reason the client
// translates, the JSON field at fault, the message's values) and its HTTP
// status, decided here: the library never depends on the server's internals.
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <string>

namespace echecs::server::accounts {

struct AccountError : std::exception {
    AccountError(int status_, std::string code_, std::string reason_, std::string message_, std::string field_ = "",
                 nlohmann::json params_ = nlohmann::json::object())
        : status(status_),
          code(std::move(code_)),
          reason(std::move(reason_)),
          message(std::move(message_)),
          field(std::move(field_)),
          params(std::move(params_)) {}
    const char* what() const noexcept override { return message.c_str(); }

    int status;           // 400, 401, 403, 404, 409, 413, 415, 429, 500, 503
    std::string code;     // bad_request, unauthorized, forbidden, not_found, conflict, rate_limited, ...
    std::string reason;   // username_taken, invalid_credentials, password_short, ...
    std::string message;  // English, for logs and raw answers
    std::string field;    // "" when not about one input field
    nlohmann::json params;
};

// Constructors of the errors every part uses.
AccountError bad_field(std::string field, std::string reason, std::string message,
                       nlohmann::json params = nlohmann::json::object());
AccountError unauthorized(std::string reason, std::string message);
// `retry_after_ms` goes in params as "retry_after" (whole seconds, at least 1).
AccountError rate_limited(std::string reason, std::string message, std::int64_t retry_after_ms);

// {"error": {"code","message","reason","field","params"}}, as the server answers.
nlohmann::json error_body(const AccountError& e);

}  // namespace echecs::server::accounts

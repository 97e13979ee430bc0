#include "server/accounts/account_error.h"

#include <algorithm>

namespace echecs::server::accounts {

AccountError bad_field(std::string field, std::string reason, std::string message, nlohmann::json params) {
    return AccountError(400, "bad_request", std::move(reason), std::move(message), std::move(field), std::move(params));
}

AccountError unauthorized(std::string reason, std::string message) {
    return AccountError(401, "unauthorized", std::move(reason), std::move(message));
}

AccountError rate_limited(std::string reason, std::string message, std::int64_t retry_after_ms) {
    const std::int64_t seconds = std::max<std::int64_t>(1, (retry_after_ms + 999) / 1000);
    return AccountError(429, "rate_limited", std::move(reason), std::move(message), "", {{"retry_after", seconds}});
}

nlohmann::json error_body(const AccountError& e) {
    return {{"error",
             {{"code", e.code},
              {"message", e.message},
              {"reason", e.reason},
              {"field", e.field.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.field)},
              {"params", e.params.is_object() ? e.params : nlohmann::json::object()}}}};
}

}  // namespace echecs::server::accounts

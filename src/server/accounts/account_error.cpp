#include "server/accounts/account_error.h"

#include <algorithm>

namespace echecs::server::accounts {

ApiError bad_field(std::string field, Reason reason, std::string message, nlohmann::json params) {
    return ApiError(reason, std::move(message), std::move(field), std::move(params));
}

ApiError bad_field(std::string field, std::string_view reason, std::string message) {
    if (auto r = reason_from_name(reason)) return bad_field(std::move(field), *r, std::move(message));
    return ApiError(Reason::internal, "internal error: unknown reason '" + std::string(reason) + "'");
}

ApiError unauthorized(Reason reason, std::string message) { return ApiError(reason, std::move(message)); }

ApiError rate_limited(Reason reason, std::string message, std::int64_t retry_after_ms) {
    const std::int64_t seconds = std::max<std::int64_t>(1, (retry_after_ms + 999) / 1000);
    return ApiError(reason, std::move(message), "", {{"retry_after", seconds}});
}

}  // namespace echecs::server::accounts

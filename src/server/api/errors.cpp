#include "server/api/errors.h"

#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

int http_status(const ApiError& e) {
    if (e.reason == "content_type") return 415;
    if (e.reason == "method_not_allowed") return 405;
    static const std::pair<const char*, int> BY_CODE[] = {
        {"not_found", 404},   {"forbidden", 403}, {"not_your_seat", 403}, {"conflict", 409},    {"game_over", 409},
        {"not_allowed", 409}, {"too_large", 413}, {"rate_limited", 429},  {"unavailable", 503}, {"internal", 500},
    };
    for (const auto& [code, status] : BY_CODE)
        if (e.code == code) return status;
    return 400;
}

json error_body(const ApiError& e) {
    json j = {{"code", e.code},
              {"message", e.message},
              {"reason", e.reason},
              {"field", e.field.empty() ? json(nullptr) : json(e.field)},
              {"params", e.params.is_object() ? e.params : json::object()}};
    // The analysis board's bad move, as it was reported before `params`.
    if (auto it = e.params.find("index"); it != e.params.end()) j["index"] = *it;
    return {{"error", std::move(j)}};
}

std::string ws_error_text(const ApiError& e, const std::string& game, const std::string& id_json) {
    std::string out = "{\"type\":\"error\",\"code\":" + quote(e.code) + ",\"message\":" + quote(e.message) +
                      ",\"reason\":" + quote(e.reason) +
                      ",\"field\":" + (e.field.empty() ? std::string("null") : quote(e.field)) +
                      ",\"params\":" + dump(e.params.is_object() ? e.params : json::object());
    if (!game.empty()) out += ",\"game\":" + quote(game);
    if (!id_json.empty()) out += ",\"id\":" + id_json;
    out += '}';
    return out;
}

ApiError internal_error(const std::exception& e) {
    return ApiError("internal", "internal", std::string("internal error: ") + e.what());
}

}  // namespace echecs::server

#include "server/api/errors.h"

#include "server/protocol/text.h"

namespace echecs::server {

std::string ws_error_text(const ApiError& e, const std::string& game, const std::string& id_json) {
    std::string out = "{\"type\":\"error\",\"code\":" + quote(e.code) + ",\"message\":" + quote(e.message) +
                      ",\"reason\":" + quote(e.reason) +
                      ",\"field\":" + (e.field.empty() ? std::string("null") : quote(e.field)) +
                      ",\"params\":" + dump(e.params);
    if (!game.empty()) out += ",\"game\":" + quote(game);
    if (!id_json.empty()) out += ",\"id\":" + id_json;
    out += '}';
    return out;
}

}  // namespace echecs::server

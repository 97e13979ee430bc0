#include "server/api/errors.h"

#include "server/protocol/server_messages.h"

namespace echecs::server {

std::string ws_error_text(const ApiError& e, const std::string& game, const std::string& id_json) {
    return out::to_text(out::Error{e.code, e.message, e.reason, e.field, e.params, game, id_json});
}

}  // namespace echecs::server

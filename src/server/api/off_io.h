// Heavy work of a request (reading an uploaded PGN or Popeye file) runs on
// the engine's pool as an analysis: fair between addresses, within each
// address's quota, below the games in progress, never on the I/O thread,
// where it would delay every player's moves. The body (up to 1 MiB) is
// parsed and the answer written there too: the I/O thread only checks the
// content type and the quota (a refused upload costs it nothing), and
// sends the text.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/api/router.h"

namespace echecs::server {

class Hub;

// The error the pool would answer now to work from `ip` (eval_pending,
// engine_busy), or none: an upload is refused from its head, its body unread.
std::optional<ApiError> upload_refusal(Hub& hub, const std::string& ip);

// Throws ApiError (eval_pending, engine_busy) when the pool refuses the work.
void answer_off_io(Hub& hub, const HttpContextPtr& ctx, std::function<nlohmann::json(const nlohmann::json& body)> work);

}  // namespace echecs::server

// Heavy work of a request (reading an uploaded PGN or Popeye file) runs on
// the engine's pool as an analysis: fair between addresses, within each
// address's quota, below the games in progress, never on the I/O thread,
// where it would delay every player's moves. Its answer, or its error, is
// sent from the I/O thread.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

#include "server/api/router.h"

namespace echecs::server {

class Hub;

// Throws ApiError (eval_pending, engine_busy) when the pool refuses the work.
void answer_off_io(Hub& hub, const HttpContextPtr& ctx, std::function<nlohmann::json()> work);

}  // namespace echecs::server

// The accounts library as the server's routes see it: a request turned into
// the library's HttpIn, the library's answer sent back.
#pragma once

#include <string>

#include "server/accounts/account_http.h"
#include "server/accounts/accounts.h"
#include "server/api/router.h"
#include "server/app/options.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

// The request's body (JSON only), headers, client address, browser token,
// TLS, the Origin check's verdict, the path's :name and the query.
accounts::HttpIn account_request(const HttpContextPtr& ctx, const ServerOptions& opt);
// Status, JSON body, Set-Cookie and Retry-After; never cached.
void send_account_answer(const HttpContextPtr& ctx, const accounts::HttpAnswer& a);

void add_account_routes(Router& r, Hub& hub);

// The rating category's speed of a time control (bullet ... classical,
// correspondence); "" for unlimited games, which are never rated.
std::string speed_of(const TimeControl& tc);

// A finished game as the accounts library records it.
accounts::GameEnd game_end_of(const GameRecord& g);

// After a sign-up: the browser's anonymous finished games become the account's.
void claim_anonymous_games(Hub& hub, std::int64_t account_id, const std::string& token);

}  // namespace echecs::server

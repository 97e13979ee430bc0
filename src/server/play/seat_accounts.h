// Accounts on seats: who a request's browser is logged in as (its session
// cookie, or the token's link) with the rating of the game's category, and
// the rules of rated seeks: only two distinct accounts play rated, and an
// acceptor's rating must be within the seek's range.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/accounts/accounts.h"
#include "server/api/errors.h"
#include "server/api/router.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

using SeatAccount = accounts::SeatAccount;

// fn(account or nullopt), guarded by ctx, on the I/O thread.
void with_seat_account(Hub& hub, const HttpContextPtr& ctx, Variant v, const TimeControl& tc,
                       std::function<void(const std::optional<SeatAccount>&)> fn);

// The seat of a logged-in player: the account's name, id and rating.
void apply_account(Seat& seat, const std::optional<SeatAccount>& a);

// A seek's `rated` and rating range (`rating_min`, `rating_max`: 0-4000),
// checked; throws ApiError naming the field.
struct RatedFields {
    bool rated = false;
    int rating_min = 0, rating_max = 0;
};
RatedFields parse_rated_fields(const nlohmann::json& body, const TimeControl& tc);

// Creating: a rated seek needs an account.
ActionResult check_rated_create(const RatedFields& f, const std::optional<SeatAccount>& creator);
// Accepting: rated needs an account other than the creator's; a rating
// range needs an account whose rating is within it.
ActionResult check_rated_accept(const SeekRecord& s, const std::optional<SeatAccount>& acceptor);

}  // namespace echecs::server

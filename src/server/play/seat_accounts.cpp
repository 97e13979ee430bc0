#include "server/play/seat_accounts.h"

#include <boost/asio/post.hpp>

#include "server/accounts/account_service.h"
#include "server/api/api_accounts.h"
#include "server/api/input.h"
#include "server/play/hub.h"

namespace echecs::server {

using nlohmann::json;

void with_seat_account(Hub& hub, const HttpContextPtr& ctx, Variant v, const TimeControl& tc,
                       std::function<void(const std::optional<SeatAccount>&)> fn) {
    hub.accounts().seat_account(ctx->request().header("cookie"), ctx->token_secret(), std::string(variant_name(v)),
                                speed_of(tc), [ctx, fn = std::move(fn)](std::optional<SeatAccount> a) {
                                    // Posted to the I/O thread by the service already.
                                    ctx->run_guarded([&] { fn(a); });
                                });
}

void apply_account(Seat& seat, const std::optional<SeatAccount>& a) {
    if (!a) return;
    seat.name = a->username;
    seat.account = a->account_id;
    seat.rating = a->rating;
    seat.provisional = a->provisional;
}

RatedFields parse_rated_fields(const json& body, const TimeControl& tc) {
    RatedFields f;
    f.rated = bool_field(body, "rated", false);
    if (f.rated && tc.kind == TimeControl::Unlimited)
        throw ApiError(Reason::rated_unlimited, "games without a clock are never rated", "rated");
    if (body.contains("rating_min") && !body["rating_min"].is_null())
        f.rating_min = int(number_field(body, "rating_min", 0, 4000));
    if (body.contains("rating_max") && !body["rating_max"].is_null())
        f.rating_max = int(number_field(body, "rating_max", 0, 4000));
    if (f.rating_min && f.rating_max && f.rating_min > f.rating_max)
        throw ApiError(Reason::rating_range_invalid, "rating_min is above rating_max", "rating_min",
                       {{"min", f.rating_min}, {"max", f.rating_max}});
    if ((f.rating_min || f.rating_max) && tc.kind == TimeControl::Unlimited)
        throw ApiError(Reason::rating_range_unlimited, "games without a clock have no rating", "rating_min");
    return f;
}

ActionResult check_rated_create(const RatedFields& f, const std::optional<SeatAccount>& creator) {
    if (f.rated && !creator) return ApiError(Reason::rated_needs_account, "log in to play rated games", "rated");
    if ((f.rating_min || f.rating_max) && !creator)
        return ApiError(Reason::rating_range_needs_account, "log in to seek players of a rating range", "rating_min");
    return std::nullopt;
}

ActionResult check_rated_accept(const SeekRecord& s, const std::optional<SeatAccount>& acceptor) {
    if (s.rated && !acceptor) return ApiError(Reason::rated_needs_account, "log in to accept a rated seek", "rated");
    if (acceptor && s.account && acceptor->account_id == s.account)
        return ApiError(Reason::own_seek, "you cannot accept your own seek");
    if (s.rating_min || s.rating_max) {
        if (!acceptor)
            return ApiError(Reason::rating_range_needs_account, "this seek is for players of a rating range");
        if ((s.rating_min && acceptor->rating < s.rating_min) || (s.rating_max && acceptor->rating > s.rating_max))
            return ApiError(Reason::rating_out_of_range, "your rating is outside this seek's range", "",
                            {{"rating", acceptor->rating},
                             {"min", s.rating_min ? json(s.rating_min) : json(nullptr)},
                             {"max", s.rating_max ? json(s.rating_max) : json(nullptr)}});
    }
    return std::nullopt;
}

}  // namespace echecs::server

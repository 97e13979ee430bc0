// HTTP API: tournaments (docs/API.md "Tournaments"): the list, one
// tournament's standings, creating an arena or a Swiss, joining and withdrawing. Only
// accounts create and join (the accounts worker says who the browser is).
#include <boost/asio/post.hpp>
#include <cmath>
#include <functional>
#include <optional>

#include "server/api/input.h"
#include "server/app/util.h"
#include "server/play/hub.h"
#include "server/play/seat_accounts.h"
#include "server/play/swiss_room.h"
#include "server/play/tournaments.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

ApiError not_found() { return ApiError(Reason::tournament_not_found, "no such tournament"); }

ApiError needs_account() { return ApiError(Reason::tournament_needs_account, "log in to take part in tournaments"); }

// A whole number field within [lo, hi], `fallback` when absent.
int whole_field(const json& b, const char* name, int lo, int hi, int fallback) {
    if (!b.contains(name) || b[name].is_null()) return fallback;
    const double x = number_field(b, name, lo, hi);
    if (x != std::floor(x))
        throw ApiError(Reason::number_range, std::string(name) + " must be a whole number", name,
                       {{"min", lo}, {"max", hi}});
    return int(x);
}

// The answer once a write is done (the context may be gone by then).
std::function<void(bool, std::string)> answer(const HttpContextPtr& ctx, std::function<json()> body, int status = 200) {
    return [ctx, body, status](bool ok, std::string err) {
        ctx->run_guarded([&] {
            if (!ok) throw ApiError(Reason::storage_failed, "storage failed: " + err);
            ctx->json(status, body());
        });
    };
}

void create(Hub& hub, const HttpContextPtr& ctx) {
    ctx->token_required();
    const json& b = ctx->body();
    const std::string kind = string_field(b, "kind", false);
    if (!kind.empty() && kind != "arena" && kind != "swiss")
        throw ApiError(Reason::tournament_kind_unknown, "a tournament is an arena or a Swiss", "kind",
                       {{"allowed", json::array({"arena", "swiss"})}});
    TournamentRecord t;
    t.kind = kind.empty() ? "arena" : kind;
    t.variant = parse_variant(b);
    t.time = parse_time(b, false, hub.options());
    if (t.time.kind != TimeControl::Realtime)
        throw ApiError(Reason::tournament_time, "a tournament is played with a real-time clock", "time");
    t.rated = bool_field(b, "rated", true);
    if (t.kind == "swiss") {
        t.rounds = whole_field(b, "rounds", SwissRoom::MIN_ROUNDS, SwissRoom::MAX_ROUNDS, 5);
        t.round_interval_ms = std::int64_t(whole_field(b, "round_interval", 0, SwissRoom::MAX_INTERVAL_S, 10)) * 1000;
    } else {
        t.duration_ms = std::int64_t(whole_field(b, "minutes", 10, 180, 60)) * 60'000;
    }
    const std::int64_t starts_in = whole_field(b, "starts_in", 0, 7 * 24 * 60, 5);
    t.name = b.contains("name") && !b["name"].is_null() ? parse_nickname(b, "name") : "";
    with_seat_account(
        hub, ctx, t.variant, t.time, [&hub, ctx, t, starts_in](const std::optional<SeatAccount>& a) mutable {
            if (!a) throw needs_account();
            const std::int64_t now = now_ms();
            do t.id = random_id(8);
            while (hub.tournaments().find(t.id));
            t.created_by = a->account_id;
            t.created_at = now;
            t.starts_at = now + starts_in * hub.options().tournament_minute_ms;
            if (t.name.empty()) t.name = a->username;
            hub.tournaments().create(t, answer(
                                            ctx,
                                            [&hub, id = t.id] {
                                                TournamentRoom* r = hub.tournaments().find(id);
                                                return json{{"tournament", r ? r->summary() : json(nullptr)}};
                                            },
                                            201));
        });
}

// Join and withdraw: the account first, then the tournament again (it may
// have ended meanwhile).
void take_part(Hub& hub, const HttpContextPtr& ctx, bool join) {
    const std::string token = ctx->token_required();
    const std::string id = ctx->param("id");
    TournamentRoom* r = hub.tournaments().find(id);
    if (!r) throw not_found();
    with_seat_account(hub, ctx, r->record().variant, r->record().time,
                      [&hub, ctx, id, token, join](const std::optional<SeatAccount>& a) {
                          if (!a) throw needs_account();
                          TournamentRoom* again = hub.tournaments().find(id);
                          if (!again) throw not_found();
                          auto body = [&hub, id, token] {
                              TournamentRoom* now = hub.tournaments().find(id);
                              return now ? json{{"tournament", now->summary()}, {"me", now->me(token)}} : json{};
                          };
                          if (join)
                              again->join(*a, token, answer(ctx, body));
                          else
                              again->withdraw(a->account_id, answer(ctx, body));
                      });
}

// Answers from the database: `read` runs on the storage reader, which also
// writes the answer out (the I/O thread only sends it); nullopt is 404.
void answer_from_storage(Hub& hub, const HttpContextPtr& ctx, std::string what,
                         std::function<std::optional<json>(Storage&)> read) {
    const bool queued = hub.storage().read([&hub, ctx, what = std::move(what), read = std::move(read)](Storage& st) {
        bool ok = true, found = false;
        std::string text;
        try {
            std::optional<json> out = read(st);
            found = out.has_value();
            if (found) text = dump(*out);
        } catch (const std::exception& e) {
            ok = false;
            hub.log(what + ": " + e.what());
        }
        boost::asio::post(hub.ioc(), ctx->guard([ctx, ok, found, what, text = std::move(text)]() mutable {
            if (!ok) throw ApiError(Reason::storage_failed, what + " could not be read");
            if (!found) throw not_found();
            ctx->json_text(200, std::move(text));
        }));
    });
    if (!queued) throw ApiError(Reason::storage_busy, "the server is busy; try again");
}

// A tournament the server no longer keeps in memory (older than the
// Tournaments::FINISHED_KEPT latest finished); only a finished one (the
// unfinished are all in memory).
void archived(Hub& hub, const HttpContextPtr& ctx) {
    const std::string id = ctx->param("id");
    if (id.empty() || id.size() > 16) throw not_found();
    answer_from_storage(hub, ctx, "the tournament " + id, [&hub, id, token = ctx->token()](Storage& st) {
        std::optional<Tournaments::Stored> t = Tournaments::load_one(st, id);
        if (!t || t->rec.status != "finished") return std::optional<json>();
        json out = Tournaments::archived(hub, std::move(*t), token);
        out["now"] = now_ms();
        out["archived"] = true;  // nothing more will change: not watched
        return std::optional<json>(std::move(out));
    });
}

// A profile's list: the player's tournaments in memory, then their older
// finished ones, read from the database.
void players_tournaments(Hub& hub, const HttpContextPtr& ctx, const std::string& player) {
    const std::int64_t before = hub.tournaments().oldest_finished_start();
    answer_from_storage(hub, ctx, "the tournaments",
                        [&hub, player, before, list = hub.tournaments().list(player)](Storage& st) {
                            json out = list;
                            for (json& t : Tournaments::archived_of(hub, st, player, before))
                                out["tournaments"].push_back(std::move(t));
                            return std::optional<json>(std::move(out));
                        });
}

}  // namespace

void add_tournament_routes(Router& r, Hub& hub) {
    r.add("GET", "/api/tournaments", [&hub](const HttpContextPtr& ctx) {
        const std::string& player = ctx->query("player");
        if (player.size() > 64) throw ApiError(Reason::too_long, "player: at most 64 characters", "player");
        if (player.empty()) return ctx->json(200, hub.tournaments().list());
        players_tournaments(hub, ctx, player);
    });
    r.add("POST", "/api/tournaments", [&hub](const HttpContextPtr& ctx) { create(hub, ctx); });
    r.add("GET", "/api/tournaments/:id", [&hub](const HttpContextPtr& ctx) {
        if (TournamentRoom* room = hub.tournaments().find(ctx->param("id")))
            return ctx->json(200, {{"tournament", room->view()}, {"me", room->me(ctx->token())}, {"now", now_ms()}});
        archived(hub, ctx);
    });
    r.add("POST", "/api/tournaments/:id/join", [&hub](const HttpContextPtr& ctx) { take_part(hub, ctx, true); });
    r.add("POST", "/api/tournaments/:id/withdraw", [&hub](const HttpContextPtr& ctx) { take_part(hub, ctx, false); });
}

}  // namespace echecs::server

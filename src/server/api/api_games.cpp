// HTTP API: games against the computer, game states, listings and PGN.
#include <boost/asio/post.hpp>
#include <cmath>

#include "engine/engine.h"
#include "server/api/input.h"
#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"
#include "server/play/seat_accounts.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

ApiError game_not_found() { return ApiError(Reason::game_not_found, "no such game"); }

int whole_query(const HttpContextPtr& ctx, const char* name, int lo, int hi, int fallback) {
    if (!ctx->has_query(name)) return fallback;
    const std::string& v = ctx->query(name);
    try {
        std::size_t used = 0;
        const long x = std::stol(v, &used);
        if (used == v.size() && x >= lo && x <= hi) return int(x);
    } catch (const std::exception&) {
    }
    throw ApiError(
        Reason::number_range,
        std::string(name) + " must be a whole number between " + std::to_string(lo) + " and " + std::to_string(hi),
        name, {{"min", lo}, {"max", hi}});
}

void start_computer_game(Hub& hub, const HttpContextPtr& ctx, Variant v, const TimeControl& tc, const std::string& fen,
                         const std::string& color, const Seat& human, const Seat& computer);

void check_engine_capacity(Hub& hub, const std::string& ip, const Seat& human) {
    const ServerOptions& opt = hub.options();
    if (hub.live_engine_games_of(human) >= opt.max_engine_games_per_player)
        throw ApiError(Reason::too_many_own_engine_games, "you have too many live games against the computer", "",
                       {{"max", opt.max_engine_games_per_player}});
    if (hub.limits().engine_games(ip) >= opt.max_engine_games_per_ip)
        throw ApiError(Reason::too_many_engine_games, "too many live games against the computer from this address", "",
                       {{"max", opt.max_engine_games_per_ip}});
    if (hub.work().queued() >= opt.engine_queue) throw ApiError(Reason::engine_busy, "the engine is busy; try again");
}

void create_computer_game(Hub& hub, const HttpContextPtr& ctx) {
    const ServerOptions& opt = hub.options();
    const std::string& token = ctx->token_required();
    const json& b = ctx->body();
    const Variant v = parse_variant(b);
    const double level = number_field(b, "level", 1, engine::level_count(v));
    if (level != std::floor(level)) throw ApiError(Reason::number_whole, "level must be a whole number", "level");
    const TimeControl tc = parse_time(b, true, opt);
    const std::string fen = parse_start_fen(b, v);
    std::string color = parse_color(b);
    if (color == "random") color = std::string(color_name((hub.rng()() & 1) ? WHITE : BLACK));
    Seat human{parse_nickname(b, "nickname"), token, 0};
    const Seat computer{"Computer", "", int(level)};
    check_engine_capacity(hub, ctx->request().ip, human);
    // A logged-in player's game is the account's (its profile lists it;
    // never rated): the account comes from the accounts worker.
    with_seat_account(hub, ctx, v, tc,
                      [&hub, ctx, v, tc, fen, color, human, computer](const std::optional<SeatAccount>& a) mutable {
                          apply_account(human, a);
                          start_computer_game(hub, ctx, v, tc, fen, color, human, computer);
                      });
}

void start_computer_game(Hub& hub, const HttpContextPtr& ctx, Variant v, const TimeControl& tc, const std::string& fen,
                         const std::string& color, const Seat& human, const Seat& computer) {
    const ServerOptions& opt = hub.options();
    const std::string& ip = ctx->request().ip;
    check_engine_capacity(hub, ip, human);  // again, with the account: other games may have started meanwhile
    const std::string gid = hub.new_game_id();
    GameRecord rec = LiveGame::new_record(gid, v, tc, color == "white" ? human : computer,
                                          color == "white" ? computer : human, now_ms(), fen);
    GameRoom& room = hub.add_room(
        std::make_unique<LiveGame>(std::move(rec), GameSettings{opt.first_move_ms, opt.draw_offer_interval}), ip);
    hub.commit(
        {gid}, {SaveGame{room.game().meta()}},
        [ctx, gid, color] {
            ctx->json(201, {{"game", gid}, {"color", color}});
        },
        [ctx](const std::string& err) { ctx->error(ApiError(Reason::storage_failed, "storage failed: " + err)); });
}

void list_games(Hub& hub, const HttpContextPtr& ctx) {
    GameFilter f;
    f.public_only = true;
    f.status = "over";
    if (ctx->has_query("status")) {
        const std::string& s = ctx->query("status");
        if (s == "finished" || s == "over")
            f.status = "over";
        else if (s == "live")
            f.status = "live";
        else
            throw ApiError(Reason::status_unknown, "status must be finished or live", "status");
    }
    f.limit = whole_query(ctx, "limit", 1, 100, 50);
    // Deep pages are read with `before` (an index seek), not with `offset`.
    f.offset = whole_query(ctx, "offset", 0, 1000, 0);
    if (ctx->has_query("before")) {
        f.before = ctx->query("before");
        if (f.before.size() != 8 || !std::all_of(f.before.begin(), f.before.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            }))
            throw ApiError(Reason::before_invalid, "before must be a game id", "before");
    }
    const bool queued = hub.storage().read([&hub, ctx, f](Storage& st) {
        json games = json::array();
        bool ok = true;
        std::string last;
        try {
            for (const GameRecord& g : st.list_games(f, false)) {
                games.push_back(summary_json(g));
                last = g.id;
            }
        } catch (const std::exception& e) {
            ok = false;
            hub.log(std::string("list games: ") + e.what());
        }
        const bool full = int(games.size()) == f.limit;
        // Written out here, on the reader: the I/O thread only sends it.
        std::string text =
            ok ? dump(json{{"games", std::move(games)}, {"next", full ? json(last) : json(nullptr)}}) : "";
        boost::asio::post(hub.ioc(), ctx->guard([ctx, ok, text = std::move(text)]() mutable {
            if (!ok) throw ApiError(Reason::storage_failed, "the games could not be read");
            ctx->json_text(200, std::move(text));
        }));
    });
    if (!queued) throw ApiError(Reason::storage_busy, "the server is busy; try again");
}

std::string site_of(const Hub& hub, const HttpContextPtr& ctx, const std::string& id) {
    std::string base = hub.options().public_url;
    if (base.empty()) {
        std::string host = ctx->request().header("host");
        if (host.empty() || host.size() > 255) host = hub.options().host + ":" + std::to_string(hub.options().port);
        base = "http://" + ascii_excerpt(host, 255);
    }
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base + "/game/" + id;
}

// Each computer level's approximate rating per game, as the engine's own
// matches measured them (docs/STRENGTH.md), for the level picker. A game
// with fewer levels than another has no rating at the levels it lacks.
void levels(const HttpContextPtr& ctx) {
    json out = json::array();
    for (int level = 1; level <= engine::MAX_LEVELS; ++level) {
        json ratings = json::object();
        for (const VariantInfo& v : VARIANTS)
            if (level <= engine::level_count(v.variant))
                ratings[std::string(v.name)] = engine::level_rating(v.variant, level);
        if (ratings.empty()) break;
        out.push_back({{"level", level}, {"ratings", std::move(ratings)}});
    }
    ctx->json(200, {{"levels", std::move(out)}});
}

}  // namespace

void add_game_routes(Router& r, Hub& hub) {
    r.add("GET", "/api/levels", [](const HttpContextPtr& ctx) { levels(ctx); });
    r.add("POST", "/api/computer", [&hub](const HttpContextPtr& ctx) { create_computer_game(hub, ctx); });

    r.add("GET", "/api/games", [&hub](const HttpContextPtr& ctx) { list_games(hub, ctx); });

    r.add("GET", "/api/games/:id", [&hub](const HttpContextPtr& ctx) {
        hub.read_game(ctx->param("id"), [&hub, ctx](const LiveGame* g, GameRoom* room) {
            ctx->run_guarded([&] {
                if (!g) throw game_not_found();
                std::string text = room ? room->state_for(ctx->token())
                                        : g->state_text(g->state_base(now_ms(), {}), g->seat_for(ctx->token()));
                if (g->live()) return ctx->json_text(200, std::move(text));
                send_game_with_review(hub, ctx, g->id(), std::move(text));
            });
        });
    });

    r.add("GET", "/game/:id.pgn", [&hub](const HttpContextPtr& ctx) {
        const std::string id = ctx->param("id");
        const std::string site = site_of(hub, ctx, id);
        hub.read_game(id, [ctx, site](const LiveGame* g, GameRoom*) {
            ctx->run_guarded([&] {
                if (!g) throw game_not_found();
                HttpResponse res;
                res.content_type = "text/plain; charset=utf-8";
                res.body = to_valid_utf8(g->pgn(site));
                res.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + g->id() + ".pgn\"");
                ctx->send(std::move(res));
            });
        });
    });
}

}  // namespace echecs::server

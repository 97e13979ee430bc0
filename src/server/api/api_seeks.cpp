// HTTP API: tokens, the lobby and seeks (create, read, cancel, accept).
#include <boost/asio/post.hpp>

#include "server/api/input.h"
#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"
#include "server/play/seat_accounts.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

ApiError seek_not_found() { return ApiError(Reason::seek_not_found, "no such seek"); }
ApiError seek_taken() { return ApiError(Reason::seek_taken, "the seek was already accepted"); }

void start_seek_game(Hub& hub, const HttpContextPtr& ctx, SeekRecord sk, const Seat& creator, const Seat& acceptor);

// A seek that is no longer in memory (accepted, or the server restarted)
// is read back from storage.
void stored_seek(Hub& hub, const HttpContextPtr& ctx, const std::string& id,
                 std::function<void(const std::optional<SeekRecord>&)> fn) {
    const bool queued = hub.storage().read([&hub, ctx, id, fn](Storage& st) {
        std::optional<SeekRecord> sk;
        try {
            sk = st.load_seek(id);
        } catch (const std::exception& e) {
            hub.log(std::string("load seek: ") + e.what());
        }
        boost::asio::post(hub.ioc(), ctx->guard([fn, sk] { fn(sk); }));
    });
    if (!queued) throw ApiError(Reason::storage_busy, "the server is busy; try again");
}

void create_seek(Hub& hub, const HttpContextPtr& ctx) {
    const ServerOptions& opt = hub.options();
    const std::string& token = ctx->token_required();
    const json& b = ctx->body();
    SeekRecord sk;
    sk.variant = parse_variant(b);
    sk.time = parse_time(b, false, opt);
    sk.color = parse_color(b);
    sk.nickname = parse_nickname(b, "nickname");
    sk.token = token;
    sk.is_private = bool_field(b, "private", false);
    const RatedFields rated = parse_rated_fields(b, sk.time);
    sk.rated = rated.rated;
    sk.rating_min = rated.rating_min;
    sk.rating_max = rated.rating_max;
    // From a set-up position: checked as POST /api/computer checks it.
    if (!string_field(b, "fen", false).empty()) sk.initial_fen = parse_start_fen(b, sk.variant);
    // The creator's account (a logged-in browser), then the limits: the
    // answer comes from the accounts worker.
    with_seat_account(hub, ctx, sk.variant, sk.time,
                      [&hub, ctx, sk, rated](const std::optional<SeatAccount>& a) mutable {
                          const ServerOptions& opt = hub.options();
                          if (ActionResult err = check_rated_create(rated, a)) throw *err;
                          if (a) {
                              sk.nickname = a->username;
                              sk.account = a->account_id;
                              sk.rating = a->rating;
                              sk.provisional = a->provisional;
                          }
                          do sk.id = random_id(8);
                          while (hub.seeks().find(sk.id));
                          sk.created_at = now_ms();
                          if (hub.seeks().open_of_token(sk.token) >= opt.max_seeks_per_token)
                              throw ApiError(Reason::too_many_seeks, "too many open seeks for this token", "",
                                             {{"max", opt.max_seeks_per_token}});
                          const std::string& ip = ctx->request().ip;
                          if (hub.limits().seeks(ip) >= opt.max_seeks_per_ip)
                              throw ApiError(Reason::too_many_seeks_address, "too many open seeks from this address",
                                             "", {{"max", opt.max_seeks_per_ip}});
                          hub.seeks().add(sk, ip);
                          hub.storage().write({SaveSeek{sk}}, [&hub, ctx, sk](bool ok, std::string err) {
                              hub.seeks().stored(sk.id, ok);
                              ctx->run_guarded([&] {
                                  if (!ok) throw ApiError(Reason::storage_failed, "storage failed: " + err);
                                  ctx->json(201, {{"seek", seek_json(sk, true)}, {"url", "/challenge/" + sk.id}});
                              });
                          });
                      });
}

void accept_seek(Hub& hub, const HttpContextPtr& ctx) {
    const std::string& token = ctx->token_required();
    const json& b = ctx->body();
    const std::string id = ctx->param("id");
    const std::string nickname = parse_nickname(b, "nickname");
    const SeekRecord* found = hub.seeks().find(id);
    if (!found) {
        return stored_seek(hub, ctx, id, [ctx](const std::optional<SeekRecord>& sk) {
            if (sk && !sk->game.empty()) throw seek_taken();
            throw seek_not_found();
        });
    }
    if (!found->game.empty()) throw seek_taken();
    if (found->token == token) throw ApiError(Reason::own_seek, "you cannot accept your own seek");
    // The acceptor's account (from the accounts worker), then the seek again:
    // it may have been taken or cancelled meanwhile.
    with_seat_account(hub, ctx, found->variant, found->time,
                      [&hub, ctx, id, token, nickname](const std::optional<SeatAccount>& a) {
                          const SeekRecord* again = hub.seeks().find(id);
                          if (!again) throw seek_not_found();
                          SeekRecord sk = *again;
                          if (!sk.game.empty()) throw seek_taken();
                          if (ActionResult err = check_rated_accept(sk, a)) throw *err;
                          Seat acceptor{nickname, token, 0};
                          apply_account(acceptor, a);
                          Seat creator{sk.nickname, sk.token, 0};
                          creator.account = sk.account;
                          creator.rating = sk.rating;
                          creator.provisional = sk.provisional;
                          start_seek_game(hub, ctx, sk, creator, acceptor);
                      });
}

void start_seek_game(Hub& hub, const HttpContextPtr& ctx, SeekRecord sk, const Seat& creator, const Seat& acceptor) {
    const std::string id = sk.id;
    const bool creator_white = sk.color == "white" || (sk.color == "random" && (hub.rng()() & 1));
    const std::string gid = hub.new_game_id();
    GameRecord rec = LiveGame::new_record(gid, sk.variant, sk.time, creator_white ? creator : acceptor,
                                          creator_white ? acceptor : creator, now_ms(),
                                          sk.initial_fen.empty() ? Position::START_FEN : sk.initial_fen);
    rec.is_private = sk.is_private;
    rec.rated = sk.rated && creator.account && acceptor.account && creator.account != acceptor.account;
    const GameSettings settings{hub.options().first_move_ms, hub.options().draw_offer_interval};
    GameRoom& room = hub.add_room(std::make_unique<LiveGame>(std::move(rec), settings));
    hub.place(gid);
    hub.seeks().mark_taken(id, gid);
    sk.game = gid;
    const std::string color(color_name(creator_white ? BLACK : WHITE));
    hub.commit(
        {gid}, {SaveGame{room.game().meta()}, SaveSeek{sk}},
        [&hub, ctx, sk, gid, color, creator_white] {
            ctx->json(201, {{"game", gid}, {"color", color}});
            auto note = std::make_shared<const std::string>(
                out::to_text(out::SeekAccepted{sk.id, gid, creator_white ? "white" : "black"}));
            for (const PeerPtr& p : hub.peers_of(sk.token)) p->send(note);
            hub.seeks().remove(sk.id);  // read back from storage from now on
        },
        [&hub, ctx, id](const std::string& err) {
            hub.seeks().mark_taken(id, "");
            ctx->error(ApiError(Reason::storage_failed, "storage failed: " + err));
        });
}

}  // namespace

void add_seek_routes(Router& r, Hub& hub) {
    r.add("POST", "/api/session", [](const HttpContextPtr& ctx) { ctx->json(200, {{"token", random_token()}}); });

    r.add("GET", "/api/lobby",
          [&hub](const HttpContextPtr& ctx) { ctx->json(200, hub.lobby().http_view(ctx->token())); });

    r.add("POST", "/api/seeks", [&hub](const HttpContextPtr& ctx) { create_seek(hub, ctx); });

    r.add("GET", "/api/seeks/:id", [&hub](const HttpContextPtr& ctx) {
        const std::string id = ctx->param("id");
        if (const SeekRecord* sk = hub.seeks().find(id))
            return ctx->json(200, {{"seek", seek_json(*sk, sk->token == ctx->token())}});
        stored_seek(hub, ctx, id, [ctx](const std::optional<SeekRecord>& sk) {
            if (!sk) throw seek_not_found();
            ctx->json(200, {{"seek", seek_json(*sk, sk->token == ctx->token())}});
        });
    });

    r.add("DELETE", "/api/seeks/:id", [&hub](const HttpContextPtr& ctx) {
        const std::string& token = ctx->token_required();
        const std::string id = ctx->param("id");
        const SeekRecord* sk = hub.seeks().find(id);
        if (!sk) throw seek_not_found();
        if (sk->token != token) throw ApiError(Reason::not_seek_owner, "not your seek");
        if (!sk->game.empty()) throw seek_taken();
        hub.seeks().remove(id);
        hub.storage().write({DeleteSeek{id}}, [ctx](bool ok, std::string err) {
            ctx->run_guarded([&] {
                if (!ok) throw ApiError(Reason::storage_failed, "storage failed: " + err);
                ctx->json(200, {{"ok", true}});
            });
        });
    });

    r.add("POST", "/api/seeks/:id/accept", [&hub](const HttpContextPtr& ctx) { accept_seek(hub, ctx); });
}

}  // namespace echecs::server

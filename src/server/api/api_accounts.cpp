// HTTP API: accounts, sessions, profiles and leaderboards (docs/ACCOUNTS.md),
// served by the accounts library on its own worker thread (AccountService):
// a route fills an HttpIn and sends the answer when the worker posts it back.
// The library applies the cookie and cross-site rules itself; the server
// tells it whether its Origin check passed and whether the request came
// over TLS.
#include "server/api/api_accounts.h"

#include <boost/asio/post.hpp>

#include "server/accounts/account_service.h"
#include "server/accounts/speed.h"
#include "server/api/input.h"
#include "server/app/util.h"
#include "server/play/hub.h"
#include "server/play/pools.h"
#include "server/play/your_turn.h"
#include "server/protocol/text.h"

namespace echecs::server {

namespace acc = accounts;

namespace {

// The library answers 415 content_type itself for a body of another type,
// so the body is parsed only when it is JSON (depth and syntax checked by
// the server's own parser, as everywhere).
nlohmann::json account_body(const HttpRequest& req) {
    if (req.body.empty()) return nullptr;
    const std::string& type = req.header("content-type");
    if (type.substr(0, type.find(';')) != "application/json") return nullptr;
    return parse_body(req.body);
}

bool over_tls(const HttpRequest& req, const ServerOptions& opt) {
    if (opt.public_url.starts_with("https://")) return true;
    return opt.trust_forwarded_for && req.header("x-forwarded-proto") == "https";
}

}  // namespace

std::string speed_of(const TimeControl& tc) {
    switch (tc.kind) {
        case TimeControl::Realtime:
            return std::string(acc::speed_name(
                acc::realtime_speed(double(tc.initial_ms) / 60000.0, double(tc.increment_ms) / 1000.0)));
        case TimeControl::Correspondence: return std::string(acc::speed_name(acc::Speed::Correspondence));
        default: return "";
    }
}

acc::GameEnd game_end_of(const GameRecord& g) {
    acc::GameEnd e;
    e.game_id = g.id;
    e.variant = std::string(variant_name(g.variant));
    e.speed = speed_of(g.time);
    e.white_account = g.white.account;
    e.black_account = g.black.account;
    e.white_name = g.white.computer() ? "Computer" : g.white.name;
    e.black_name = g.black.computer() ? "Computer" : g.black.name;
    e.outcome = g.result == "1-0"   ? acc::Outcome::WhiteWins
                : g.result == "0-1" ? acc::Outcome::BlackWins
                                    : acc::Outcome::Draw;
    // A game that ends before both sides have moved moves no rating (as an
    // abort would not): resigning at once to a puppet account farms no points.
    e.rated = g.rated && g.ply >= 2;
    e.is_private = g.is_private;
    return e;
}

void claim_anonymous_games(Hub& hub, std::int64_t account_id, const std::string& token) {
    constexpr int MAX_CLAIMED = 500;  // the most recent ones; older games stay anonymous
    hub.storage().read([&hub, account_id, token](Storage& st) {
        std::vector<GameRecord> games;
        try {
            games = st.anonymous_games_of(token, MAX_CLAIMED);
        } catch (const std::exception& e) {
            hub.log(std::string("claim games: ") + e.what());
        }
        std::vector<acc::GameEnd> ends;
        std::vector<std::string> ids;
        for (const GameRecord& g : games) {
            // Aborted and archived games have no result: nothing to claim.
            if (g.result == "*") continue;
            acc::GameEnd e = game_end_of(g);
            if (g.white.token == token && g.white.account == 0) e.white_account = account_id;
            if (g.black.token == token && g.black.account == 0) e.black_account = account_id;
            ids.push_back(g.id);
            ends.push_back(std::move(e));
        }
        if (ends.empty()) return;
        boost::asio::post(hub.ioc(), [&hub, account_id, token, ends = std::move(ends), ids = std::move(ids)]() mutable {
            hub.accounts().claim_games(
                account_id, std::move(ends), [&hub, account_id, token, ids = std::move(ids)](int n) {
                    if (n < 0) return hub.log("account " + std::to_string(account_id) + ": claiming games failed");
                    if (n > 0)
                        hub.log("account " + std::to_string(account_id) + " claimed " + std::to_string(n) + " games");
                    // Marked once the account has them, so that another account
                    // signing up in this browser finds nothing left to claim.
                    std::vector<WriteOp> ops;
                    ops.emplace_back(MarkClaimed{std::move(ids), token, account_id});
                    hub.storage().write(std::move(ops), [&hub, account_id](bool ok, const std::string& err) {
                        if (!ok)
                            hub.log("account " + std::to_string(account_id) + ": claimed games not marked: " + err);
                    });
                });
        });
    });
}

acc::HttpIn account_request(const HttpContextPtr& ctx, const ServerOptions& opt) {
    const HttpRequest& req = ctx->request();
    acc::HttpIn in;
    in.body = account_body(req);
    in.content_type = req.header("content-type");
    in.cookie = req.header("cookie");
    in.client_ip = req.ip;
    in.token = valid_token(ctx->token_secret()) ? ctx->token_secret() : "";
    in.tls = over_tls(req, opt);
    in.cross_site = from_another_site(req.header("origin"), req.header("host"), req.header("sec-fetch-site"), opt);
    in.name = ctx->param("name");
    for (const char* q : {"before", "variant", "speed", "result", "limit"})
        if (ctx->has_query(q)) in.query[q] = ctx->query(q);
    return in;
}

void send_account_answer(const HttpContextPtr& ctx, const acc::HttpAnswer& a) {
    HttpResponse r;
    r.status = a.status;
    r.body = dump(a.body);
    // The session last: a client that keeps one Set-Cookie keeps the session.
    if (!a.device_cookie.empty()) r.headers.emplace_back("Set-Cookie", a.device_cookie);
    if (!a.set_cookie.empty()) r.headers.emplace_back("Set-Cookie", a.set_cookie);
    if (a.retry_after_s > 0) r.headers.emplace_back("Retry-After", std::to_string(a.retry_after_s));
    // Who is logged in is private to the browser: never cached.
    r.headers.emplace_back("Cache-Control", "no-store");
    ctx->send(std::move(r));
}

namespace {

void serve(Hub& hub, const HttpContextPtr& ctx, acc::Endpoint e) {
    acc::HttpIn in = account_request(ctx, hub.options());
    const std::string token = token_key(in.token);  // the seats' and sockets' form
    hub.accounts().handle(e, std::move(in), [&hub, ctx, e, token](acc::HttpAnswer a) {
        if (e == acc::Endpoint::SignUp && a.status == 201 && a.account_id > 0 && !token.empty())
            claim_anonymous_games(hub, a.account_id, token);
        // The browser's open sockets follow its log-in and log-out.
        if ((e == acc::Endpoint::SignUp || e == acc::Endpoint::LogIn) && a.status / 100 == 2 && a.account_id > 0)
            relink_token_peers(hub, token, a.account_id, a.body.value("username", ""));
        if ((e == acc::Endpoint::LogOut || e == acc::Endpoint::DeleteAccount) && a.status == 200)
            relink_token_peers(hub, token, std::nullopt, "");
        // Logged out everywhere: every open socket of the account, in any browser.
        if (e == acc::Endpoint::LogOut && a.status == 200 && a.account_id > 0) unlink_account_peers(hub, a.account_id);
        send_account_answer(ctx, a);
    });
}

}  // namespace

void add_account_routes(Router& r, Hub& hub) {
    using E = acc::Endpoint;
    auto route = [&](const char* method, const char* path, E e) {
        r.add(method, path, [&hub, e](const HttpContextPtr& ctx) { serve(hub, ctx, e); });
    };
    route("POST", "/api/account", E::SignUp);
    route("GET", "/api/account", E::Me);
    route("DELETE", "/api/account", E::DeleteAccount);
    route("POST", "/api/account/password", E::ChangePassword);
    route("POST", "/api/login", E::LogIn);
    route("POST", "/api/logout", E::LogOut);
    route("GET", "/api/users/:name", E::User);
    route("GET", "/api/users/:name/games", E::UserGames);
    route("GET", "/api/leaderboard", E::Leaderboard);
    r.add("GET", "/api/pools", [&hub](const HttpContextPtr& ctx) { ctx->json(200, hub.pools().view()); });
}

}  // namespace echecs::server

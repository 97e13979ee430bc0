// Accounts from a test client: sign up and log in over HTTP (the session
// cookie kept), rated seeks, and the Glicko-2 figures a first rated game of
// two new players must give (computed by the library directly, to compare).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>

#include "client.h"
#include "server/accounts/glicko2.h"

namespace echecs::test {

struct Player {
    std::string name, token, cookie;  // cookie: "echecs_session=..."
};

// The cookie to send back, from a Set-Cookie header ("" when none).
inline std::string cookie_of(const HttpResult& r) {
    const std::string set = r.header("Set-Cookie");
    return set.substr(0, set.find(';'));
}

inline HttpResult account_call(std::uint16_t port, http::verb method, const std::string& target, const json& body,
                               const Player& p, Headers extra = {}) {
    if (!p.cookie.empty()) extra.emplace_back("Cookie", p.cookie);
    return http_request(port, method, target, body.is_null() ? "" : body.dump(), p.token, extra);
}

inline Player sign_up(std::uint16_t port, const std::string& name, const std::string& password = "a fine passphrase") {
    Player p{name, http_request(port, http::verb::post, "/api/session").j()["token"], ""};
    HttpResult r =
        account_call(port, http::verb::post, "/api/account", {{"username", name}, {"password", password}}, p);
    EXPECT_EQ(r.status, 201) << r.body;
    p.cookie = cookie_of(r);
    EXPECT_EQ(p.cookie.rfind("echecs_session=", 0), 0u) << r.header("Set-Cookie");
    return p;
}

// A seek of `creator` accepted by `acceptor`; the game id ("" on failure,
// with the answer in *failure).
inline std::string seek_and_accept(std::uint16_t port, const Player& creator, const Player& acceptor, json seek_body,
                                   json* failure = nullptr) {
    HttpResult s = account_call(port, http::verb::post, "/api/seeks", seek_body, creator);
    if (s.status != 201) {
        if (failure) *failure = s.j(), (*failure)["_status"] = s.status;
        return "";
    }
    const std::string id = s.j()["seek"]["id"];
    HttpResult a = account_call(port, http::verb::post, "/api/seeks/" + id + "/accept", json::object(), acceptor);
    if (a.status != 201) {
        if (failure) *failure = a.j(), (*failure)["_status"] = a.status;
        return "";
    }
    return a.j()["game"];
}

inline json profile(std::uint16_t port, const std::string& name) {
    return http_request(port, http::verb::get, "/api/users/" + name).j();
}

// Polls until pred(value) or 10 s.
template <class F, class P>
auto eventually(F get, P pred) {
    auto v = get();
    for (int i = 0; i < 200 && !pred(v); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        v = get();
    }
    return v;
}

// Two new players' first rated game in a category: what Glicko-2 gives
// each (the library's own function, called directly).
struct FirstGame {
    double white, black;
};
inline FirstGame first_game_ratings(double white_score) {
    using namespace server::accounts;
    const GlickoParams p;
    const Glicko fresh = new_rating(p);
    return {rate_game(fresh, 0, fresh, white_score, p).rating, rate_game(fresh, 0, fresh, 1 - white_score, p).rating};
}

}  // namespace echecs::test

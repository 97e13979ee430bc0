// Accounts through the real server (sockets, SQLite): the accounts API and
// its refusals, rated and casual seeks, two accounts playing rated games of
// each game to checkmate with both ratings moving exactly as the library's
// Glicko-2 computes, the end of a game by resignation, draw and abort,
// claiming a browser's anonymous games at sign-up, quick pairing pools over
// WebSockets, and all of it after a restart.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "accounts_client.h"
#include "server/accounts/sql_conn.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

const Tweak FAST = [](server::ServerOptions& o) { o.fast_password_hash = true; };

class RatedTest : public ServerTest {
protected:
    void SetUp() override { start(FAST); }
    void restart_fast() { restart(FAST); }

    // Plays `moves` from both sides' sockets; the final state.
    json play_out(const std::string& game, const Player& white, const Player& black,
                  const std::vector<std::string>& moves) {
        WsClient w(port_, white.token), b(port_, black.token);
        EXPECT_EQ(join(w, game)["you"], "white");
        EXPECT_EQ(join(b, game)["you"], "black");
        play(w, b, game, moves);
        // The result recorded for the accounts: a later state carries the rating changes.
        return w.state_where(game, [](const json& s) { return s["status"] == "over" && !s["rating_diff"].is_null(); });
    }
};

const json BLITZ = {{"kind", "realtime"}, {"minutes", 5}, {"increment", 3}};

TEST_F(RatedTest, AccountEndpointsAreServed) {
    Player ann = sign_up(port_, "AnnLee");
    HttpResult me = account_call(port_, http::verb::get, "/api/account", nullptr, ann);
    EXPECT_EQ(me.status, 200) << me.body;
    EXPECT_EQ(me.j()["username"], "AnnLee");
    EXPECT_EQ(me.header("Cache-Control"), "no-store");
    HttpResult set = account_call(port_, http::verb::post, "/api/account",
                                  {{"username", "Bob"}, {"password", "a fine passphrase"}}, {});
    const std::string cookie = set.header("Set-Cookie");
    EXPECT_NE(cookie.find("HttpOnly"), std::string::npos) << cookie;
    EXPECT_NE(cookie.find("SameSite=Lax"), std::string::npos) << cookie;
    EXPECT_EQ(cookie.find("Secure"), std::string::npos) << "not over TLS";

    // Taken in another case, weak password, bad name.
    HttpResult taken = account_call(port_, http::verb::post, "/api/account",
                                    {{"username", "annlee"}, {"password", "another passphrase"}}, {});
    EXPECT_EQ(taken.status, 409);
    EXPECT_EQ(taken.j()["error"]["reason"], "username_taken");
    HttpResult weak =
        account_call(port_, http::verb::post, "/api/account", {{"username", "Carla"}, {"password", "password1"}}, {});
    EXPECT_EQ(weak.status, 400);
    EXPECT_EQ(weak.j()["error"]["reason"], "password_common");
    EXPECT_EQ(weak.j()["error"]["field"], "password");

    // Log out, then the wrong password and the right one.
    HttpResult out = account_call(port_, http::verb::post, "/api/logout", json::object(), ann);
    EXPECT_EQ(out.status, 200);
    EXPECT_NE(out.header("Set-Cookie").find("Max-Age=0"), std::string::npos);
    EXPECT_EQ(account_call(port_, http::verb::get, "/api/account", nullptr, ann).status, 401) << "revoked";
    Player anon{"", ann.token, ""};
    HttpResult wrong = account_call(port_, http::verb::post, "/api/login",
                                    {{"username", "annlee"}, {"password", "not the passphrase"}}, anon);
    EXPECT_EQ(wrong.status, 401);
    EXPECT_EQ(wrong.j()["error"]["reason"], "invalid_credentials");
    HttpResult unknown = account_call(port_, http::verb::post, "/api/login",
                                      {{"username", "nobody_here"}, {"password", "not the passphrase"}}, anon);
    EXPECT_EQ(unknown.status, 401);
    EXPECT_EQ(unknown.body, wrong.body) << "the same answer for an unknown name";
    HttpResult in = account_call(port_, http::verb::post, "/api/login",
                                 {{"username", "annlee"}, {"password", "a fine passphrase"}}, anon);
    ASSERT_EQ(in.status, 200) << in.body;
    EXPECT_EQ(in.j()["username"], "AnnLee");
    ann.cookie = cookie_of(in);

    // Profile, games, leaderboard, pools.
    json prof = profile(port_, "annlee");
    EXPECT_EQ(prof["username"], "AnnLee");
    EXPECT_EQ(prof["ratings"]["alice"]["blitz"]["rating"], 1500);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/users/nobody_here").status, 404);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/users/AnnLee/games?limit=0").j()["error"]["field"], "limit");
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/leaderboard?variant=alice&speed=blitz").status, 200);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/leaderboard?variant=go&speed=blitz").j()["error"]["reason"],
              "variant_unknown");
    json pools = http_request(port_, http::verb::get, "/api/pools").j();
    EXPECT_EQ(pools["pools"].size(), 18u);
    EXPECT_EQ(pools["pools"][1]["id"], "chess-3+2");
    EXPECT_EQ(pools["pools"][1]["speed"], "blitz");
}

TEST_F(RatedTest, ForgedCrossSiteRequestsAreRefused) {
    Player ann = sign_up(port_, "AnnLee");
    const json change = {{"old_password", "a fine passphrase"}, {"new_password", "an evil passphrase"}};
    // Another site's Origin: refused by the server's Origin check.
    HttpResult origin = account_call(port_, http::verb::post, "/api/account/password", change, ann,
                                     {{"Origin", "http://evil.example"}});
    EXPECT_EQ(origin.status, 403);
    // A browser that says cross-site without an Origin: refused by the same
    // check, before the accounts' own rule (which says cross_site).
    HttpResult fetch_site =
        account_call(port_, http::verb::post, "/api/account/password", change, ann, {{"Sec-Fetch-Site", "cross-site"}});
    EXPECT_EQ(fetch_site.status, 403);
    EXPECT_EQ(fetch_site.j()["error"]["reason"], "cross_origin");
    // A form's content type (what a cross-site form can send).
    HttpResult form = account_call(port_, http::verb::post, "/api/account/password", change, ann,
                                   {{"Content-Type", "application/x-www-form-urlencoded"}});
    EXPECT_EQ(form.status, 415);
    EXPECT_EQ(form.j()["error"]["reason"], "content_type");
    // Nothing changed: the old password still logs in.
    HttpResult in = account_call(port_, http::verb::post, "/api/login",
                                 {{"username", "AnnLee"}, {"password", "a fine passphrase"}}, {});
    EXPECT_EQ(in.status, 200) << in.body;
    // Hostile cookies are no session, never an error.
    for (const char* c : {"echecs_session=\xff\xfe", "echecs_session=; echecs_session=;;;", "a=b; c"}) {
        HttpResult r = http_request(port_, http::verb::get, "/api/account", "", "", {{"Cookie", c}});
        EXPECT_EQ(r.status, 401) << c;
        EXPECT_EQ(r.j()["error"]["reason"], "not_logged_in");
    }
    // Bad JSON to an account endpoint: the server's parser's reason.
    HttpResult bad = http_request(port_, http::verb::post, "/api/login", "{\"username\":", "");
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.j()["error"]["reason"], "json_invalid");
}

TEST_F(RatedTest, RatedSeeksNeedTwoAccounts) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    Player anon{"", token(), ""};
    json why;
    // An anonymous rated seek.
    EXPECT_EQ(seek_and_accept(port_, anon, ann, {{"time", BLITZ}, {"rated", true}}, &why), "");
    EXPECT_EQ(why["_status"], 403);
    EXPECT_EQ(why["error"]["reason"], "rated_needs_account");
    // An anonymous acceptor of a rated seek.
    EXPECT_EQ(seek_and_accept(port_, ann, anon, {{"time", BLITZ}, {"rated", true}}, &why), "");
    EXPECT_EQ(why["_status"], 403);
    EXPECT_EQ(why["error"]["reason"], "rated_needs_account");
    // The same account in another browser.
    Player ann2 = ann;
    ann2.token = token();
    EXPECT_EQ(seek_and_accept(port_, ann, ann2, {{"time", BLITZ}, {"rated", true}}, &why), "");
    EXPECT_EQ(why["error"]["reason"], "own_seek");
    // Unlimited games are never rated; a range is checked.
    EXPECT_EQ(seek_and_accept(port_, ann, bob, {{"time", {{"kind", "unlimited"}}}, {"rated", true}}, &why), "");
    EXPECT_EQ(why["error"]["reason"], "rated_unlimited");
    EXPECT_EQ(seek_and_accept(port_, ann, bob, {{"time", BLITZ}, {"rating_min", 1700}, {"rating_max", 1600}}, &why),
              "");
    EXPECT_EQ(why["error"]["reason"], "rating_range_invalid");
    EXPECT_EQ(seek_and_accept(port_, ann, bob, {{"time", BLITZ}, {"rating_min", 1600}}, &why), "");
    EXPECT_EQ(why["error"]["reason"], "rating_out_of_range");
    EXPECT_EQ(why["error"]["params"]["rating"], 1500);
    EXPECT_EQ(seek_and_accept(port_, ann, anon, {{"time", BLITZ}, {"rating_max", 1600}}, &why), "");
    EXPECT_EQ(why["error"]["reason"], "rating_range_needs_account");

    // Between two accounts: rated, the names and ratings on the seats and in the lobby.
    HttpResult s = account_call(port_, http::verb::post, "/api/seeks",
                                {{"time", BLITZ}, {"rated", true}, {"nickname", "ignored"}, {"rating_max", 1600}}, ann);
    ASSERT_EQ(s.status, 201) << s.body;
    EXPECT_EQ(s.j()["seek"]["nickname"], "AnnLee");
    EXPECT_EQ(s.j()["seek"]["rated"], true);
    EXPECT_EQ(s.j()["seek"]["rating"], 1500);
    EXPECT_EQ(s.j()["seek"]["provisional"], true);
    EXPECT_EQ(s.j()["seek"]["speed"], "blitz");
    EXPECT_EQ(s.j()["seek"]["rating_range"]["max"], 1600);
    // The lobby lists it with the creator's rating (the seeks refused above stay open too).
    json lobby = http_request(port_, http::verb::get, "/api/lobby").j();
    bool listed = false;
    for (const json& sk : lobby["seeks"])
        if (sk["id"] == s.j()["seek"]["id"]) {
            listed = true;
            EXPECT_EQ(sk["rating"], 1500);
            EXPECT_EQ(sk["rated"], true);
        }
    EXPECT_TRUE(listed) << lobby.dump();
    HttpResult a =
        account_call(port_, http::verb::post, "/api/seeks/" + s.j()["seek"]["id"].get<std::string>() + "/accept",
                     json::object(), bob);
    ASSERT_EQ(a.status, 201) << a.body;
    json g = http_request(port_, http::verb::get, "/api/games/" + a.j()["game"].get<std::string>()).j();
    EXPECT_EQ(g["rated"], true);
    EXPECT_EQ(g["speed"], "blitz");
    for (const char* side : {"white", "black"}) {
        EXPECT_EQ(g["players"][side]["account"], true);
        EXPECT_EQ(g["players"][side]["rating"], 1500);
        EXPECT_EQ(g["players"][side]["provisional"], true);
    }
    EXPECT_TRUE(g["players"]["white"]["name"] == "AnnLee" || g["players"]["black"]["name"] == "AnnLee");
    // Casual between an account and an anonymous player: the account's seat has its name.
    std::string casual = seek_and_accept(port_, ann, anon, {{"time", BLITZ}});
    ASSERT_NE(casual, "");
    json c = http_request(port_, http::verb::get, "/api/games/" + casual).j();
    EXPECT_EQ(c["rated"], false);
}

struct MateCase {
    const char* variant;
    std::vector<std::string> moves;
    double white_score;
};

TEST_F(RatedTest, RatedGamesOfEachGameMoveBothRatingsAsGlicko2Says) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    const MateCase cases[] = {
        {"chess", {"f2f3", "e7e5", "g2g4", "d8h4"}, 0},
        {"alice", {"e2e4", "d7d5", "f1e2", "d5e4", "e2b5"}, 1},
        {"avalanche", {"f2f3,e7e6", "a7a6,g2g3", "a2a3,h7h6", "b7b6,g3g4", "b2b3,c7c6", "d8h4,a3a4"}, 0},
    };
    const FirstGame expected[2] = {first_game_ratings(0), first_game_ratings(1)};
    std::vector<std::string> games;
    for (const MateCase& c : cases) {
        SCOPED_TRACE(c.variant);
        const std::string game = seek_and_accept(
            port_, ann, bob, {{"variant", c.variant}, {"time", BLITZ}, {"color", "white"}, {"rated", true}});
        ASSERT_NE(game, "");
        games.push_back(game);
        json end = play_out(game, ann, bob, c.moves);
        EXPECT_EQ(end["termination"], "checkmate");
        const FirstGame& want = expected[c.white_score > 0.5];
        const int white_diff = int(std::lround(want.white)) - 1500, black_diff = int(std::lround(want.black)) - 1500;
        EXPECT_NE(white_diff, 0);
        EXPECT_EQ(end["rating_diff"]["white"], white_diff);
        EXPECT_EQ(end["rating_diff"]["black"], black_diff);
        json a = profile(port_, "AnnLee")["ratings"][c.variant]["blitz"];
        json b = profile(port_, "BobK")["ratings"][c.variant]["blitz"];
        EXPECT_EQ(a["rating"], std::lround(want.white));
        EXPECT_EQ(b["rating"], std::lround(want.black));
        EXPECT_EQ(a["games"], 1);
        EXPECT_EQ(b["games"], 1);
        // The winner gained, the loser lost.
        EXPECT_EQ(c.white_score > 0.5, white_diff > 0);
        EXPECT_EQ(c.white_score > 0.5, black_diff < 0);
    }
    // Both profiles list the three games, rated, with the changes.
    json list = http_request(port_, http::verb::get, "/api/users/BobK/games").j();
    ASSERT_EQ(list["games"].size(), 3u) << list.dump();
    for (const json& g : list["games"]) {
        EXPECT_EQ(g["rated"], true);
        EXPECT_EQ(g["opponent"], "AnnLee");
        EXPECT_EQ(g["speed"], "blitz");
    }
    // Survives a restart: the ratings, the stored changes and the seats.
    const json ann_before = profile(port_, "AnnLee");
    restart_fast();
    EXPECT_EQ(profile(port_, "AnnLee")["ratings"], ann_before["ratings"]);
    json g = http_request(port_, http::verb::get, "/api/games/" + games[1]).j();
    EXPECT_EQ(g["rated"], true);
    EXPECT_EQ(g["rating_diff"]["white"], int(std::lround(expected[1].white)) - 1500);
    EXPECT_EQ(g["players"]["white"]["name"], "AnnLee");
    EXPECT_EQ(g["players"]["white"]["account"], true);
    json summary = http_request(port_, http::verb::get, "/api/games?status=finished&limit=10").j();
    ASSERT_EQ(summary["games"].size(), 3u);
    EXPECT_FALSE(summary["games"][0]["rating_diff"].is_null());
    // The logged-in session survives too.
    EXPECT_EQ(account_call(port_, http::verb::get, "/api/account", nullptr, ann).status, 200);
}

// A crash between the write that ends a rated game and the accounts'
// record of its result: the game row says the result is pending, and the
// next start records it, once.
TEST_F(RatedTest, AResultACrashLeftUnrecordedIsRecordedAtTheNextStart) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    const std::string game =
        seek_and_accept(port_, ann, bob, {{"variant", "chess"}, {"time", BLITZ}, {"color", "white"}, {"rated", true}});
    ASSERT_NE(game, "");
    json end = play_out(game, ann, bob, {"f2f3", "e7e5", "g2g4", "d8h4"});
    const json recorded = profile(port_, "AnnLee")["ratings"]["chess"]["blitz"];
    ASSERT_EQ(recorded["games"], 1);
    stop();
    {
        // The database as the crash left it: the end written, the accounts'
        // records of it not.
        auto db = server::accounts::sqlite_conn(db_path());
        auto games = db->query("SELECT result_pending FROM games WHERE id = ?", {game});
        ASSERT_EQ(games.size(), 1u);
        EXPECT_FALSE(games[0].b(0)) << "recorded, so no longer pending";
        db->exec("UPDATE games SET result_pending = ?, white_rating_diff = NULL, black_rating_diff = NULL WHERE id = ?",
                 {true, game});
        for (const char* table : {"account_games", "account_rating_history"})
            EXPECT_EQ(db->exec(std::string("DELETE FROM ") + table + " WHERE game_id = ?", {game}), 2);
        EXPECT_EQ(db->exec("DELETE FROM account_ratings"), 2);
    }
    start(FAST);
    // Recorded by the start, in the background: the game's changes are stored
    // and the ratings are what they were. Bounded: 60 s.
    json g;
    for (int i = 0; i < 600; ++i) {
        g = http_request(port_, http::verb::get, "/api/games/" + game).j();
        if (!g["rating_diff"].is_null()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_FALSE(g["rating_diff"].is_null()) << "the restarted server did not record the pending result within 60 s";
    EXPECT_EQ(g["rating_diff"], end["rating_diff"]);
    EXPECT_EQ(profile(port_, "AnnLee")["ratings"]["chess"]["blitz"], recorded);
    // Once: a further restart records nothing more.
    restart_fast();
    EXPECT_EQ(profile(port_, "AnnLee")["ratings"]["chess"]["blitz"], recorded);
    ASSERT_EQ(http_request(port_, http::verb::get, "/api/users/AnnLee/games").j()["games"].size(), 1u);
}

TEST_F(RatedTest, ResignationAndDrawAreRatedAbortIsNot) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    auto game_for = [&](const char* variant) {
        return seek_and_accept(port_, ann, bob,
                               {{"variant", variant}, {"time", BLITZ}, {"color", "white"}, {"rated", true}});
    };
    // Resignation (chess): Bob resigns after two moves.
    {
        const std::string game = game_for("chess");
        WsClient w(port_, ann.token), b(port_, bob.token);
        join(w, game);
        join(b, game);
        play(w, b, game, {"e2e4", "e7e5"});
        b.send({{"type", "resign"}, {"game", game}});
        json end = w.state_where(game, [](const json& s) { return !s["rating_diff"].is_null(); });
        EXPECT_EQ(end["termination"], "resignation");
        const FirstGame want = first_game_ratings(1);
        EXPECT_EQ(end["rating_diff"]["white"], std::lround(want.white) - 1500);
    }
    // A draw by agreement (alice): equal new players stay at 1500, the deviation shrinks.
    {
        const std::string game = game_for("alice");
        WsClient w(port_, ann.token), b(port_, bob.token);
        join(w, game);
        join(b, game);
        play(w, b, game, {"e2e4", "e7e5"});
        w.send({{"type", "draw_offer"}, {"game", game}});
        b.state_where(game, [](const json& s) { return s["draw_offer"] == "white"; });
        b.send({{"type", "draw_accept"}, {"game", game}});
        json end = w.state_where(game, [](const json& s) { return !s["rating_diff"].is_null(); });
        EXPECT_EQ(end["result"], "1/2-1/2");
        EXPECT_EQ(end["rating_diff"]["white"], 0);
        json r = profile(port_, "AnnLee")["ratings"]["alice"]["blitz"];
        EXPECT_EQ(r["games"], 1);
        EXPECT_LT(r["rd"].get<double>(), 500);
    }
    // Abort (avalanche): not rated, not listed.
    {
        const std::string game = game_for("avalanche");
        WsClient w(port_, ann.token);
        join(w, game);
        w.send({{"type", "abort"}, {"game", game}});
        json end = w.state_where(game, [](const json& s) { return s["status"] == "over"; });
        EXPECT_EQ(end["termination"], "aborted");
        // Nothing until a later game's rating changes come: the accounts
        // record the results in order, so the abort's would have come first.
        const std::string later = game_for("chess");
        WsClient lw(port_, ann.token), lb(port_, bob.token);
        join(lw, later);
        join(lb, later);
        play(lw, lb, later, {"e2e4", "e7e5"});
        lb.send({{"type", "resign"}, {"game", later}});
        lw.state_where(later, [](const json& s) { return !s["rating_diff"].is_null(); });
        EXPECT_TRUE(http_request(port_, http::verb::get, "/api/games/" + game).j()["rating_diff"].is_null());
        EXPECT_EQ(profile(port_, "AnnLee")["ratings"]["avalanche"]["blitz"]["games"], 0);
        EXPECT_EQ(http_request(port_, http::verb::get, "/api/users/AnnLee/games?variant=avalanche").j()["games"].size(),
                  0u);
    }
}

// Rating farming: a rated game resigned before both sides have moved is
// listed, as casual, and moves no rating.
TEST_F(RatedTest, AGameResignedBeforeBothSidesMovedMovesNoRating) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    const std::string game =
        seek_and_accept(port_, ann, bob, {{"variant", "chess"}, {"time", BLITZ}, {"color", "white"}, {"rated", true}});
    ASSERT_NE(game, "");
    WsClient w(port_, ann.token), b(port_, bob.token);
    join(w, game);
    join(b, game);
    play(w, b, game, {"e2e4"});
    b.send({{"type", "resign"}, {"game", game}});
    EXPECT_EQ(w.state_where(game, [](const json& s) { return s["status"] == "over"; })["termination"], "resignation");
    // Recorded for the accounts in the background (bounded: 10 s).
    const json list = eventually([&] { return http_request(port_, http::verb::get, "/api/users/BobK/games").j(); },
                                 [](const json& j) { return j["games"].size() == 1; });
    ASSERT_EQ(list["games"].size(), 1u) << "the game was not recorded within 10 s: " << list.dump();
    EXPECT_EQ(list["games"][0]["rated"], false);
    for (const char* name : {"AnnLee", "BobK"}) {
        const json r = profile(port_, name)["ratings"]["chess"]["blitz"];
        EXPECT_EQ(r["rating"], 1500) << name;
        EXPECT_EQ(r["games"], 0) << name;
    }
    EXPECT_TRUE(http_request(port_, http::verb::get, "/api/games/" + game).j()["rating_diff"].is_null());
}

// A direct challenge's game is listed nowhere (API.md), not even in its
// players' lists of games.
TEST_F(RatedTest, ADirectChallengesGameIsInNoPlayersList) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    std::vector<std::string> games;
    for (bool is_private : {true, false}) {
        const std::string game = seek_and_accept(
            port_, ann, bob, {{"variant", "chess"}, {"time", BLITZ}, {"color", "white"}, {"private", is_private}});
        ASSERT_NE(game, "");
        WsClient w(port_, ann.token), b(port_, bob.token);
        join(w, game);
        join(b, game);
        play(w, b, game, {"e2e4", "e7e5"});
        b.send({{"type", "resign"}, {"game", game}});
        w.state_where(game, [](const json& s) { return s["status"] == "over"; });
        games.push_back(game);
    }
    // The results are recorded in order: once the public game is listed, the
    // private one was recorded before it (bounded: 10 s).
    const json list = eventually([&] { return http_request(port_, http::verb::get, "/api/users/BobK/games").j(); },
                                 [](const json& j) { return !j["games"].empty(); });
    ASSERT_EQ(list["games"].size(), 1u) << list.dump();
    EXPECT_EQ(list["games"][0]["id"], games[1]);
}

TEST_F(RatedTest, SignUpClaimsTheBrowsersAnonymousGames) {
    Pair p = new_game("chess", BLITZ);
    {
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        json last = play(w, b, p.game, {"f2f3", "e7e5", "g2g4", "d8h4"});
        ASSERT_EQ(last["result"], "0-1");
    }
    Player ann{"AnnLee", p.a, ""};
    HttpResult r = account_call(port_, http::verb::post, "/api/account",
                                {{"username", "AnnLee"}, {"password", "a fine passphrase"}}, ann);
    ASSERT_EQ(r.status, 201) << r.body;
    json games = eventually([&] { return http_request(port_, http::verb::get, "/api/users/AnnLee/games").j(); },
                            [](const json& j) { return j["games"].size() == 1; });
    ASSERT_EQ(games["games"].size(), 1u) << games.dump();
    EXPECT_EQ(games["games"][0]["id"], p.game);
    EXPECT_EQ(games["games"][0]["result"], "loss");
    EXPECT_EQ(games["games"][0]["rated"], false);
    EXPECT_EQ(games["games"][0]["opponent"], "Bob");
}

TEST_F(RatedTest, PoolsPairOverSockets) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    const std::string x = token(), y = token();
    // Two accounts in chess 3+2: a rated game, both told.
    WsClient a(port_, ann.token), b(port_, bob.token), anon1(port_, x), anon2(port_, y);
    a.send({{"type", "lobby_subscribe"}});
    a.send({{"type", "pool_join"}, {"pool", "chess-3+2"}, {"id", 1}});
    json waiting = a.recv_until([](const json& j) { return j["type"] == "pool_waiting"; });
    EXPECT_EQ(waiting["rated"], true);
    EXPECT_EQ(waiting["rating"], 1500);
    EXPECT_EQ(waiting["id"], 1);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/pools").j()["pools"][1]["waiting"], 1);
    // An anonymous player in the same pool is not paired with an account.
    anon1.send({{"type", "pool_join"}, {"pool", "chess-3+2"}, {"nickname", "Xavier"}});
    EXPECT_EQ(anon1.recv_until([](const json& j) { return j["type"] == "pool_waiting"; })["rated"], false);
    b.send({{"type", "pool_join"}, {"pool", "chess-3+2"}});
    json pa = a.recv_until([](const json& j) { return j["type"] == "pool_paired"; });
    json pb = b.recv_until([](const json& j) { return j["type"] == "pool_paired"; });
    EXPECT_EQ(pa["game"], pb["game"]);
    EXPECT_NE(pa["color"], pb["color"]);
    json g = http_request(port_, http::verb::get, "/api/games/" + pa["game"].get<std::string>()).j();
    EXPECT_EQ(g["rated"], true);
    EXPECT_EQ(g["time"]["minutes"], 3);
    EXPECT_EQ(g["time"]["increment"], 2);
    // Two anonymous players: casual.
    anon2.send({{"type", "pool_join"}, {"pool", "chess-3+2"}, {"nickname", "Yves"}});
    json p1 = anon1.recv_until([](const json& j) { return j["type"] == "pool_paired"; });
    json casual = http_request(port_, http::verb::get, "/api/games/" + p1["game"].get<std::string>()).j();
    EXPECT_EQ(casual["rated"], false);
    EXPECT_TRUE(casual["players"]["white"]["name"] == "Xavier" || casual["players"]["black"]["name"] == "Xavier");
    // Closing the socket leaves the pool; leaving the lobby too; bad pools are refused.
    {
        WsClient c(port_, token());
        c.send({{"type", "pool_join"}, {"pool", "alice-corr3"}});
        c.recv_until([](const json& j) { return j["type"] == "pool_waiting"; });
        EXPECT_EQ(http_request(port_, http::verb::get, "/api/pools").j()["pools"][11]["waiting"], 1);
    }
    json left = eventually([&] { return http_request(port_, http::verb::get, "/api/pools").j(); },
                           [](const json& j) { return j["pools"][11]["waiting"] == 0; });
    EXPECT_EQ(left["pools"][11]["waiting"], 0);
    a.send({{"type", "pool_join"}, {"pool", "avalanche-1+0"}});
    a.recv_until([](const json& j) { return j["type"] == "pool_waiting"; });
    a.send({{"type", "lobby_unsubscribe"}});
    EXPECT_EQ(a.recv_until([](const json& j) { return j["type"] == "pool_left"; })["pool"], "avalanche-1+0");
    a.send({{"type", "pool_join"}, {"pool", "chess-2+1"}});
    EXPECT_EQ(a.error()["reason"], "pool_unknown");
    WsClient silent(port_);
    silent.send({{"type", "pool_join"}, {"pool", "chess-1+0"}});
    EXPECT_EQ(silent.error()["reason"], "pool_hello_first");
}

}  // namespace

// Accounts across a person's browsers, over real sockets (SQLite): the "your
// turn" list follows the account (any browser logged in, sockets opened
// before the log-in, pushes to every socket, log-out), chat shows account
// names (players and spectators) and never lets a guest pass for an account,
// games against the computer belong to the account (casual), and a claimed
// anonymous game is claimed once.
#include <gtest/gtest.h>

#include "accounts_client.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

const Tweak FAST = [](server::ServerOptions& o) { o.fast_password_hash = true; };
const json BLITZ = {{"kind", "realtime"}, {"minutes", 5}, {"increment", 3}};
const json CORR = {{"kind", "correspondence"}, {"days", 3}};

class PlayersTest : public ServerTest {
protected:
    void SetUp() override { start(FAST); }

    // `name` logs in from a new browser (a new token); the session kept.
    Player log_in(const std::string& name, std::string token = "") {
        Player p{name, token.empty() ? this->token() : token, ""};
        HttpResult r = account_call(port_, http::verb::post, "/api/login",
                                    {{"username", name}, {"password", "a fine passphrase"}}, p);
        EXPECT_EQ(r.status, 200) << r.body;
        p.cookie = cookie_of(r);
        return p;
    }
    json your_turn(const Player& p) {
        HttpResult r = account_call(port_, http::verb::get, "/api/your-turn", nullptr, p);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.j()["games"];
    }
    static json next_turn(WsClient& c, const std::function<bool(const json&)>& pred) {
        return c.recv_until([&](const json& j) { return j["type"] == "your_turn" && pred(j["games"]); });
    }
    static bool has(const json& games, const std::string& id) {
        for (const json& g : games)
            if (g["game"] == id) return true;
        return false;
    }
    static json next_chat(WsClient& c) {
        return c.recv_until([](const json& j) { return j["type"] == "chat"; });
    }
};

TEST_F(PlayersTest, YourTurnFollowsTheAccountToEveryBrowser) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK");
    const std::string game =
        seek_and_accept(port_, ann, bob, {{"variant", "chess"}, {"time", CORR}, {"color", "white"}});
    ASSERT_FALSE(game.empty());
    // Another browser of Ann's, logged in: the game is on its list (by the
    // session cookie, and by the token's link alone).
    Player laptop = log_in("AnnLee");
    ASSERT_NE(laptop.token, ann.token);
    EXPECT_TRUE(has(your_turn(laptop), game));
    EXPECT_TRUE(has(your_turn(Player{"", laptop.token, ""}), game));
    EXPECT_TRUE(your_turn(bob).empty());  // not Bob's move
    // A socket of a third browser opened before its log-in gets the list
    // once it logs in; the laptop's socket gets it at hello.
    const std::string phone_token = token();
    WsClient phone(port_, phone_token), on_laptop(port_, laptop.token);
    next_turn(phone, [](const json& g) { return g.empty(); });
    next_turn(on_laptop, [&](const json& g) { return has(g, game); });
    Player phone_ann = log_in("AnnLee", phone_token);
    next_turn(phone, [&](const json& g) { return has(g, game); });

    // Ann moves from her first browser: off every list of hers, on Bob's;
    // Bob's reply puts it back on every socket of Ann's.
    WsClient w(port_, ann.token), b(port_, bob.token);
    join(w, game);
    join(b, game);
    w.send({{"type", "move"}, {"game", game}, {"move", "e2e4"}, {"ply", 0}});
    next_turn(on_laptop, [](const json& g) { return g.empty(); });
    next_turn(phone, [](const json& g) { return g.empty(); });
    next_turn(b, [&](const json& g) { return has(g, game); });
    b.send({{"type", "move"}, {"game", game}, {"move", "e7e5"}, {"ply", 1}});
    json pushed = next_turn(on_laptop, [&](const json& g) { return has(g, game); });
    EXPECT_EQ(pushed["games"][0]["color"], "white");
    EXPECT_EQ(pushed["games"][0]["opponent"], "BobK");
    next_turn(phone, [&](const json& g) { return has(g, game); });

    // Logged out: the phone is an anonymous browser again.
    HttpResult out = account_call(port_, http::verb::post, "/api/logout", json::object(), phone_ann);
    ASSERT_EQ(out.status, 200) << out.body;
    next_turn(phone, [](const json& g) { return g.empty(); });
    EXPECT_TRUE(your_turn(Player{"", phone_token, ""}).empty());
    EXPECT_TRUE(has(your_turn(laptop), game));  // the other sessions stay
    // No token: refused as before; a forged cookie is just not logged in.
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/your-turn").status, 403);
    EXPECT_TRUE(your_turn(Player{"", token(), "echecs_session=forged"}).empty());

    // Logged out everywhere from the laptop: Ann's first browser's open socket
    // is anonymous at once (not at its next connection): its list is pushed
    // again, with only the games of its own token.
    const std::string other_token = token();
    WsClient anns_other(port_, other_token);
    next_turn(anns_other, [](const json& g) { return g.empty(); });
    log_in("AnnLee", other_token);
    next_turn(anns_other, [&](const json& g) { return has(g, game); });
    HttpResult all = account_call(port_, http::verb::post, "/api/logout", {{"everywhere", true}}, laptop);
    ASSERT_EQ(all.status, 200) << all.body;
    next_turn(anns_other, [](const json& g) { return g.empty(); });
    next_turn(on_laptop, [](const json& g) { return g.empty(); });
}

TEST_F(PlayersTest, ChatShowsAccountNamesAndGuestsNeverPassForAccounts) {
    Player ann = sign_up(port_, "AnnLee"), bob = sign_up(port_, "BobK"), carol = sign_up(port_, "Carol");
    const std::string game =
        seek_and_accept(port_, ann, bob, {{"variant", "alice"}, {"time", BLITZ}, {"color", "white"}});
    ASSERT_FALSE(game.empty());
    WsClient w(port_, ann.token), b(port_, bob.token), c(port_, carol.token), guest(port_, token());
    // The account is known once the accounts worker has answered: the
    // socket's list is pushed again then (at hello, then with the account).
    next_turn(c, [](const json&) { return true; });
    next_turn(c, [](const json&) { return true; });
    for (WsClient* s : {&w, &b, &c, &guest}) join(*s, game);
    w.send({{"type", "chat"}, {"game", game}, {"text", "Hello"}});
    json line = next_chat(b)["line"];
    EXPECT_EQ(line["author"], "AnnLee");
    EXPECT_EQ(line["account"], true);
    EXPECT_EQ(line["seat"], "white");

    c.send({{"type", "chat"}, {"game", game}, {"text", "nice"}});
    line = next_chat(guest)["line"];
    EXPECT_EQ(line["author"], "Carol");
    EXPECT_EQ(line["account"], true);
    EXPECT_EQ(line["seat"], "");
    guest.send({{"type", "chat"}, {"game", game}, {"text", "hi"}});
    // Carol's own line first (the author sees it too), then the guest's.
    line = c.recv_until([](const json& j) { return j["type"] == "chat" && j["line"]["text"] == "hi"; })["line"];
    EXPECT_TRUE(line["author"].get<std::string>().starts_with("Guest-")) << line.dump();
    EXPECT_EQ(line["account"], false);

    // The lobby too.
    c.send({{"type", "lobby_subscribe"}});
    c.recv_until([](const json& j) { return j["type"] == "chat_history" && j["room"] == "lobby"; });
    c.send({{"type", "chat"}, {"room", "lobby"}, {"text", "anyone for Alice?"}});
    line = c.recv_until([](const json& j) { return j["type"] == "chat" && j["room"] == "lobby"; })["line"];
    EXPECT_EQ(line["author"], "Carol");
    EXPECT_EQ(line["account"], true);

    // The names kept with the game carry the mark after a restart.
    restart(FAST);
    WsClient again(port_, token());
    again.send({{"type", "join"}, {"game", game}});
    json hist = again.recv_until([](const json& j) { return j["type"] == "chat_history"; });
    ASSERT_EQ(hist["lines"].size(), 2u) << hist.dump();
    EXPECT_EQ(hist["lines"][0]["author"], "Carol");
    EXPECT_EQ(hist["lines"][0]["account"], true);
    EXPECT_EQ(hist["lines"][1]["account"], false);

    // Nobody can take a guest's name as an account name.
    for (const char* name : {"Guest-1a2b3c", "guest_x", "GUEST-abc"}) {
        HttpResult r = account_call(port_, http::verb::post, "/api/account",
                                    {{"username", name}, {"password", "a fine passphrase"}}, {});
        EXPECT_EQ(r.status, 400) << name;
        EXPECT_EQ(r.j()["error"]["reason"], "username_reserved") << r.body;
    }
    EXPECT_EQ(account_call(port_, http::verb::post, "/api/account",
                           {{"username", "Guesthouse"}, {"password", "a fine passphrase"}}, {})
                  .status,
              201);
}

TEST_F(PlayersTest, AnAnonymousPlayerIsAGuestInChat) {
    Pair p = new_game("chess");
    WsClient w(port_, p.a), b(port_, p.b);
    join(w, p.game);
    join(b, p.game);
    w.send({{"type", "chat"}, {"game", p.game}, {"text", "hi"}});
    json line = next_chat(b)["line"];
    // "Ann" is only a nickname: in chat it could pass for the account Ann.
    EXPECT_TRUE(line["author"].get<std::string>().starts_with("Guest-")) << line.dump();
    EXPECT_EQ(line["account"], false);
    EXPECT_EQ(line["seat"], "white");
}

TEST_F(PlayersTest, GamesAgainstTheComputerBelongToTheAccount) {
    Player ann = sign_up(port_, "AnnLee");
    HttpResult r = account_call(
        port_, http::verb::post, "/api/computer",
        {{"variant", "avalanche"}, {"level", 1}, {"color", "white"}, {"nickname", "x"}, {"time", BLITZ}}, ann);
    ASSERT_EQ(r.status, 201) << r.body;
    const std::string game = r.j()["game"];
    WsClient w(port_, ann.token);
    json state = join(w, game);
    EXPECT_EQ(state["players"]["white"]["name"], "AnnLee") << state.dump();
    EXPECT_EQ(state["players"]["white"]["account"], true);
    EXPECT_EQ(state["rated"], false);
    w.send({{"type", "resign"}, {"game", game}});
    w.state_where(game, [](const json& s) { return s["status"] == "over"; });
    json games = eventually([&] { return http_request(port_, http::verb::get, "/api/users/AnnLee/games").j(); },
                            [](const json& j) { return j["games"].size() == 1; });
    ASSERT_EQ(games["games"].size(), 1u) << games.dump();
    EXPECT_EQ(games["games"][0]["id"], game);
    EXPECT_EQ(games["games"][0]["opponent"], "Computer");
    EXPECT_EQ(games["games"][0]["rated"], false);
    EXPECT_EQ(games["games"][0]["result"], "loss");
    // Filterable as every game of the list.
    auto count = [&](const std::string& q) {
        return http_request(port_, http::verb::get, "/api/users/AnnLee/games?" + q).j()["games"].size();
    };
    EXPECT_EQ(count("variant=avalanche"), 1u);
    EXPECT_EQ(count("variant=chess"), 0u);
    EXPECT_EQ(count("result=win"), 0u);
    // Never rated: no rating moved.
    json prof = profile(port_, "AnnLee");
    EXPECT_FALSE(prof["ratings"]["avalanche"].contains("blitz") &&
                 prof["ratings"]["avalanche"]["blitz"]["games"].get<int>() > 0)
        << prof.dump();
    // An anonymous player's game stays anonymous.
    const std::string anon = token();
    HttpResult a =
        http_request(port_, http::verb::post, "/api/computer",
                     json{{"variant", "chess"}, {"level", 1}, {"color", "white"}, {"nickname", "Zed"}}.dump(), anon);
    ASSERT_EQ(a.status, 201) << a.body;
    WsClient z(port_, anon);
    json zs = join(z, a.j()["game"]);
    EXPECT_EQ(zs["players"]["white"]["name"], "Zed");
    EXPECT_EQ(zs["players"]["white"]["account"], false);
}

TEST_F(PlayersTest, AnAnonymousGameIsClaimedOnce) {
    Pair p = new_game("chess", BLITZ);
    {
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        ASSERT_EQ(play(w, b, p.game, {"f2f3", "e7e5", "g2g4", "d8h4"})["result"], "0-1");
    }
    Player ann{"AnnLee", p.a, ""};
    HttpResult r = account_call(port_, http::verb::post, "/api/account",
                                {{"username", "AnnLee"}, {"password", "a fine passphrase"}}, ann);
    ASSERT_EQ(r.status, 201) << r.body;
    ann.cookie = cookie_of(r);
    auto games_of = [&](const std::string& name) {
        return http_request(port_, http::verb::get, "/api/users/" + name + "/games").j()["games"];
    };
    ASSERT_EQ(eventually([&] { return games_of("AnnLee"); }, [](const json& g) { return g.size() == 1; }).size(), 1u);
    // Marked claimed in storage: survives a restart; a second account
    // signing up in the same browser finds nothing to claim.
    restart(FAST);
    Player zed{"ZedK", p.a, ""};
    r = account_call(port_, http::verb::post, "/api/account", {{"username", "ZedK"}, {"password", "a fine passphrase"}},
                     zed);
    ASSERT_EQ(r.status, 201) << r.body;
    // Bob's seat is still his own to claim, from his browser.
    Player bob{"BobK", p.b, ""};
    r = account_call(port_, http::verb::post, "/api/account", {{"username", "BobK"}, {"password", "a fine passphrase"}},
                     bob);
    ASSERT_EQ(r.status, 201) << r.body;
    json bobs = eventually([&] { return games_of("BobK"); }, [](const json& g) { return g.size() == 1; });
    ASSERT_EQ(bobs.size(), 1u);
    EXPECT_EQ(bobs[0]["result"], "win");
    // Zed's claim ran before Bob's (one worker, in order): had it found the
    // game, it would show by now.
    EXPECT_TRUE(games_of("ZedK").empty());
    EXPECT_EQ(games_of("AnnLee").size(), 1u);
}

}  // namespace

// The server's rules over real sockets, one regression test per finding of
// the server review: input that used to crash it, web hygiene, limits,
// abandonment and expiry, one database per server, clocks in the record.
// (Over 400 lines: one short test per finding, kept together.)
#include <SQLiteCpp/SQLiteCpp.h>

#include <array>
#include <functional>
#include <future>
#include <set>

#include "address_quota.h"
#include "server/storage/storage.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

const std::string E_ACUTE = "\xC3\xA9";  // "é", valid UTF-8; the FEN reader quotes its first byte alone

json error_of(const HttpResult& r) { return r.j()["error"]; }

TEST_F(ServerTest, AFenWithAnAccentedLetterGetsAnErrorNotACrash) {
    const std::string fens[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN" + E_ACUTE + " w KQkq - 0 1",
                                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk" + E_ACUTE + " - 0 1"};
    for (const std::string& fen : fens)
        for (const char* endpoint : {"/api/analysis", "/api/analysis/eval"}) {
            SCOPED_TRACE(endpoint);
            const std::string body = json{{"fen", fen}}.dump();
            auto r = http_request(port_, http::verb::post, endpoint, body);
            EXPECT_EQ(r.status, 400);
            EXPECT_EQ(error_of(r)["reason"], "fen_invalid");
            EXPECT_EQ(error_of(r)["field"], "fen");
            // As a "simple" cross-site request would send it: refused before it is read.
            auto plain = http_request(port_, http::verb::post, endpoint, body, "", {{"Content-Type", "text/plain"}});
            EXPECT_EQ(plain.status, 415);
            EXPECT_EQ(error_of(plain)["reason"], "content_type");
        }
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/lobby").status, 200);  // still there
}

TEST_F(ServerTest, SecurityHeadersOnEveryAnswer) {
    for (const char* path : {"/", "/api/lobby", "/api/nothing", "/assets/app.js", "/game/Nope0000.pgn"}) {
        SCOPED_TRACE(path);
        auto r = http_request(port_, http::verb::get, path);
        EXPECT_NE(r.header("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
        EXPECT_NE(r.header("Content-Security-Policy").find("frame-ancestors 'none'"), std::string::npos);
        EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
        EXPECT_EQ(r.header("Referrer-Policy"), "same-origin");
        EXPECT_EQ(r.header("X-Frame-Options"), "DENY");
    }
}

TEST_F(ServerTest, AnotherSiteCanNeitherPostNorOpenAWebSocket) {
    const std::string here = "http://127.0.0.1:" + std::to_string(port_);
    std::string a = token();
    json seek = {{"time", {{"kind", "unlimited"}}}};
    auto evil =
        http_request(port_, http::verb::post, "/api/seeks", seek.dump(), a, {{"Origin", "http://evil.example"}});
    EXPECT_EQ(evil.status, 403);
    EXPECT_EQ(error_of(evil)["reason"], "cross_origin");
    EXPECT_EQ(http_request(port_, http::verb::post, "/api/seeks", seek.dump(), a, {{"Origin", here}}).status, 201);
    // The browser says the request comes from another site.
    auto fetched = http_request(port_, http::verb::post, "/api/seeks", seek.dump(), a,
                                {{"Origin", here}, {"Sec-Fetch-Site", "cross-site"}});
    EXPECT_EQ(fetched.status, 403);
    EXPECT_EQ(error_of(fetched)["reason"], "cross_origin");
    // Another site's name pointed at this server (DNS rebinding): its page
    // sends its own name as Host and Origin.
    auto rebound = http_request(port_, http::verb::post, "/api/seeks", seek.dump(), a,
                                {{"Host", "evil.example:" + std::to_string(port_)},
                                 {"Origin", "http://evil.example:" + std::to_string(port_)}});
    EXPECT_EQ(rebound.status, 403);
    EXPECT_EQ(error_of(rebound)["reason"], "cross_origin");
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/lobby", "", "", {{"Origin", "http://evil.example"}}).status,
              200);  // reads are harmless: the browser keeps the answer from the other site
    EXPECT_THROW(WsClient(port_, "", "http://evil.example"), std::exception);
    {
        WsClient same(port_, "", here);
        same.send({{"type", "ping"}, {"t", 1}});
        EXPECT_EQ(same.recv()["type"], "pong");
    }
    restart([](server::ServerOptions& o) { o.allowed_origins = {"http://friend.example"}; });
    WsClient friendly(port_, "", "http://friend.example");
    friendly.send({{"type", "ping"}, {"t", 2}});
    EXPECT_EQ(friendly.recv()["type"], "pong");
}

TEST_F(ServerTest, NicknamesAndTimeControlsAreChecked) {
    std::string a = token();
    auto seek = [&](json body) {
        if (!body.contains("time")) body["time"] = {{"kind", "unlimited"}};
        return post_json(port_, "/api/seeks", body, a);
    };
    EXPECT_EQ(seek({{"nickname", "Computer"}})["error"]["reason"], "nickname_reserved");
    EXPECT_EQ(seek({{"nickname", "computer level 8"}})["error"]["reason"], "nickname_reserved");
    EXPECT_EQ(seek({{"nickname", "Ann\u202E"}})["error"]["reason"], "nickname_bidi");
    EXPECT_EQ(seek({{"nickname", "Ann\u200B"}})["error"]["reason"], "nickname_control");
    EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}, {"nickname", "Ordinateur"}}, a)["error"]["reason"],
              "nickname_reserved");
    json tiny = seek({{"time", {{"kind", "realtime"}, {"minutes", 0.00002}, {"increment", 0}}}});  // 1 ms
    EXPECT_EQ(tiny["_status"], 400);
    EXPECT_EQ(tiny["error"]["reason"], "time_below_minimum");
    EXPECT_EQ(tiny["error"]["params"]["min_ms"], 6000);
    EXPECT_EQ(seek({{"time", {{"kind", "realtime"}, {"minutes", 0}, {"increment", 0}}}})["error"]["reason"],
              "time_both_zero");
    EXPECT_EQ(seek({{"time", {{"kind", "realtime"}, {"minutes", 0}, {"increment", 1}}}})["_status"], 201);
    EXPECT_EQ(seek({{"nickname", "Zoé"}})["_status"], 201);
}

// Takeback through the room: proposed, accepted, both players told the
// shorter game; it is stored (a restart reads it back) and play goes on
// from there.
TEST_F(ServerTest, ATakebackIsStoredAndToldToBothPlayers) {
    Pair p = new_game("chess");
    {
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        play(w, b, p.game, {"e2e4", "e7e5", "g1f3"});
        w.send({{"type", "takeback_offer"}, {"game", p.game}});
        b.state_where(p.game, [](const json& j) { return j["takeback"]["offer"] == "white"; });
        b.send({{"type", "takeback_accept"}, {"game", p.game}});
        for (WsClient* c : {&w, &b}) {
            json st = c->state_where(p.game, [](const json& j) { return j["ply"] == 2; });
            EXPECT_EQ(st["moves"].size(), 2u);
            EXPECT_EQ(st["turn"], "white");
            EXPECT_TRUE(st["takeback"]["offer"].is_null());
        }
        // Black now proposes to take back e5; White declines; Black may not insist.
        b.send({{"type", "takeback_offer"}, {"game", p.game}});
        w.state_where(p.game, [](const json& j) { return j["takeback"]["offer"] == "black"; });
        w.send({{"type", "takeback_decline"}, {"game", p.game}});
        b.state_where(
            p.game, [](const json& j) { return j["takeback"]["offer"].is_null() && j["takeback"]["black"] == false; });
        b.send({{"type", "takeback_offer"}, {"game", p.game}, {"id", 7}});
        json e = b.error();
        EXPECT_EQ(e["reason"], "takeback_declined") << e;
        EXPECT_EQ(e["id"], 7);
    }
    restart();
    json g = get_json(port_, "/api/games/" + p.game, p.a);
    EXPECT_EQ(g["ply"], 2);
    EXPECT_EQ(g["moves"].size(), 2u);
    WsClient w(port_, p.a), b(port_, p.b);
    join(w, p.game);
    join(b, p.game);
    w.send({{"type", "move"}, {"game", p.game}, {"move", "f1c4"}, {"ply", 2}});
    json st = b.state_where(p.game, [](const json& j) { return j["ply"] == 3; });
    EXPECT_EQ(st["moves"][2]["san"], "Bc4");
}

TEST_F(ServerTest, DrawOffersCannotBeSpammed) {
    Pair p = new_game("chess");
    WsClient w(port_, p.a), b(port_, p.b);
    join(w, p.game);
    join(b, p.game);
    play(w, b, p.game, {"e2e4", "e7e5"});
    w.send({{"type", "draw_offer"}, {"game", p.game}});
    b.state_where(p.game, [](const json& j) { return j["draw_offer"] == "white"; });
    b.send({{"type", "draw_decline"}, {"game", p.game}});
    w.state_where(p.game, [](const json& j) { return j["draw_offer"].is_null(); });
    b.state_where(p.game, [](const json& j) { return j["draw_offer"].is_null(); });
    for (int i = 0; i < 5; ++i) {
        w.send({{"type", "draw_offer"}, {"game", p.game}, {"id", i}});
        json e = w.error();
        EXPECT_EQ(e["reason"], "draw_offer_too_soon");
        EXPECT_EQ(e["params"]["next_ply"], 22);
        EXPECT_EQ(e["id"], i);
    }
    // Black saw none of them: its next message is the state after White's move.
    w.send({{"type", "move"}, {"game", p.game}, {"move", "g1f3"}, {"ply", 2}});
    json next = b.recv_until([](const json& j) { return j["type"] == "state"; });
    EXPECT_EQ(next["ply"], 3);
    EXPECT_TRUE(next["draw_offer"].is_null());
}

TEST_F(ServerTest, TheOpponentOfAPlayerWhoLeftMayClaimTheGame) {
    restart([](server::ServerOptions& o) { o.claim_realtime_ms = 400; });
    for (const char* type : {"claim_victory", "claim_draw"}) {
        SCOPED_TRACE(type);
        Pair p = new_game("chess", {{"kind", "realtime"}, {"minutes", 5}, {"increment", 0}});
        WsClient w(port_, p.a);
        join(w, p.game);
        {
            WsClient b(port_, p.b);
            join(b, p.game);
            // Before both first moves there is nothing to claim (abort is there for that).
            play(w, b, p.game, {"e2e4", "e7e5"});
        }  // Black's tab closes
        json s = w.state_where(p.game, [](const json& j) { return !j["claim"].is_null(); });
        EXPECT_EQ(s["players"]["black"]["connected"], false);
        EXPECT_EQ(s["claim"]["by"], "white");
        const std::int64_t at = s["claim"]["available_at"];
        EXPECT_GT(at, s["clock"]["server_time"].get<std::int64_t>() - 400);
        w.send({{"type", type}, {"game", p.game}});
        json r = w.recv_until(
            [&](const json& j) { return j["type"] == "error" || (j["type"] == "state" && j["status"] == "over"); });
        // Most likely the 400 ms have not passed yet: asked again until they
        // have (the server's clock decides; 30 s at most).
        const auto deadline = std::chrono::steady_clock::now() + 30s;
        while (r["type"] == "error") {
            ASSERT_EQ(r["reason"], "claim_too_early") << r.dump();
            EXPECT_EQ(r["params"]["available_at"], at);
            ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the claim still too early after 30 s";
            std::this_thread::sleep_for(50ms);
            w.send({{"type", type}, {"game", p.game}});
            r = w.recv_until(
                [&](const json& j) { return j["type"] == "error" || (j["type"] == "state" && j["status"] == "over"); });
        }
        json over = r;
        EXPECT_EQ(over["termination"], "abandonment");
        EXPECT_EQ(over["result"], std::string(type) == "claim_victory" ? "1-0" : "1/2-1/2");
        EXPECT_TRUE(over["claim"].is_null());
    }
    // A player who comes back takes the claim away; the absent side cannot claim.
    Pair p = new_game("chess", {{"kind", "realtime"}, {"minutes", 5}, {"increment", 0}});
    WsClient w(port_, p.a);
    join(w, p.game);
    {
        WsClient b(port_, p.b);
        join(b, p.game);
        play(w, b, p.game, {"d2d4", "d7d5"});
    }
    w.state_where(p.game, [](const json& j) { return !j["claim"].is_null(); });
    WsClient b(port_, p.b);
    join(b, p.game);
    json back = w.state_where(p.game, [](const json& j) { return j["players"]["black"]["connected"] == true; });
    EXPECT_TRUE(back["claim"].is_null());
    // At once, no need to wait out the 400 ms: a claim still there would be
    // answered claim_too_early (or end the game), not claim_not_available.
    w.send({{"type", "claim_victory"}, {"game", p.game}});
    EXPECT_EQ(w.error()["reason"], "claim_not_available");
}

TEST_F(ServerTest, ASeekLeavesWithItsCreator) {
    restart([](server::ServerOptions& o) { o.seek_grace_ms = 300; });
    std::string a = token(), c = token(), c2 = token();
    WsClient watcher(port_, c);
    watcher.send({{"type", "lobby_subscribe"}});
    watcher.recv_until([](const json& j) { return j["type"] == "lobby"; });
    std::string id, kept;
    {
        WsClient creator(port_, a);
        EXPECT_EQ(creator.recv_until([](const json& j) { return j["type"] == "my_seeks"; })["seeks"], json::array());
        id = post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, a)["seek"]["id"];
        json mine = creator.recv_until([](const json& j) { return j["type"] == "my_seeks"; });
        EXPECT_EQ(mine["seeks"], json({id}));
        watcher.recv_until([&](const json& j) { return j["type"] == "lobby_delta"; });
    }  // the creator's last socket closes
    json gone = watcher.recv_until([](const json& j) { return j["type"] == "lobby_delta"; }, 30s);
    EXPECT_EQ(gone["changes"][0], json({{"op", "seek_removed"}, {"id", id}}));
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/seeks/" + id).status, 404);
    // Back within the grace period: the seek stays.
    auto next_changes = [&] {
        return watcher.recv_until([](const json& j) { return j["type"] == "lobby_delta"; }, 30s)["changes"];
    };
    auto wait_shown = [&](const std::string& seek) {  // a seek expires only once the lobby has shown it
        for (bool shown = false; !shown;)
            for (const json& change : next_changes()) {
                EXPECT_FALSE(!kept.empty() && change == json({{"op", "seek_removed"}, {"id", kept}}))
                    << "the seek left with its creator back";
                shown = shown || (change["op"] == "seek_added" && change["seek"]["id"] == seek);
            }
    };
    {
        WsClient creator(port_, a);
        kept = post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, a)["seek"]["id"];
        wait_shown(kept);
    }
    WsClient again(port_, a);
    again.recv_until([](const json& j) { return j["type"] == "my_seeks"; });
    // Nothing until a later creator's seek leaves: its grace period started
    // after this one's, and expired seeks leave the lobby in that order.
    const json kept_removed = {{"op", "seek_removed"}, {"id", kept}};
    std::string later;
    {
        WsClient creator(port_, c2);
        creator.recv_until([](const json& j) { return j["type"] == "my_seeks"; });
        later = post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, c2)["seek"]["id"];
        wait_shown(later);
    }
    for (bool later_gone = false; !later_gone;)
        for (const json& change : next_changes()) {
            ASSERT_NE(change, kept_removed) << "the seek left with its creator back";
            later_gone = later_gone || change == json({{"op", "seek_removed"}, {"id", later}});
        }
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/seeks/" + kept).status, 200);
}

TEST_F(ServerTest, AbandonedUnlimitedGamesAreArchivedAtStart) {
    Pair p = new_game("alice");
    {
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        play(w, b, p.game, {"e2e4"});
    }
    restart([](server::ServerOptions& o) { o.unlimited_archive_ms = 1; });
    json s = http_request(port_, http::verb::get, "/api/games/" + p.game).j();
    EXPECT_EQ(s["status"], "over");
    EXPECT_EQ(s["termination"], "abandonment");
    EXPECT_EQ(s["result"], "*");
    EXPECT_EQ(s["moves"].size(), 1u);
    EXPECT_TRUE(http_request(port_, http::verb::get, "/api/lobby").j()["games"].empty());
}

TEST_F(ServerTest, SpectatorsDoNotKeepFinishedGamesInMemory) {
    restart([](server::ServerOptions& o) {
        o.finished_ttl_ms = 200;
        o.finished_player_ttl_ms = 200;
    });
    Pair p = new_game("chess");
    {
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        b.send({{"type", "resign"}, {"game", p.game}});
        w.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
    }
    WsClient spectator(port_);
    EXPECT_EQ(join(spectator, p.game)["status"], "over");
    EXPECT_TRUE(wait_until([&] { return server_->stats().rooms == 0; }, 30s))
        << "waited 30 s for the finished game to leave memory; rooms: " << server_->stats().rooms;
    // Still there for whoever asks, read back from storage.
    EXPECT_EQ(join(spectator, p.game)["result"], "1-0");
}

TEST_F(ServerTest, OneDatabaseOneServer) {
    Pair p = new_game("chess", {{"kind", "correspondence"}, {"days", 3}});
    const std::string db = (dir_.path() / "test.db").string();
    auto rows = [&] {
        SQLite::Database d(db, SQLite::OPEN_READONLY);
        SQLite::Statement q(d, "SELECT id, clock_at, white_ms, black_ms, status FROM games ORDER BY id");
        std::string out;
        while (q.executeStep())
            for (int i = 0; i < 5; ++i) out += q.getColumn(i).getString() + ";";
        return out;
    };
    const std::string before = rows();
    server::ServerOptions o = options();
    try {
        server::Server second(o);  // another port, same database
        FAIL() << "a second server opened the database";
    } catch (const server::StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("another echecs server"), std::string::npos) << e.what();
    }
    o.port = port_;  // the same port as well: refused before the database is even opened
    EXPECT_THROW(server::Server third(o), std::exception);
    EXPECT_EQ(rows(), before);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games/" + p.game).status, 200);
}

TEST_F(ServerTest, FinishedGamesArePagedByKeyset) {
    std::vector<std::string> ids;
    for (int i = 0; i < 7; ++i) {
        Pair p = new_game("chess");
        WsClient b(port_, p.b);
        join(b, p.game);
        b.send({{"type", "resign"}, {"game", p.game}});
        b.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
        ids.insert(ids.begin(), p.game);  // newest first
    }
    new_game("chess", {{"kind", "unlimited"}}, true);  // private: never listed
    std::vector<std::string> seen;
    std::string target = "/api/games?status=finished&limit=3";
    for (int page = 0; page < 5; ++page) {
        json r = http_request(port_, http::verb::get, target).j();
        for (const json& g : r["games"]) seen.push_back(g["id"]);
        if (r["next"].is_null()) break;
        target = "/api/games?status=finished&limit=3&before=" + r["next"].get<std::string>();
    }
    EXPECT_EQ(seen.size(), ids.size());  // each once (ends in the same millisecond are ordered by id)
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), std::set<std::string>(ids.begin(), ids.end()));
    EXPECT_EQ(error_of(http_request(port_, http::verb::get, "/api/games?offset=5000"))["reason"], "number_range");
    EXPECT_EQ(error_of(http_request(port_, http::verb::get, "/api/games?before=../x"))["reason"], "before_invalid");
}

TEST_F(ServerTest, MovesCarryTheirClockAndThePgnHasClocksAndSite) {
    Pair p = new_game("chess", {{"kind", "realtime"}, {"minutes", 3}, {"increment", 2}});
    WsClient w(port_, p.a), b(port_, p.b);
    join(w, p.game);
    join(b, p.game);
    json s = play(w, b, p.game, {"e2e4", "e7e5", "g1f3"});
    EXPECT_EQ(s["moves"][0]["clock"], 182'000);
    EXPECT_EQ(s["moves"][1]["clock"], 182'000);
    EXPECT_LE(s["moves"][2]["clock"].get<std::int64_t>(), 184'000);  // what was left, plus 2 s
    EXPECT_GE(s["moves"][2]["clock"].get<std::int64_t>(), 174'000);
    auto pgn = http_request(port_, http::verb::get, "/game/" + p.game + ".pgn");
    EXPECT_NE(pgn.body.find("1. e4 {[%clk 0:03:02]} 1... e5 {[%clk 0:03:02]} 2. Nf3 {[%clk 0:0"), std::string::npos)
        << pgn.body;
    EXPECT_NE(pgn.body.find("[Site \"http://127.0.0.1:" + std::to_string(port_) + "/game/" + p.game + "\"]"),
              std::string::npos)
        << pgn.body;
    restart([](server::ServerOptions& o) { o.public_url = "https://echecs.example/"; });
    pgn = http_request(port_, http::verb::get, "/game/" + p.game + ".pgn");
    EXPECT_NE(pgn.body.find("[Site \"https://echecs.example/game/" + p.game + "\"]"), std::string::npos) << pgn.body;
    // The clocks come back from storage too.
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games/" + p.game).j()["moves"][0]["clock"], 182'000);
}

TEST_F(ServerTest, HelloAnswersOnlyTheSocketThatSentIt) {
    std::vector<Pair> games;
    for (int i = 0; i < 10; ++i) games.push_back(new_game("chess"));
    std::string spy_token = token();
    WsClient spy(port_, spy_token), player(port_);
    for (const Pair& g : games) join(spy, g.game);
    for (const Pair& g : games) join(player, g.game);
    player.send({{"type", "hello"}, {"token", games[0].a}});  // now White of game 0
    json s = player.state_where(games[0].game, [](const json& j) { return j["you"] == "white"; });
    EXPECT_EQ(s["players"]["white"]["connected"], true);
    // The spy is told once that White of game 0 is here, and nothing else.
    json told = spy.state_where(games[0].game, [](const json&) { return true; });
    EXPECT_EQ(told["players"]["white"]["connected"], true);
    for (int i = 0; i < 30; ++i) player.send({{"type", "hello"}, {"token", games[0].a}});
    player.send({{"type", "hello"}, {"token", games[1].a}});
    EXPECT_EQ(player.error()["reason"], "hello_token_changed");
    spy.send({{"type", "ping"}, {"t", "end"}});
    json next = spy.recv(5s);
    EXPECT_EQ(next["type"], "pong") << next.dump();  // no state was sent to the spy meanwhile
}

TEST_F(ServerTest, NoEngineHelpForAPlayersLiveGame) {
    Pair p = new_game("chess");
    WsClient w(port_, p.a), b(port_, p.b);
    join(w, p.game);
    join(b, p.game);
    json s = play(w, b, p.game, {"e2e4", "e7e5"});
    json body = {{"variant", "chess"}, {"fen", s["fen"]}, {"movetime_ms", 50}};
    for (const std::string& t : {p.a, p.b}) {
        auto r = http_request(port_, http::verb::post, "/api/analysis/eval", body.dump(), t);
        EXPECT_EQ(r.status, 403);
        EXPECT_EQ(error_of(r)["reason"], "live_game_analysis");
    }
    // The same position reached by a move list; and a spectator may analyse.
    json by_moves = {{"moves", {"e2e4", "e7e5"}}, {"movetime_ms", 50}};
    EXPECT_EQ(http_request(port_, http::verb::post, "/api/analysis/eval", by_moves.dump(), p.a).status, 403);
    EXPECT_EQ(http_request(port_, http::verb::post, "/api/analysis/eval", body.dump(), token()).status, 200);
    // Once the game is over, the players may too.
    b.send({{"type", "resign"}, {"game", p.game}});
    w.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
    EXPECT_EQ(http_request(port_, http::verb::post, "/api/analysis/eval", body.dump(), p.a).status, 200);
}

// Games against the computer: a few per player, many more per address (a
// family or a school behind one address is not locked out by one player).
TEST_F(ServerTest, ComputerGamesAreCountedPerPlayerUnderAHigherCeilingPerAddress) {
    restart([](server::ServerOptions& o) {
        o.max_engine_games_per_player = 2;
        o.max_engine_games_per_ip = 3;
    });
    const std::string ann = token(), bob = token(), cid = token();
    for (int i = 0; i < 2; ++i) EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}}, ann)["_status"], 201);
    json refused = post_json(port_, "/api/computer", {{"level", 1}}, ann);
    EXPECT_EQ(refused["error"]["reason"], "too_many_own_engine_games") << refused.dump();
    EXPECT_EQ(refused["error"]["params"]["max"], 2);
    // Another player at the same address still has a place, up to the address's ceiling.
    EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}}, bob)["_status"], 201);
    EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}}, cid)["error"]["reason"], "too_many_engine_games");
}

// An unlimited game against the computer that its player left is ended
// after computer_archive_ms (abandonment, no result), freeing its places;
// a game between two people is not.
TEST_F(ServerTest, AnAbandonedComputerGameIsEndedAfterItsIdleTime) {
    Pair people = new_game("chess");
    restart([](server::ServerOptions& o) {
        o.computer_archive_ms = 300;
        o.finished_ttl_ms = 200;  // the sweep runs every 100 ms
        o.max_engine_games_per_player = 1;
    });
    const std::string ann = token();
    json g =
        post_json(port_, "/api/computer", {{"level", 1}, {"color", "white"}, {"time", {{"kind", "unlimited"}}}}, ann);
    ASSERT_EQ(g["_status"], 201) << g.dump();
    const std::string id = g["game"];
    json s;
    EXPECT_TRUE(wait_until(
        [&] {
            s = http_request(port_, http::verb::get, "/api/games/" + id).j();
            return s["status"] == "over";
        },
        30s))
        << "waited 30 s for the abandoned game to be ended: " << s.dump();
    EXPECT_EQ(s["termination"], "abandonment");
    EXPECT_EQ(s["result"], "*");
    EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}}, ann)["_status"], 201) << "its place is free again";
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games/" + people.game).j()["status"], "live");
}

TEST_F(ServerTest, LimitsPerAddress) {
    restart([](server::ServerOptions& o) {
        o.max_connections_per_ip = 6;
        o.max_engine_games_per_ip = 2;
        o.max_seeks_per_ip = 3;
        o.engine_queue_per_client = 1;
        o.eval_min_ms = 500;
    });
    std::string a = token();
    {
        std::vector<std::unique_ptr<WsClient>> open;
        for (int i = 0; i < 6; ++i) open.push_back(std::make_unique<WsClient>(port_));
        EXPECT_THROW(WsClient extra(port_), std::exception);  // closed at once
        open.pop_back();
        EXPECT_TRUE(wait_until(  // the slot comes back when the socket is gone
            [&] {
                try {
                    WsClient again(port_);
                    return true;
                } catch (const std::exception&) {
                    return false;
                }
            },
            30s))
            << "waited 30 s for a connection slot to come back";
    }
    EXPECT_TRUE(wait_until([&] { return server_->stats().connections == 0; }, 30s))
        << "waited 30 s for the server to see the sockets closed; open: " << server_->stats().connections;
    for (int i = 0; i < 2; ++i) EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}}, a)["_status"], 201);
    EXPECT_EQ(post_json(port_, "/api/computer", {{"level", 1}}, a)["error"]["reason"], "too_many_engine_games");
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, token())["_status"], 201);
    EXPECT_EQ(post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, token())["error"]["reason"],
              "too_many_seeks_address");
    // One evaluation at a time per address: of two at once (each takes 500 ms
    // at least), whichever comes second is refused.
    HttpResult evals[2];
    std::thread first([&] { evals[0] = http_request(port_, http::verb::post, "/api/analysis/eval", "{}"); });
    evals[1] = http_request(port_, http::verb::post, "/api/analysis/eval", "{}");
    first.join();
    const int refused = evals[0].status == 429 ? 0 : 1;
    EXPECT_EQ(evals[1 - refused].status, 200);
    EXPECT_EQ(evals[refused].status, 429);
    EXPECT_EQ(error_of(evals[refused])["reason"], "eval_pending");
}

// Reads from `sock` until `done(reply)`, the end of the stream or an error,
// 30 s at most (then the error is timed_out): a server that never answers
// fails the test instead of hanging it.
std::pair<std::string, beast::error_code> read_bounded(asio::io_context& ioc, tcp::socket& sock,
                                                       const std::function<bool(const std::string&)>& done) {
    std::string reply;
    beast::error_code end;
    bool finished = false;
    std::array<char, 4096> buf;
    std::function<void()> next = [&] {
        sock.async_read_some(asio::buffer(buf), [&](beast::error_code ec, std::size_t n) {
            reply.append(buf.data(), n);
            if (ec || done(reply)) return void((end = ec, finished = true));
            next();
        });
    };
    next();
    ioc.restart();
    ioc.run_for(30s);
    if (!finished) {
        sock.cancel();
        ioc.restart();
        ioc.run();
        end = asio::error::timed_out;
    }
    return {reply, end};
}

TEST_F(ServerTest, ABodyOverTheLimitIsRefusedBeforeItIsRead) {
    asio::io_context ioc;
    tcp::socket sock(ioc);
    sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
    const std::string head =
        "POST /api/seeks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 100000000\r\n\r\n{";
    asio::write(sock, asio::buffer(head));
    // The answer comes without the 100 MB: only the head was needed.
    const auto [reply, ec] =
        read_bounded(ioc, sock, [](const std::string& r) { return r.find("\r\n\r\n") != std::string::npos; });
    EXPECT_EQ(reply.rfind("HTTP/1.1 413", 0), 0u) << reply << " (" << ec.message() << ")";
}

// A client that sends its body anyway (most do: they write before they read)
// must still read the refusal: the server reads and drops the late body
// instead of resetting the connection under the answer.
TEST_F(ServerTest, ABodySentAfterItsRefusalDoesNotResetTheAnswer) {
    asio::io_context ioc;
    tcp::socket sock(ioc);
    sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
    const std::string body(1100 * 1024, ' ');
    const std::string head =
        "POST /api/pgn/read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n";
    asio::write(sock, asio::buffer(head));
    // The body goes once the server has refused it: its answer is there to
    // read (left unread, 30 s at most).
    bool readable = false;
    sock.async_wait(tcp::socket::wait_read, [&](beast::error_code e) { readable = !e; });
    ioc.run_for(30s);
    if (!readable) {
        sock.cancel();
        ioc.restart();
        ioc.run();
    }
    ASSERT_TRUE(readable) << "waited 30 s for the server's answer to the head";
    beast::error_code ec;
    asio::write(sock, asio::buffer(body), ec);
    EXPECT_FALSE(ec) << ec.message();
    sock.shutdown(tcp::socket::shutdown_send, ec);
    auto [reply, end] = read_bounded(ioc, sock, [](const std::string&) { return false; });
    EXPECT_EQ(end, asio::error::eof) << end.message();
    EXPECT_EQ(reply.rfind("HTTP/1.1 413", 0), 0u) << reply.substr(0, 200);
    EXPECT_NE(reply.find("body_too_large"), std::string::npos);
}

// An upload that the engine's pool would refuse (its address already has
// work waiting) is refused from its head: reading a MiB only to refuse it
// took the I/O thread's time from every game (issue 24, the upload flood).
// Shown by a head whose body never comes: it is answered all the same.
TEST_F(ServerTest, AnUploadOverItsAddressQuotaIsRefusedBeforeItsBodyIsRead) {
    restart([](server::ServerOptions& o) {
        o.engine_threads = 1;
        o.engine_queue_per_client = 1;
        o.eval_max_ms = 5000;
        o.eval_rate_per_second = 1000;
        o.trust_forwarded_for = true;
        o.http_timeout_ms = 120000;  // longer than the read below: a server waiting for the body fails the test
    });
    // Once one upload is refused, the evaluation holds the address's place
    // (for about 5 s).
    auto [running, upload] = hold_address_quota(port_, {{"X-Forwarded-For", "192.0.2.10"}}, 5000);
    ASSERT_EQ(upload.status, 429) << "every upload was answered while the address's evaluation held its place";

    asio::io_context ioc;
    tcp::socket sock(ioc);
    sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
    // The client's own X-Forwarded-For line first, the proxy's last: the
    // address is the proxy's line (HAProxy adds a line of its own).
    const std::string head =
        "POST /api/pgn/read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "X-Forwarded-For: 198.51.100.7\r\nX-Forwarded-For: 192.0.2.10\r\nContent-Length: 900000\r\n\r\n{\"text\": \"";
    asio::write(sock, asio::buffer(head));
    const auto [reply, ec] =
        read_bounded(ioc, sock, [](const std::string& r) { return r.find("\r\n\r\n") != std::string::npos; });
    EXPECT_EQ(reply.rfind("HTTP/1.1 429", 0), 0u) << reply.substr(0, 200) << " (" << ec.message() << ")";
    EXPECT_NE(reply.find("Connection: close"), std::string::npos) << reply.substr(0, 400);
    sock.close();
    ASSERT_EQ(running.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "the evaluation never ended";
}

TEST_F(ServerTest, MySeeksTellsTheOwnerOnly) {
    std::string a = token(), other = token();
    WsClient owner(port_, a), stranger(port_, other);
    EXPECT_EQ(owner.recv_until([](const json& j) { return j["type"] == "my_seeks"; })["seeks"], json::array());
    stranger.recv_until([](const json& j) { return j["type"] == "my_seeks"; });
    json s = post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}, {"private", true}}, a);
    // json::array: json({j}) of one json j is a copy of j under Clang, an array under GCC.
    EXPECT_EQ(owner.recv_until([](const json& j) { return j["type"] == "my_seeks"; })["seeks"],
              json::array({s["seek"]["id"]}));
    http_request(port_, http::verb::delete_, "/api/seeks/" + s["seek"]["id"].get<std::string>(), "", a);
    EXPECT_EQ(owner.recv_until([](const json& j) { return j["type"] == "my_seeks"; })["seeks"], json::array());
    stranger.send({{"type", "ping"}, {"t", 0}});
    EXPECT_EQ(stranger.recv()["type"], "pong");  // nothing about somebody else's seeks
}

}  // namespace

// The server over real sockets (loopback): whole games, clocks, offers, seat
// tokens, bad input, static files, the engine, and a SIGKILL + restart.
// (Over 400 lines: whole games take room; each test reads on its own.)
#include <random>

#include "engine/strength.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

struct MateCase {
    const char* variant;
    std::vector<std::string> moves;
    const char* result;
};

TEST_F(ServerTest, TwoClientsPlayToCheckmateInEachGame) {
    const MateCase cases[] = {
        {"chess", {"f2f3", "e7e5", "g2g4", "d8h4"}, "0-1"},
        // The seed's example: 3.Bb5 is mate because ...Kd7 is illegal on board A.
        {"alice", {"e2e4", "d7d5", "f1e2", "d5e4", "e2b5"}, "1-0"},
        {"avalanche", {"f2f3,e7e6", "a7a6,g2g3", "a2a3,h7h6", "b7b6,g3g4", "b2b3,c7c6", "d8h4,a3a4"}, "0-1"},
    };
    for (const MateCase& c : cases) {
        SCOPED_TRACE(c.variant);
        Pair p = new_game(c.variant, {{"kind", "realtime"}, {"minutes", 5}, {"increment", 3}});
        WsClient w(port_, p.a), b(port_, p.b), spectator(port_);
        json s = join(w, p.game);
        EXPECT_EQ(s["you"], "white");
        EXPECT_EQ(s["variant"], c.variant);
        EXPECT_EQ(join(b, p.game)["you"], "black");
        EXPECT_EQ(join(spectator, p.game)["you"], nullptr);
        json last = play(w, b, p.game, c.moves);
        EXPECT_EQ(last["status"], "over");
        EXPECT_EQ(last["termination"], "checkmate");
        EXPECT_EQ(last["result"], c.result);
        EXPECT_EQ(last["check"], true);
        EXPECT_TRUE(last["legal_moves"].empty());
        json seen = spectator.state(p.game, int(c.moves.size()));
        EXPECT_EQ(seen["result"], c.result);
        ASSERT_EQ(seen["moves"].size(), c.moves.size());
        for (std::size_t i = 0; i < c.moves.size(); ++i) EXPECT_EQ(seen["moves"][i]["uci"], c.moves[i]);

        auto pgn = http_request(port_, http::verb::get, "/game/" + p.game + ".pgn");
        EXPECT_EQ(pgn.status, 200);
        EXPECT_NE(pgn.content_type.find("text/plain"), std::string::npos);
        EXPECT_NE(pgn.body.find(std::string("[Result \"") + c.result + "\"]"), std::string::npos) << pgn.body;
        EXPECT_NE(pgn.body.find("[White \"Ann\"]"), std::string::npos) << pgn.body;
        if (std::string(c.variant) == "alice") {
            EXPECT_NE(pgn.body.find("Bb5#"), std::string::npos) << pgn.body;
        }
    }
    // Finished games are listed.
    auto list = http_request(port_, http::verb::get, "/api/games?status=finished&limit=10").j();
    EXPECT_EQ(list["games"].size(), 3u);
    EXPECT_EQ(list["games"][0]["termination"], "checkmate");
}

TEST_F(ServerTest, FlagFallIsDetectedWithoutAMove) {
    restart([](server::ServerOptions& o) { o.min_initial_ms = 1000; });  // below the default minimum: a fast test
    Pair p = new_game("chess", {{"kind", "realtime"}, {"minutes", 0.02}, {"increment", 0}});  // 1.2 s
    WsClient w(port_, p.a), b(port_, p.b);
    json s = join(w, p.game);
    EXPECT_EQ(s["clock"]["white"], 1200);
    join(b, p.game);
    json after = play(w, b, p.game, {"e2e4", "e7e5"});
    EXPECT_EQ(after["clock"]["running"], "white");
    // Nobody moves: the server's timer ends the game.
    json over = w.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
    EXPECT_EQ(over["termination"], "time forfeit");
    EXPECT_EQ(over["result"], "0-1");
    EXPECT_EQ(over["clock"]["white"], 0);
    w.send({{"type", "move"}, {"game", p.game}, {"move", "g1f3"}});
    EXPECT_EQ(w.error()["code"], "game_over");
}

TEST_F(ServerTest, ResignDrawAbortAndRematch) {
    {  // resign
        Pair p = new_game("chess");
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        play(w, b, p.game, {"e2e4", "e7e5"});
        b.send({{"type", "resign"}, {"game", p.game}});
        json s = w.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
        EXPECT_EQ(s["result"], "1-0");
        EXPECT_EQ(s["termination"], "resignation");

        // Rematch: offer, accept, colours swapped.
        w.send({{"type", "rematch_offer"}, {"game", p.game}});
        EXPECT_EQ(b.state_where(p.game, [](const json& j) { return j["rematch_offer"] == "white"; })["rematch_game"],
                  nullptr);
        b.send({{"type", "rematch_accept"}, {"game", p.game}});
        json r = w.state_where(p.game, [](const json& j) { return !j["rematch_game"].is_null(); });
        std::string next = r["rematch_game"];
        EXPECT_EQ(join(w, next)["you"], "black");
        json bs = join(b, next);
        EXPECT_EQ(bs["you"], "white");
        EXPECT_EQ(bs["players"]["white"]["name"], "Bob");
        EXPECT_EQ(bs["ply"], 0);
        play(b, w, next, {"d2d4"});
    }
    {  // draw: offer, decline, offer, accept
        Pair p = new_game("alice");
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        play(w, b, p.game, {"e2e4"});
        w.send({{"type", "draw_offer"}, {"game", p.game}});
        b.state_where(p.game, [](const json& j) { return j["draw_offer"] == "white"; });
        b.send({{"type", "draw_decline"}, {"game", p.game}});
        w.state_where(p.game, [](const json& j) { return j["draw_offer"].is_null() && j["ply"] == 1; });
        b.send({{"type", "draw_offer"}, {"game", p.game}});
        w.state_where(p.game, [](const json& j) { return j["draw_offer"] == "black"; });
        w.send({{"type", "draw_accept"}, {"game", p.game}});
        json s = b.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
        EXPECT_EQ(s["result"], "1/2-1/2");
        EXPECT_EQ(s["termination"], "agreement");
    }
    {  // abort: allowed before both first moves, not after
        Pair p = new_game("avalanche");
        WsClient w(port_, p.a), b(port_, p.b);
        EXPECT_EQ(join(w, p.game)["can_abort"], true);
        join(b, p.game);
        play(w, b, p.game, {"e2e4,e7e6"});
        b.send({{"type", "abort"}, {"game", p.game}});
        json s = w.state_where(p.game, [](const json& j) { return j["status"] == "over"; });
        EXPECT_EQ(s["termination"], "aborted");
        EXPECT_EQ(s["result"], "*");

        Pair q = new_game("chess");
        WsClient w2(port_, q.a), b2(port_, q.b);
        join(w2, q.game);
        join(b2, q.game);
        play(w2, b2, q.game, {"e2e4", "e7e5"});
        w2.send({{"type", "abort"}, {"game", q.game}, {"id", 5}});
        json e = w2.error();
        EXPECT_EQ(e["code"], "not_allowed");
        EXPECT_EQ(e["id"], 5);
    }
}

TEST_F(ServerTest, OnlyTheSeatHolderActs) {
    Pair p = new_game("chess");
    std::string intruder = token();
    WsClient w(port_, p.a), b(port_, p.b), x(port_, intruder), anon(port_);
    join(w, p.game);
    join(b, p.game);
    EXPECT_EQ(join(x, p.game)["you"], nullptr);
    for (const char* type : {"move", "resign", "draw_offer", "abort"}) {
        json m = {{"type", type}, {"game", p.game}, {"move", "e2e4"}};
        x.send(m);
        EXPECT_EQ(x.error()["code"], "not_your_seat") << type;
        anon.send(m);
        EXPECT_EQ(anon.error()["code"], "not_your_seat") << type;
    }
    b.send({{"type", "move"}, {"game", p.game}, {"move", "e7e5"}});
    EXPECT_EQ(b.error()["code"], "not_your_turn");
    // Nothing changed.
    json s = http_request(port_, http::verb::get, "/api/games/" + p.game, "", p.a).j();
    EXPECT_EQ(s["ply"], 0);
    EXPECT_EQ(s["status"], "live");
    EXPECT_EQ(s["you"], "white");
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games/" + p.game, "", intruder).j()["you"], nullptr);
}

TEST_F(ServerTest, BadInputGetsAnErrorAndDisturbsNoOtherGame) {
    Pair p = new_game("chess");
    Pair q = new_game("chess");
    WsClient w(port_, p.a), b(port_, p.b), w2(port_, q.a), b2(port_, q.b);
    join(w, p.game);
    join(b, p.game);
    join(w2, q.game);
    join(b2, q.game);

    w.send_raw("{not json");
    EXPECT_EQ(w.error()["code"], "bad_json");
    w.send_raw("[1,2,3]");
    EXPECT_EQ(w.error()["code"], "bad_json");
    w.send_raw(std::string(5000, '[') + std::string(5000, ']'));
    EXPECT_EQ(w.error()["code"], "bad_json");
    w.send({{"type", "teleport"}, {"game", p.game}});
    EXPECT_EQ(w.error()["code"], "unknown_type");
    w.send({{"type", "move"}, {"game", p.game}});
    EXPECT_EQ(w.error()["code"], "bad_message");
    w.send({{"type", "move"}, {"game", p.game}, {"move", 42}});
    EXPECT_EQ(w.error()["code"], "bad_message");
    w.send({{"type", "move"}, {"game", p.game}, {"move", "e2e5"}});
    EXPECT_EQ(w.error()["code"], "illegal_move");
    w.send({{"type", "move"}, {"game", p.game}, {"move", std::string(100, 'e')}});
    EXPECT_EQ(w.error()["code"], "illegal_move");
    w.send({{"type", "move"}, {"game", p.game}, {"move", "e2e4"}, {"ply", 7}});
    EXPECT_EQ(w.error()["code"], "stale");
    w.send({{"type", "join"}, {"game", "Nope0000"}});
    EXPECT_EQ(w.error()["code"], "not_found");
    w.send({{"type", "join"}, {"game", "../../etc"}});
    EXPECT_EQ(w.error()["code"], "not_found");
    w.send_raw("{\"type\":\"ping\"}", true);
    EXPECT_EQ(w.error()["code"], "bad_message");
    // Oversized: an error, and the socket still works.
    w.send({{"type", "ping"}, {"pad", std::string(20000, 'x')}});
    EXPECT_EQ(w.error()["code"], "too_large");
    play(w, b, p.game, {"e2e4", "e7e5"});

    // The other game never saw any of it.
    json other = http_request(port_, http::verb::get, "/api/games/" + q.game).j();
    EXPECT_EQ(other["ply"], 0);
    play(w2, b2, q.game, {"d2d4", "d7d5"});

    // A flood: rate-limited errors, then the flooder is disconnected; the
    // other game goes on.
    {
        WsClient flood(port_);
        int errors = 0;
        try {
            for (int i = 0; i < 400; ++i) flood.send({{"type", "ping"}, {"t", i}});
        } catch (const std::exception&) {
            // The server may already have closed the flooding socket.
        }
        try {
            for (;;) {
                json j = flood.recv(3s);
                if (j["type"] == "error" && j["code"] == "rate_limited") ++errors;
            }
        } catch (const std::exception&) {
        }
        EXPECT_GT(errors, 0);
    }
    play(w2, b2, q.game, {"c2c4"}, 2);

    // A frame over 1 MiB: the socket is closed with 1009 (message too big).
    {
        WsClient big(port_);
        bool write_failed = false;
        try {
            big.send_raw(std::string(2 * 1024 * 1024, 'x'));
        } catch (const std::exception&) {
            write_failed = true;  // closed by the server before the whole frame was sent
        }
        EXPECT_TRUE(big.wait_closed());
        if (!write_failed) {
            EXPECT_EQ(big.close_code(), 1009);
        }
    }
    play(w2, b2, q.game, {"d5c4"}, 3);
}

TEST_F(ServerTest, HttpApiAndStaticFiles) {
    auto index = http_request(port_, http::verb::get, "/");
    EXPECT_EQ(index.status, 200);
    EXPECT_NE(index.body.find("INDEX"), std::string::npos);
    EXPECT_NE(index.content_type.find("text/html"), std::string::npos);
    EXPECT_NE(http_request(port_, http::verb::get, "/game/AbCdEfGh").body.find("INDEX"), std::string::npos);
    EXPECT_NE(http_request(port_, http::verb::get, "/challenge/AbCdEfGh").body.find("INDEX"), std::string::npos);
    auto js = http_request(port_, http::verb::get, "/assets/app.js");
    EXPECT_EQ(js.status, 200);
    EXPECT_NE(js.content_type.find("text/javascript"), std::string::npos);
    EXPECT_EQ(http_request(port_, http::verb::get, "/assets/missing.js").status, 404);
    for (const char* bad : {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "//etc/passwd"}) {
        auto r = http_request(port_, http::verb::get, bad);
        EXPECT_EQ(r.status, 400) << bad;
        EXPECT_EQ(r.body.find("SECRET"), std::string::npos) << bad;
    }

    std::string a = token(), b = token();
    EXPECT_EQ(a.size(), 24u);
    EXPECT_NE(a, b);
    // Errors are JSON with a code.
    auto noauth = http_request(port_, http::verb::post, "/api/seeks", "{}");
    EXPECT_EQ(noauth.status, 403);
    EXPECT_EQ(noauth.j()["error"]["code"], "forbidden");
    EXPECT_EQ(http_request(port_, http::verb::post, "/api/seeks", "{oops", a).j()["error"]["code"], "bad_json");
    auto badtime = post_json(port_, "/api/seeks", {{"time", {{"kind", "realtime"}, {"minutes", 500}}}}, a);
    EXPECT_EQ(badtime["_status"], 400);
    EXPECT_NE(badtime["error"]["message"].get<std::string>().find("minutes"), std::string::npos);
    EXPECT_EQ(post_json(port_, "/api/seeks", {{"variant", "shogi"}, {"time", {{"kind", "unlimited"}}}}, a)["_status"],
              400);
    EXPECT_EQ(post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}, {"nickname", std::string(30, 'n')}},
                        a)["_status"],
              400);
    EXPECT_EQ(http_request(port_, http::verb::post, "/api/seeks", std::string(20000, ' '), a).status, 413);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/nothing").status, 404);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games/Nope0000").status, 404);
    EXPECT_EQ(http_request(port_, http::verb::get, "/game/Nope0000.pgn").status, 404);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games?limit=0").status, 400);

    // Seeks: public ones in the lobby, private ones only by link.
    json pub =
        post_json(port_, "/api/seeks",
                  {{"variant", "alice"}, {"time", {{"kind", "correspondence"}, {"days", 3}}}, {"nickname", "Zoé"}}, a);
    ASSERT_EQ(pub["_status"], 201);
    json priv =
        post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}, {"private", true}, {"color", "black"}}, a);
    ASSERT_EQ(priv["_status"], 201);
    std::string pid = priv["seek"]["id"];
    EXPECT_EQ(priv["url"], "/challenge/" + pid);
    json lobby = http_request(port_, http::verb::get, "/api/lobby", "", a).j();
    ASSERT_EQ(lobby["seeks"].size(), 1u);
    EXPECT_EQ(lobby["seeks"][0]["nickname"], "Zoé");
    EXPECT_EQ(lobby["seeks"][0]["mine"], true);
    EXPECT_EQ(lobby["seeks"][0]["time"]["days"], 3);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/seeks/" + pid).j()["seek"]["private"], true);
    EXPECT_EQ(post_json(port_, "/api/seeks/" + pid + "/accept", json::object(), a)["_status"], 409);  // own seek
    // The creator's socket hears about the acceptance.
    WsClient creator(port_, a);
    creator.send({{"type", "ping"}, {"t", 1}});
    EXPECT_EQ(creator.recv_until([](const json& j) { return j["type"] == "pong"; })["t"], 1);
    json acc = post_json(port_, "/api/seeks/" + pid + "/accept", json::object(), b);
    ASSERT_EQ(acc["_status"], 201);
    EXPECT_EQ(acc["color"], "white");
    json note = creator.recv_until([](const json& j) { return j["type"] == "seek_accepted"; });
    EXPECT_EQ(note["game"], acc["game"]);
    EXPECT_EQ(note["color"], "black");
    EXPECT_EQ(post_json(port_, "/api/seeks/" + pid + "/accept", json::object(), token())["_status"], 409);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/seeks/" + pid).j()["seek"]["game"], acc["game"]);
    // Cancel the public seek.
    std::string sid = pub["seek"]["id"];
    EXPECT_EQ(http_request(port_, http::verb::delete_, "/api/seeks/" + sid, "", b).status, 403);
    EXPECT_EQ(http_request(port_, http::verb::delete_, "/api/seeks/" + sid, "", a).status, 200);
    EXPECT_TRUE(http_request(port_, http::verb::get, "/api/lobby").j()["seeks"].empty());
    // The game of the direct challenge is listed nowhere; a public one is.
    EXPECT_TRUE(http_request(port_, http::verb::get, "/api/lobby").j()["games"].empty());
    EXPECT_TRUE(http_request(port_, http::verb::get, "/api/games?status=live").j()["games"].empty());
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/games/" + acc["game"].get<std::string>()).status, 200);
    Pair pub_game = new_game("chess");
    json games = http_request(port_, http::verb::get, "/api/lobby").j()["games"];
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0]["id"], pub_game.game);
    auto livelist = http_request(port_, http::verb::get, "/api/games?status=live").j();
    ASSERT_EQ(livelist["games"].size(), 1u);
    EXPECT_EQ(livelist["games"][0]["id"], pub_game.game);
}

TEST_F(ServerTest, AnalysisBoardAndFenAfterEveryMove) {
    json a = post_json(port_, "/api/analysis", {{"variant", "alice"}, {"moves", {"g1f3", "d7d5", "c2c4", "d5c4"}}}, "");
    ASSERT_EQ(a["_status"], 200) << a.dump();
    EXPECT_EQ(a["fen"], "rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3");  // RULES.md example
    EXPECT_EQ(a["san"], json({"Nf3", "d5", "c4", "dxc4"}));
    EXPECT_EQ(a["turn"], "white");
    EXPECT_EQ(a["status"], "live");
    EXPECT_FALSE(a["legal_moves"].empty());
    ASSERT_EQ(a["legal_san"].size(), a["legal_moves"].size());
    for (std::size_t i = 0; i < a["legal_moves"].size(); ++i)  // the knight on f3 stands on board B
        if (a["legal_moves"][i] == "f3e5") {
            EXPECT_EQ(a["legal_san"][i], "Ne5");
        }
    json mate = post_json(port_, "/api/analysis", {{"moves", {"f2f3", "e7e5", "g2g4", "d8h4"}}}, "");
    EXPECT_EQ(mate["termination"], "checkmate");
    EXPECT_EQ(mate["winner"], "black");
    EXPECT_TRUE(mate["legal_moves"].empty());
    json bad = post_json(port_, "/api/analysis", {{"moves", {"e2e4", "e7e4"}}}, "");
    EXPECT_EQ(bad["_status"], 400);
    EXPECT_EQ(bad["error"]["index"], 1);
    EXPECT_EQ(post_json(port_, "/api/analysis", {{"fen", "8/8/8 w - - 0 1"}}, "")["_status"], 400);
    json ev = post_json(port_, "/api/analysis/eval", {{"variant", "avalanche"}, {"movetime_ms", 100}}, "");
    ASSERT_EQ(ev["_status"], 200) << ev.dump();
    EXPECT_TRUE(ev.contains("best_move"));

    // A game's state gives the FEN after every move.
    Pair p = new_game("chess");
    WsClient w(port_, p.a), b(port_, p.b);
    join(w, p.game);
    join(b, p.game);
    json s = play(w, b, p.game, {"e2e4", "f7f6", "d1h5"});
    EXPECT_EQ(s["moves"][0]["fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    EXPECT_EQ(s["moves"][2]["check"], true);
    EXPECT_EQ(s["moves"][2]["fen"], s["fen"]);
}

TEST_F(ServerTest, MalformedHttpAndRandomBytesGetAnErrorAndNoCrash) {
    auto raw = [&](const std::string& bytes) {
        asio::io_context ioc;
        tcp::socket sock(ioc);
        sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
        beast::error_code ec;
        asio::write(sock, asio::buffer(bytes), ec);  // the server may answer and close early
        sock.shutdown(tcp::socket::shutdown_send, ec);
        std::string reply;
        char buf[4096];
        for (;;) {
            std::size_t n = sock.read_some(asio::buffer(buf), ec);
            if (ec) break;
            reply.append(buf, n);
        }
        return reply;
    };
    EXPECT_EQ(raw("GARBAGE\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
    EXPECT_EQ(raw("GET /api/lobby HTTP/1.1\r\nContent-Length: nope\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
    // A method HTTP allows but the server does not know gets an answer
    // (it threw inside the session, and was logged as an unexpected error).
    const std::string brew = raw("BREW /api/lobby HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_EQ(brew.rfind("HTTP/1.1 4", 0), 0u) << brew;
    std::mt19937 rng(7);
    for (int i = 0; i < 50; ++i) {
        std::string junk(1 + rng() % 3000, '\0');
        for (char& c : junk) c = char(rng());
        raw(junk);
    }
    // Invalid UTF-8 in a path, then a normal request: the server is still there.
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/\xff\xfe").status, 404);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/lobby").status, 200);
}

TEST_F(ServerTest, LobbySubscription) {
    std::string a = token();
    WsClient c(port_, a);
    c.send({{"type", "lobby_subscribe"}});
    json first = c.recv_until([](const json& j) { return j["type"] == "lobby"; });
    EXPECT_TRUE(first["seeks"].empty());
    const std::uint64_t seq = first["seq"];
    const std::string b = token();
    json sk = post_json(port_, "/api/seeks", {{"variant", "avalanche"}, {"time", {{"kind", "unlimited"}}}}, b);
    json next = c.recv_until([](const json& j) { return j["type"] == "lobby_delta"; });
    EXPECT_EQ(next["seq"], seq + 1);
    ASSERT_EQ(next["changes"].size(), 1u);
    EXPECT_EQ(next["changes"][0]["op"], "seek_added");
    EXPECT_EQ(next["changes"][0]["seek"]["variant"], "avalanche");
    EXPECT_FALSE(next["changes"][0]["seek"].contains("mine"));  // the same bytes for every subscriber
    // Accepted: the seek leaves, the game arrives, in one delta.
    json acc = post_json(port_, "/api/seeks/" + sk["seek"]["id"].get<std::string>() + "/accept", json::object(), a);
    json d = c.recv_until([](const json& j) { return j["type"] == "lobby_delta"; });
    EXPECT_EQ(d["seq"], seq + 2);
    ASSERT_EQ(d["changes"].size(), 2u);
    EXPECT_EQ(d["changes"][0]["op"], "seek_removed");
    EXPECT_EQ(d["changes"][0]["id"], sk["seek"]["id"]);
    EXPECT_EQ(d["changes"][1]["op"], "game_started");
    EXPECT_EQ(d["changes"][1]["game"]["id"], acc["game"]);
}

TEST_F(ServerTest, GameAgainstTheComputer) {
    std::string a = token();
    // Each game has its own number of levels: one past it is refused with the game's count.
    for (const Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche})
        for (int level : {0, engine::level_count(v) + 1}) {
            json bad =
                post_json(port_, "/api/computer", {{"variant", std::string(variant_name(v))}, {"level", level}}, a);
            EXPECT_EQ(bad["_status"], 400);
            EXPECT_EQ(bad["error"]["reason"], "number_range") << bad.dump();
            EXPECT_EQ(bad["error"]["params"]["max"], engine::level_count(v)) << bad.dump();
        }
    // The two lowest levels (depth 1, the most captures not seen) answer in every game.
    for (const char* variant : {"chess", "alice", "avalanche"})
        for (int level : {1, 2}) {
            SCOPED_TRACE(std::string(variant) + " level " + std::to_string(level));
            json g = post_json(port_, "/api/computer", {{"variant", variant}, {"level", level}, {"color", "white"}}, a);
            ASSERT_EQ(g["_status"], 201) << g.dump();
            std::string id = g["game"];
            WsClient w(port_, a);
            json s = join(w, id);
            EXPECT_EQ(s["players"]["black"]["computer"], true);
            EXPECT_EQ(s["players"]["black"]["level"], level);
            std::string first = s["legal_moves"][0];
            ASSERT_EQ(s["legal_san"].size(), s["legal_moves"].size());
            EXPECT_EQ(std::string(s["legal_san"][0]).find(',') != std::string::npos,
                      std::string(variant) == "avalanche");
            w.send({{"type", "move"}, {"game", id}, {"move", first}, {"ply", 0}});
            json reply = w.state(id, 2, 30s);  // the computer answered
            EXPECT_EQ(reply["turn"], "white");
            EXPECT_EQ(reply["moves"].size(), 2u);
            w.send({{"type", "resign"}, {"game", id}});
            w.state_where(id, [](const json& j) { return j["status"] == "over"; });
        }
    // Every level is a game the server starts, and keeps the level asked for.
    for (int level = 1; level <= engine::level_count(Variant::Chess); ++level) {
        SCOPED_TRACE(level);
        json g = post_json(port_, "/api/computer", {{"variant", "chess"}, {"level", level}, {"color", "white"}}, a);
        ASSERT_EQ(g["_status"], 201) << g.dump();
        std::string id = g["game"];
        WsClient w(port_, a);
        EXPECT_EQ(join(w, id)["players"]["black"]["level"], level);
        w.send({{"type", "resign"}, {"game", id}});
        EXPECT_EQ(w.state_where(id, [](const json& j) { return j["status"] == "over"; })["players"]["black"]["level"],
                  level);
    }
    // The computer plays White when the human takes Black.
    json g = post_json(port_, "/api/computer", {{"variant", "chess"}, {"level", 2}, {"color", "black"}}, a);
    WsClient w(port_, a);
    w.send({{"type", "join"}, {"game", g["game"]}});
    EXPECT_EQ(w.state(g["game"], 1, 30s)["you"], "black");
}

// The database keeps a hash of each browser token, never the token: its file
// (and its write-ahead log) hold no token of a seat or a seek, and the
// players still take their seats back after a restart.
TEST_F(ServerTest, TokensAreStoredHashedAndSeatsResumeAfterARestart) {
    Pair p = new_game("chess");
    const std::string seeker = token();
    ASSERT_EQ(post_json(port_, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, seeker)["_status"], 201);
    {
        WsClient w(port_, p.a), b(port_, p.b);
        join(w, p.game);
        join(b, p.game);
        play(w, b, p.game, {"e2e4"});
    }
    restart();
    std::string stored;
    for (const char* suffix : {"", "-wal"}) {
        std::ifstream in(db_path() + suffix, std::ios::binary);
        stored.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    ASSERT_NE(stored.find(p.game), std::string::npos) << "not the server's database";
    for (const std::string& t : {p.a, p.b, seeker}) {
        EXPECT_EQ(stored.find(t), std::string::npos) << "token stored in clear: " << t;
        EXPECT_NE(stored.find(server::token_key(t)), std::string::npos) << "its key stored instead: " << t;
    }
    WsClient w(port_, p.a), b(port_, p.b);
    EXPECT_EQ(join(w, p.game)["you"], "white");
    EXPECT_EQ(join(b, p.game)["you"], "black");
    const json last = play(w, b, p.game, {"e7e5", "g1f3"}, 1);
    EXPECT_EQ(last["ply"], 3);
    const json lobby = get_json(port_, "/api/lobby", seeker);
    ASSERT_EQ(lobby["seeks"].size(), 1u) << lobby.dump();
    EXPECT_EQ(lobby["seeks"][0]["mine"], true) << "the seek's owner known after the restart";
}

// ---------------------------------------------------------------------------
// SIGKILL mid-game, restart: no acknowledged move lost, clocks correct.

TEST(ServerRestart, SigkillLosesNoAcknowledgedMoveAndKeepsTheClocks) {
    TempDir dir;
    std::string db = (dir.path() / "kill.db").string();
    std::string web = (dir.path() / "web").string();
    std::string game, a, b;
    json acked;
    std::vector<std::string> moves = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
                                      "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"};
    {
        ServerProcess srv(db, web);
        auto port = srv.port();
        a = http_request(port, http::verb::post, "/api/session").j()["token"];
        b = http_request(port, http::verb::post, "/api/session").j()["token"];
        json seek =
            post_json(port, "/api/seeks",
                      {{"time", {{"kind", "realtime"}, {"minutes", 10}, {"increment", 5}}}, {"color", "white"}}, a);
        game = post_json(port, "/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", json::object(),
                         b)["game"];
        WsClient w(port, a), bl(port, b);
        w.send({{"type", "join"}, {"game", game}});
        bl.send({{"type", "join"}, {"game", game}});
        for (std::size_t i = 0; i < moves.size(); ++i) {
            (i % 2 ? bl : w).send({{"type", "move"}, {"game", game}, {"move", moves[i]}, {"ply", int(i)}});
            // The acknowledgement of the mover is what counts.
            acked = (i % 2 ? bl : w).state(game, int(i) + 1);
        }
        // Black is thinking; one more move is sent and the server is killed at once.
        w.send({{"type", "move"}, {"game", game}, {"move", "h2h3"}, {"ply", int(moves.size())}});
        std::this_thread::sleep_for(300ms);
        srv.kill9();
    }
    std::int64_t killed_at = server::now_ms();
    std::this_thread::sleep_for(3000ms);  // downtime, not charged to anybody
    ServerProcess srv(db, web);
    json s = http_request(srv.port(), http::verb::get, "/api/games/" + game, "", a).j();
    std::int64_t now = s["clock"]["server_time"];
    ASSERT_EQ(s["status"], "live");
    ASSERT_GE(s["ply"].get<int>(), int(moves.size()));
    for (std::size_t i = 0; i < moves.size(); ++i) EXPECT_EQ(s["moves"][i]["uci"], moves[i]);
    // Clocks. Acknowledged after move 16 (White to move); h2h3 may or may not
    // have been stored before the kill. Time used before the kill is charged,
    // the downtime (3 s) is not.
    std::int64_t acked_at = acked["clock"]["server_time"];
    std::int64_t slack = 1500;  // from the restart to the request above (a loaded machine)
    std::int64_t aw = acked["clock"]["white"], ab = acked["clock"]["black"];
    std::int64_t sw = s["clock"]["white"], sb = s["clock"]["black"];
    if (s["ply"] == int(moves.size())) {
        EXPECT_EQ(s["clock"]["running"], "white");
        EXPECT_EQ(sb, ab);
        EXPECT_LE(sw, aw);
        EXPECT_GE(sw, aw - (killed_at - acked_at) - slack);
    } else {
        EXPECT_EQ(s["moves"][int(moves.size())]["uci"], "h2h3");
        EXPECT_EQ(s["clock"]["running"], "black");
        EXPECT_LE(sw, aw + 5000);
        EXPECT_GE(sw, aw + 5000 - (killed_at - acked_at));
        EXPECT_LE(sb, ab);
        EXPECT_GE(sb, ab - (killed_at - acked_at) - slack);
    }
    (void)now;
    // And the game goes on.
    WsClient w(srv.port(), a), bl(srv.port(), b);
    w.send({{"type", "join"}, {"game", game}});
    bl.send({{"type", "join"}, {"game", game}});
    int ply = s["ply"];
    WsClient& mover = ply % 2 ? bl : w;
    std::string next = s["legal_moves"][0];
    mover.send({{"type", "move"}, {"game", game}, {"move", next}, {"ply", ply}});
    EXPECT_EQ(mover.state(game, ply + 1)["status"], "live");
}

}  // namespace

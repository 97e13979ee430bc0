// The whole server on PostgreSQL: a game played over sockets survives a
// restart of the server, as do the accounts' ratings, the puzzle rating too
// (label `postgres`, like the storage tests).
#include <gtest/gtest.h>

#include <cstdlib>
#include <pqxx/pqxx>
#include <thread>

#include "accounts_client.h"
#include "client.h"
#include "rated_kill.h"
#include "server/app/server.h"

using namespace echecs;
using namespace echecs::test;

namespace {

std::string pg_url() {
    const char* env = std::getenv("ECHECS_PG_URL");
    return env ? env : "";
}

class RunningServer {
public:
    RunningServer() {
        server::ServerOptions o;
        o.port = 0;
        o.db = pg_url();
        o.web_root = "/nonexistent";
        o.log = false;
        o.fast_password_hash = true;
        server_ = std::make_unique<server::Server>(o);
        thread_ = std::thread([this] { server_->run(); });
    }
    ~RunningServer() {
        server_->stop();
        thread_.join();
    }
    std::uint16_t port() const { return server_->port(); }

private:
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
};

TEST(ServerOnPostgres, GameSurvivesARestart) {
    if (pg_url().empty()) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
    {
        pqxx::connection c(pg_url());
        pqxx::work w(c);
        w.exec("DROP SCHEMA public CASCADE");
        w.exec("CREATE SCHEMA public");
        w.commit();
    }
    std::string game, a, b;
    json before;
    {
        RunningServer srv;
        a = http_request(srv.port(), http::verb::post, "/api/session").j()["token"];
        b = http_request(srv.port(), http::verb::post, "/api/session").j()["token"];
        json seek = post_json(
            srv.port(), "/api/seeks",
            {{"variant", "alice"}, {"time", {{"kind", "correspondence"}, {"days", 2}}}, {"color", "white"}}, a);
        ASSERT_EQ(seek["_status"], 201) << seek.dump();
        game = post_json(srv.port(), "/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", json::object(),
                         b)["game"];
        WsClient w(srv.port(), a), bl(srv.port(), b);
        w.send({{"type", "join"}, {"game", game}});
        bl.send({{"type", "join"}, {"game", game}});
        const char* moves[] = {"e2e4", "d7d5", "f1e2"};
        for (int i = 0; i < 3; ++i) {
            (i % 2 ? bl : w).send({{"type", "move"}, {"game", game}, {"move", moves[i]}, {"ply", i}});
            before = (i % 2 ? bl : w).state(game, i + 1);
        }
    }
    RunningServer srv;
    json s = http_request(srv.port(), http::verb::get, "/api/games/" + game, "", b).j();
    EXPECT_EQ(s["ply"], 3);
    EXPECT_EQ(s["fen"], before["fen"]);
    EXPECT_EQ(s["moves"], before["moves"]);
    EXPECT_EQ(s["you"], "black");
    // The seed's mate: 2...dxe4 3.Bb5#.
    WsClient w(srv.port(), a), bl(srv.port(), b);
    w.send({{"type", "join"}, {"game", game}});
    bl.send({{"type", "join"}, {"game", game}});
    bl.send({{"type", "move"}, {"game", game}, {"move", "d5e4"}, {"ply", 3}});
    w.state(game, 4);
    w.send({{"type", "move"}, {"game", game}, {"move", "e2b5"}, {"ply", 4}});
    json end = bl.state(game, 5);
    EXPECT_EQ(end["termination"], "checkmate");
    EXPECT_EQ(end["result"], "1-0");
    auto list = http_request(srv.port(), http::verb::get, "/api/games?status=finished").j();
    ASSERT_EQ(list["games"].size(), 1u);
    EXPECT_EQ(list["games"][0]["id"], game);
    auto pgn = http_request(srv.port(), http::verb::get, "/game/" + game + ".pgn");
    EXPECT_NE(pgn.body.find("[Variant \"Alice\"]"), std::string::npos) << pgn.body;
}

TEST(ServerOnPostgres, RatedGameAndAccountsSurviveARestart) {
    if (pg_url().empty()) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
    {
        pqxx::connection c(pg_url());
        pqxx::work w(c);
        w.exec("DROP SCHEMA public CASCADE");
        w.exec("CREATE SCHEMA public");
        w.commit();
    }
    std::string game;
    Player ann, bob;
    int puzzle_rating = 0;
    const FirstGame want = first_game_ratings(0);  // Black mates
    {
        RunningServer srv;
        ann = sign_up(srv.port(), "AnnLee");
        bob = sign_up(srv.port(), "BobK");
        game = seek_and_accept(srv.port(), ann, bob,
                               {{"variant", "chess"},
                                {"time", {{"kind", "realtime"}, {"minutes", 3}, {"increment", 2}}},
                                {"color", "white"},
                                {"rated", true}});
        ASSERT_NE(game, "");
        WsClient w(srv.port(), ann.token), b(srv.port(), bob.token);
        w.send({{"type", "join"}, {"game", game}});
        b.send({{"type", "join"}, {"game", game}});
        const char* moves[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
        for (int i = 0; i < 4; ++i) {
            (i % 2 ? b : w).send({{"type", "move"}, {"game", game}, {"move", moves[i]}, {"ply", i}});
            (i % 2 ? b : w).state(game, i + 1);
        }
        json end = w.state_where(game, [](const json& s) { return !s["rating_diff"].is_null(); });
        EXPECT_EQ(end["rating_diff"]["black"], std::lround(want.black) - 1500);
        // A puzzle solved: Ann's puzzle rating (accounts migration 4) stored.
        const json puzzle =
            account_call(srv.port(), http::verb::get, "/api/puzzles/next?variant=alice", nullptr, ann).j();
        ASSERT_TRUE(puzzle.contains("solution")) << puzzle.dump();
        json mine = json::array();
        for (std::size_t i = 0; i < puzzle["solution"].size(); i += 2) mine.push_back(puzzle["solution"][i]);
        const json solved =
            account_call(srv.port(), http::verb::post, "/api/puzzles/" + puzzle["id"].get<std::string>() + "/attempt",
                         {{"moves", mine}}, ann)
                .j();
        EXPECT_EQ(solved["rated"], true) << solved.dump();
        puzzle_rating = int(std::lround(solved["player"]["rating"].get<double>()));
    }
    RunningServer srv;
    json p = profile(srv.port(), "annlee");
    EXPECT_EQ(p["ratings"]["chess"]["blitz"]["rating"], std::lround(want.white));
    EXPECT_EQ(profile(srv.port(), "BobK")["ratings"]["chess"]["blitz"]["rating"], std::lround(want.black));
    json g = http_request(srv.port(), http::verb::get, "/api/games/" + game).j();
    EXPECT_EQ(g["rated"], true);
    EXPECT_EQ(g["rating_diff"]["white"], std::lround(want.white) - 1500);
    EXPECT_EQ(g["players"]["black"]["name"], "BobK");
    const HttpResult me = account_call(srv.port(), http::verb::get, "/api/account", nullptr, ann);
    EXPECT_EQ(me.status, 200);
    EXPECT_EQ(me.j()["puzzle_ratings"]["alice"]["rating"], puzzle_rating) << me.body;
    EXPECT_EQ(me.j()["puzzle_ratings"]["alice"]["puzzles"], 1) << me.body;
    json list = http_request(srv.port(), http::verb::get, "/api/users/BobK/games").j();
    ASSERT_EQ(list["games"].size(), 1u);
    EXPECT_EQ(list["games"][0]["result"], "win");
}

// Rated ends under SIGKILL and SIGTERM at random moments (rated_kill.h),
// the server a child process on this PostgreSQL database.
TEST(ServerOnPostgres, AcknowledgedRatedEndsSurviveKills) {
    if (pg_url().empty()) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
    {
        pqxx::connection c(pg_url());
        pqxx::work w(c);
        w.exec("DROP SCHEMA public CASCADE");
        w.exec("CREATE SCHEMA public");
        w.commit();
    }
    rated_kill::rated_ends_survive_kills(pg_url());
}

}  // namespace

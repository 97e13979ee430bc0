// Continuous analysis over a real WebSocket: the depth rises, MultiPV lines
// start with distinct moves, analyse_stop stops, a second request replaces
// the first, the caps (depth, streams per address) hold, bad positions get
// the analysis board's errors, and a live game against the computer still
// gets its move while a stream runs.
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

// After the pong, every message the server sent before reading the ping has arrived.
void barrier(WsClient& c) {
    c.send({{"type", "ping"}, {"t", 42}});
    c.recv_until([](const json& j) { return j["type"] == "pong"; });
}

json next_analysis(WsClient& c, std::chrono::milliseconds timeout = 20s) {
    return c.recv_until([](const json& j) { return j["type"] == "analysis" || j["type"] == "error"; }, timeout);
}

}  // namespace

TEST_F(ServerTest, AnalysisStreamsRisingDepthsWithDistinctLines) {
    WsClient c(port_, token());
    c.send({{"type", "analyse"}, {"id", 7}, {"variant", "chess"}, {"multipv", 3}});
    int last_depth = 0;
    json m;
    while (last_depth < 6) {
        m = next_analysis(c);
        ASSERT_EQ(m["type"], "analysis") << m.dump();
        EXPECT_EQ(m["id"], 7);
        ASSERT_GT(m["depth"].get<int>(), last_depth);  // so the loop ends by depth 6
        last_depth = m["depth"];
        ASSERT_EQ(m["lines"].size(), 3u) << m.dump();
        std::set<std::string> first;
        for (const json& l : m["lines"]) {
            first.insert(l["moves"][0].get<std::string>());
            EXPECT_EQ(l["san"].size(), l["moves"].size());
            EXPECT_TRUE(l["cp"].is_number() || l["mate"].is_number());
            EXPECT_EQ(l["wdl"].size(), 3u);
        }
        EXPECT_EQ(first.size(), 3u) << m.dump();
    }
    // The lines come best first (White's view: White to move).
    EXPECT_GE(m["lines"][0]["cp"].get<int>(), m["lines"][2]["cp"].get<int>());
    c.send({{"type", "analyse_stop"}});
    barrier(c);
    EXPECT_THROW(c.recv_until([](const json& j) { return j["type"] == "analysis"; }, 1500ms), std::runtime_error);
}

TEST_F(ServerTest, AnalysisStreamsASecondRequestReplacesTheFirst) {
    WsClient c(port_, token());
    c.send({{"type", "analyse"}, {"id", 1}, {"variant", "alice"}});
    ASSERT_EQ(next_analysis(c)["id"], 1);
    // Black to move: the scores are still White's.
    c.send({{"type", "analyse"}, {"id", 2}, {"variant", "avalanche"}, {"moves", {"g1f3,e7e6"}}});
    barrier(c);
    for (int i = 0; i < 4; ++i) {
        json m = next_analysis(c);
        ASSERT_EQ(m["type"], "analysis") << m.dump();
        EXPECT_EQ(m["id"], 2);
        // Avalanche lines are complete moves, the push included.
        EXPECT_NE(m["lines"][0]["moves"][0].get<std::string>().find(','), std::string::npos);
    }
    // A finished position: one final message without lines.
    c.send({{"type", "analyse"}, {"id", 3}, {"moves", {"f2f3", "e7e5", "g2g4", "d8h4"}}});
    json m = c.recv_until([](const json& j) { return j["type"] == "analysis" && j["id"] == 3; });
    EXPECT_TRUE(m["final"].get<bool>());
    EXPECT_TRUE(m["lines"].empty());
}

// Requests replaced faster than the old searches wind down (one engine
// thread, two places per address): each replaced stream gives its places
// back at once, so none of the burst is refused `engine_busy`, and the last
// one streams. Then stopped, and another socket of the address starts at once.
TEST_F(ServerTest, AnalysisStreamsReplacedInABurstAreNotRefused) {
    restart([](server::ServerOptions& o) {
        o.engine_threads = 1;
        o.engine_queue_per_client = 2;
        o.streams_per_client = 2;
    });
    WsClient c(port_, token());
    c.send({{"type", "analyse"}, {"id", 0}, {"variant", "chess"}});
    ASSERT_EQ(next_analysis(c)["id"], 0);  // its search runs
    for (int id = 1; id <= 8; ++id) c.send({{"type", "analyse"}, {"id", id}, {"variant", "chess"}});
    json m =
        c.recv_until([](const json& j) { return j["type"] == "error" || (j["type"] == "analysis" && j["id"] == 8); });
    ASSERT_EQ(m["type"], "analysis") << m.dump();
    c.send({{"type", "analyse_stop"}});
    barrier(c);
    WsClient d(port_, token());
    d.send({{"type", "analyse"}, {"id", "d"}, {"variant", "chess"}});
    m = next_analysis(d);
    EXPECT_EQ(m["type"], "analysis") << m.dump();
    EXPECT_EQ(m["id"], "d");
}

TEST_F(ServerTest, AnalysisStreamsLimits) {
    restart([](server::ServerOptions& o) {
        o.stream_max_depth = 4;
        o.streams_per_client = 2;
    });
    WsClient a(port_, token());
    // The depth cap: a final message at depth 4 at most.
    a.send({{"type", "analyse"}, {"variant", "chess"}});
    json m = a.recv_until([](const json& j) { return j["type"] == "analysis" && j["final"] == true; });
    EXPECT_LE(m["depth"].get<int>(), 4);
    EXPECT_FALSE(m["lines"].empty());
    // Two running streams per address: a third is refused until one ends.
    // (Two engine threads: each stream has its own, and neither yields its
    // slices to the other.)
    restart([](server::ServerOptions& o) {
        o.streams_per_client = 2;
        o.engine_threads = 2;
    });
    WsClient d(port_, token()), e(port_, token()), f(port_, token());
    d.send({{"type", "analyse"}});
    e.send({{"type", "analyse"}});
    barrier(d);
    barrier(e);
    f.send({{"type", "analyse"}, {"id", "x"}});
    json err = f.error();
    EXPECT_EQ(err["reason"], "analysis_streams") << err.dump();
    EXPECT_EQ(err["id"], "x");
    d.send({{"type", "analyse_stop"}});
    barrier(d);
    f.send({{"type", "analyse"}, {"id", "y"}});
    EXPECT_EQ(next_analysis(f)["id"], "y");
    // Bad input: the analysis board's errors, with their field.
    f.send({{"type", "analyse"}, {"multipv", 4}});
    EXPECT_EQ(f.error()["reason"], "number_range");
    f.send({{"type", "analyse"}, {"fen", "8/8 w - - 0 1"}});
    err = f.error();
    EXPECT_EQ(err["reason"], "fen_invalid");
    EXPECT_EQ(err["field"], "fen");
    f.send({{"type", "analyse"}, {"moves", {"e2e4", "e2e4"}}});
    err = f.error();
    EXPECT_EQ(err["reason"], "move_illegal");
    EXPECT_EQ(err["field"], "moves[1]");
    f.send({{"type", "analyse"}, {"moves", "e2e4"}});
    EXPECT_EQ(f.error()["reason"], "field_type");
    f.send({{"type", "analyse"}, {"variant", "go"}});
    EXPECT_EQ(f.error()["field"], "variant");
}

TEST_F(ServerTest, AnalysisStreamsLetLiveGamesGoFirst) {
    const std::string tok = token();
    WsClient s(port_, tok);
    s.send({{"type", "analyse"}, {"variant", "chess"}});
    ASSERT_EQ(next_analysis(s)["type"], "analysis");
    json c =
        post_json(port_, "/api/computer",
                  {{"variant", "chess"}, {"level", 3}, {"color", "black"}, {"time", {{"kind", "unlimited"}}}}, token());
    ASSERT_EQ(c["_status"], 201) << c.dump();
    WsClient w(port_, tok);
    join_until(w, c["game"], 1, 30s);  // the one engine thread was given to the game
    // and the stream goes on afterwards.
    json m = next_analysis(s, 30s);
    EXPECT_EQ(m["type"], "analysis");
    EXPECT_GT(m["depth"].get<int>(), 0);
}

// The server's cap over every address: each stream holds a table, so a
// crowd of addresses (each within its own limit) gets `engine_busy` past it.
TEST_F(ServerTest, AnalysisStreamsHaveACapOverEveryAddress) {
    restart([](server::ServerOptions& o) {
        o.streams_per_client = 100;  // the crowd of addresses, from this one
        o.max_streams = 3;
        o.engine_threads = 1;
    });
    std::vector<std::unique_ptr<WsClient>> crowd;
    for (int i = 0; i < 4; ++i) crowd.push_back(std::make_unique<WsClient>(port_, token()));
    for (int i = 0; i < 3; ++i) {
        crowd[i]->send({{"type", "analyse"}});
        barrier(*crowd[i]);
    }
    crowd[3]->send({{"type", "analyse"}, {"id", "late"}});
    json err = crowd[3]->error();
    EXPECT_EQ(err["reason"], "engine_busy") << err.dump();
    EXPECT_EQ(err["id"], "late");
    crowd[0]->send({{"type", "analyse_stop"}});
    barrier(*crowd[0]);
    crowd[3]->send({{"type", "analyse"}, {"id", "now"}});
    EXPECT_EQ(next_analysis(*crowd[3])["id"], "now");
}

// The computer review of finished games over real sockets: requested once per
// game, its progress sent to the game's watchers, its result stored with the
// game and served after a restart; errors for unknown, live and private games;
// one review at a time per address; a review interrupted by a restart may be
// requested again; in each game a known blunder is marked.
#include <chrono>
#include <thread>

#include "core/game.h"
#include "core/notation.h"
#include "server/storage/storage.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

const char* START_BLACK = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";

// Nodes per position: enough to find each game's mate in one and to judge
// its blunder, and no more (under the sanitizers on a loaded machine, 100,000
// nodes took about 20 s a position).
constexpr std::uint64_t REVIEW_NODES = 20'000;

// The review's last status once it is neither queued nor running. The wait is
// on progress: it gives up when no position has been done for 45 s (a review
// that is stuck, not one that is slow), and after 100 s in all (under the test
// runner's 120 s, so that the failure shows the review's status).
json wait_review(std::uint16_t port, const std::string& game, const std::string& token = "") {
    const auto start = std::chrono::steady_clock::now();
    auto last_progress = start;
    int done = -1;
    json s;
    for (;;) {
        s = get_json(port, "/api/games/" + game + "/review", token);
        if (s["_status"] != 200 || (s["status"] != "queued" && s["status"] != "running")) return s;
        const auto now = std::chrono::steady_clock::now();
        if (s.value("done", 0) > done) {
            done = s.value("done", 0);
            last_progress = now;
        }
        const char* gave_up = now - last_progress > 45s ? "45 s without a position done"
                              : now - start > 100s      ? "100 s in all"
                                                        : nullptr;
        if (gave_up) {
            s["waited"] = gave_up;
            return s;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

// A game played to its end: White blunders at `blunder_ply` (1-based) and is mated.
struct Known {
    Variant variant;
    const char* fen;
    std::vector<std::string> moves;
    int blunder_ply;
};
const Known FOOLS_MATE{Variant::Chess, START, {"f2f3", "e7e5", "g2g4", "d8h4"}, 3};
// As tests/review has them (helpmates found by the solver, Black to move).
const Known ALICE{Variant::Alice, START_BLACK, {"b8a6", "a2a3", "g8f6", "a1a4", "e7e5", "a4e4"}, 5};
const Known AVALANCHE{Variant::Avalanche, START_BLACK, {"b8a6,a2a3", "b1c3,b7b6", "g7g5,e2e3", "d1h5,f7f6"}, 3};

class ReviewTest : public ServerTest {
protected:
    void SetUp() override {
        start([](server::ServerOptions& o) { o.review_nodes = REVIEW_NODES; });
    }

    // A finished game written into the database while the server is stopped
    // (games from a position with Black to move cannot be started from a seek).
    std::string store_finished(const Known& k, const std::string& white_token, bool is_private = false) {
        stop();
        Game g(k.variant, k.fen);
        server::GameRecord rec;
        rec.id = "Rev" + std::to_string(int(k.variant)) + (is_private ? "prv" : "pub") + "x";
        rec.id.resize(8, 'x');
        rec.variant = k.variant;
        rec.initial_fen = k.fen;
        rec.white = {"Ann", server::token_key(white_token), 0};  // the stored form
        rec.black = {"Bob", "blacktokenBBBBBBBBBBBB", 0};
        rec.is_private = is_private;
        rec.created_at = 1;
        std::vector<server::WriteOp> ops;
        for (std::size_t i = 0; i < k.moves.size(); ++i) {
            Position& pos = g.position();
            const Move m = parse_uci(pos, k.moves[i]);
            const std::string san = to_san(pos, m);
            EXPECT_TRUE(g.play(m));
            rec.moves.push_back({int(i), k.moves[i], san, 0, 0, 2 + std::int64_t(i), std::nullopt});
        }
        const GameResult res = g.result();
        EXPECT_EQ(res.termination, Termination::Checkmate);
        rec.status = "over";
        rec.result = std::string(pgn_result(res.outcome));
        rec.termination = std::string(termination_name(res.termination));
        rec.ended_at = 100;
        rec.ply = int(rec.moves.size());
        rec.fen = g.position().fen();
        server::GameRecord meta = rec;
        meta.moves.clear();
        ops.push_back(server::SaveGame{meta});
        for (const server::MoveRecord& m : rec.moves) ops.push_back(server::AddMove{rec.id, m});
        server::open_storage((dir_.path() / "test.db").string())->apply(ops);
        start([](server::ServerOptions& o) { o.review_nodes = REVIEW_NODES; });
        return rec.id;
    }

    // The known blunder is judged one, and the mate found from the position after it.
    static void expect_blunder(const json& review, const Known& k) {
        ASSERT_EQ(review["moves"].size(), k.moves.size()) << review.dump();
        ASSERT_EQ(review["positions"].size(), k.moves.size() + 1);
        EXPECT_EQ(review["moves"][k.blunder_ply - 1]["judgement"], "blunder") << review["moves"].dump();
        EXPECT_EQ(review["positions"][k.blunder_ply]["best"][0], k.moves[std::size_t(k.blunder_ply)]);
        EXPECT_FALSE(review["positions"][k.blunder_ply]["mate"].is_null());
        EXPECT_TRUE(review["complete"].get<bool>());
    }
};

}  // namespace

TEST_F(ReviewTest, AFinishedGameIsReviewedOnceWatchedAndStored) {
    Pair p = new_game("chess");
    WsClient w(port_, p.a), b(port_, p.b), watcher(port_, token());
    join(w, p.game);
    join(b, p.game);
    const std::string path = "/api/games/" + p.game + "/review";
    // While it is played, no review.
    json early = post_json(port_, path, json::object(), p.a);
    EXPECT_EQ(early["_status"], 409) << early.dump();
    EXPECT_EQ(early["error"]["reason"], "game_not_over");
    const json last = play(w, b, p.game, FOOLS_MATE.moves);
    ASSERT_EQ(last["status"], "over");
    join(watcher, p.game);
    EXPECT_EQ(get_json(port_, path)["error"]["reason"], "review_not_found");
    EXPECT_TRUE(get_json(port_, "/api/games/" + p.game)["review"].is_null());

    json r = post_json(port_, path, json::object(), p.a);
    ASSERT_EQ(r["_status"], 202) << r.dump();
    EXPECT_EQ(r["total"], 5);
    // A second request (anyone's: the game is public) is the same review.
    json again = post_json(port_, path, json::object(), token());
    EXPECT_EQ(again["_status"], 202) << again.dump();
    EXPECT_EQ(again["total"], 5);

    // The watcher sees it progress, then the result.
    int last_done = 0, progress = 0;
    json done;
    for (;;) {
        json m = watcher.recv_until([](const json& j) { return j["type"] == "review"; }, 60s);
        EXPECT_EQ(m["game"], p.game);
        EXPECT_EQ(m["total"], 5);
        ASSERT_GT(m["done"].get<int>(), last_done);  // so the loop ends by the fifth
        last_done = m["done"];
        if (m["status"] == "done") {
            done = m;
            break;
        }
        EXPECT_EQ(m["status"], "running");
        ++progress;
    }
    EXPECT_GE(progress, 2);  // the mated position needs no search
    EXPECT_EQ(done["done"], 5);
    expect_blunder(done["review"], FOOLS_MATE);
    EXPECT_EQ(done["review"]["summary"]["white"]["blunders"], 1);
    EXPECT_EQ(done["review"]["game"], p.game);

    // Served, with the game, and again after a restart; a new request gives it back.
    json served = get_json(port_, path);
    EXPECT_EQ(served["_status"], 200);
    EXPECT_EQ(served["review"], done["review"]);
    restart([](server::ServerOptions& o) { o.review_nodes = REVIEW_NODES; });
    served = get_json(port_, path);
    EXPECT_EQ(served["status"], "done");
    EXPECT_EQ(served["review"], done["review"]);
    json game = get_json(port_, "/api/games/" + p.game);
    EXPECT_EQ(game["review"]["status"], "done");
    EXPECT_EQ(game["review"]["summary"]["white"]["blunders"], 1);
    EXPECT_FALSE(game["review"].contains("review"));  // the summary only
    json back = post_json(port_, path, json::object(), p.b);
    EXPECT_EQ(back["_status"], 200);
    EXPECT_EQ(back["review"], done["review"]);
}

TEST_F(ReviewTest, UnknownPrivateAndLiveGamesAreRefused) {
    EXPECT_EQ(post_json(port_, "/api/games/NoSuchGm/review", json::object(), token())["_status"], 404);
    EXPECT_EQ(get_json(port_, "/api/games/NoSuchGm/review")["error"]["reason"], "game_not_found");
    EXPECT_EQ(get_json(port_, "/api/games/bad/review")["_status"], 404);
    Pair live = new_game("alice");
    json r = post_json(port_, "/api/games/" + live.game + "/review", json::object(), live.b);
    EXPECT_EQ(r["_status"], 409);
    EXPECT_EQ(r["error"]["reason"], "game_not_over");
    const std::string ann = token();
    const std::string id = store_finished(ALICE, ann, true);
    r = post_json(port_, "/api/games/" + id + "/review", json::object(), token());
    EXPECT_EQ(r["_status"], 403);
    EXPECT_EQ(r["error"]["reason"], "review_private");
    EXPECT_EQ(get_json(port_, "/api/games/" + id + "/review")["_status"], 403);
    EXPECT_EQ(post_json(port_, "/api/games/" + id + "/review", json::object(), ann)["_status"], 202);
    const json done = wait_review(port_, id, ann);
    EXPECT_EQ(done["status"], "done") << done.dump();
}

TEST_F(ReviewTest, OneReviewAtATimePerAddressAndARestartInterruptsIt) {
    const std::string ann = token();
    const std::string a = store_finished(ALICE, ann);
    const std::string b = store_finished(AVALANCHE, ann);
    // Slow enough to be still running when the second request comes.
    restart([](server::ServerOptions& o) { o.review_nodes = 50'000'000; });
    ASSERT_EQ(post_json(port_, "/api/games/" + a + "/review", json::object(), ann)["_status"], 202);
    json second = post_json(port_, "/api/games/" + b + "/review", json::object(), ann);
    EXPECT_EQ(second["_status"], 429) << second.dump();
    EXPECT_EQ(second["error"]["reason"], "review_pending");
    EXPECT_EQ(second["error"]["params"]["game"], a);
    // The restart stops it: interrupted, and it may be asked for again.
    restart([](server::ServerOptions& o) { o.review_nodes = REVIEW_NODES; });
    json s = get_json(port_, "/api/games/" + a + "/review");
    EXPECT_EQ(s["status"], "interrupted") << s.dump();
    EXPECT_EQ(get_json(port_, "/api/games/" + a)["review"]["status"], "interrupted");
    ASSERT_EQ(post_json(port_, "/api/games/" + a + "/review", json::object(), ann)["_status"], 202);
    json done = wait_review(port_, a);
    ASSERT_EQ(done["status"], "done") << done.dump();
    expect_blunder(done["review"], ALICE);
    // The address is free again.
    ASSERT_EQ(post_json(port_, "/api/games/" + b + "/review", json::object(), ann)["_status"], 202);
    done = wait_review(port_, b);
    ASSERT_EQ(done["status"], "done") << done.dump();
    expect_blunder(done["review"], AVALANCHE);
    // Avalanche: the best line's moves are complete moves, the push included.
    EXPECT_NE(done["review"]["positions"][0]["best"][0].get<std::string>().find(','), std::string::npos);
}

// A live game against the computer goes first: the review's searches give
// their thread up and the review still completes.
TEST_F(ReviewTest, LiveGamesGoFirstAndTheReviewStillCompletes) {
    const std::string ann = token();
    const std::string id = store_finished(AVALANCHE, ann);
    ASSERT_EQ(post_json(port_, "/api/games/" + id + "/review", json::object(), ann)["_status"], 202);
    json c =
        post_json(port_, "/api/computer",
                  {{"variant", "chess"}, {"level", 1}, {"color", "black"}, {"time", {{"kind", "unlimited"}}}}, ann);
    ASSERT_EQ(c["_status"], 201) << c.dump();
    WsClient w(port_, ann);
    join_until(w, c["game"], 1, 30s);  // the computer moved
    const json done = wait_review(port_, id);
    ASSERT_EQ(done["status"], "done") << done.dump();
    expect_blunder(done["review"], AVALANCHE);
}

// Continuous analysis shares the engine: with one engine thread and a stream
// that could run for ten minutes, a review requested meanwhile completes, and
// the stream is still running (and its depth still rising) afterwards.
TEST_F(ReviewTest, AReviewCompletesWhileAStreamRuns) {
    const std::string ann = token();
    const std::string id = store_finished(AVALANCHE, ann);
    restart([](server::ServerOptions& o) {
        o.review_nodes = REVIEW_NODES;
        // The test reads nothing from the stream's socket while it waits for
        // the review (over HTTP), so it answers no ping: under load that wait
        // outlasted the 30-s idle timeout and the server closed the socket.
        // The idle timeout is not what is tested here.
        o.ws_idle_timeout_ms = 600'000;
        o.engine_threads = 1;
        o.stream_max_ms = 600'000;
        o.stream_max_depth = 60;
    });
    WsClient s(port_, token());
    s.send({{"type", "analyse"}, {"variant", "chess"}, {"multipv", 2}});
    auto next_analysis = [&s] {
        return s.recv_until([](const json& j) { return j["type"] == "analysis" || j["type"] == "error"; }, 60s);
    };
    json m = next_analysis();
    ASSERT_EQ(m["type"], "analysis") << m.dump();
    ASSERT_EQ(post_json(port_, "/api/games/" + id + "/review", json::object(), ann)["_status"], 202);
    const json done = wait_review(port_, id);
    ASSERT_EQ(done["status"], "done") << done.dump();
    expect_blunder(done["review"], AVALANCHE);
    // The stream never ended, and resumes deeper than where it was.
    const int before = m["depth"];
    for (;;) {
        m = next_analysis();
        ASSERT_EQ(m["type"], "analysis") << m.dump();
        ASSERT_FALSE(m["final"].get<bool>()) << m.dump();
        if (m["depth"].get<int>() > before) break;
    }
    s.send({{"type", "analyse_stop"}});
}

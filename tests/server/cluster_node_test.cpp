// One node of several (docs/CLUSTER.md) in the test process, on the
// PostgreSQL server of server_postgres_tests, without Redis: what it would
// publish goes nowhere, and the other nodes are rows of the database, whose
// silence makes them dead. The clock is the real one, with a short lease;
// every wait is bounded and named.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "fake_peer.h"
#include "server/accounts/sql_conn.h"
#include "server/app/util.h"
#include "server/cluster/cluster.h"
#include "server/play/hub.h"
#include "server/play/tournaments.h"
#include "server/storage/workers.h"
#include "storage_database.h"

using namespace echecs;
using namespace echecs::server;

namespace {

constexpr std::int64_t LEASE_MS = 500;

class ClusterNodeTest : public StorageDatabaseTest {
protected:
    // The node starts on the database as `seed` left it.
    void start(const std::function<void(Storage&)>& seed = {}) {
        opt_.db = url_;
        opt_.web_root = "/nonexistent";
        opt_.log = false;
        opt_.fast_password_hash = true;  // sign-ups at libsodium's minimum Argon2id cost
        opt_.cluster_node = "t";
        opt_.redis = "";  // no bus
        opt_.lease_ms = LEASE_MS;
        std::unique_ptr<Storage> storage = open_storage(opt_.db, false, false);
        if (seed) seed(*storage);
        hub_ = std::make_unique<Hub>(ioc_, opt_, std::move(storage));
        hub_->start();
    }
    void TearDown() override {
        hub_.reset();
        StorageDatabaseTest::TearDown();
    }

    // Runs the node until `done`, at most `limit_ms`; whether it came.
    template <class Done>
    bool run_until(Done done, std::int64_t limit_ms) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(limit_ms);
        while (!done()) {
            if (std::chrono::steady_clock::now() >= end) return false;
            ioc_.restart();
            if (ioc_.poll() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }

    // Runs `job` on the node's writer connection and waits for it.
    void on_storage(std::function<void(Storage&)> job) {
        auto done = std::make_shared<std::atomic<bool>>(false);
        hub_->storage().run([job = std::move(job), done](Storage& s) {
            job(s);
            *done = true;
        });
        ASSERT_TRUE(run_until([&] { return done->load(); }, 10'000)) << "a storage job did not run within 10 s";
    }

    // One HTTP request through the router, as a balancer would pass it; its answer.
    nlohmann::json http(const std::string& method, const std::string& target, const std::string& body,
                        const std::string& token) {
        HttpRequest r;
        r.method = method;
        r.target = target;
        r.body = body;
        r.ip = "10.0.0.1";
        r.headers["content-type"] = "application/json";
        r.headers["x-echecs-token"] = token;
        auto answer = std::make_shared<std::optional<HttpResponse>>();
        hub_->router().dispatch(
            std::make_shared<HttpContext>(std::move(r), [answer](HttpResponse res) { *answer = std::move(res); }));
        EXPECT_TRUE(run_until([&] { return answer->has_value(); }, 10'000)) << method << " " << target << ": no answer";
        return answer->has_value() ? nlohmann::json::parse((*answer)->body, nullptr, false) : nlohmann::json();
    }
    // A game from a seek of `white`, accepted by `black`: its id.
    std::string seek_game(const std::string& white, const std::string& black) {
        const auto seek = http("POST", "/api/seeks", R"({"color":"white","time":{"kind":"unlimited"}})", white);
        if (!seek.contains("seek")) return "";
        const auto acc = http("POST", "/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", "{}", black);
        return acc.contains("game") ? acc["game"].get<std::string>() : "";
    }
    std::optional<Lease> lease_of(const std::string& id) {
        std::optional<Lease> l;
        on_storage([&](Storage& s) { l = s.lease_of(id); });
        return l;
    }

    // Fool's mate, over (0-1), between `white` and `black`.
    static GameRecord fools_mate(const std::string& id, Seat white, Seat black) {
        GameRecord g;
        g.id = id;
        g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        g.white = std::move(white);
        g.black = std::move(black);
        g.status = "over";
        g.result = "0-1";
        g.termination = "checkmate";
        g.created_at = g.clock_at = g.ended_at = now_ms();
        int ply = 0;
        for (const char* uci : {"f2f3", "e7e5", "g2g4", "d8h4"})
            g.moves.push_back(MoveRecord{ply++, uci, uci, 0, 0, g.created_at, std::nullopt});
        g.ply = ply;
        return g;
    }
    // Stores `g` as run by another node, "dead.abcdef", whose lease is never renewed.
    void store_on_dead_node(const GameRecord& g) {
        on_storage([&](Storage& s) {
            s.apply({SaveGame{g}});
            for (const MoveRecord& m : g.moves) s.apply({AddMove{g.id, m}});
            ASSERT_TRUE(s.acquire_lease(g.id, "dead.abcdef", now_ms(), LEASE_MS)) << "the dead node's lease";
        });
    }

    boost::asio::io_context ioc_;
    ServerOptions opt_;
    std::unique_ptr<Hub> hub_;
};

// A game that ended on another node as that node died: its last state may
// never have reached the sockets here (run c8 of stop 40: a mate stored and
// shown to the player on the dying node, its opponent's copy still in the
// dying node's queue to Redis). Nobody takes over a game that is over, so
// the node here loads it itself once the dead node's lease has lapsed.
TEST_F(ClusterNodeTest, AGameThatEndedOnANodeAsItDiedReachesItsWatchersHere) {
    start();
    ASSERT_TRUE(run_until([&] { return hub_->cluster()->leader(); }, 10'000))
        << "the node did not take the lobby's lease within 10 s";
    const GameRecord g =
        fools_mate("EndedG01", Seat{"Ann", "tokenAAAAAAAAAAAAAAAA"}, Seat{"Bob", "tokenBBBBBBBBBBBBBBBB"});
    store_on_dead_node(g);

    // Black's socket here joins it: the other node runs it, so nothing comes back yet.
    auto bob = std::make_shared<test::FakePeer>(hub_->next_peer_id(), "tokenBBBBBBBBBBBBBBBB");
    hub_->peer_opened(bob);
    hub_->on_message(bob, R"({"type":"hello","token":"tokenBBBBBBBBBBBBBBBB"})", false);
    hub_->on_message(bob, R"({"type":"join","game":"EndedG01"})", false);
    ASSERT_TRUE(run_until([&] { return bob->watching.count(g.id) > 0; }, 10'000));
    run_until([] { return false; }, 100);
    EXPECT_TRUE(bob->of_type("state").empty()) << "the other node's game was loaded here while its lease held";

    // The other node says nothing more: after its lease, the node here shows Bob the end.
    auto over = [&] {
        for (const auto& s : bob->of_type("state"))
            if (s["game"] == g.id && s["status"] == "over") return true;
        return false;
    };
    ASSERT_TRUE(run_until(over, 20 * LEASE_MS)) << "Bob never saw the game over after its node died";
    const auto states = bob->of_type("state");
    EXPECT_EQ(states.back()["result"], "0-1");
    EXPECT_EQ(states.back()["ply"], 4);
}

}  // namespace

// The lobby's node dies: the node here takes the lobby over with what the
// former one stored (a tournament created after this node started) and with
// what its own sockets had told the former one (a pool they wait in).
TEST_F(ClusterNodeTest, ANodeThatTakesOverTheLobbyKeepsItsSocketsPoolsAndTheTournamentsStoredMeanwhile) {
    constexpr std::int64_t OLD_LEASE_MS = 3000;  // the former leader's: long enough for the joins below
    start([](Storage& s) {
        ASSERT_TRUE(s.acquire_lease(Cluster::LOBBY, "old.abcdef", now_ms(), OLD_LEASE_MS)) << "the former leader's";
    });
    ASSERT_TRUE(run_until([&] { return hub_->cluster()->leader_node() == "old.abcdef"; }, 10'000))
        << "the node did not learn who runs the lobby within 10 s";
    ASSERT_FALSE(hub_->cluster()->leader());

    // Stored by the former leader after this node started.
    TournamentRecord t;
    t.id = "TourLate";
    t.name = "Late";
    t.time = TimeControl{TimeControl::Realtime, 3 * 60'000, 2'000, 0};
    t.starts_at = now_ms() + 3600'000;
    t.duration_ms = 3600'000;
    t.created_at = now_ms();
    on_storage([&](Storage& s) { s.apply({SaveTournament{t}}); });

    // A socket here waits in a pool: sent on to the former leader, which never answers.
    auto ann = std::make_shared<test::FakePeer>(hub_->next_peer_id(), "", "10.0.0.7");
    hub_->peer_opened(ann);
    hub_->on_message(ann, R"({"type":"hello","token":"tokenAnnAnnAnnAnnAnn"})", false);
    hub_->on_message(ann, R"({"type":"lobby_subscribe"})", false);
    hub_->on_message(ann, R"({"type":"pool_join","pool":"chess-3+2","nickname":"Ann","id":3})", false);
    ASSERT_TRUE(ann->of_type("pool_waiting").empty()) << "answered by a node that does not run the lobby";
    ASSERT_TRUE(ann->of_type("error").empty()) << "the pool join was refused";

    ASSERT_TRUE(run_until([&] { return hub_->cluster()->leader(); }, 5 * OLD_LEASE_MS))
        << "the node did not take the lobby over after the former leader's lease";
    EXPECT_NE(hub_->tournaments().find(t.id), nullptr) << "the tournament stored meanwhile is missing";
    ASSERT_TRUE(run_until([&] { return !ann->of_type("pool_waiting").empty(); }, 5'000))
        << "Ann no longer waits in her pool after the failover";
    const auto waiting = ann->of_type("pool_waiting").back();
    EXPECT_EQ(waiting["pool"], "chess-3+2");
    EXPECT_EQ(waiting["id"], 3);
}

// The leader spreads the lobby's games: a new game goes to the node running
// the fewest, which gets its first lease in the transaction that stores it;
// the leader keeps no room of it, and lists it in the lobby still. When that
// node dies, the game is taken over like any other.
TEST_F(ClusterNodeTest, TheLeaderPlacesANewGameOnTheNodeRunningTheFewest) {
    start();
    ASSERT_TRUE(run_until([&] { return hub_->cluster()->leader(); }, 10'000))
        << "the node did not take the lobby's lease within 10 s";
    const std::string first = seek_game("tokenW1W1W1W1W1W1W1W1", "tokenB1B1B1B1B1B1B1B1");
    ASSERT_FALSE(first.empty());
    EXPECT_NE(hub_->find_room(first), nullptr) << "alone, the leader runs its games";

    // Another node runs none: the next game is its.
    hub_->cluster()->receive(R"({"k":"alive","from":"other.abcdef","leader":false,"games":0})"
                             "\n");
    const std::string second = seek_game("tokenW2W2W2W2W2W2W2W2", "tokenB2B2B2B2B2B2B2B2");
    ASSERT_FALSE(second.empty());
    EXPECT_EQ(hub_->find_room(second), nullptr) << "the leader kept the room of a game it gave away";
    const std::optional<Lease> given = lease_of(second);
    ASSERT_TRUE(given);
    EXPECT_EQ(given->node, "other.abcdef");
    EXPECT_EQ(given->token, 1);
    EXPECT_TRUE(hub_->lobby().http_view("")["games"].dump().find(second) != std::string::npos)
        << "the game given away left the lobby's list";

    // The other node never loads it and falls silent: once its lease lapses, the game comes back here.
    ASSERT_TRUE(run_until([&] { return hub_->find_room(second) != nullptr; }, 20 * LEASE_MS))
        << "the game of a dead node was not taken over";
    const std::optional<Lease> back = lease_of(second);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->node, hub_->cluster()->node());
    EXPECT_EQ(back->token, 2);
}

// A rated game ended on a node that died before the accounts recorded its
// result (the game row says result_pending): no node ran it any more, and
// a node of several loads no game at start, so the rating changes were never
// recorded. Now a node loads it once its lease has lapsed and records them.
TEST_F(ClusterNodeTest, ARatedResultItsDeadNodeNeverRecordedIsRecordedByAnother) {
    start();
    ASSERT_TRUE(run_until([&] { return hub_->cluster()->leader(); }, 10'000))
        << "the node did not take the lobby's lease within 10 s";
    for (const char* name : {"AnnLee", "BobRay"}) {
        const auto res =
            http("POST", "/api/account", nlohmann::json{{"username", name}, {"password", "a fine passphrase"}}.dump(),
                 std::string("tokenOf") + name + "0000000000");
        ASSERT_EQ(res.value("username", ""), name) << res.dump();
    }
    std::int64_t ann = 0, bob = 0;
    for (const accounts::SqlRow& r : accounts::sql_conn(url_)->query("SELECT id, name_key FROM accounts"))
        (r.s(1) == "annlee" ? ann : bob) = r.i(0);
    ASSERT_TRUE(ann && bob);

    Seat white{"AnnLee", "tokenOfAnnLee0000000000"}, black{"BobRay", "tokenOfBobRay0000000000"};
    white.account = ann, black.account = bob;
    GameRecord g = fools_mate("RatedG01", white, black);
    g.time = TimeControl{TimeControl::Realtime, 3 * 60'000, 2'000, 0};
    g.rated = true;
    g.result_pending = true;
    store_on_dead_node(g);

    std::optional<GameRecord> stored;
    auto recorded = [&] {
        on_storage([&](Storage& s) { stored = s.load_game(g.id); });
        return stored && !stored->result_pending;
    };
    ASSERT_TRUE(run_until(recorded, 20 * LEASE_MS)) << "the result is still not recorded for the accounts";
    ASSERT_TRUE(stored->white_rating_diff && stored->black_rating_diff);
    EXPECT_LT(*stored->white_rating_diff, 0);
    EXPECT_GT(*stored->black_rating_diff, 0);
    const auto history = accounts::sql_conn(url_)->query("SELECT COUNT(*) FROM account_rating_history");
    EXPECT_EQ(history.at(0).i(0), 2) << "one rating change per player";
}

// One node of several (docs/CLUSTER.md) in the test process, on the
// PostgreSQL server of server_postgres_tests, without Redis: what it would
// publish goes nowhere, and the other nodes are rows of the database, whose
// silence makes them dead. The clock is the real one, with a short lease;
// every wait is bounded and named.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "fake_peer.h"
#include "server/app/util.h"
#include "server/cluster/cluster.h"
#include "server/play/hub.h"
#include "server/storage/workers.h"
#include "storage_database.h"

using namespace echecs;
using namespace echecs::server;

namespace {

constexpr std::int64_t LEASE_MS = 500;

class ClusterNodeTest : public StorageDatabaseTest {
protected:
    void SetUp() override {
        StorageDatabaseTest::SetUp();
        if (IsSkipped()) return;
        opt_.db = url_;
        opt_.web_root = "/nonexistent";
        opt_.log = false;
        opt_.cluster_node = "t";
        opt_.redis = "";  // no bus
        opt_.lease_ms = LEASE_MS;
        hub_ = std::make_unique<Hub>(ioc_, opt_, open_storage(opt_.db, false, false));
        hub_->start();
        ASSERT_TRUE(run_until([&] { return hub_->cluster()->leader(); }, 10'000))
            << "the node did not take the lobby's lease within 10 s";
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
    GameRecord g;
    g.id = "EndedG01";
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    g.fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    g.white = {"Ann", "tokenAAAAAAAAAAAAAAAA", 0};
    g.black = {"Bob", "tokenBBBBBBBBBBBBBBBB", 0};
    g.status = "over";
    g.result = "0-1";
    g.termination = "checkmate";
    g.created_at = g.clock_at = g.ended_at = now_ms();
    int ply = 0;
    for (const char* uci : {"f2f3", "e7e5", "g2g4", "d8h4"})
        g.moves.push_back(MoveRecord{ply++, uci, uci, 0, 0, g.created_at, std::nullopt});
    g.ply = ply;
    on_storage([&](Storage& s) {
        s.apply({SaveGame{g}});
        for (const MoveRecord& m : g.moves) s.apply({AddMove{g.id, m}});
        ASSERT_TRUE(s.acquire_lease(g.id, "dead.abcdef", now_ms(), LEASE_MS)) << "the other node's lease";
    });

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

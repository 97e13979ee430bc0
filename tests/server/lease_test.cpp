// Leases and fencing tokens of games run by one node of several
// (storage.h, Lease and Fence), on SQLite (server_tests) and PostgreSQL
// (server_postgres_tests). The clock is the test's: every `now` is given.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "server/storage/storage.h"
#include "storage_database.h"

using namespace echecs;
using namespace echecs::server;

namespace {

constexpr std::int64_t TTL = 5000;

class LeaseTest : public StorageDatabaseTest {
protected:
    // Several "nodes" on one database: no one-server lock.
    std::unique_ptr<Storage> node() { return open_storage(url_, false, false); }

    static GameRecord live_game(const std::string& id, std::int64_t created) {
        GameRecord g;
        g.id = id;
        g.initial_fen = g.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.white = {"Ann", "tokenAAAAAAAAAAAAAAAA", 0};
        g.black = {"Bob", "tokenBBBBBBBBBBBBBBBB", 0};
        g.created_at = g.clock_at = created;
        return g;
    }
    static AddMove move(const std::string& game, int ply, const std::string& uci) {
        return AddMove{game, MoveRecord{ply, uci, uci, 0, 0, 1000 + ply, std::nullopt}};
    }
};

TEST_F(LeaseTest, OneHolderAtATimeAndTheTokenGrowsAtEachChangeOfHands) {
    auto s = node();
    s->apply({SaveGame{live_game("G1", 1)}});

    const auto a = s->acquire_lease("G1", "node-a", 1000, TTL);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->token, 1);
    EXPECT_EQ(a->expires_at, 6000);
    EXPECT_FALSE(s->acquire_lease("G1", "node-b", 5999, TTL)) << "taken from a holder in time";

    const auto renewed = s->acquire_lease("G1", "node-a", 5000, TTL);
    ASSERT_TRUE(renewed);
    EXPECT_EQ(renewed->token, 1) << "a renewal in time keeps the token";
    EXPECT_FALSE(s->acquire_lease("G1", "node-b", 9999, TTL));

    const auto b = s->acquire_lease("G1", "node-b", 10000, TTL);  // node-a's lapsed at 10000
    ASSERT_TRUE(b);
    EXPECT_EQ(b->token, 2);
    EXPECT_EQ(s->lease_of("G1"), b);

    EXPECT_FALSE(s->release_lease(*renewed)) << "node-a no longer holds it";
    EXPECT_TRUE(s->release_lease(*b));
    const auto a2 = s->acquire_lease("G1", "node-a", 10001, TTL);  // released: free before its time
    ASSERT_TRUE(a2);
    EXPECT_EQ(a2->token, 3);

    // A holder that renews too late gets a new token: its writes in flight
    // with the old one are refused, as if another node had come between.
    const auto late = s->acquire_lease("G1", "node-a", 20000, TTL);
    ASSERT_TRUE(late);
    EXPECT_EQ(late->token, 4);
}

// A new game's first lease is taken in the transaction that stores it; a
// node's leases are renewed in one statement, which leaves out the lapsed
// ones (another node may have them) and says which it renewed.
TEST_F(LeaseTest, ANewGameTakesItsLeaseWithItsFirstWriteAndRenewalsSayWhatIsStillHeld) {
    auto a = node(), b = node();
    a->apply({TakeLease{"G1", "node-a", 6000}, SaveGame{live_game("G1", 1)}});
    a->apply({TakeLease{"G2", "node-a", 6000}, SaveGame{live_game("G2", 2)}});
    EXPECT_EQ(a->lease_of("G1"), (Lease{"G1", "node-a", 1, 6000}));
    // Another node creating a game under that id fails whole: no game row changed.
    GameRecord other = live_game("G1", 99);
    other.white.name = "Eve";
    EXPECT_THROW(b->apply({TakeLease{"G1", "node-b", 6000}, SaveGame{other}}), StorageError);
    EXPECT_EQ(a->load_game("G1")->white.name, "Ann");

    auto renewed = a->renew_leases("node-a", 5000, TTL);
    std::sort(renewed.begin(), renewed.end());
    EXPECT_EQ(renewed, (std::vector<std::string>{"G1", "G2"}));
    EXPECT_EQ(a->lease_of("G1")->expires_at, 10000);
    EXPECT_EQ(a->lease_of("G1")->token, 1) << "a renewal in time keeps the token";
    EXPECT_TRUE(b->renew_leases("node-b", 5000, TTL).empty()) << "node-b holds nothing";

    // G2 lapses and node-b takes it; node-a's next renewal has G1 only.
    ASSERT_TRUE(a->acquire_lease("G1", "node-a", 9000, TTL));  // G1 until 14000, G2 still until 10000
    ASSERT_TRUE(b->acquire_lease("G2", "node-b", 10000, TTL));
    EXPECT_EQ(a->renew_leases("node-a", 11000, TTL), (std::vector<std::string>{"G1"}));
    EXPECT_THROW(a->apply({Fence{"G2", "node-a", 1}, move("G2", 0, "e2e4")}), FencedOut);
}

TEST_F(LeaseTest, ANodeThatLostTheLeaseWritesNothing) {
    auto a = node(), b = node();
    a->apply({SaveGame{live_game("G1", 1)}});
    const auto la = a->acquire_lease("G1", "node-a", 0, TTL);
    ASSERT_TRUE(la);
    a->apply({Fence{"G1", "node-a", la->token}, move("G1", 0, "e2e4")});

    // node-a pauses past its lease; node-b takes the game and plays on.
    const auto lb = b->acquire_lease("G1", "node-b", TTL, TTL);
    ASSERT_TRUE(lb);
    b->apply({Fence{"G1", "node-b", lb->token}, move("G1", 1, "e7e5")});

    // node-a wakes up and writes with its old token: refused, all of it.
    GameRecord stale = live_game("G1", 1);
    stale.ply = 7;
    EXPECT_THROW(a->apply({Fence{"G1", "node-a", la->token}, move("G1", 1, "d7d5"), SaveGame{stale}}), FencedOut);
    EXPECT_THROW(a->apply({Fence{"G1", "node-a", lb->token}, move("G1", 2, "g1f3")}), FencedOut)
        << "the token is not enough: it must be the holder's";

    const auto g = b->load_game("G1");
    ASSERT_TRUE(g);
    ASSERT_EQ(g->moves.size(), 2u);
    EXPECT_EQ(g->moves[1].uci, "e7e5");
    EXPECT_EQ(g->ply, 0) << "the stale SaveGame was not applied";
}

TEST_F(LeaseTest, LiveGamesWithoutAHolderAreListedForTakeOver) {
    auto s = node();
    GameRecord over = live_game("G0", 0);
    over.status = "over";
    over.result = "1-0";
    s->apply(
        {SaveGame{over}, SaveGame{live_game("G1", 1)}, SaveGame{live_game("G2", 2)}, SaveGame{live_game("G3", 3)}});
    ASSERT_TRUE(s->acquire_lease("G1", "node-a", 0, TTL));
    ASSERT_TRUE(s->acquire_lease("G3", "node-b", 0, 2 * TTL));

    EXPECT_EQ(s->orphaned_live_games(TTL - 1, 10), (std::vector<std::string>{"G2"}));
    EXPECT_EQ(s->orphaned_live_games(TTL, 10), (std::vector<std::string>{"G1", "G2"}));
    EXPECT_EQ(s->orphaned_live_games(2 * TTL, 10), (std::vector<std::string>{"G1", "G2", "G3"}));
    EXPECT_EQ(s->orphaned_live_games(2 * TTL, 1), (std::vector<std::string>{"G1"}));
}

TEST_F(LeaseTest, FinishedGamesWhoseResultNoHolderRecordsAreListed) {
    auto s = node();
    auto ended = [](const std::string& id, std::int64_t at, bool pending) {
        GameRecord g = live_game(id, at);
        g.status = "over";
        g.result = "1-0";
        g.ended_at = at;
        g.result_pending = pending;
        return g;
    };
    s->apply({SaveGame{ended("R0", 0, false)}, SaveGame{ended("R1", 1, true)}, SaveGame{ended("R2", 2, true)},
              SaveGame{ended("R3", 3, true)}, SaveGame{live_game("L4", 4)}});
    ASSERT_TRUE(s->acquire_lease("R1", "node-a", 0, TTL));
    ASSERT_TRUE(s->acquire_lease("R3", "node-b", 0, 2 * TTL));

    EXPECT_EQ(s->unrecorded_unheld_games(TTL - 1, 10), (std::vector<std::string>{"R2"}));
    EXPECT_EQ(s->unrecorded_unheld_games(TTL, 10), (std::vector<std::string>{"R1", "R2"}));
    EXPECT_EQ(s->unrecorded_unheld_games(2 * TTL, 10), (std::vector<std::string>{"R1", "R2", "R3"}));
    EXPECT_EQ(s->unrecorded_unheld_games(2 * TTL, 1), (std::vector<std::string>{"R1"}));
}

// Nodes racing for one lapsed lease, each on its own connection: exactly one
// wins each round, and the tokens handed out are never the same twice.
TEST_F(LeaseTest, NodesRacingForALapsedLeaseNeverBothWin) {
    constexpr int NODES = 4, ROUNDS = 25;
    std::vector<std::unique_ptr<Storage>> nodes;
    for (int i = 0; i < NODES; ++i) nodes.push_back(node());
    nodes[0]->apply({SaveGame{live_game("G1", 1)}});
    std::int64_t last_token = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        const std::int64_t now = round * TTL;  // every earlier lease has lapsed
        std::atomic<int> winners = 0;
        std::vector<std::int64_t> tokens(NODES, 0);
        std::vector<std::string> errors(NODES);
        std::vector<std::thread> threads;
        for (int i = 0; i < NODES; ++i)
            threads.emplace_back([&, i] {
                try {
                    if (auto l = nodes[i]->acquire_lease("G1", "node-" + std::to_string(i), now, TTL - 1)) {
                        ++winners;
                        tokens[i] = l->token;
                    }
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
        for (auto& t : threads) t.join();
        for (const std::string& e : errors) EXPECT_EQ(e, "") << "round " << round;
        ASSERT_EQ(winners, 1) << "round " << round;
        std::int64_t token = 0;
        for (std::int64_t t : tokens) token = std::max(token, t);
        EXPECT_GT(token, last_token) << "round " << round;
        last_token = token;
    }
}

}  // namespace

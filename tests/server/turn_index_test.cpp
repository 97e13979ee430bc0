// The "your turn" index's games run by other nodes (docs/CLUSTER.md): the
// node that runs the lobby keeps what each node last said of its games, under
// both players' tokens and accounts, and forgets a game that ended.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "server/play/your_turn.h"

using namespace echecs::server;

namespace {

Seat seat(const std::string& token, std::int64_t account = 0) {
    Seat s;
    s.token = token;
    s.account = account;
    return s;
}

TurnIndex::RemoteTurn turn(const Seat& white, const Seat& black, int ply) {
    out::YourTurnGame e;
    e.game = "G1";
    e.ply = ply;
    return {white, black, e, ply % 2 ? black : white};
}

TEST(TurnIndexTest, AnotherNodesGameIsKeptUnderItsPlayersUntilItEnds) {
    TurnIndex t;
    t.set_remote("G1", turn(seat("ann"), seat("bob", 7), 0));
    EXPECT_EQ(t.games_of("ann"), std::set<std::string>{"G1"});
    EXPECT_EQ(t.games_of("bob"), std::set<std::string>{"G1"});
    EXPECT_EQ(t.games_of_account(7), std::set<std::string>{"G1"});
    ASSERT_NE(t.remote("G1"), nullptr);
    EXPECT_EQ(t.remote("G1")->mover.token, "ann");

    // A later word replaces the earlier one (the move passed to Bob).
    t.set_remote("G1", turn(seat("ann"), seat("bob", 7), 1));
    EXPECT_EQ(t.remote("G1")->mover.token, "bob");
    EXPECT_EQ(t.remote("G1")->entry->ply, 1);
    EXPECT_EQ(t.games_of("ann").size(), 1u);

    // Over: forgotten, under every key.
    t.set_remote("G1", std::nullopt);
    EXPECT_EQ(t.remote("G1"), nullptr);
    EXPECT_TRUE(t.games_of("ann").empty());
    EXPECT_TRUE(t.games_of("bob").empty());
    EXPECT_TRUE(t.games_of_account(7).empty());
    EXPECT_EQ(t.tokens(), 0u);
}

TEST(TurnIndexTest, ARemoteGameLeavesTheLocalGamesOfItsPlayersAlone) {
    TurnIndex t;
    t.add(seat("ann"), "L1");  // a game this node runs
    t.set_remote("G1", turn(seat("ann"), seat("bob"), 0));
    EXPECT_EQ(t.games_of("ann"), (std::set<std::string>{"G1", "L1"}));
    t.set_remote("G1", std::nullopt);
    EXPECT_EQ(t.games_of("ann"), std::set<std::string>{"L1"});
}

}  // namespace

// The lobby actor without sockets: one snapshot, then deltas built once and
// shared by every subscriber, the window of the most recent entries.
#include "server/play/lobby.h"

#include <gtest/gtest.h>

#include "fake_peer.h"
#include "server/play/live_game.h"

using namespace echecs;
using namespace echecs::server;
using namespace echecs::test;
using nlohmann::json;

namespace {

class LobbyTest : public ::testing::Test {
protected:
    LobbyTest() {
        opt_.lobby_batch_ms = 5;
        opt_.lobby_seeks = 3;
        opt_.lobby_games = 2;
        lobby_ = std::make_unique<Lobby>(ioc_, opt_);
    }
    // Runs the lobby's timer and fan-out to completion.
    void settle() {
        for (int i = 0; i < 50; ++i) {
            ioc_.restart();
            ioc_.run_for(std::chrono::milliseconds(10));
        }
    }
    static SeekRecord seek(const std::string& id, std::int64_t at, const std::string& token = "tokenAAAAAAAAAAAAA") {
        SeekRecord s;
        s.id = id;
        s.created_at = at;
        s.token = token;
        s.nickname = "Ann";
        return s;
    }
    static GameRecord game(const std::string& id, std::int64_t at) {
        return LiveGame::new_record(id, Variant::Chess, {}, Seat{"Ann", "a", 0}, Seat{"Bob", "b", 0}, at);
    }

    boost::asio::io_context ioc_;
    ServerOptions opt_;
    std::unique_ptr<Lobby> lobby_;
};

TEST_F(LobbyTest, SnapshotThenDeltasSharedByAllSubscribers) {
    lobby_->seek_added(seek("Seek0001", 10));
    settle();
    std::vector<std::shared_ptr<FakePeer>> peers;
    for (int i = 0; i < 600; ++i) {  // more than one fan-out chunk
        peers.push_back(std::make_shared<FakePeer>(i + 1));
        lobby_->subscribe(peers.back());
    }
    json snap = peers[0]->of_type("lobby").at(0);
    EXPECT_EQ(snap["seq"], 1);
    ASSERT_EQ(snap["seeks"].size(), 1u);
    EXPECT_FALSE(snap["seeks"][0].contains("mine"));
    EXPECT_FALSE(snap.dump().find("tokenAAAA") != std::string::npos);  // no token, ever
    EXPECT_EQ(peers[0]->got[0].get(), peers[599]->got[0].get());       // one snapshot text for all

    lobby_->seek_added(seek("Seek0002", 20));
    lobby_->seek_removed("Seek0001");
    lobby_->game_started(game("Game0001", 30));
    settle();
    for (auto& p : peers) ASSERT_EQ(p->got.size(), 2u);
    EXPECT_EQ(peers[0]->got[1].get(), peers[599]->got[1].get());  // serialised once
    json d = json::parse(*peers[0]->got[1]);
    EXPECT_EQ(d["type"], "lobby_delta");
    EXPECT_EQ(d["seq"], 2);
    ASSERT_EQ(d["changes"].size(), 3u);
    EXPECT_EQ(d["changes"][0], json({{"op", "seek_removed"}, {"id", "Seek0001"}}));
    EXPECT_EQ(d["changes"][1]["op"], "seek_added");
    EXPECT_EQ(d["changes"][1]["seek"]["id"], "Seek0002");
    EXPECT_EQ(d["changes"][2]["op"], "game_started");
    EXPECT_EQ(d["changes"][2]["game"]["id"], "Game0001");

    // A move of a listed game, an unsubscribed peer, nothing for the rest.
    lobby_->unsubscribe(peers[5]->id());
    lobby_->game_moved("Game0001", 1, "some fen");
    settle();
    EXPECT_EQ(peers[5]->got.size(), 2u);
    json m = json::parse(*peers[0]->got[2]);
    EXPECT_EQ(m["seq"], 3);
    EXPECT_EQ(m["changes"][0], json({{"op", "game_moved"}, {"id", "Game0001"}, {"ply", 1}, {"fen", "some fen"}}));
    settle();
    EXPECT_EQ(peers[0]->got.size(), 3u);  // no change, no delta

    // A late subscriber's snapshot is the state at the last delta.
    auto late = std::make_shared<FakePeer>(1000);
    lobby_->subscribe(late);
    json s = late->of_type("lobby").at(0);
    EXPECT_EQ(s["seq"], 3);
    EXPECT_EQ(s["seeks"][0]["id"], "Seek0002");
    EXPECT_EQ(s["games"][0]["fen"], "some fen");
}

TEST_F(LobbyTest, OnlyTheMostRecentAreListed) {
    auto p = std::make_shared<FakePeer>(1);
    lobby_->subscribe(p);
    for (int i = 0; i < 5; ++i) lobby_->seek_added(seek("Seek000" + std::to_string(i), 100 + i));
    settle();
    json d = p->of_type("lobby_delta").at(0);
    ASSERT_EQ(d["changes"].size(), 3u);  // capacity 3: the newest
    EXPECT_EQ(d["changes"][0]["seek"]["id"], "Seek0004");
    EXPECT_EQ(d["changes"][2]["seek"]["id"], "Seek0002");
    // The newest leaves: the fourth newest comes into the list.
    lobby_->seek_removed("Seek0004");
    settle();
    json e = p->of_type("lobby_delta").at(1);
    ASSERT_EQ(e["changes"].size(), 2u);
    EXPECT_EQ(e["changes"][0], json({{"op", "seek_removed"}, {"id", "Seek0004"}}));
    EXPECT_EQ(e["changes"][1]["seek"]["id"], "Seek0001");
    // HTTP sees the same list, with `mine` for its token.
    json h = lobby_->http_view("tokenAAAAAAAAAAAAA");
    ASSERT_EQ(h["seeks"].size(), 3u);
    EXPECT_EQ(h["seeks"][0]["mine"], true);
    EXPECT_EQ(lobby_->http_view("someoneElse0000000")["seeks"][0]["mine"], false);
}

TEST_F(LobbyTest, APeerGoneDuringTheFanOutIsSkipped) {
    std::vector<std::shared_ptr<FakePeer>> peers;
    for (int i = 0; i < 300; ++i) {
        peers.push_back(std::make_shared<FakePeer>(i + 1));
        lobby_->subscribe(peers.back());
    }
    lobby_->seek_added(seek("Seek0001", 1));
    // The timer fires; the first chunk is sent, then peers vanish before the second.
    for (int i = 0; i < 100 && peers[0]->got.size() < 2; ++i) ioc_.run_one_for(std::chrono::milliseconds(20));
    for (int i = 256; i < 300; ++i) peers[i].reset();
    settle();
    EXPECT_EQ(peers[0]->got.size(), 2u);
    EXPECT_EQ(peers[255]->got.size(), 2u);
}

// A large audience gets the same changes less often: the lobby's writes in
// all stay within lobby_sends_per_second, down to one delta per
// lobby_batch_max_ms.
TEST_F(LobbyTest, ALargeAudienceGetsFewerDeltas) {
    opt_.lobby_batch_ms = 5;
    opt_.lobby_sends_per_second = 1000;
    opt_.lobby_batch_max_ms = 150;
    std::vector<std::shared_ptr<FakePeer>> peers;
    for (int i = 0; i < 5; ++i) peers.push_back(std::make_shared<FakePeer>(i + 1));
    for (auto& p : peers) lobby_->subscribe(p);
    EXPECT_EQ(lobby_->batch_ms(), 5);  // 5 subscribers: 1,000 sends a second allow a delta every 5 ms
    for (int i = 5; i < 80; ++i) {
        peers.push_back(std::make_shared<FakePeer>(i + 1));
        lobby_->subscribe(peers.back());
    }
    EXPECT_EQ(lobby_->batch_ms(), 80);  // 80 subscribers: one delta every 80 ms
    for (int i = 80; i < 400; ++i) {
        peers.push_back(std::make_shared<FakePeer>(i + 1));
        lobby_->subscribe(peers.back());
    }
    EXPECT_EQ(lobby_->batch_ms(), 150);  // never less than one every lobby_batch_max_ms

    // 30 changes, one every 10 ms at least (longer on a loaded machine), go
    // out as one delta per lobby_batch_max_ms of the time they took (without
    // the budget: one every 5 ms), the last with the newest seek, and every
    // subscriber gets the same deltas. Counted, not timed: the bound is
    // relative to the time the loop measured.
    const int changes = 30;
    const auto start = std::chrono::steady_clock::now();
    for (int added = 0; added < changes; ++added) {
        lobby_->seek_added(seek("Seek" + std::to_string(1000 + added), 100 + added));
        ioc_.restart();
        ioc_.run_for(std::chrono::milliseconds(10));
    }
    const auto took =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    settle();
    const std::vector<json> deltas = peers[0]->of_type("lobby_delta");
    EXPECT_GE(deltas.size(), 2u);                                   // 300 ms at least: two windows of 150 ms
    EXPECT_LE(deltas.size(), std::size_t(took / 150 + 2)) << took;  // one per window, and the last at settle
    // The last delta ends with the newest seek listed.
    const json& last = deltas.back()["changes"];
    bool newest = false;
    for (const json& c : last)
        if (c["op"] == "seek_added" && c["seek"]["id"] == "Seek" + std::to_string(1000 + changes - 1)) newest = true;
    EXPECT_TRUE(newest);
    EXPECT_EQ(peers[399]->of_type("lobby_delta").size(), deltas.size());

    opt_.lobby_sends_per_second = 0;  // no budget: the plain batch
    EXPECT_EQ(lobby_->batch_ms(), 5);
}

}  // namespace

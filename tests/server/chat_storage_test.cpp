// The chat tables, one suite on SQLite (server_chat_tests) and on PostgreSQL
// (server_postgres_tests): storage_database.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "server/play/chat_reports.h"
#include "server/storage/storage.h"
#include "storage_database.h"

using namespace echecs::server;

namespace {

class ChatStorageTest : public StorageDatabaseTest {
protected:
    static ChatRecord line(const std::string& game, const std::string& room, int i) {
        return ChatRecord{game,    room,
                          "Ann",   room == "players" ? "white" : "",
                          "t:abc", "l\xc3\xa9ne " + std::to_string(i) + " <b>&</b> '\"",
                          1000 + i};
    }
};

TEST_F(ChatStorageTest, LinesRoundTripLastPerRoomOldestFirst) {
    {
        auto s = open_storage(url_);
        std::vector<WriteOp> ops;
        for (int i = 0; i < 7; ++i) ops.emplace_back(AddChat{line("game0001", "players", i)});
        for (int i = 0; i < 2; ++i) ops.emplace_back(AddChat{line("game0001", "spectators", 10 + i)});
        ops.emplace_back(AddChat{line("game0002", "players", 99)});
        s->apply(ops);
    }
    auto s = open_storage(url_);  // reopened: stored for good
    std::vector<ChatRecord> got = s->load_chat("game0001", 5);
    ASSERT_EQ(got.size(), 7u);  // the last 5 players' lines, then the 2 spectators'
    for (int i = 0; i < 5; ++i) EXPECT_EQ(got[std::size_t(i)], line("game0001", "players", i + 2));
    EXPECT_EQ(got[5], line("game0001", "spectators", 10));
    EXPECT_EQ(got[6], line("game0001", "spectators", 11));
    EXPECT_TRUE(s->load_chat("nosuchgm", 5).empty());
    EXPECT_EQ(s->open_reader()->load_chat("game0002", 100).size(), 1u);
}

TEST_F(ChatStorageTest, ReportsNewestFirst) {
    auto s = open_storage(url_);
    for (int i = 0; i < 3; ++i) {
        std::vector<WriteOp> ops;
        ops.emplace_back(AddReport{ReportRecord{i ? "game0001" : "", i ? "players" : "lobby", "ip:127.0.0.1", "Bob",
                                                "t:def", "text " + std::to_string(i), "spam", 5 + i}});
        s->apply(ops);
    }
    std::vector<StoredReport> r = s->list_reports(2);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].text, "text 2");
    EXPECT_EQ(r[1].text, "text 1");
    EXPECT_EQ(r[1].game_id, "game0001");
    EXPECT_EQ(r[1].reporter, "ip:127.0.0.1");
    EXPECT_EQ(r[1].at, 6);
    EXPECT_EQ(s->list_reports(10).back().room, "lobby");
}

TEST_F(ChatStorageTest, AChatLineFailsWithItsTransaction) {
    auto s = open_storage(url_);
    std::vector<WriteOp> ops;
    ops.emplace_back(AddChat{line("game0001", "players", 1)});
    ops.emplace_back(SaveProgress{"nosuchgm", 1, "", 0, 0, 0, ""});  // no such game: the whole write fails
    EXPECT_THROW(s->apply(ops), StorageError);
    EXPECT_TRUE(s->load_chat("game0001", 10).empty());
}

// The operator resolves reports: they leave the open list, stay in the full
// one with the time and the note; a report is resolved once.
TEST_F(ChatStorageTest, ReportsAreResolvedOnce) {
    auto s = open_storage(url_);
    for (int i = 0; i < 3; ++i) {
        std::vector<WriteOp> ops;
        ops.emplace_back(AddReport{
            ReportRecord{"game0001", "players", "a:7", "Bob", "t:def", "text " + std::to_string(i), "", 5 + i}});
        s->apply(ops);
    }
    std::vector<StoredReport> all = s->list_reports(10);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_GT(all[0].id, all[1].id);
    EXPECT_EQ(all[0].resolved_at, 0);
    const std::int64_t middle = all[1].id;
    EXPECT_TRUE(s->resolve_report(middle, "warned \xc3\xa9", 1234));
    EXPECT_FALSE(s->resolve_report(middle, "again", 99));  // once
    EXPECT_FALSE(s->resolve_report(999999, "", 99));       // unknown
    std::vector<StoredReport> open = s->list_reports(10, true);
    ASSERT_EQ(open.size(), 2u);
    for (const StoredReport& r : open) EXPECT_NE(r.id, middle);
    s.reset();
    auto reopened = open_storage(url_);  // stored for good
    std::vector<StoredReport> after = reopened->list_reports(10);
    ASSERT_EQ(after.size(), 3u);
    EXPECT_EQ(after[1].id, middle);
    EXPECT_EQ(after[1].resolved_at, 1234);
    EXPECT_EQ(after[1].resolution, "warned \xc3\xa9");
}

// Claimed games leave a browser's anonymous games for good.
TEST_F(ChatStorageTest, ClaimedGamesAreNotAnonymousAnyMore) {
    auto s = open_storage(url_);
    std::vector<WriteOp> ops;
    for (int i = 0; i < 3; ++i) {
        GameRecord g;
        g.id = "claim00" + std::to_string(i);
        g.initial_fen = g.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.white = Seat{"Ann", "tokenA", 0};
        g.black = Seat{"Bob", "tokenB", 0};
        g.status = "over";
        g.result = "1-0";
        g.termination = "resignation";
        g.ended_at = 100 + i;
        ops.emplace_back(SaveGame{g});
    }
    s->apply(ops);
    ASSERT_EQ(s->anonymous_games_of("tokenA", 10).size(), 3u);
    std::vector<WriteOp> mark;
    mark.emplace_back(MarkClaimed{{"claim000", "claim002", "nosuchgm"}, "tokenA", 42});
    s->apply(mark);
    s.reset();
    auto reopened = open_storage(url_);
    std::vector<GameRecord> left = reopened->anonymous_games_of("tokenA", 10);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].id, "claim001");
    // The other seat stays its own player's to claim.
    EXPECT_EQ(reopened->anonymous_games_of("tokenB", 10).size(), 3u);
    mark[0] = MarkClaimed{{"claim001"}, "tokenB", 43};
    reopened->apply(mark);
    EXPECT_EQ(reopened->anonymous_games_of("tokenB", 10).size(), 2u);
    EXPECT_EQ(reopened->anonymous_games_of("tokenA", 10).size(), 1u);
}

// `echecs reports` on the same database: lists, resolves, refuses bad input.
TEST_F(ChatStorageTest, ReportsCommand) {
    auto run = [&](std::vector<std::string> args, std::string* out_text = nullptr, std::string* err_text = nullptr) {
        std::ostringstream out, err;
        const int rc = reports_main(args, out, err);
        if (out_text) *out_text = out.str();
        if (err_text) *err_text = err.str();
        return rc;
    };
    std::string out, err;
    if (!postgres()) {
        EXPECT_EQ(run({"--db", url_}, &out, &err), 2);  // not created: a typo must not make an empty database
        EXPECT_NE(err.find("no database"), std::string::npos) << err;
        EXPECT_FALSE(std::filesystem::exists(url_));
    }
    {
        auto s = open_storage(url_);
        std::vector<WriteOp> ops;
        ops.emplace_back(AddReport{ReportRecord{"game0001", "spectators", "t:abc", "Guest-1a2b3c", "t:def",
                                                "buy \x1b[31mcheap\x1b[0m gold", "spam", 1764600000000}});
        ops.emplace_back(AddReport{ReportRecord{"", "lobby", "a:3", "AnnLee", "a:5", "second", "", 1764600001000}});
        s->apply(ops);
    }
    ASSERT_EQ(run({"--db", url_}, &out, &err), 0) << err;
    EXPECT_NE(out.find("game game0001 (spectators)"), std::string::npos) << out;
    EXPECT_NE(out.find("lobby"), std::string::npos) << out;
    EXPECT_NE(out.find("2025-12-01 14:40:00 UTC"), std::string::npos) << out;
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << "a reported line writes no escape to the terminal";
    EXPECT_NE(out.find("\\u001b[31mcheap"), std::string::npos) << out;
    ASSERT_EQ(run({"--db", url_, "--json"}, &out, &err), 0) << err;
    std::istringstream lines(out);
    std::vector<nlohmann::json> rows;
    for (std::string l; std::getline(lines, l);) rows.push_back(nlohmann::json::parse(l));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["text"], "second");  // newest first
    EXPECT_EQ(rows[0]["author_key"], "a:5");
    EXPECT_TRUE(rows[0]["resolved_at"].is_null());
    const std::int64_t first = rows[1]["id"];

    ASSERT_EQ(run({"--db", url_, "--resolve", std::to_string(first), "--note", "banned"}, &out, &err), 0) << err;
    EXPECT_NE(out.find("resolved"), std::string::npos);
    EXPECT_EQ(run({"--db", url_, "--resolve", std::to_string(first)}, &out, &err), 2);
    EXPECT_NE(err.find("no open report"), std::string::npos) << err;
    ASSERT_EQ(run({"--db", url_, "--json"}, &out, &err), 0);
    EXPECT_EQ(out.find("cheap"), std::string::npos) << "resolved: not open any more";
    ASSERT_EQ(run({"--db", url_, "--all"}, &out, &err), 0);
    EXPECT_NE(out.find("\"banned\""), std::string::npos) << out;
    EXPECT_NE(out.find("resolved 20"), std::string::npos) << out;
    ASSERT_EQ(run({"--db", url_, "--all", "--limit", "1", "--json"}, &out, &err), 0);
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);

    // Bad arguments: exit 2 and the reason, nothing changed.
    for (const std::vector<std::string>& bad :
         std::vector<std::vector<std::string>>{{"--limit", "0"},
                                               {"--limit", "12x"},
                                               {"--limit"},
                                               {"--resolve", "-1"},
                                               {"--resolve", "99999999999999999999"},
                                               {"--note", "why"},
                                               {"--db", ""},
                                               {"--frobnicate"}}) {
        std::vector<std::string> args{"--db", url_};
        args.insert(args.end(), bad.begin(), bad.end());
        EXPECT_EQ(run(args, &out, &err), 2) << bad[0];
        EXPECT_NE(err.find("usage:"), std::string::npos) << err;
    }
    ASSERT_EQ(run({"--help"}, &out, &err), 0);
    EXPECT_NE(out.find("--resolve ID"), std::string::npos);
    EXPECT_EQ(open_storage(url_)->list_reports(10, true).size(), 1u);
}

}  // namespace

// The chat tables, on SQLite (server_tests) and on the PostgreSQL server of
// $ECHECS_PG_URL (server_postgres_tests; skipped without it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "server/storage.h"
#include "server/util.h"

#ifdef ECHECS_POSTGRES
#include <pqxx/pqxx>
#endif

using namespace echecs::server;

namespace {

class ChatStorageTest : public ::testing::Test {
protected:
    void SetUp() override {
#ifdef ECHECS_POSTGRES
        const char* env = std::getenv("ECHECS_PG_URL");
        if (!env || !*env) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
        url_ = env;
        pqxx::connection c(url_);
        pqxx::work w(c);
        w.exec("DROP SCHEMA public CASCADE");
        w.exec("CREATE SCHEMA public");
        w.commit();
#else
        dir_ = std::filesystem::temp_directory_path() / ("echecs-chat-storage-" + random_id(10));
        std::filesystem::create_directories(dir_);
        url_ = (dir_ / "test.db").string();
#endif
    }
    void TearDown() override {
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    static ChatRecord line(const std::string& game, const std::string& room, int i) {
        return ChatRecord{game,    room,
                          "Ann",   room == "players" ? "white" : "",
                          "t:abc", "l\xc3\xa9ne " + std::to_string(i) + " <b>&</b> '\"",
                          1000 + i};
    }
    std::filesystem::path dir_;
    std::string url_;
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
    std::vector<ReportRecord> r = s->list_reports(2);
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

}  // namespace

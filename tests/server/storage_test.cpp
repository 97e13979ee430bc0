// The storage tests, run against SQLite (server_tests) and against a real
// PostgreSQL server (server_postgres_tests, built with ECHECS_POSTGRES): the
// one named by $ECHECS_PG_URL, e.g. scripts/postgres-test.sh's; skipped without.
#include "server/storage.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "server/util.h"

#ifdef ECHECS_POSTGRES
#include <pqxx/pqxx>
#else
#include <SQLiteCpp/SQLiteCpp.h>
#endif

using namespace echecs;
using namespace echecs::server;

namespace {

class StorageTest : public ::testing::Test {
protected:
    void SetUp() override {
#ifdef ECHECS_POSTGRES
        const char* env = std::getenv("ECHECS_PG_URL");
        if (!env || !*env) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
        url_ = env;
        // A clean database for every test.
        pqxx::connection c(url_);
        pqxx::work w(c);
        w.exec("DROP SCHEMA public CASCADE");
        w.exec("CREATE SCHEMA public");
        w.commit();
#else
        dir_ = std::filesystem::temp_directory_path() / ("echecs-storage-" + random_id(10));
        std::filesystem::create_directories(dir_);
        url_ = (dir_ / "test.db").string();
#endif
    }
    void TearDown() override {
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    std::unique_ptr<Storage> open() { return open_storage(url_); }

    static GameRecord sample(const std::string& id, std::int64_t created) {
        GameRecord g;
        g.id = id;
        g.variant = Variant::Alice;
        g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.fen = g.initial_fen;
        g.time = {TimeControl::Realtime, 300000, 3000, 0};
        g.white = {"Ann", "tokenAAAAAAAAAAAAAAAA", 0};
        g.black = {"Computer", "", 5};
        g.created_at = created;
        g.clock_at = created;
        g.white_ms = g.black_ms = 300000;
        return g;
    }
    static MoveRecord move(int ply, const std::string& uci, const std::string& san) {
        return MoveRecord{ply, uci, san, 300000 - ply, 299000 + ply, 1000 + ply};
    }

    std::filesystem::path dir_;
    std::string url_;
};

TEST_F(StorageTest, FreshDatabaseGetsTheCurrentSchema) {
    auto s = open();
    EXPECT_EQ(s->schema_version(), SCHEMA_VERSION);
    EXPECT_TRUE(s->list_games({}, false).empty());
    EXPECT_TRUE(s->open_seeks().empty());
    EXPECT_EQ(s->last_heartbeat(), 0);
}

TEST_F(StorageTest, GameAndMovesRoundTrip) {
    GameRecord g = sample("Game0001", 100);
    {
        auto s = open();
        s->apply({SaveGame{g}});
        MoveRecord m1 = move(0, "e2e4", "e4"), m2 = move(1, "d7d5", "d5");
        g.ply = 2;
        g.fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
        g.draw_offer = "black";
        s->apply({AddMove{g.id, m1}, AddMove{g.id, m2}, SaveGame{g}});
        g.moves = {m1, m2};
        // A move that does not end the game updates only its progress.
        MoveRecord m3 = move(2, "g1f3", "Nf3");
        g.ply = 3;
        g.fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
        g.white_ms = 123;
        g.black_ms = 456;
        g.clock_at = 789;
        g.draw_offer = "";
        s->apply({AddMove{g.id, m3}, SaveProgress{g.id, g.ply, g.fen, g.white_ms, g.black_ms, g.clock_at, ""}});
        g.moves.push_back(m3);
        EXPECT_THROW(s->apply({SaveProgress{"Nothing1", 1, "", 0, 0, 0, ""}}), StorageError);
    }
    // Reopened: everything is there, byte for byte.
    auto s = open();
    auto loaded = s->load_game("Game0001");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, g);
    EXPECT_FALSE(s->load_game("Nothing1"));
}

TEST_F(StorageTest, ATransactionIsAllOrNothing) {
    auto s = open();
    GameRecord g = sample("Game0002", 100);
    s->apply({SaveGame{g}, AddMove{g.id, move(0, "e2e4", "e4")}});
    // The second write repeats ply 0: the whole transaction must fail, the
    // game row update included.
    GameRecord changed = g;
    changed.status = "over";
    EXPECT_THROW(s->apply({SaveGame{changed}, AddMove{g.id, move(0, "d2d4", "d4")}}), StorageError);
    auto loaded = s->load_game(g.id);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->status, "live");
    ASSERT_EQ(loaded->moves.size(), 1u);
    EXPECT_EQ(loaded->moves[0].uci, "e2e4");
    // And the connection is still usable.
    s->apply({AddMove{g.id, move(1, "e7e5", "e5")}});
    EXPECT_EQ(s->load_game(g.id)->moves.size(), 2u);
}

TEST_F(StorageTest, ListsFilterAndOrder) {
    auto s = open();
    for (int i = 0; i < 5; ++i) {
        GameRecord g = sample("Game000" + std::to_string(i), 100 + i);
        if (i % 2) {
            g.status = "over";
            g.result = "1-0";
            g.termination = "checkmate";
            g.ended_at = 1000 - i;  // finished in the reverse order of creation
        }
        s->apply({SaveGame{g}, AddMove{g.id, move(0, "e2e4", "e4")}});
    }
    auto live = s->list_games({"live", 50, 0}, true);
    ASSERT_EQ(live.size(), 3u);
    EXPECT_EQ(live[0].id, "Game0004");  // newest first
    EXPECT_EQ(live[2].id, "Game0000");
    EXPECT_EQ(live[0].moves.size(), 1u);
    auto over = s->list_games({"over", 50, 0}, false);
    ASSERT_EQ(over.size(), 2u);
    EXPECT_EQ(over[0].id, "Game0001");  // ended last
    EXPECT_TRUE(over[0].moves.empty());
    auto page = s->list_games({"", 2, 1}, false);
    ASSERT_EQ(page.size(), 2u);
    EXPECT_EQ(page[0].id, "Game0003");
}

TEST_F(StorageTest, SeeksAndHeartbeat) {
    auto s = open();
    SeekRecord a{
        "SeekAAAA", Variant::Avalanche, {TimeControl::Correspondence, 0, 0, 3}, "white", "Zoé", "tok", true, 50, ""};
    SeekRecord b = a;
    b.id = "SeekBBBB";
    b.created_at = 60;
    b.time = {TimeControl::Unlimited, 0, 0, 0};
    s->apply({SaveSeek{a}, SaveSeek{b}, Heartbeat{12345}});
    auto open_ = s->open_seeks();
    ASSERT_EQ(open_.size(), 2u);
    EXPECT_EQ(open_[0], b);
    EXPECT_EQ(open_[1], a);
    b.game = "GameXXXX";
    s->apply({SaveSeek{b}, DeleteSeek{a.id}, Heartbeat{23456}});
    EXPECT_TRUE(s->open_seeks().empty());
    EXPECT_EQ(*s->load_seek(b.id), b);
    EXPECT_FALSE(s->load_seek(a.id));
    EXPECT_EQ(s->last_heartbeat(), 23456);
}

TEST_F(StorageTest, NewerSchemaIsRefused) {
    { open(); }
#ifdef ECHECS_POSTGRES
    pqxx::connection c(url_);
    pqxx::work w(c);
    w.exec("UPDATE meta SET value = '999' WHERE key = 'schema_version'");
    w.commit();
#else
    SQLite::Database db(url_, SQLite::OPEN_READWRITE);
    db.exec("UPDATE meta SET value = '999' WHERE key = 'schema_version'");
#endif
    try {
        open();
        FAIL() << "opened a database with a newer schema";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
    }
}

TEST_F(StorageTest, UnreachableDatabaseIsAClearError) {
#ifdef ECHECS_POSTGRES
    EXPECT_THROW(open_storage("postgresql://postgres@127.0.0.1:1/none"), StorageError);
#else
    EXPECT_THROW(open_storage((dir_ / "missing-dir" / "x.db").string()), StorageError);
#endif
}

}  // namespace

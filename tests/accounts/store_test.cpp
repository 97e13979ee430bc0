// The accounts store on SQLite (accounts_tests) and on a real PostgreSQL
// server (accounts_postgres_tests, built with ECHECS_POSTGRES: the one named
// by $ECHECS_PG_URL, e.g. scripts/postgres-test.sh's; skipped without). The
// PostgreSQL tests use their own schema, so the server's storage tests may
// share the database.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "server/accounts/account_store.h"

#ifdef ECHECS_POSTGRES
#include <pqxx/pqxx>
#else
#include <SQLiteCpp/SQLiteCpp.h>
#endif

using namespace echecs::server::accounts;

namespace {

class StoreTest : public ::testing::Test {
protected:
    void SetUp() override {
#ifdef ECHECS_POSTGRES
        const char* env = std::getenv("ECHECS_PG_URL");
        if (!env || !*env) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
        {
            pqxx::connection c(env);
            pqxx::work w(c);
            w.exec("DROP SCHEMA IF EXISTS echecs_accounts_test CASCADE");
            w.exec("CREATE SCHEMA echecs_accounts_test");
            w.commit();
        }
        url_ = std::string(env) + (std::string(env).find('?') == std::string::npos ? "?" : "&") +
               "options=-csearch_path%3Dechecs_accounts_test";
#else
        std::random_device rd;
        dir_ = std::filesystem::temp_directory_path() / ("echecs-accounts-" + std::to_string(rd()));
        std::filesystem::create_directories(dir_);
        url_ = (dir_ / "test.db").string();
#endif
        store_ = open_account_store(url_);
    }
    void TearDown() override {
        store_.reset();
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    std::int64_t add(const std::string& name, const std::string& session = "") {
        const std::string s = session.empty() ? "s-" + name : session;
        const auto id = store_->create_account({0, name, "$argon2id$x", 1000, false}, {s, 0, 1000, 5000}, "");
        EXPECT_TRUE(id) << name;
        return id.value_or(0);
    }
    static PlayerGame game(const std::string& id, std::int64_t account, std::int64_t at, const std::string& result,
                           const std::string& variant = "chess", const std::string& speed = "blitz") {
        PlayerGame g;
        g.game_id = id, g.account_id = account, g.color = "white", g.variant = variant, g.speed = speed;
        g.result = result, g.ended_at = at, g.opponent_name = "Anonymous";
        return g;
    }

    std::filesystem::path dir_;
    std::string url_;
    std::unique_ptr<AccountStore> store_;
};

TEST_F(StoreTest, MigratesOnceAndKeepsDataAcrossReopening) {
    EXPECT_EQ(store_->schema_version(), ACCOUNTS_SCHEMA_VERSION);
    const std::int64_t id = add("Ann");
    store_.reset();
    store_ = open_account_store(url_);
    EXPECT_EQ(store_->schema_version(), ACCOUNTS_SCHEMA_VERSION);
    const auto a = store_->find_account("ann");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->id, id);
    EXPECT_EQ(a->name, "Ann");
}

#ifndef ECHECS_POSTGRES
TEST_F(StoreTest, SharesTheServersDatabaseFileInWalMode) {
    {
        SQLite::Database db(url_, SQLite::OPEN_READWRITE);
        db.exec("CREATE TABLE games (id TEXT PRIMARY KEY)");
        db.exec("INSERT INTO games VALUES ('g1')");
        EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
    }
    store_.reset();
    store_ = open_account_store(url_);
    add("Ann");
    SQLite::Database db(url_, SQLite::OPEN_READONLY);
    EXPECT_EQ(db.execAndGet("SELECT COUNT(*) FROM games").getInt(), 1);
    EXPECT_EQ(db.execAndGet("SELECT COUNT(*) FROM accounts").getInt(), 1);
}

TEST_F(StoreTest, RefusesTablesNewerThanThisProgram) {
    store_.reset();
    {
        SQLite::Database db(url_, SQLite::OPEN_READWRITE);
        db.exec("UPDATE accounts_schema SET version = 99");
    }
    EXPECT_THROW(open_account_store(url_), StoreError);
}
#endif

TEST_F(StoreTest, NamesAreUniqueInAnyLetterCase) {
    add("Ann");
    EXPECT_FALSE(store_->create_account({0, "aNN", "h", 1, false}, {"s2", 0, 1, 2}, ""));
    EXPECT_FALSE(store_->find_session("s2"));  // nothing half-written
    EXPECT_TRUE(store_->find_account("ANN"));
    EXPECT_FALSE(store_->find_account("Anna"));
    // ... and in look-alike spellings (names.h): I for l, 0 for O, rn for m.
    add("AnnLee");
    add("Bob");
    add("Sam");
    int i = 10;
    for (const char* alike : {"AnnIee", "Ann1ee", "B0b", "Sarn"})
        EXPECT_FALSE(store_->create_account({0, alike, "h", 1, false}, {"s" + std::to_string(++i), 0, 1, 2}, ""))
            << alike;
    EXPECT_TRUE(store_->create_account({0, "Anne", "h", 1, false}, {"s99", 0, 1, 2}, ""));
}

#ifndef ECHECS_POSTGRES
// Accounts made before the skeletons were stored get theirs when the store
// opens (migration 3), and then hold their look-alikes off too.
TEST_F(StoreTest, AccountsOfSchemaTwoGetTheirSkeletons) {
    add("Bob");
    store_.reset();
    {
        SQLite::Database db(url_, SQLite::OPEN_READWRITE);
        db.exec("UPDATE accounts SET name_skeleton = ''");
    }
    store_ = open_account_store(url_);
    EXPECT_FALSE(store_->create_account({0, "B0b", "h", 1, false}, {"s2", 0, 1, 2}, ""));
}
#endif

TEST_F(StoreTest, AFailedWriteNeverHalfCreatesAnAccount) {
    add("Ann", "same-session-hash");
    // The account row would be written, then the session's insert fails: the
    // whole transaction is rolled back.
    EXPECT_FALSE(store_->create_account({0, "Bob", "h", 1, false}, {"same-session-hash", 0, 1, 2}, "tok"));
    EXPECT_FALSE(store_->find_account("Bob"));
    EXPECT_FALSE(store_->token_account("tok"));
    EXPECT_TRUE(store_->create_account({0, "Bob", "h", 1, false}, {"other", 0, 1, 2}, "tok"));
}

TEST_F(StoreTest, SessionsAreRevocableOneByOneAndAllAtOnce) {
    const std::int64_t ann = add("Ann", "a1");
    store_->add_session({"a2", ann, 1000, 9000});
    store_->add_session({"a3", ann, 1000, 3000});
    const std::int64_t bob = add("Bob", "b1");
    EXPECT_EQ(store_->find_session("a2")->expires_at, 9000);
    store_->delete_session("a2");
    EXPECT_FALSE(store_->find_session("a2"));
    EXPECT_TRUE(store_->find_session("a1"));
    EXPECT_EQ(store_->delete_expired_sessions(4000), 1);  // a3 (b1 and a1 expire at 5000)
    EXPECT_FALSE(store_->find_session("a3"));
    store_->delete_sessions(ann);
    EXPECT_FALSE(store_->find_session("a1"));
    EXPECT_EQ(store_->find_session("b1")->account_id, bob);
}

TEST_F(StoreTest, PasswordChangeRevokesEveryOtherSession) {
    const std::int64_t ann = add("Ann", "a1");
    store_->add_session({"a2", ann, 1000, 9000});
    store_->set_password(ann, "$argon2id$new", "a2");
    EXPECT_EQ(store_->account_by_id(ann)->password_hash, "$argon2id$new");
    EXPECT_FALSE(store_->find_session("a1"));
    EXPECT_TRUE(store_->find_session("a2"));
}

TEST_F(StoreTest, DeletionKeepsGamesAndNameButForgetsSecrets) {
    const std::int64_t ann = add("Ann", "a1");
    store_->link_token("t1", ann, 1000);
    ResultWrite w;
    w.games.push_back(game("g1", ann, 2000, "win"));
    ASSERT_TRUE(store_->write_result(w));
    store_->delete_account(ann);
    const auto a = store_->account_by_id(ann);
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->deleted);
    EXPECT_EQ(a->password_hash, "");
    EXPECT_FALSE(store_->find_session("a1"));
    EXPECT_FALSE(store_->token_account("t1"));
    EXPECT_TRUE(store_->has_game("g1", ann));
    EXPECT_FALSE(store_->create_account({0, "ann", "h", 1, false}, {"x", 0, 1, 2}, ""));  // the name stays taken
}

TEST_F(StoreTest, BrowserTokensLinkToTheLatestAccount) {
    const std::int64_t ann = add("Ann"), bob = add("Bob");
    EXPECT_FALSE(store_->token_account("t"));
    store_->link_token("t", ann, 1);
    EXPECT_EQ(store_->token_account("t"), ann);
    store_->link_token("t", bob, 2);
    EXPECT_EQ(store_->token_account("t"), bob);
    store_->link_token("u", bob, 3);
    store_->link_token("v", ann, 3);
    store_->unlink_token("t");
    EXPECT_FALSE(store_->token_account("t"));
    EXPECT_EQ(store_->token_account("u"), bob);
    store_->unlink_tokens(bob);
    EXPECT_FALSE(store_->token_account("u"));
    EXPECT_EQ(store_->token_account("v"), ann);
}

TEST_F(StoreTest, ResultsAreWrittenWholeAndOnce) {
    const std::int64_t ann = add("Ann"), bob = add("Bob");
    ResultWrite w;
    w.ratings = {{ann, "alice", "rapid", 1600, 200, 0.09, 1, 5000}, {bob, "alice", "rapid", 1400, 200, 0.09, 1, 5000}};
    w.history = {{"alice", "rapid", "g1", 5000, 1600, 200}, {"alice", "rapid", "g1", 5000, 1400, 200}};
    w.history_accounts = {ann, bob};
    w.games = {game("g1", ann, 5000, "win", "alice", "rapid"), game("g1", bob, 5000, "loss", "alice", "rapid")};
    w.games[0].rated = w.games[1].rated = true;
    w.games[1].color = "black";
    ASSERT_TRUE(store_->write_result(w));
    EXPECT_NEAR(store_->rating(ann, "alice", "rapid")->rating, 1600, 1e-9);
    EXPECT_EQ(store_->ratings(bob).size(), 1u);
    EXPECT_FALSE(store_->rating(ann, "chess", "rapid"));

    // The same game again: refused, nothing changed.
    ResultWrite again = w;
    again.ratings[0].rating = 1700;
    EXPECT_FALSE(store_->write_result(again));
    EXPECT_NEAR(store_->rating(ann, "alice", "rapid")->rating, 1600, 1e-9);
    EXPECT_EQ(store_->history(ann, 100).size(), 1u);
    const GameCounts c = store_->counts(ann);
    EXPECT_EQ(c.all, 1);
    EXPECT_EQ(c.rated, 1);
    EXPECT_EQ(c.win, 1);
}

TEST_F(StoreTest, HistoryKeepsTheLastPointsOfEachCategoryOldestFirst) {
    const std::int64_t ann = add("Ann");
    ResultWrite w;
    for (int k = 0; k < 5; ++k) {
        w.history.push_back({"chess", "blitz", "b" + std::to_string(k), 100 + k, 1500.0 + k, 100});
        w.history_accounts.push_back(ann);
    }
    w.history.push_back({"avalanche", "bullet", "x", 50, 1400, 100});
    w.history_accounts.push_back(ann);
    ASSERT_TRUE(store_->write_result(w));
    const auto h = store_->history(ann, 3);
    ASSERT_EQ(h.size(), 4u);
    EXPECT_EQ(h[0].variant, "avalanche");
    EXPECT_EQ(h[1].game_id, "b2");
    EXPECT_EQ(h[3].game_id, "b4");
    EXPECT_NEAR(h[3].rating, 1504, 1e-9);
}

TEST_F(StoreTest, GamesArePagedByKeysetAndFiltered) {
    const std::int64_t ann = add("Ann");
    ResultWrite w;
    for (int k = 0; k < 7; ++k)
        w.games.push_back(
            game("g" + std::to_string(k), ann, 1000 + (k / 2), k % 3 == 0 ? "win" : "loss", k % 2 ? "alice" : "chess"));
    ASSERT_TRUE(store_->write_result(w));
    GameQuery q;
    q.account_id = ann;
    q.limit = 3;
    std::vector<std::string> seen;
    for (int page = 0; page < 5; ++page) {
        const auto rows = store_->games(q);
        for (const auto& g : rows) seen.push_back(g.game_id);
        if (int(rows.size()) < q.limit) break;
        q.before = rows.back().game_id;
    }
    // Newest first; ties on ended_at broken by id, no game twice or missed.
    EXPECT_EQ(seen, (std::vector<std::string>{"g6", "g5", "g4", "g3", "g2", "g1", "g0"}));
    GameQuery wins;
    wins.account_id = ann;
    wins.result = "win";
    wins.variant = "chess";
    const auto rows = store_->games(wins);
    ASSERT_EQ(rows.size(), 2u);  // g0 and g6 (g3 is an Alice game)
    for (const auto& g : rows) EXPECT_EQ(g.result, "win");
    GameQuery unknown;
    unknown.account_id = ann;
    unknown.before = "nope";
    EXPECT_TRUE(store_->games(unknown).empty());
}

TEST_F(StoreTest, LeaderboardListsActiveEstablishedLivePlayersBestFirst) {
    const std::int64_t ann = add("Ann"), bob = add("Bob"), cat = add("Cat"), dan = add("Dan"), eve = add("Eve");
    ResultWrite w;
    w.ratings = {{ann, "chess", "blitz", 1800, 60, 0.06, 30, 10'000},
                 {bob, "chess", "blitz", 1900, 60, 0.06, 30, 10'000},
                 {cat, "chess", "blitz", 2500, 300, 0.06, 2, 10'000},  // provisional
                 {dan, "chess", "blitz", 2400, 60, 0.06, 30, 100},     // inactive
                 {eve, "chess", "blitz", 2300, 60, 0.06, 30, 10'000},  // deleted below
                 {ann, "chess", "rapid", 2600, 60, 0.06, 30, 10'000}};
    ASSERT_TRUE(store_->write_result(w));
    store_->delete_account(eve);
    const auto rows = store_->leaderboard("chess", "blitz", 5000, 110, 10);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "Bob");
    EXPECT_EQ(rows[1].name, "Ann");
    EXPECT_EQ(store_->leaderboard("chess", "blitz", 5000, 110, 1).size(), 1u);
}

// A rate function for record_puzzle_attempt: +delta from the stored rating
// (1500 when none), one more puzzle; counts its calls.
PuzzleRate plus(double delta, int* calls = nullptr) {
    return [=](const std::optional<PuzzleRatingRecord>& stored) {
        if (calls) ++*calls;
        PuzzleRatingRecord r = stored.value_or(PuzzleRatingRecord{});
        r.rating += delta, r.deviation -= 10, r.puzzles += 1, r.last_at = 7000;
        return r;
    };
}

TEST_F(StoreTest, APuzzleIsRatedOncePerAccountAndTheRatingIsPerGame) {
    const std::int64_t ann = add("Ann"), bob = add("Bob");
    auto rated = [&](std::int64_t who, const std::string& id, const std::string& variant, double delta) {
        PuzzleAttemptRecord a{who, id, variant, delta > 0 ? "solved" : "failed", 6000};
        PuzzleRatingRecord base;
        base.account_id = who, base.variant = variant;
        return store_->record_puzzle_attempt(a, [&](const std::optional<PuzzleRatingRecord>& stored) {
            return plus(delta)(stored ? stored : std::optional(base));
        });
    };
    EXPECT_FALSE(store_->puzzle_rating(ann, "chess"));
    const auto first = rated(ann, "c1", "chess", 100);
    ASSERT_TRUE(first);
    EXPECT_FALSE(first->before);
    EXPECT_NEAR(first->after.rating, 1600, 1e-9);
    const auto second = rated(ann, "c2", "chess", -30);
    ASSERT_TRUE(second && second->before);
    EXPECT_NEAR(second->before->rating, 1600, 1e-9);
    EXPECT_NEAR(second->after.rating, 1570, 1e-9);
    // The same puzzle again: nothing written.
    EXPECT_FALSE(rated(ann, "c1", "chess", 500));
    const auto stored = store_->puzzle_rating(ann, "chess");
    ASSERT_TRUE(stored);
    EXPECT_NEAR(stored->rating, 1570, 1e-9);
    EXPECT_NEAR(stored->deviation, 480, 1e-9);
    EXPECT_EQ(stored->puzzles, 2);
    EXPECT_EQ(stored->last_at, 7000);
    // Another game and another account: their own ratings and attempts.
    ASSERT_TRUE(rated(ann, "a1", "alice", -200));
    ASSERT_TRUE(rated(bob, "c1", "chess", 10));
    EXPECT_EQ(store_->attempted_puzzles(ann, "chess"), (std::vector<std::string>{"c1", "c2"}));
    EXPECT_EQ(store_->attempted_puzzles(ann, "alice"), (std::vector<std::string>{"a1"}));
    EXPECT_EQ(store_->attempted_puzzles(bob, "chess"), (std::vector<std::string>{"c1"}));
    const auto all = store_->puzzle_ratings(ann);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].variant, "alice");
    EXPECT_NEAR(all[0].rating, 1300, 1e-9);
    EXPECT_NEAR(store_->puzzle_rating(bob, "chess")->rating, 1510, 1e-9);
    // Kept across reopening (the migration runs once).
    store_.reset();
    store_ = open_account_store(url_);
    EXPECT_NEAR(store_->puzzle_rating(ann, "chess")->rating, 1570, 1e-9);
    EXPECT_FALSE(rated(ann, "c2", "chess", 1));
}

#ifdef ECHECS_POSTGRES
// Two servers on one database rating the same account at once: the attempt
// whose rating changed under it reads it again, so neither update is lost.
TEST_F(StoreTest, APuzzleRatingChangedMeanwhileIsReadAgain) {
    const std::int64_t ann = add("Ann");
    ASSERT_TRUE(store_->record_puzzle_attempt({ann, "c1", "chess", "solved", 1}, plus(100)));
    auto other = open_account_store(url_);
    int calls = 0;
    const auto w = store_->record_puzzle_attempt(
        {ann, "c2", "chess", "solved", 2}, [&](const std::optional<PuzzleRatingRecord>& stored) {
            // The other server's attempt lands between this read and write.
            if (calls == 0) {
                EXPECT_TRUE(other->record_puzzle_attempt({ann, "c3", "chess", "solved", 2}, plus(5)));
            }
            return plus(10, &calls)(stored);
        });
    ASSERT_TRUE(w);
    EXPECT_EQ(calls, 2);
    EXPECT_NEAR(w->before->rating, 1605, 1e-9);
    EXPECT_NEAR(store_->puzzle_rating(ann, "chess")->rating, 1615, 1e-9);
    EXPECT_EQ(store_->puzzle_rating(ann, "chess")->puzzles, 3);
}
#else
// A database of schema 3 (before the puzzle ratings) gains their tables,
// its accounts kept.
TEST_F(StoreTest, SchemaThreeGainsThePuzzleTables) {
    const std::int64_t ann = add("Ann");
    store_.reset();
    {
        SQLite::Database db(url_, SQLite::OPEN_READWRITE);
        db.exec("DROP TABLE account_puzzle_attempts");
        db.exec("DROP TABLE account_puzzle_ratings");
        db.exec("UPDATE accounts_schema SET version = 3");
    }
    store_ = open_account_store(url_);
    EXPECT_EQ(store_->schema_version(), ACCOUNTS_SCHEMA_VERSION);
    EXPECT_TRUE(store_->find_account("Ann"));
    EXPECT_TRUE(store_->record_puzzle_attempt({ann, "c1", "chess", "solved", 1}, plus(1)));
}
#endif

}  // namespace

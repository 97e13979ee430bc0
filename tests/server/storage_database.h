// The database of the storage tests, so that one suite runs on both: a fresh
// SQLite file (server_tests, server_chat_tests) or, built with ECHECS_POSTGRES
// (server_postgres_tests), the PostgreSQL server named by $ECHECS_PG_URL
// (scripts/postgres-test.sh start), emptied; without it the tests are
// skipped, saying why. Raw SQL (an old schema, a newer version) goes through
// the storage's own connection, SqlConn, the same on both.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "server/accounts/sql_conn.h"
#include "server/app/util.h"

class StorageDatabaseTest : public ::testing::Test {
protected:
    void SetUp() override {
#ifdef ECHECS_POSTGRES
        const char* env = std::getenv("ECHECS_PG_URL");
        if (!env || !*env) GTEST_SKIP() << "no PostgreSQL server: set ECHECS_PG_URL (scripts/postgres-test.sh start)";
        url_ = env;
        sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public");  // a clean database for every test
#else
        dir_ = std::filesystem::temp_directory_path() / ("echecs-storage-" + echecs::server::random_id(10));
        std::filesystem::create_directories(dir_);
        url_ = (dir_ / "test.db").string();
#endif
    }
    void TearDown() override {
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    static constexpr bool postgres() {
#ifdef ECHECS_POSTGRES
        return true;
#else
        return false;
#endif
    }
    // Runs statements on the test's database, beside the storage.
    void sql(const std::string& script) { echecs::server::accounts::sql_conn(url_)->script(script); }

    std::filesystem::path dir_;
    std::string url_;
};

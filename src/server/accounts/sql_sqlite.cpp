// The SQLite adapter (SQLiteCpp): its own connection to the database file, in
// WAL mode so that several connections read while one writes; writers wait
// for each other (busy timeout). Prepared statements are kept by their text
// and reset after each use, so that no read holds a snapshot open.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <chrono>
#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "server/accounts/account_store.h"
#include "server/accounts/sql_conn.h"

namespace echecs::server::accounts {
namespace {

int open_flags(const SqlOptions& o) {
    if (o.read_only) return SQLite::OPEN_READONLY;
    return SQLite::OPEN_READWRITE | (o.create ? SQLite::OPEN_CREATE : 0);
}

// Small, frequent checkpoints on their own connection and thread, so that a
// commit never waits for one: with one every 500 ms the load benchmark's p99
// was three times higher (docs/PERFORMANCE.md). An error (disk full, the file
// replaced) is logged and the connection opened again: they never stop for good.
class Checkpointer {
public:
    explicit Checkpointer(std::string path) : path_(std::move(path)), thread_([this] { loop(); }) {}
    ~Checkpointer() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }

private:
    void loop() {
        std::unique_lock lock(mutex_);
        std::unique_ptr<SQLite::Database> db;
        std::chrono::milliseconds pause(25);
        std::int64_t errors = 0;
        while (!cv_.wait_for(lock, pause, [this] { return stopping_; })) {
            lock.unlock();
            try {
                if (!db) db = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE, 5000);
                db->exec("PRAGMA wal_checkpoint(PASSIVE)");
                pause = std::chrono::milliseconds(25);
            } catch (const std::exception& e) {
                if (errors++ % 100 == 0) std::cerr << "echecs serve: SQLite checkpoint: " << e.what() << "\n";
                db.reset();
                pause = std::chrono::milliseconds(1000);
            }
            lock.lock();
        }
    }
    std::string path_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::thread thread_;  // last: started once the rest is built
};

class SqliteConn final : public SqlConn {
public:
    SqliteConn(const std::string& path, const SqlOptions& o) try : name_(o.name), db_(path, open_flags(o), 5000) {
        if (o.read_only) return;
        db_.exec("PRAGMA journal_mode=WAL");
        // With WAL, NORMAL keeps every committed transaction across a crash of
        // the process (SIGKILL); only a power loss may lose the last ones.
        if (*o.synchronous) db_.exec(std::string("PRAGMA synchronous=") + o.synchronous);
        db_.exec("PRAGMA foreign_keys=ON");
        if (o.checkpoints) {
            // The automatic checkpoint stays as a backstop at 40 MB of WAL.
            db_.exec("PRAGMA wal_autocheckpoint=10000");
            checkpointer_ = std::make_unique<Checkpointer>(path);
        }
    } catch (const SQLite::Exception& e) {
        throw StoreError("cannot open the " + o.name + " " + path + ": " + e.what());
    }

    std::vector<SqlRow> query(const std::string& sql, const SqlParams& params) override {
        std::vector<SqlRow> rows;
        run(sql, params, &rows);
        return rows;
    }
    std::int64_t exec(const std::string& sql, const SqlParams& params) override { return run(sql, params, nullptr); }
    void script(const std::string& sql) override {
        guard([&] { db_.exec(sql); });
    }
    void begin() override { script("BEGIN IMMEDIATE"); }
    void commit() override { script("COMMIT"); }
    void rollback() noexcept override {
        try {
            if (!db_.getHandle() || sqlite3_get_autocommit(db_.getHandle())) return;
            db_.exec("ROLLBACK");
        } catch (...) {
        }
    }
    bool postgres() const override { return false; }

private:
    template <class F>
    void guard(F f) {
        try {
            f();
        } catch (const SQLite::Exception& e) {
            if (e.getExtendedErrorCode() == SQLITE_CONSTRAINT_UNIQUE ||
                e.getExtendedErrorCode() == SQLITE_CONSTRAINT_PRIMARYKEY)
                throw UniqueViolation(e.what());
            throw StoreError(name_ + ": " + e.what());
        }
    }

    std::int64_t run(const std::string& sql, const SqlParams& params, std::vector<SqlRow>* rows) {
        std::int64_t changes = 0;
        guard([&] {
            auto& kept = statements_[sql];
            if (!kept) kept = std::make_unique<SQLite::Statement>(db_, sql);
            SQLite::Statement& st = *kept;
            struct Reset {  // also when a step throws: a statement left open holds its snapshot
                SQLite::Statement& st;
                ~Reset() { st.tryReset(); }
            } reset{st};
            st.clearBindings();
            for (std::size_t k = 0; k < params.size(); ++k) {
                const int index = int(k + 1);
                std::visit(
                    [&](const auto& v) {
                        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>)
                            st.bind(index);
                        else
                            st.bind(index, v);
                    },
                    params[k].v);
            }
            while (st.executeStep()) {
                if (!rows) continue;
                std::vector<SqlRow::Cell> cells;
                cells.reserve(std::size_t(st.getColumnCount()));
                for (int c = 0; c < st.getColumnCount(); ++c) {
                    const SQLite::Column col = st.getColumn(c);
                    if (col.isNull())
                        cells.emplace_back(std::monostate{});
                    else if (col.isInteger())
                        cells.emplace_back(std::int64_t(col.getInt64()));
                    else if (col.isFloat())
                        cells.emplace_back(col.getDouble());
                    else
                        cells.emplace_back(col.getString());
                }
                rows->emplace_back(std::move(cells));
            }
            changes = db_.getChanges();
        });
        return changes;
    }

    std::string name_;
    SQLite::Database db_;
    std::map<std::string, std::unique_ptr<SQLite::Statement>> statements_;  // after db_: finalized first
    std::unique_ptr<Checkpointer> checkpointer_;
};

}  // namespace

std::unique_ptr<SqlConn> sqlite_conn(const std::string& path, const SqlOptions& options) {
    return std::make_unique<SqliteConn>(path, options);
}

}  // namespace echecs::server::accounts

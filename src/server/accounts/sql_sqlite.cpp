// The SQLite adapter of the accounts store (SQLiteCpp): its own connection to
// the server's database file, in WAL mode so that it and the server's
// connections read while one writes; writers wait for each other (busy timeout).
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include "server/accounts/account_store.h"
#include "server/accounts/sql_conn.h"

namespace echecs::server::accounts {
namespace {

class SqliteConn final : public SqlConn {
public:
    explicit SqliteConn(const std::string& path) try : db_(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 5000) {
        db_.exec("PRAGMA journal_mode=WAL");
        db_.exec("PRAGMA foreign_keys=ON");
    } catch (const SQLite::Exception& e) {
        throw StoreError("cannot open the accounts database " + path + ": " + e.what());
    }

    std::vector<SqlRow> query(const std::string& sql, const SqlParams& params) override {
        try {
            SQLite::Statement st(db_, sql);
            for (std::size_t k = 0; k < params.size(); ++k) {
                const int index = int(k + 1);
                std::visit([&](const auto& v) { st.bind(index, v); }, params[k]);
            }
            std::vector<SqlRow> rows;
            while (st.executeStep()) {
                std::vector<SqlRow::Cell> cells;
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
                rows.emplace_back(std::move(cells));
            }
            return rows;
        } catch (const SQLite::Exception& e) {
            if (e.getExtendedErrorCode() == SQLITE_CONSTRAINT_UNIQUE ||
                e.getExtendedErrorCode() == SQLITE_CONSTRAINT_PRIMARYKEY)
                throw UniqueViolation(e.what());
            throw StoreError(std::string("accounts database: ") + e.what());
        }
    }
    void script(const std::string& sql) override { run(sql); }
    void begin() override { run("BEGIN IMMEDIATE"); }
    void commit() override { run("COMMIT"); }
    void rollback() noexcept override {
        try {
            if (!db_.getHandle() || sqlite3_get_autocommit(db_.getHandle())) return;
            db_.exec("ROLLBACK");
        } catch (...) {
        }
    }
    bool postgres() const override { return false; }

private:
    void run(const std::string& sql) {
        try {
            db_.exec(sql);
        } catch (const SQLite::Exception& e) {
            throw StoreError(std::string("accounts database: ") + e.what());
        }
    }
    SQLite::Database db_;
};

}  // namespace

std::unique_ptr<SqlConn> sqlite_conn(const std::string& path) { return std::make_unique<SqliteConn>(path); }

}  // namespace echecs::server::accounts

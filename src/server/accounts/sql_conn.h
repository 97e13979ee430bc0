// The SQL connection the accounts store and the game storage
// (server/storage) are written against, so that one implementation of their
// queries serves SQLite and PostgreSQL. Statements use `?` placeholders (the
// PostgreSQL adapter numbers them) and the SQL both databases share: upserts
// as INSERT ... ON CONFLICT DO UPDATE, RETURNING, booleans bound and read as
// 0 and 1. What differs is here and in the two adapters, nowhere else: the
// column types of migrations (dialect()) and the set-up of a connection
// (SqlOptions). Every statement is prepared once per connection and kept,
// by its text: build statements from constant pieces, never from values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace echecs::server::accounts {

// A parameter: NULL (the default, or an empty optional), an integer (bool
// as 0 or 1), a real or a text.
struct SqlValue {
    std::variant<std::monostate, std::int64_t, double, std::string> v;
    SqlValue() = default;
    SqlValue(std::nullopt_t) {}
    SqlValue(bool b) : v(std::int64_t(b)) {}
    SqlValue(int i) : v(std::int64_t(i)) {}
    SqlValue(std::int64_t i) : v(i) {}
    SqlValue(double d) : v(d) {}
    SqlValue(std::string s) : v(std::move(s)) {}
    SqlValue(const char* s) : v(std::string(s)) {}
    template <class T>
    SqlValue(const std::optional<T>& o) {
        if (o) *this = SqlValue(*o);
    }
};
using SqlParams = std::vector<SqlValue>;

// One result row; every cell read as the type asked for (NULL reads as 0 or "").
class SqlRow {
public:
    using Cell = std::variant<std::monostate, std::int64_t, double, std::string>;
    explicit SqlRow(std::vector<Cell> cells) : cells_(std::move(cells)) {}
    std::int64_t i(std::size_t k) const;
    double d(std::size_t k) const;
    std::string s(std::size_t k) const;
    bool b(std::size_t k) const { return i(k) != 0; }
    bool null(std::size_t k) const { return std::holds_alternative<std::monostate>(cells_.at(k)); }

private:
    std::vector<Cell> cells_;
};

class SqlConn {
public:
    virtual ~SqlConn() = default;
    // Runs one statement; the rows it returns. Throws StoreError; a
    // unique-constraint failure throws UniqueViolation.
    virtual std::vector<SqlRow> query(const std::string& sql, const SqlParams& params = {}) = 0;
    // Runs one statement; the number of rows it inserted, changed or deleted.
    virtual std::int64_t exec(const std::string& sql, const SqlParams& params = {}) = 0;
    // Several statements without parameters (migrations), not kept prepared.
    virtual void script(const std::string& sql) = 0;
    // A write transaction (SQLite: BEGIN IMMEDIATE); rollback on any failure.
    // Outside one, each statement commits alone.
    virtual void begin() = 0;
    virtual void commit() = 0;
    virtual void rollback() noexcept = 0;
    virtual bool postgres() const = 0;
    // `sql` in this database's words (for migrations): {INT} a 64-bit
    // integer, {BOOL} a boolean, {TRUE} and {FALSE}, {ROWID} an integer key
    // numbered by the database, {ID} one never reused, {REAL} a double.
    std::string dialect(std::string sql) const;
};

struct UniqueViolation : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct SqlOptions {
    std::string name = "accounts database";  // the database as error messages name it
    // SQLite only; PostgreSQL follows its own settings.
    bool read_only = false;        // opened read-only, with no set-up
    bool create = true;            // a missing file is created
    const char* synchronous = "";  // "NORMAL" or "FULL"; "" leaves SQLite's default
    bool checkpoints = false;      // the WAL checkpointed on a thread of its own
};

std::unique_ptr<SqlConn> sqlite_conn(const std::string& path, const SqlOptions& options = {});
std::unique_ptr<SqlConn> postgres_conn(const std::string& url, const SqlOptions& options = {});
// "postgresql://..." or "postgres://..." is PostgreSQL, anything else a SQLite file.
bool is_postgres_url(const std::string& url);
std::unique_ptr<SqlConn> sql_conn(const std::string& url, const SqlOptions& options = {});

}  // namespace echecs::server::accounts

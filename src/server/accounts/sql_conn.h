// A minimal SQL connection the accounts store is written against, so that one
// implementation of its queries serves SQLite and PostgreSQL. Statements use
// `?` placeholders (the PostgreSQL adapter numbers them). Internal to the
// accounts library.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace echecs::server::accounts {

using SqlValue = std::variant<std::int64_t, double, std::string>;
using SqlParams = std::vector<SqlValue>;

// One result row; every cell read as the type asked for.
class SqlRow {
public:
    using Cell = std::variant<std::monostate, std::int64_t, double, std::string>;
    explicit SqlRow(std::vector<Cell> cells) : cells_(std::move(cells)) {}
    std::int64_t i(std::size_t k) const;
    double d(std::size_t k) const;
    std::string s(std::size_t k) const;

private:
    std::vector<Cell> cells_;
};

class SqlConn {
public:
    virtual ~SqlConn() = default;
    // Runs one statement; the rows it returns. Throws StoreError; a
    // unique-constraint failure throws UniqueViolation.
    virtual std::vector<SqlRow> query(const std::string& sql, const SqlParams& params = {}) = 0;
    // Several statements without parameters (migrations).
    virtual void script(const std::string& sql) = 0;
    // A write transaction (SQLite: BEGIN IMMEDIATE); rollback on any failure.
    virtual void begin() = 0;
    virtual void commit() = 0;
    virtual void rollback() noexcept = 0;
    virtual bool postgres() const = 0;
};

struct UniqueViolation : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::unique_ptr<SqlConn> sqlite_conn(const std::string& path);
std::unique_ptr<SqlConn> postgres_conn(const std::string& url);

}  // namespace echecs::server::accounts

// The PostgreSQL adapter (libpqxx): `?` placeholders become $1, $2...;
// parameters are sent as text and typed by the server from the statement.
// Each statement is prepared on the connection once; outside a transaction it
// runs alone (autocommit). One transaction object at a time.
#include <cstdio>
#include <map>
#include <optional>
#include <pqxx/pqxx>

#include "server/accounts/account_store.h"
#include "server/accounts/sql_conn.h"

namespace echecs::server::accounts {
namespace {

std::string numbered(const std::string& sql) {
    std::string out;
    int n = 0;
    bool quoted = false;
    for (char c : sql) {
        if (c == '\'') quoted = !quoted;
        if (c == '?' && !quoted) {
            out += '$';  // two appends: GCC 12 warns (-Wrestrict, a false positive) on "$" + string
            out += std::to_string(++n);
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<std::string> text(const SqlValue& p) {
    if (const auto* i = std::get_if<std::int64_t>(&p.v)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&p.v)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", *d);
        return buf;
    }
    if (const auto* s = std::get_if<std::string>(&p.v)) return *s;
    return std::nullopt;  // NULL
}

class PostgresConn final : public SqlConn {
public:
    PostgresConn(const std::string& url, const SqlOptions& o) try : name_(o.name), conn_(url) {
    } catch (const std::exception& e) {
        throw StoreError("cannot connect to the " + o.name + ": " + e.what());
    }

    std::vector<SqlRow> query(const std::string& sql, const SqlParams& params) override {
        const pqxx::result r = run(sql, params);
        std::vector<SqlRow> rows;
        rows.reserve(r.size());
        for (const auto& row : r) {
            std::vector<SqlRow::Cell> cells;
            cells.reserve(row.size());
            for (const auto& f : row) {
                if (f.is_null())
                    cells.emplace_back(std::monostate{});
                else
                    cells.emplace_back(std::string(f.c_str(), f.size()));
            }
            rows.emplace_back(std::move(cells));
        }
        return rows;
    }
    std::int64_t exec(const std::string& sql, const SqlParams& params) override {
        return std::int64_t(run(sql, params).affected_rows());
    }
    void script(const std::string& sql) override {
        guard([&] {
            if (work_) return void(work_->exec(sql));
            pqxx::nontransaction n(conn_);
            n.exec(sql);
        });
    }
    void begin() override {
        guard([&] { work_.emplace(conn_); });
    }
    void commit() override {
        try {
            guard([&] { work_->commit(); });
        } catch (...) {
            work_.reset();
            throw;
        }
        work_.reset();
    }
    void rollback() noexcept override {
        try {
            if (work_) work_->abort();
        } catch (...) {
        }
        work_.reset();
    }
    bool postgres() const override { return true; }

private:
    template <class F>
    auto guard(F f) -> decltype(f()) {
        try {
            return f();
        } catch (const pqxx::unique_violation& e) {
            throw UniqueViolation(e.what());
        } catch (const pqxx::failure& e) {
            throw StoreError(name_ + ": " + e.what());
        }
    }

    pqxx::result run(const std::string& sql, const SqlParams& params) {
        return guard([&] {
            auto [it, added] = statements_.try_emplace(sql, "s" + std::to_string(statements_.size() + 1));
            if (added) {
                try {
                    conn_.prepare(it->second, numbered(sql));
                } catch (...) {
                    statements_.erase(it);
                    throw;
                }
            }
            std::vector<std::optional<std::string>> values;
            values.reserve(params.size());
            for (const SqlValue& v : params) values.push_back(text(v));
            const auto args = pqxx::prepare::make_dynamic_params(values);
            if (work_) return work_->exec_prepared(it->second, args);
            pqxx::nontransaction n(conn_);
            return n.exec_prepared(it->second, args);
        });
    }

    std::string name_;
    pqxx::connection conn_;
    std::optional<pqxx::work> work_;
    std::map<std::string, std::string> statements_;  // text -> prepared statement's name
};

}  // namespace

std::unique_ptr<SqlConn> postgres_conn(const std::string& url, const SqlOptions& options) {
    return std::make_unique<PostgresConn>(url, options);
}

}  // namespace echecs::server::accounts

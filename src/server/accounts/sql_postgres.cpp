// The PostgreSQL adapter of the accounts store (libpqxx): `?` placeholders
// become $1, $2...; parameters are sent as text and typed by the server from
// the statement. One transaction object at a time.
#include <cstdio>
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

std::string text(const SqlValue& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&v)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", *d);
        return buf;
    }
    return std::get<std::string>(v);
}

class PostgresConn final : public SqlConn {
public:
    explicit PostgresConn(const std::string& url) try : conn_(url) {
    } catch (const std::exception& e) {
        throw StoreError(std::string("cannot connect to the accounts database: ") + e.what());
    }

    std::vector<SqlRow> query(const std::string& sql, const SqlParams& params) override {
        try {
            std::vector<std::string> values;
            values.reserve(params.size());
            for (const SqlValue& v : params) values.push_back(text(v));
            pqxx::result r;
            if (work_) {
                r = work_->exec_params(numbered(sql), pqxx::prepare::make_dynamic_params(values));
            } else {
                pqxx::work w(conn_);
                r = w.exec_params(numbered(sql), pqxx::prepare::make_dynamic_params(values));
                w.commit();
            }
            std::vector<SqlRow> rows;
            for (const auto& row : r) {
                std::vector<SqlRow::Cell> cells;
                for (const auto& f : row) {
                    if (f.is_null())
                        cells.emplace_back(std::monostate{});
                    else
                        cells.emplace_back(std::string(f.c_str()));
                }
                rows.emplace_back(std::move(cells));
            }
            return rows;
        } catch (const pqxx::unique_violation& e) {
            throw UniqueViolation(e.what());
        } catch (const pqxx::failure& e) {
            throw StoreError(std::string("accounts database: ") + e.what());
        }
    }
    void script(const std::string& sql) override {
        try {
            if (work_) {
                work_->exec(sql);
            } else {
                pqxx::work w(conn_);
                w.exec(sql);
                w.commit();
            }
        } catch (const pqxx::failure& e) {
            throw StoreError(std::string("accounts database: ") + e.what());
        }
    }
    void begin() override {
        try {
            work_.emplace(conn_);
        } catch (const pqxx::failure& e) {
            throw StoreError(std::string("accounts database: ") + e.what());
        }
    }
    void commit() override {
        try {
            work_->commit();
            work_.reset();
        } catch (const pqxx::failure& e) {
            work_.reset();
            throw StoreError(std::string("accounts database: ") + e.what());
        }
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
    pqxx::connection conn_;
    std::optional<pqxx::work> work_;
};

}  // namespace

std::unique_ptr<SqlConn> postgres_conn(const std::string& url) { return std::make_unique<PostgresConn>(url); }

}  // namespace echecs::server::accounts

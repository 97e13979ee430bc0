// What the two adapters share: reading cells, the dialects' words, the choice
// of the database by its URL.
#include "server/accounts/sql_conn.h"

#include <cstdlib>

namespace echecs::server::accounts {

std::int64_t SqlRow::i(std::size_t k) const {
    const Cell& c = cells_.at(k);
    if (const auto* v = std::get_if<std::int64_t>(&c)) return *v;
    if (const auto* v = std::get_if<double>(&c)) return std::int64_t(*v);
    if (const auto* v = std::get_if<std::string>(&c)) {
        if (*v == "t") return 1;  // PostgreSQL booleans
        if (*v == "f") return 0;
        return std::strtoll(v->c_str(), nullptr, 10);
    }
    return 0;
}
double SqlRow::d(std::size_t k) const {
    const Cell& c = cells_.at(k);
    if (const auto* v = std::get_if<double>(&c)) return *v;
    if (const auto* v = std::get_if<std::int64_t>(&c)) return double(*v);
    if (const auto* v = std::get_if<std::string>(&c)) return std::strtod(v->c_str(), nullptr);
    return 0;
}
std::string SqlRow::s(std::size_t k) const {
    const Cell& c = cells_.at(k);
    if (const auto* v = std::get_if<std::string>(&c)) return *v;
    if (const auto* v = std::get_if<std::int64_t>(&c)) return std::to_string(*v);
    if (const auto* v = std::get_if<double>(&c)) return std::to_string(*v);
    return "";
}

std::string SqlConn::dialect(std::string sql) const {
    const bool pg = postgres();
    auto replace = [&](const std::string& from, const std::string& to) {
        for (std::size_t p; (p = sql.find(from)) != std::string::npos;) sql.replace(p, from.size(), to);
    };
    replace("{ID}", pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT");
    replace("{ROWID}", pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY");
    replace("{INT}", pg ? "BIGINT" : "INTEGER");
    replace("{REAL}", pg ? "DOUBLE PRECISION" : "REAL");
    replace("{BOOL}", pg ? "BOOLEAN" : "INTEGER");
    replace("{TRUE}", pg ? "TRUE" : "1");
    replace("{FALSE}", pg ? "FALSE" : "0");
    return sql;
}

bool is_postgres_url(const std::string& url) {
    return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

std::unique_ptr<SqlConn> sql_conn(const std::string& url, const SqlOptions& options) {
    return is_postgres_url(url) ? postgres_conn(url, options) : sqlite_conn(url, options);
}

}  // namespace echecs::server::accounts

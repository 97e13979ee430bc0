// The accounts' HTTP inputs: a Cookie header, a JSON body, a query string
// and a user name as a client sends them, to every endpoint, against a
// SQLite store in memory. Never a crash; every answer is a known status with
// a JSON body that serialises, an error names a reason, and a Set-Cookie is
// only ever the session cookie.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "server/accounts/account_http.h"

using namespace echecs::server::accounts;

namespace {

void check(bool cond, const char* what) {
    if (!cond) {
        std::fprintf(stderr, "invariant broken: %s\n", what);
        std::abort();
    }
}

Accounts& accounts() {
    static std::int64_t now = 1'800'000'000'000;
    static const std::unique_ptr<Accounts> a = [] {
        AccountsOptions o;
        o.cost = HashCost::minimal();
        auto acc = std::make_unique<Accounts>(open_account_store(":memory:"), o, [] { return now += 1000; });
        acc->sign_up("Ann", "correct horse", "fuzz-seed", "");
        return acc;
    }();
    return *a;
}

// The input's next line ("" past the end).
std::string line(std::string_view& in) {
    const std::size_t nl = std::min(in.find('\n'), in.size());
    std::string out(in.substr(0, nl));
    in.remove_prefix(std::min(nl + 1, in.size()));
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 8192) return 0;
    const std::uint8_t which = data[0], flags = data[1];
    std::string_view in(reinterpret_cast<const char*>(data + 2), size - 2);
    HttpIn req;
    req.cookie = line(in);
    req.name = line(in);
    const std::string query = line(in);
    for (std::size_t k = 0; k < query.size(); ++k)  // "key=value" pairs split on '&'
        if (auto eq = query.find('=', k); eq != std::string::npos) {
            const std::size_t amp = std::min(query.find('&', eq), query.size());
            req.query[query.substr(k, eq - k)] = query.substr(eq + 1, amp - eq - 1);
            k = amp;
        } else {
            break;
        }
    req.body = nlohmann::json::parse(in, nullptr, false);
    if (req.body.is_discarded()) req.body = std::string(in);  // a body the server would refuse: still must not crash
    req.content_type = flags & 1 ? "application/json" : "text/plain";
    req.cross_site = flags & 2;
    req.tls = flags & 4;
    req.client_ip = "10.0.0." + std::to_string(flags >> 4);
    req.token = flags & 8 ? req.name : "";

    Accounts& a = accounts();
    HttpAnswer (*const endpoints[])(Accounts&, const HttpIn&) = {
        http_sign_up, http_log_in, http_log_out,    http_change_password, http_delete_account,
        http_me,      http_user,   http_user_games, http_leaderboard};
    const HttpAnswer r = endpoints[which % std::size(endpoints)](a, req);
    check(r.status == 200 || r.status == 201 || r.status == 400 || r.status == 401 || r.status == 403 ||
              r.status == 404 || r.status == 409 || r.status == 415 || r.status == 429 || r.status == 503,
          "a known status");
    const std::string text = r.body.dump();  // throws on invalid UTF-8: an error must never echo input
    check(!text.empty(), "a body");
    if (r.status >= 400) check(r.body["error"]["reason"].is_string(), "an error names its reason");
    if (!r.set_cookie.empty()) check(r.set_cookie.rfind("echecs_session=", 0) == 0, "only the session cookie");
    if (auto s = session_cookie(req.cookie)) check(s->size() == 43, "a well-formed secret");
    return 0;
}

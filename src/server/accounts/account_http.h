// The accounts' HTTP API as functions: what the server's route handlers pass
// in (the parsed JSON body, the Cookie and Content-Type headers, the client
// address, the browser token, whether the request came over TLS and whether
// the server's Origin check found it cross-site) and what they send back
// (status, JSON body, Set-Cookie value, Retry-After). Run on the accounts
// worker (AccountService::handle), never on the I/O thread.
//
// Cross-site request forgery: every state-changing endpoint requires
// `Content-Type: application/json` (a cross-site HTML form cannot send it,
// and a script on another site cannot without a CORS preflight the server
// never grants) and refuses a request the server marks cross-site (its
// Origin check: an Origin header that is neither the served host nor an
// allowed origin, or Sec-Fetch-Site: cross-site). The session cookie is also
// SameSite=Lax, so other sites' POSTs do not carry it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "server/accounts/accounts.h"

namespace echecs::server::accounts {

inline constexpr std::string_view SESSION_COOKIE = "echecs_session";
// A browser that logged in to an account (OWASP's device cookie): sent only
// to POST /api/login (its Path), HttpOnly.
inline constexpr std::string_view DEVICE_COOKIE = "echecs_device";

struct HttpIn {
    nlohmann::json body = nlohmann::json::object();  // parsed by the server; null or {} when empty
    std::string content_type;                        // the Content-Type header
    std::string cookie;                              // the Cookie header(s), joined by "; "
    std::string client_ip;
    std::string token;                         // X-Echecs-Token ("" when absent)
    bool tls = false;                          // the request came over HTTPS (or a trusted proxy says so)
    bool cross_site = false;                   // the server's Origin check failed
    std::string name;                          // /api/users/<name>
    std::map<std::string, std::string> query;  // the query string's parameters
};

struct HttpAnswer {
    int status = 200;
    nlohmann::json body;
    std::string set_cookie;          // "" for none: the Set-Cookie header's value
    std::int64_t retry_after_s = 0;  // > 0: send a Retry-After header
    std::int64_t account_id = 0;     // sign-up and log-in: the account (to claim the browser's games);
                                     // log-out everywhere: the account logged out
    std::string device_cookie;       // "" for none: a second Set-Cookie header (the device cookie)
};

// The session secret of a Cookie header, if it holds a well-formed one (43
// base64url characters); anything else (hostile, oversized, duplicated
// names) is ignored, never an error.
std::optional<std::string> session_cookie(std::string_view cookie_header);
std::string session_set_cookie(const std::string& secret, std::int64_t max_age_s, bool tls);
std::string session_clear_cookie(bool tls);
// The device cookie of a Cookie header (at most 160 bytes of [A-Za-z0-9._-]),
// or "" (anything else is ignored).
std::string device_cookie(std::string_view cookie_header);
std::string device_set_cookie(const std::string& value, std::int64_t max_age_s, bool tls);

// A request that hashes a password, in steps, so that AccountService runs
// the hash on a worker while its accounts thread serves other requests;
// http_sign_up & co. run the same steps in a row.
struct HttpStaged {
    std::optional<HttpAnswer> answer;  // answered already (bad fields, a limit, not logged in): no hash
    std::string account;               // the account's name key: its log-ins are served fairly
    bool trusted = false;              // a device cookie of the account or a session: the trusted queue
    // When its hash is about to run: the limits again and the attempt
    // counted (nullopt), or the refusal.
    std::function<std::optional<HttpAnswer>(Accounts&)> admit;
    std::shared_ptr<PasswordWork> work;
    std::function<HttpAnswer(Accounts&)> finish;  // after the hash
};
HttpStaged stage_sign_up(Accounts& a, const HttpIn& in);
HttpStaged stage_log_in(Accounts& a, const HttpIn& in);
HttpStaged stage_change_password(Accounts& a, const HttpIn& in);
HttpStaged stage_delete_account(Accounts& a, const HttpIn& in);
HttpAnswer run_staged(Accounts& a, HttpStaged s);

// POST /api/account {"username","password"} -> 201 {"username"} and a cookie.
HttpAnswer http_sign_up(Accounts& a, const HttpIn& in);
// POST /api/login {"username","password"} -> 200 {"username"} and a cookie.
HttpAnswer http_log_in(Accounts& a, const HttpIn& in);
// POST /api/logout {} or {"everywhere": true} -> 200 {"ok": true}, cookie cleared.
HttpAnswer http_log_out(Accounts& a, const HttpIn& in);
// POST /api/account/password {"old_password","new_password"} -> 200 {"ok": true}.
HttpAnswer http_change_password(Accounts& a, const HttpIn& in);
// DELETE /api/account {"password"} -> 200 {"ok": true}, cookie cleared.
HttpAnswer http_delete_account(Accounts& a, const HttpIn& in);
// GET /api/account -> 200 {"username","created_at","puzzle_ratings"}, 401 when not logged in.
HttpAnswer http_me(Accounts& a, const HttpIn& in);
// GET /api/users/<name> -> the profile, 404 user_not_found.
HttpAnswer http_user(Accounts& a, const HttpIn& in);
// GET /api/users/<name>/games?before=&variant=&speed=&result=&limit=
HttpAnswer http_user_games(Accounts& a, const HttpIn& in);
// GET /api/leaderboard?variant=&speed=
HttpAnswer http_leaderboard(Accounts& a, const HttpIn& in);

// An error as an answer (with Retry-After for rate limits).
HttpAnswer error_answer(const AccountError& e);
// f's answer, or its error's (AccountError as itself, StoreError as
// storage_failed, anything else as internal).
HttpAnswer guarded_answer(const std::function<HttpAnswer()>& f);

}  // namespace echecs::server::accounts

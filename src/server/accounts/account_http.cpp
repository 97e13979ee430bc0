#include "server/accounts/account_http.h"

#include "server/accounts/puzzle_ratings.h"
#include "server/accounts/speed.h"

namespace echecs::server::accounts {

using nlohmann::json;

namespace {

constexpr std::size_t MAX_COOKIE_HEADER = 8192;
constexpr std::size_t SECRET_CHARS = 43;          // new_secret(): 32 bytes in base64url
constexpr std::size_t MAX_NAME_BYTES = 64;        // longer names are refused before any lookup
constexpr std::size_t MAX_PASSWORD_BYTES = 1024;  // longer: refused before hashing (check_password: 256)

bool base64url(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// A state-changing request: JSON only, never cross-site.
void check_state_changing(const HttpIn& in) {
    if (in.cross_site) throw ApiError(Reason::cross_site, "cross-site requests are refused");
    const std::string_view ct = in.content_type;
    const std::string_view json_type = "application/json";
    bool ok = ct.size() >= json_type.size();
    for (std::size_t i = 0; ok && i < json_type.size(); ++i)
        ok = char(std::tolower(static_cast<unsigned char>(ct[i]))) == json_type[i];
    if (ok && ct.size() > json_type.size()) ok = ct[json_type.size()] == ';' || ct[json_type.size()] == ' ';
    if (!ok) throw ApiError(Reason::content_type, "state-changing requests must be application/json");
    if (!in.body.is_object() && !in.body.is_null())
        throw bad_field("", Reason::body_not_object, "the body must be a JSON object");
}

const json& body_of(const HttpIn& in) {
    static const json empty = json::object();
    return in.body.is_object() ? in.body : empty;
}

// A string field of the body: missing, not a string, or longer than
// max_bytes are errors naming it.
std::string text_field(const HttpIn& in, const char* field, std::size_t max_bytes, Reason too_long_reason) {
    const json& b = body_of(in);
    const auto it = b.find(field);
    if (it == b.end() || it->is_null()) throw bad_field(field, Reason::missing, std::string(field) + " is missing");
    if (!it->is_string()) throw bad_field(field, Reason::not_string, std::string(field) + " must be a string");
    const std::string& s = it->get_ref<const std::string&>();
    if (s.size() > max_bytes) throw bad_field(field, too_long_reason, std::string(field) + " is too long");
    return s;
}

std::string secret_of(const HttpIn& in) { return session_cookie(in.cookie).value_or(""); }

HttpAnswer session_answer(int status, const SessionInfo& s, const Accounts& a, bool tls) {
    HttpAnswer out;
    out.status = status;
    out.body = {{"username", s.username}};
    out.set_cookie = session_set_cookie(s.secret, a.options().session_ms / 1000, tls);
    if (!s.device.empty()) out.device_cookie = device_set_cookie(s.device, a.options().device_ms / 1000, tls);
    out.account_id = s.account_id;
    return out;
}

template <class F>
HttpAnswer guarded(F f) {
    try {
        return f();
    } catch (const AccountError& e) {
        return error_answer(e);
    } catch (const StoreError& e) {
        return error_answer(ApiError(Reason::storage_failed, e.what()));
    } catch (const std::exception& e) {
        return error_answer(ApiError(Reason::internal, std::string("internal error: ") + e.what()));
    }
}

HttpAnswer ok() { return {200, {{"ok", true}}, "", 0, 0, ""}; }

std::string query(const HttpIn& in, const char* name) {
    const auto it = in.query.find(name);
    return it == in.query.end() ? "" : it->second;
}

}  // namespace

std::optional<std::string> session_cookie(std::string_view header) {
    if (header.size() > MAX_COOKIE_HEADER) return std::nullopt;
    std::optional<std::string> found;
    while (!header.empty()) {
        const std::size_t end = std::min(header.find(';'), header.size());
        std::string_view pair = header.substr(0, end);
        header.remove_prefix(std::min(end + 1, header.size()));
        while (!pair.empty() && (pair.front() == ' ' || pair.front() == '\t')) pair.remove_prefix(1);
        while (!pair.empty() && (pair.back() == ' ' || pair.back() == '\t')) pair.remove_suffix(1);
        const std::size_t eq = pair.find('=');
        if (eq == std::string_view::npos || pair.substr(0, eq) != SESSION_COOKIE) continue;
        std::string_view value = pair.substr(eq + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        if (value.size() != SECRET_CHARS) continue;
        bool good = true;
        for (char c : value) good = good && base64url(c);
        if (!good) continue;
        // Two different well-formed sessions: trust neither (a planted cookie
        // for a parent domain must not pick the account).
        if (found && *found != value) return std::nullopt;
        found = std::string(value);
    }
    return found;
}

std::string session_set_cookie(const std::string& secret, std::int64_t max_age_s, bool tls) {
    return std::string(SESSION_COOKIE) + "=" + secret + "; Max-Age=" + std::to_string(max_age_s) +
           "; Path=/; HttpOnly; SameSite=Lax" + (tls ? "; Secure" : "");
}

std::string session_clear_cookie(bool tls) {
    return std::string(SESSION_COOKIE) + "=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax" + (tls ? "; Secure" : "");
}

std::string device_cookie(std::string_view header) {
    if (header.size() > MAX_COOKIE_HEADER) return "";
    while (!header.empty()) {
        const std::size_t end = std::min(header.find(';'), header.size());
        std::string_view pair = header.substr(0, end);
        header.remove_prefix(std::min(end + 1, header.size()));
        while (!pair.empty() && (pair.front() == ' ' || pair.front() == '\t')) pair.remove_prefix(1);
        while (!pair.empty() && (pair.back() == ' ' || pair.back() == '\t')) pair.remove_suffix(1);
        const std::size_t eq = pair.find('=');
        if (eq == std::string_view::npos || pair.substr(0, eq) != DEVICE_COOKIE) continue;
        const std::string_view value = pair.substr(eq + 1);
        bool good = !value.empty() && value.size() <= 160;
        for (char c : value) good = good && (base64url(c) || c == '.');
        if (good) return std::string(value);  // the first well-formed one; its signature decides
    }
    return "";
}

std::string device_set_cookie(const std::string& value, std::int64_t max_age_s, bool tls) {
    return std::string(DEVICE_COOKIE) + "=" + value + "; Max-Age=" + std::to_string(max_age_s) +
           "; Path=/api/login; HttpOnly; SameSite=Lax" + (tls ? "; Secure" : "");
}

HttpAnswer guarded_answer(const std::function<HttpAnswer()>& f) { return guarded(f); }

HttpAnswer error_answer(const AccountError& e) {
    return HttpAnswer{http_status(e), error_body(e), "", retry_after_seconds(e), 0, ""};
}

namespace {

// The steps' errors become answers, as guarded() does.
std::optional<HttpAnswer> refusal_of(const std::function<void()>& f) {
    HttpAnswer a = guarded([&] {
        f();
        return HttpAnswer{};
    });
    if (a.status == 200 && a.body.is_null()) return std::nullopt;
    return a;
}

template <class F>
HttpStaged staged(F f) {
    HttpStaged s;
    HttpAnswer a = guarded([&] {
        s = f();
        return HttpAnswer{};
    });
    if (!(a.status == 200 && a.body.is_null())) {
        s = HttpStaged{};
        s.answer = std::move(a);
    }
    return s;
}

}  // namespace

HttpStaged stage_sign_up(Accounts& a, const HttpIn& in) {
    return staged([&] {
        check_state_changing(in);
        const std::string name = text_field(in, "username", MAX_NAME_BYTES, Reason::username_length);
        const std::string password = text_field(in, "password", MAX_PASSWORD_BYTES, Reason::password_long);
        auto plan = std::make_shared<SignUpPlan>(a.sign_up_prepare(name, password, in.client_ip));
        HttpStaged s;
        s.account = canonical_username(name);
        s.work = std::shared_ptr<PasswordWork>(plan, &plan->work);
        s.admit = [plan](Accounts& acc) { return refusal_of([&] { acc.sign_up_admit(*plan); }); };
        s.finish = [plan, in](Accounts& acc) {
            return guarded([&] { return session_answer(201, acc.sign_up_finish(*plan, in.token), acc, in.tls); });
        };
        return s;
    });
}

HttpStaged stage_log_in(Accounts& a, const HttpIn& in) {
    return staged([&] {
        check_state_changing(in);
        const std::string name = text_field(in, "username", MAX_NAME_BYTES, Reason::username_length);
        const std::string password = text_field(in, "password", MAX_PASSWORD_BYTES, Reason::password_long);
        auto plan =
            std::make_shared<LoginPlan>(a.log_in_prepare(name, password, in.client_ip, device_cookie(in.cookie)));
        HttpStaged s;
        s.account = plan->name_key;
        s.trusted = plan->trusted;
        s.work = std::shared_ptr<PasswordWork>(plan, &plan->work);
        s.admit = [plan](Accounts& acc) { return refusal_of([&] { acc.log_in_admit(*plan); }); };
        s.finish = [plan, in](Accounts& acc) {
            return guarded([&] { return session_answer(200, acc.log_in_finish(*plan, in.token), acc, in.tls); });
        };
        return s;
    });
}

HttpStaged stage_change_password(Accounts& a, const HttpIn& in) {
    return staged([&] {
        check_state_changing(in);
        const std::string old_password = text_field(in, "old_password", MAX_PASSWORD_BYTES, Reason::password_long);
        const std::string new_password = text_field(in, "new_password", MAX_PASSWORD_BYTES, Reason::password_long);
        auto plan = std::make_shared<OwnerPlan>(a.change_password_prepare(secret_of(in), old_password, new_password));
        HttpStaged s;
        s.account = canonical_username(plan->username);
        s.trusted = true;  // a session's owner
        s.work = std::shared_ptr<PasswordWork>(plan, &plan->work);
        s.admit = [plan](Accounts& acc) { return refusal_of([&] { acc.owner_admit(*plan); }); };
        s.finish = [plan](Accounts& acc) {
            return guarded([&] {
                acc.change_password_finish(*plan);
                return ok();
            });
        };
        return s;
    });
}

HttpStaged stage_delete_account(Accounts& a, const HttpIn& in) {
    return staged([&] {
        check_state_changing(in);
        const std::string password = text_field(in, "password", MAX_PASSWORD_BYTES, Reason::password_long);
        auto plan = std::make_shared<OwnerPlan>(a.delete_account_prepare(secret_of(in), password));
        HttpStaged s;
        s.account = canonical_username(plan->username);
        s.trusted = true;
        s.work = std::shared_ptr<PasswordWork>(plan, &plan->work);
        s.admit = [plan](Accounts& acc) { return refusal_of([&] { acc.owner_admit(*plan); }); };
        s.finish = [plan, tls = in.tls](Accounts& acc) {
            return guarded([&] {
                acc.delete_account_finish(*plan);
                HttpAnswer out = ok();
                out.set_cookie = session_clear_cookie(tls);
                return out;
            });
        };
        return s;
    });
}

HttpAnswer run_staged(Accounts& a, HttpStaged s) {
    if (s.answer) return std::move(*s.answer);
    if (auto no = s.admit(a)) return std::move(*no);
    try {
        s.work->run();
    } catch (const std::exception& e) {
        return error_answer(ApiError(Reason::internal, std::string("internal error: ") + e.what()));
    }
    return s.finish(a);
}

HttpAnswer http_sign_up(Accounts& a, const HttpIn& in) { return run_staged(a, stage_sign_up(a, in)); }
HttpAnswer http_log_in(Accounts& a, const HttpIn& in) { return run_staged(a, stage_log_in(a, in)); }

HttpAnswer http_log_out(Accounts& a, const HttpIn& in) {
    return guarded([&] {
        check_state_changing(in);
        const json& b = body_of(in);
        const auto everywhere = b.find("everywhere");
        if (everywhere != b.end() && !everywhere->is_boolean())
            throw bad_field("everywhere", Reason::not_boolean, "everywhere must be true or false");
        std::int64_t everywhere_account = 0;
        if (everywhere != b.end() && everywhere->get<bool>())
            everywhere_account = a.log_out_everywhere(secret_of(in));
        else
            a.log_out(secret_of(in), in.token);
        HttpAnswer out = ok();
        out.account_id = everywhere_account;  // the server unbinds that account's open sockets
        out.set_cookie = session_clear_cookie(in.tls);
        return out;
    });
}

HttpAnswer http_change_password(Accounts& a, const HttpIn& in) { return run_staged(a, stage_change_password(a, in)); }
HttpAnswer http_delete_account(Accounts& a, const HttpIn& in) { return run_staged(a, stage_delete_account(a, in)); }

HttpAnswer http_me(Accounts& a, const HttpIn& in) {
    return guarded([&] {
        const Me me = a.who_am_i(secret_of(in));
        json body = {{"username", me.username},
                     {"created_at", me.created_at},
                     {"puzzle_ratings", puzzle_ratings_json(a.store(), me.account_id, a.options().glicko)}};
        return HttpAnswer{200, std::move(body), "", 0, me.account_id, ""};
    });
}

HttpAnswer http_user(Accounts& a, const HttpIn& in) {
    return guarded([&] {
        if (in.name.empty() || in.name.size() > MAX_NAME_BYTES)
            throw ApiError(Reason::user_not_found, "no such user", "username");
        return HttpAnswer{200, a.profile(in.name), "", 0, 0, ""};
    });
}

HttpAnswer http_user_games(Accounts& a, const HttpIn& in) {
    return guarded([&] {
        if (in.name.empty() || in.name.size() > MAX_NAME_BYTES)
            throw ApiError(Reason::user_not_found, "no such user", "username");
        GameQuery q;
        q.before = query(in, "before");
        if (q.before.size() > 64) throw bad_field("before", Reason::before_invalid, "not a game id");
        q.variant = query(in, "variant");
        if (!q.variant.empty() && !known_variant(q.variant))
            throw bad_field("variant", Reason::variant_unknown, "unknown game: chess, alice or avalanche");
        q.speed = query(in, "speed");
        if (!q.speed.empty() && !speed_from_name(q.speed) && q.speed != "unlimited")
            throw bad_field("speed", Reason::speed_unknown, "unknown speed");
        q.result = query(in, "result");
        if (!q.result.empty() && q.result != "win" && q.result != "loss" && q.result != "draw")
            throw bad_field("result", Reason::result_unknown, "result: win, loss or draw");
        if (const std::string limit = query(in, "limit"); !limit.empty()) {
            int n = 0;
            for (char c : limit) {
                if (c < '0' || c > '9' || n > 1000) throw bad_field("limit", Reason::limit_invalid, "limit: 1 to 100");
                n = n * 10 + (c - '0');
            }
            if (n < 1 || n > 100) throw bad_field("limit", Reason::limit_invalid, "limit: 1 to 100");
            q.limit = n;
        }
        return HttpAnswer{200, a.user_games(in.name, q), "", 0, 0, ""};
    });
}

HttpAnswer http_leaderboard(Accounts& a, const HttpIn& in) {
    return guarded(
        [&] { return HttpAnswer{200, a.leaderboard(query(in, "variant"), query(in, "speed")), "", 0, 0, ""}; });
}

}  // namespace echecs::server::accounts

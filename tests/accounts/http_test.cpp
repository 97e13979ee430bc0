// The accounts' HTTP-level functions: statuses, bodies and cookies of every
// endpoint, the cross-site and content-type rules, hostile cookies and
// hostile bodies (wrong types, invalid UTF-8, huge fields).
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "accounts_fixture.h"
#include "server/accounts/account_http.h"

using namespace echecs::server::accounts;
using echecs::server::accounts::testing::AccountsTest;
using nlohmann::json;

namespace {

class HttpTest : public AccountsTest {
protected:
    static HttpIn post(json body, const std::string& cookie = "") {
        HttpIn in;
        in.body = std::move(body);
        in.content_type = "application/json";
        in.cookie = cookie;
        in.client_ip = "10.0.0.1";
        return in;
    }
    // The Cookie header a browser would send back for a Set-Cookie value.
    static std::string cookie_of(const HttpAnswer& a) { return a.set_cookie.substr(0, a.set_cookie.find(';')); }
    static std::string reason(const HttpAnswer& a) { return a.body["error"]["reason"].get<std::string>(); }
    static json field(const HttpAnswer& a) { return a.body["error"]["field"]; }
};

TEST_F(HttpTest, SignUpAnswers201WithASessionCookie) {
    const HttpAnswer a = http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    ASSERT_EQ(a.status, 201) << a.body;
    EXPECT_EQ(a.body, json({{"username", "Ann"}}));
    EXPECT_GT(a.account_id, 0);
    EXPECT_EQ(a.set_cookie.rfind("echecs_session=", 0), 0u);
    EXPECT_NE(a.set_cookie.find("; HttpOnly"), std::string::npos);
    EXPECT_NE(a.set_cookie.find("; SameSite=Lax"), std::string::npos);
    EXPECT_NE(a.set_cookie.find("; Path=/"), std::string::npos);
    EXPECT_NE(a.set_cookie.find("; Max-Age=2592000"), std::string::npos);
    EXPECT_EQ(a.set_cookie.find("Secure"), std::string::npos);
    HttpIn me;
    me.cookie = "theme=dark; " + cookie_of(a) + "; lang=fr";
    const HttpAnswer m = http_me(*accounts_, me);
    EXPECT_EQ(m.status, 200);
    EXPECT_EQ(m.body["username"], "Ann");
    EXPECT_EQ(m.body["created_at"], now_);

    HttpIn tls = post({{"username", "Bob"}, {"password", "correct horse"}});
    tls.tls = true;
    EXPECT_NE(http_sign_up(*accounts_, tls).set_cookie.find("; Secure"), std::string::npos);
}

TEST_F(HttpTest, SignUpErrorsNameTheirField) {
    http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    const HttpAnswer taken = http_sign_up(*accounts_, post({{"username", "ANN"}, {"password", "correct horse"}}));
    EXPECT_EQ(taken.status, 409);
    EXPECT_EQ(reason(taken), "username_taken");
    EXPECT_EQ(taken.set_cookie, "");
    struct Case {
        json body;
        const char *field, *reason;
    };
    for (const Case& c :
         {Case{json::object(), "username", "missing"},
          Case{{{"username", 42}, {"password", "correct horse"}}, "username", "not_string"},
          Case{{{"username", "Bob"}}, "password", "missing"},
          Case{{{"username", "Bob"}, {"password", json::array({"x"})}}, "password", "not_string"},
          Case{{{"username", std::string(100'000, 'a')}, {"password", "correct horse"}}, "username", "username_length"},
          Case{{{"username", "Bob"}, {"password", std::string(1'000'000, 'x')}}, "password", "password_long"},
          Case{{{"username", "Bob"}, {"password", std::string(300, 'x') + "y"}}, "password", "password_long"},
          Case{{{"username",
                 "B\xC3\xB6"
                 "b"},
                {"password", "correct horse"}},
               "username",
               "username_chars"},
          Case{{{"username", "Bob\xFF"}, {"password", "correct horse"}}, "username", "username_chars"},
          Case{{{"username", "Bob"}, {"password", "abcdefgh\xC0\xAF"}}, "password", "password_utf8"},
          Case{{{"username", "Bob"}, {"password", "1234567"}}, "password", "password_short"}}) {
        const HttpAnswer a = http_sign_up(*accounts_, post(c.body));
        EXPECT_EQ(a.status, 400) << c.field << " " << c.reason;
        EXPECT_EQ(field(a), c.field) << c.reason;
        EXPECT_EQ(reason(a), c.reason);
        EXPECT_NO_THROW((void)a.body.dump());  // an error never echoes the invalid UTF-8
    }
    HttpIn array = post(json::array({1, 2}));
    EXPECT_EQ(http_sign_up(*accounts_, array).status, 400);
    EXPECT_FALSE(accounts_->store().find_account("Bob"));
}

TEST_F(HttpTest, CrossSiteAndNonJsonRequestsAreRefused) {
    HttpIn form = post({{"username", "Ann"}, {"password", "correct horse"}});
    form.content_type = "application/x-www-form-urlencoded";
    EXPECT_EQ(http_sign_up(*accounts_, form).status, 415);
    form.content_type = "text/plain";  // what a cross-site fetch may send without a preflight
    EXPECT_EQ(reason(http_log_in(*accounts_, form)), "content_type");
    form.content_type = "application/jsonp";
    EXPECT_EQ(http_sign_up(*accounts_, form).status, 415);
    form.content_type = "Application/JSON; charset=utf-8";
    EXPECT_EQ(http_sign_up(*accounts_, form).status, 201);

    const HttpAnswer s = http_log_in(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    for (auto f : {http_sign_up, http_log_in, http_log_out, http_change_password, http_delete_account}) {
        HttpIn forged = post({{"username", "Eve"},
                              {"password", "correct horse"},
                              {"old_password", "correct horse"},
                              {"new_password", "evil new password"}},
                             cookie_of(s));
        forged.cross_site = true;
        const HttpAnswer a = f(*accounts_, forged);
        EXPECT_EQ(a.status, 403);
        EXPECT_EQ(reason(a), "cross_site");
    }
    HttpIn me;
    me.cookie = cookie_of(s);
    EXPECT_EQ(http_me(*accounts_, me).status, 200);  // nothing was changed or revoked
    EXPECT_FALSE(accounts_->store().find_account("Eve"));
}

TEST_F(HttpTest, LogInLogOutAndLogOutEverywhere) {
    http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    const HttpAnswer bad = http_log_in(*accounts_, post({{"username", "Ann"}, {"password", "correct horsf"}}));
    const HttpAnswer unknown = http_log_in(*accounts_, post({{"username", "Zed"}, {"password", "correct horse"}}));
    EXPECT_EQ(bad.status, 401);
    EXPECT_EQ(bad.body, unknown.body);
    const HttpAnswer one = http_log_in(*accounts_, post({{"username", "ann"}, {"password", "correct horse"}}));
    const HttpAnswer two = http_log_in(*accounts_, post({{"username", "ANN"}, {"password", "correct horse"}}));
    EXPECT_EQ(one.status, 200);
    EXPECT_EQ(one.body["username"], "Ann");
    const HttpAnswer out = http_log_out(*accounts_, post(json::object(), cookie_of(one)));
    EXPECT_EQ(out.status, 200);
    EXPECT_EQ(out.set_cookie, "echecs_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
    HttpIn me;
    me.cookie = cookie_of(one);
    EXPECT_EQ(http_me(*accounts_, me).status, 401);
    me.cookie = cookie_of(two);
    EXPECT_EQ(http_me(*accounts_, me).status, 200);
    EXPECT_EQ(http_log_out(*accounts_, post({{"everywhere", "yes"}}, cookie_of(two))).status, 400);
    EXPECT_EQ(http_log_out(*accounts_, post({{"everywhere", true}}, cookie_of(two))).status, 200);
    EXPECT_EQ(http_me(*accounts_, me).status, 401);
    EXPECT_EQ(http_log_out(*accounts_, post(nullptr)).status, 200);  // not logged in: nothing to do
    EXPECT_EQ(http_log_out(*accounts_, post({{"everywhere", true}})).status, 401);
}

TEST_F(HttpTest, RateLimitsSayWhenToRetry) {
    for (int k = 0; k < options_.login_per_ip; ++k)
        http_log_in(*accounts_, post({{"username", "u" + std::to_string(k)}, {"password", "whatever1"}}));
    const HttpAnswer a = http_log_in(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    EXPECT_EQ(a.status, 429);
    EXPECT_EQ(reason(a), "too_many_attempts");
    EXPECT_GT(a.retry_after_s, 0);
    EXPECT_EQ(a.body["error"]["params"]["retry_after"], a.retry_after_s);
}

TEST_F(HttpTest, PasswordChangeAndDeletion) {
    const HttpAnswer s = http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    const HttpAnswer other = http_log_in(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    const HttpAnswer wrong = http_change_password(
        *accounts_, post({{"old_password", "nope"}, {"new_password", "new horse battery"}}, cookie_of(s)));
    EXPECT_EQ(wrong.status, 403);
    EXPECT_EQ(field(wrong), "old_password");
    const HttpAnswer weak = http_change_password(
        *accounts_, post({{"old_password", "correct horse"}, {"new_password", "short"}}, cookie_of(s)));
    EXPECT_EQ(field(weak), "new_password");
    EXPECT_EQ(reason(weak), "password_short");
    EXPECT_EQ(http_change_password(*accounts_, post({{"old_password", "correct horse"}}, cookie_of(s))).status, 400);
    EXPECT_EQ(
        http_change_password(
            *accounts_, post({{"old_password", "correct horse"}, {"new_password", "new horse battery"}}, cookie_of(s)))
            .status,
        200);
    HttpIn me;
    me.cookie = cookie_of(other);
    EXPECT_EQ(http_me(*accounts_, me).status, 401);
    EXPECT_EQ(http_delete_account(*accounts_, post({{"password", "correct horse"}}, cookie_of(s))).status, 403);
    EXPECT_EQ(http_delete_account(*accounts_, post({{"password", "new horse battery"}})).status, 401);
    const HttpAnswer del = http_delete_account(*accounts_, post({{"password", "new horse battery"}}, cookie_of(s)));
    EXPECT_EQ(del.status, 200);
    EXPECT_NE(del.set_cookie.find("Max-Age=0"), std::string::npos);
    HttpIn profile;
    profile.name = "Ann";
    EXPECT_EQ(http_user(*accounts_, profile).status, 404);
}

TEST_F(HttpTest, HostileCookiesAreIgnored) {
    const HttpAnswer s = http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    const std::string good = cookie_of(s);
    const std::string secret = good.substr(good.find('=') + 1);
    EXPECT_EQ(session_cookie(good), secret);
    EXPECT_EQ(session_cookie("  " + good + "  ;"), secret);
    EXPECT_EQ(session_cookie("a=b;;;; " + good + ";c"), secret);
    EXPECT_EQ(session_cookie("echecs_session=\"" + secret + "\""), secret);
    EXPECT_EQ(session_cookie(good + "; " + good), secret);  // the same twice
    for (const std::string& bad :
         {std::string(""), std::string(";;;"), std::string("="), std::string("echecs_session"),
          std::string("echecs_session="), std::string("echecs_session=short"), "echecs_session=" + secret + "x",
          "echecs_session=" + secret.substr(1) + "!", "ECHECS_SESSION=" + secret, "echecs_session =" + secret,
          "xechecs_session=" + secret, "echecs_session=" + std::string(43, '\xFF'),
          "echecs_session=" + std::string(43, '\0'), good + "; echecs_session=" + std::string(43, 'A'),
          std::string(10'000, ';') + good, "echecs_session=" + secret.substr(0, 20) + "\r\n" + secret.substr(20, 21)}) {
        EXPECT_FALSE(session_cookie(bad)) << bad.substr(0, 80);
        HttpIn me;
        me.cookie = bad;
        const HttpAnswer a = http_me(*accounts_, me);
        EXPECT_EQ(a.status, 401);
        EXPECT_NO_THROW((void)a.body.dump());
    }
}

TEST_F(HttpTest, ProfilesGamesAndLeaderboards) {
    const HttpAnswer ann = http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    const HttpAnswer bob = http_sign_up(*accounts_, post({{"username", "Bob"}, {"password", "correct horse"}}));
    for (int k = 0; k < 3; ++k) {
        now_ += 1000;
        accounts_->record_result({"g" + std::to_string(k), "chess", "blitz", ann.account_id, bob.account_id, "Ann",
                                  "Bob", Outcome::WhiteWins, true});
    }
    HttpIn in;
    in.name = "ann";
    const HttpAnswer p = http_user(*accounts_, in);
    ASSERT_EQ(p.status, 200);
    EXPECT_EQ(p.body["username"], "Ann");
    for (const char* v : {"chess", "alice", "avalanche"})
        for (const char* s : {"bullet", "blitz", "rapid", "classical", "correspondence"})
            for (const char* k : {"rating", "rd", "games", "provisional"})
                EXPECT_TRUE(p.body["ratings"][v][s].contains(k));
    EXPECT_EQ(p.body["ratings"]["chess"]["blitz"]["games"], 3);
    EXPECT_GT(p.body["ratings"]["chess"]["blitz"]["rating"].get<int>(), 1500);
    EXPECT_EQ(p.body["counts"]["win"], 3);

    in.query = {{"limit", "2"}};
    const HttpAnswer page1 = http_user_games(*accounts_, in);
    ASSERT_EQ(page1.status, 200) << page1.body;
    ASSERT_EQ(page1.body["games"].size(), 2u);
    EXPECT_EQ(page1.body["games"][0]["id"], "g2");
    EXPECT_EQ(page1.body["games"][0]["opponent"], "Bob");
    EXPECT_GT(page1.body["games"][0]["rating_diff"].get<int>(), 0);
    in.query = {{"limit", "2"}, {"before", page1.body["next"].get<std::string>()}};
    const HttpAnswer page2 = http_user_games(*accounts_, in);
    ASSERT_EQ(page2.body["games"].size(), 1u);
    EXPECT_EQ(page2.body["games"][0]["id"], "g0");
    EXPECT_TRUE(page2.body["next"].is_null());
    for (const auto& q : std::vector<std::map<std::string, std::string>>{{{"limit", "0"}},
                                                                         {{"limit", "101"}},
                                                                         {{"limit", "-1"}},
                                                                         {{"limit", "99999999999999999999"}},
                                                                         {{"variant", "shogi"}},
                                                                         {{"speed", "hyper"}},
                                                                         {{"result", "won"}},
                                                                         {{"before", std::string(65, 'x')}}}) {
        in.query = q;
        EXPECT_EQ(http_user_games(*accounts_, in).status, 400) << q.begin()->first;
    }
    in.query = {{"result", "loss"}};
    EXPECT_TRUE(http_user_games(*accounts_, in).body["games"].empty());

    for (const std::string& name : {std::string("nobody"), std::string(""), std::string(5000, 'a'),
                                    std::string("\xFF\xFE"), std::string("a'; DROP TABLE accounts; --")}) {
        HttpIn u;
        u.name = name;
        EXPECT_EQ(http_user(*accounts_, u).status, 404);
        EXPECT_EQ(http_user_games(*accounts_, u).status, 404);
    }
    HttpIn board;
    board.query = {{"variant", "chess"}, {"speed", "blitz"}};
    const HttpAnswer b = http_leaderboard(*accounts_, board);
    EXPECT_EQ(b.status, 200);
    EXPECT_TRUE(b.body["players"].empty());  // three games: still provisional
    board.query = {{"variant", "chess"}};
    EXPECT_EQ(field(http_leaderboard(*accounts_, board)), "speed");
}

TEST_F(HttpTest, AStorageFailureIsAnErrorAnswerNotACrash) {
    const HttpAnswer s = http_sign_up(*accounts_, post({{"username", "Ann"}, {"password", "correct horse"}}));
    {
        SQLite::Database db(path_, SQLite::OPEN_READWRITE);
        db.exec("DROP TABLE account_sessions");
    }
    HttpIn me;
    me.cookie = cookie_of(s);
    const HttpAnswer a = http_me(*accounts_, me);
    EXPECT_EQ(a.status, 503);
    EXPECT_EQ(reason(a), "storage_failed");
    const HttpAnswer up = http_sign_up(*accounts_, post({{"username", "Bob"}, {"password", "correct horse"}}));
    EXPECT_EQ(up.status, 503);
    // The failed sign-up left no account behind.
    EXPECT_FALSE(accounts_->store().find_account("Bob"));
}

}  // namespace

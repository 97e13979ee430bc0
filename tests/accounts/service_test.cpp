// The accounts' operations (on SQLite, the cheapest Argon2id cost, a test
// clock): sign-up and log-in rules, attempt limits, sessions, password
// change, deletion, rated results by Glicko-2, profiles and leaderboards,
// and the worker thread.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <future>
#include <iterator>
#include <thread>

#include "accounts_fixture.h"
#include "server/accounts/account_service.h"

using namespace echecs::server::accounts;
using echecs::server::accounts::testing::AccountsTest;

namespace {

// "r12": a game's id (built by appending: GCC 12 warns falsely, -Wrestrict,
// on "r" + std::to_string(n) inlined into an aggregate).
std::string game_id(char prefix, int n) {
    std::string id(1, prefix);
    id += std::to_string(n);
    return id;
}

TEST_F(AccountsTest, SignUpOpensASessionAndTheNameIsTakenInAnyCase) {
    const SessionInfo s = sign_up("AnnLee");
    EXPECT_GT(s.account_id, 0);
    EXPECT_EQ(s.username, "AnnLee");
    EXPECT_EQ(s.expires_at, now_ + options_.session_ms);
    EXPECT_EQ(accounts_->who_am_i(s.secret).username, "AnnLee");
    const AccountError e = error_of([&] { accounts_->sign_up("annLEE", "another good one", "10.0.0.2", ""); });
    EXPECT_EQ(e.status(), 409);
    EXPECT_EQ(e.reason, "username_taken");
    EXPECT_EQ(e.field, "username");
    EXPECT_EQ(error_of([&] { accounts_->sign_up("AnnIee", "another good one", "10.0.0.2", ""); }).reason,
              "username_taken");  // a capital I for the l
}

TEST_F(AccountsTest, BadNamesAndWeakPasswordsAreRefusedWithTheReason) {
    struct Case {
        const char *name, *password, *field, *reason;
    };
    for (const Case& c :
         {Case{"ab", "correct horse", "username", "username_length"},
          Case{"a-very-long-name-over-20", "correct horse", "username", "username_length"},
          Case{"Ann Lee", "correct horse", "username", "username_chars"},
          Case{"Ann<b>", "correct horse", "username", "username_chars"},
          Case{"Administrator", "correct horse", "username", "username_reserved"},
          Case{"DELETED", "correct horse", "username", "username_reserved"},
          Case{"Ann", "short", "password", "password_short"}, Case{"Ann", "Password123", "password", "password_common"},
          Case{"Ann", "azertyuiop", "password", "password_common"},
          Case{"Ann", "11111111111", "password", "password_common"},
          Case{"Annabel", "annabel-2026", "password", "password_is_username"},
          Case{"Ann", "bad\xFF utf-8 here", "password", "password_utf8"}}) {
        const AccountError e = error_of([&] { accounts_->sign_up(c.name, c.password, "10.0.0.1", ""); });
        EXPECT_EQ(e.status(), 400) << c.name << " / " << c.password;
        EXPECT_EQ(e.field, c.field) << c.name;
        EXPECT_EQ(e.reason, c.reason) << c.name << " / " << c.password;
    }
    EXPECT_FALSE(accounts_->store().find_account("Ann"));
}

TEST_F(AccountsTest, AWrongPasswordAndAnUnknownNameGetTheSameAnswer) {
    sign_up("Ann");
    const AccountError wrong = error_of([&] { accounts_->log_in("Ann", "not the password", "10.0.0.9", ""); });
    const AccountError unknown = error_of([&] { accounts_->log_in("Nobody", "not the password", "10.0.0.9", ""); });
    EXPECT_EQ(wrong.status(), 401);
    EXPECT_EQ(wrong.reason, "invalid_credentials");
    EXPECT_EQ(error_body(wrong), error_body(unknown));
    EXPECT_EQ(wrong.status(), unknown.status());
    const SessionInfo s = accounts_->log_in("aNN", "battery staple 42", "10.0.0.9", "");  // any letter case
    EXPECT_EQ(s.username, "Ann");
}

TEST_F(AccountsTest, FailedLogInsPerAccountAndAddressAreLimitedWithARetryAfter) {
    sign_up("Ann");
    for (int k = 0; k < options_.login_failures_per_account; ++k) {
        now_ += 1000;
        EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "wrong", "10.1.0.1", ""); }).status(), 401);
    }
    // From that address, even with the right password: refused, with the wait.
    const AccountError e = error_of([&] { accounts_->log_in("ann", "battery staple 42", "10.1.0.1", ""); });
    EXPECT_EQ(e.status(), 429);
    EXPECT_EQ(e.reason, "too_many_attempts");
    const std::int64_t wait = e.params.at("retry_after").get<std::int64_t>();
    EXPECT_GT(wait, 0);
    EXPECT_LE(wait, options_.login_account_window_ms / 1000);
    // Guesses from many addresses lock nobody out: the owner, elsewhere, logs in.
    for (int k = 0; k < 3 * options_.login_failures_per_account; ++k)
        (void)error_of([&] { accounts_->log_in("Ann", "wrong", "10.3.0." + std::to_string(k), ""); });
    EXPECT_EQ(accounts_->log_in("Ann", "battery staple 42", "10.2.0.1", "").username, "Ann");
    now_ += wait * 1000;
    EXPECT_EQ(accounts_->log_in("Ann", "battery staple 42", "10.1.0.1", "").username, "Ann");
    // An unknown name is limited the same way (the limit tells nothing).
    for (int k = 0; k < options_.login_failures_per_account; ++k)
        (void)error_of([&] { accounts_->log_in("Ghost", "wrong", "10.4.0.1", ""); });
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ghost", "wrong", "10.4.0.1", ""); }).status(), 429);
}

TEST_F(AccountsTest, LogInsPerAddressAreLimited) {
    sign_up("Ann");
    for (int k = 0; k < options_.login_per_ip; ++k)
        (void)error_of([&] { accounts_->log_in("user" + std::to_string(k), "wrong", "10.9.9.9", ""); });
    const AccountError e = error_of([&] { accounts_->log_in("Ann", "battery staple 42", "10.9.9.9", ""); });
    EXPECT_EQ(e.status(), 429);
    EXPECT_GE(e.params.at("retry_after").get<std::int64_t>(), 1);
    EXPECT_EQ(accounts_->log_in("Ann", "battery staple 42", "10.9.9.8", "").username, "Ann");  // others are not slowed
}

TEST_F(AccountsTest, SignUpsPerAddressAreLimited) {
    for (int k = 0; k < options_.signups_per_ip; ++k) sign_up("player" + std::to_string(k), "10.5.5.5");
    const AccountError e = error_of([&] { sign_up("oneTooMany", "10.5.5.5"); });
    EXPECT_EQ(e.status(), 429);
    EXPECT_EQ(e.reason, "too_many_signups");
    EXPECT_FALSE(accounts_->store().find_account("oneTooMany"));
    now_ += options_.signup_window_ms;
    EXPECT_NO_THROW(sign_up("oneTooMany", "10.5.5.5"));
}

TEST_F(AccountsTest, ExpiredAndRevokedSessionsAreRefused) {
    const SessionInfo a = sign_up("Ann");
    const SessionInfo b = accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "");
    const SessionInfo c = accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "");
    accounts_->log_out(b.secret);
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(b.secret); }).reason, "not_logged_in");
    EXPECT_EQ(accounts_->who_am_i(a.secret).username, "Ann");
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(""); }).status(), 401);
    EXPECT_EQ(error_of([&] { accounts_->who_am_i("made-up-secret"); }).status(), 401);
    now_ += options_.session_ms;
    const AccountError e = error_of([&] { accounts_->who_am_i(a.secret); });
    EXPECT_EQ(e.status(), 401);
    EXPECT_EQ(e.reason, "session_expired");
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(a.secret); }).reason, "not_logged_in");  // forgotten
    EXPECT_EQ(accounts_->sweep(), 1);                                                     // c, expired too
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(c.secret); }).reason, "not_logged_in");
}

TEST_F(AccountsTest, LogOutEverywhereRevokesEverySession) {
    const SessionInfo a = sign_up("Ann");
    const SessionInfo b = accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "");
    const SessionInfo other = sign_up("Bob");
    accounts_->log_out_everywhere(b.secret);
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(a.secret); }).status(), 401);
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(b.secret); }).status(), 401);
    EXPECT_EQ(accounts_->who_am_i(other.secret).username, "Bob");
}

TEST_F(AccountsTest, PasswordChangeKeepsThisSessionAndRevokesTheOthers) {
    const SessionInfo a = sign_up("Ann");
    const SessionInfo b = accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "");
    EXPECT_EQ(error_of([&] { accounts_->change_password(a.secret, "wrong", "a brand new one"); }).reason,
              "wrong_password");
    EXPECT_EQ(error_of([&] { accounts_->change_password(a.secret, "battery staple 42", "qwerty123"); }).reason,
              "password_common");
    EXPECT_EQ(error_of([&] { accounts_->change_password("", "battery staple 42", "a brand new one"); }).status(), 401);
    accounts_->change_password(a.secret, "battery staple 42", "a brand new one");
    EXPECT_EQ(accounts_->who_am_i(a.secret).username, "Ann");
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(b.secret); }).status(), 401);
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", ""); }).status(), 401);
    EXPECT_EQ(accounts_->log_in("Ann", "a brand new one", "10.0.0.1", "").username, "Ann");
}

TEST_F(AccountsTest, ADeletedAccountsGamesStayUnderTheNameDeleted) {
    const SessionInfo ann = sign_up("Ann"), bob = sign_up("Bob");
    accounts_->record_result(
        {"g1", "chess", "blitz", ann.account_id, bob.account_id, "Ann", "Bob", Outcome::WhiteWins, true});
    EXPECT_EQ(error_of([&] { accounts_->delete_account(ann.secret, "wrong"); }).reason, "wrong_password");
    accounts_->delete_account(ann.secret, "battery staple 42");
    EXPECT_EQ(error_of([&] { accounts_->who_am_i(ann.secret); }).status(), 401);
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", ""); }).reason,
              "invalid_credentials");
    EXPECT_EQ(error_of([&] { accounts_->profile("Ann"); }).status(), 404);
    EXPECT_EQ(error_of([&] { sign_up("ann"); }).reason, "username_taken");  // nobody takes over the old games
    const auto games = accounts_->user_games("Bob", {});
    ASSERT_EQ(games["games"].size(), 1u);
    EXPECT_EQ(games["games"][0]["opponent"], "deleted");
    EXPECT_EQ(games["games"][0]["result"], "loss");
    EXPECT_EQ(accounts_->display_name(ann.account_id), "deleted");
    // A game that ends after its loser deleted the account (a deletion in
    // the middle of the game) still rates the winner, against the deleted
    // account's last rating; that rating itself never changes again.
    const auto won = accounts_->record_result(
        {"g2", "chess", "blitz", ann.account_id, bob.account_id, "Ann", "Bob", Outcome::BlackWins, true});
    ASSERT_TRUE(won);
    EXPECT_GT(won->black.diff, 0);
    EXPECT_EQ(won->white.diff, 0);
    EXPECT_EQ(won->white.before, won->white.after);
    const auto lost = accounts_->record_result(
        {"g3", "chess", "blitz", ann.account_id, bob.account_id, "Ann", "Bob", Outcome::WhiteWins, true});
    ASSERT_TRUE(lost);
    EXPECT_LT(lost->black.diff, 0);
    EXPECT_EQ(lost->white.after, won->white.before);  // still the rating it had when deleted
    EXPECT_EQ(accounts_->user_games("Bob", {})["games"].size(), 3u);
}

TEST_F(AccountsTest, RatedResultsFollowGlicko2AndWriteHistory) {
    const SessionInfo ann = sign_up("Ann"), bob = sign_up("Bob");
    const auto c = accounts_->record_result(
        {"g1", "alice", "rapid", ann.account_id, bob.account_id, "Ann", "Bob", Outcome::WhiteWins, true});
    ASSERT_TRUE(c);
    const Glicko fresh = new_rating(options_.glicko);
    const Glicko expect_white = rate_game(fresh, 0, fresh, 1, options_.glicko);
    const Glicko expect_black = rate_game(fresh, 0, fresh, 0, options_.glicko);
    EXPECT_NEAR(c->white.after, expect_white.rating, 1e-6);
    EXPECT_NEAR(c->black.after, expect_black.rating, 1e-6);
    EXPECT_GT(c->white.diff, 0);
    EXPECT_LT(c->black.diff, 0);
    EXPECT_TRUE(c->white.provisional);

    // Ten days later, a draw: the deviation grew with the time since the last game.
    now_ += 10 * 86'400'000LL;
    const RatingRecord w = *accounts_->store().rating(ann.account_id, "alice", "rapid");
    const RatingRecord b = *accounts_->store().rating(bob.account_id, "alice", "rapid");
    const auto d = accounts_->record_result(
        {"g2", "alice", "rapid", bob.account_id, ann.account_id, "Bob", "Ann", Outcome::Draw, true});
    ASSERT_TRUE(d);
    const Glicko bob_after = rate_game({b.rating, b.deviation, b.volatility}, 10, {w.rating, w.deviation, w.volatility},
                                       0.5, options_.glicko);
    EXPECT_NEAR(d->white.after, bob_after.rating, 1e-6);
    EXPECT_GT(d->white.after, d->white.before);  // a draw against the stronger player

    const auto profile = accounts_->profile("Ann");
    EXPECT_EQ(profile["ratings"]["alice"]["rapid"]["games"], 2);
    EXPECT_EQ(profile["ratings"]["chess"]["rapid"]["games"], 0);
    ASSERT_EQ(profile["history"]["alice"]["rapid"].size(), 2u);
    EXPECT_EQ(profile["history"]["alice"]["rapid"][0]["game"], "g1");
    EXPECT_EQ(profile["history"]["alice"]["rapid"][1]["rating"], std::lround(d->black.after));
    EXPECT_EQ(profile["counts"]["rated"], 2);
    EXPECT_EQ(profile["counts"]["win"], 1);
    EXPECT_EQ(profile["counts"]["draw"], 1);

    const AccountError twice = error_of([&] {
        accounts_->record_result(
            {"g2", "alice", "rapid", bob.account_id, ann.account_id, "Bob", "Ann", Outcome::BlackWins, true});
    });
    EXPECT_EQ(twice.reason, "already_recorded");
    EXPECT_EQ(accounts_->profile("Ann")["ratings"]["alice"]["rapid"]["games"], 2);
    // What the first record returned, for a game row a crash left unmarked.
    const auto again = accounts_->recorded_changes("g2");
    ASSERT_TRUE(again);
    EXPECT_EQ(again->white.diff, d->white.diff);
    EXPECT_EQ(again->black.diff, d->black.diff);
    EXPECT_EQ(again->white.account_id, bob.account_id);
    EXPECT_DOUBLE_EQ(again->black.after, d->black.after);
    EXPECT_FALSE(accounts_->recorded_changes("g3"));
}

TEST_F(AccountsTest, AWinNeverLowersTheWinnersRating) {
    options_.rated_games_per_pair_per_day = 1000;  // many games a day between the same players
    open();
    std::vector<SessionInfo> players;
    for (int k = 0; k < 6; ++k)
        players.push_back(sign_up("p" + std::to_string(k) + "xx", "10.7.0." + std::to_string(k)));
    std::mt19937 rng(7);
    for (int game = 0; game < 120; ++game) {
        const int a = int(rng() % 6), b = (a + 1 + int(rng() % 5)) % 6;
        now_ += std::int64_t(rng() % 5'000'000);
        const Outcome o = rng() % 3 == 0 ? Outcome::Draw : rng() % 2 ? Outcome::WhiteWins : Outcome::BlackWins;
        const auto c = accounts_->record_result(
            {game_id('r', game), "chess", "blitz", players[a].account_id, players[b].account_id, "", "", o, true});
        ASSERT_TRUE(c);
        if (o == Outcome::WhiteWins) {
            ASSERT_GE(c->white.after, c->white.before);
            ASSERT_LE(c->black.after, c->black.before);
        } else if (o == Outcome::BlackWins) {
            ASSERT_GE(c->black.after, c->black.before);
            ASSERT_LE(c->white.after, c->white.before);
        }
    }
    int total = 0;
    for (const auto& p : players)
        total += accounts_->profile(p.username)["ratings"]["chess"]["blitz"]["games"].get<int>();
    EXPECT_EQ(total, 240);
}

TEST_F(AccountsTest, CasualAndAnonymousGamesAreListedButNeverRated) {
    const SessionInfo ann = sign_up("Ann"), bob = sign_up("Bob");
    EXPECT_FALSE(accounts_->record_result(
        {"c1", "chess", "blitz", ann.account_id, bob.account_id, "Ann", "Bob", Outcome::WhiteWins, false}));
    EXPECT_FALSE(accounts_->record_result(
        {"c2", "chess", "blitz", ann.account_id, 0, "Ann", "Anonymous", Outcome::WhiteWins, true}));
    EXPECT_FALSE(accounts_->record_result(
        {"c3", "chess", "", ann.account_id, bob.account_id, "Ann", "Bob", Outcome::Draw, true}));  // unlimited
    EXPECT_FALSE(accounts_->record_result(
        {"c4", "chess", "blitz", ann.account_id, ann.account_id, "Ann", "Ann", Outcome::Draw, true}));  // oneself
    const auto p = accounts_->profile("Ann");
    EXPECT_EQ(p["ratings"]["chess"]["blitz"]["games"], 0);
    EXPECT_EQ(p["counts"]["all"], 4);
    EXPECT_EQ(p["counts"]["rated"], 0);
    const auto games = accounts_->user_games("Ann", {});
    ASSERT_EQ(games["games"].size(), 4u);
    EXPECT_EQ(games["games"][2]["id"], "c2");  // same end time: by id, newest first
    EXPECT_EQ(games["games"][2]["opponent"], "Anonymous");
    EXPECT_FALSE(games["games"][2].contains("rating_diff"));
    EXPECT_EQ(
        error_of([&] {
            accounts_->record_result({"c5", "crazyhouse", "blitz", ann.account_id, 0, "", "", Outcome::Draw, false});
        }).field,
        "variant");
}

TEST_F(AccountsTest, ABrowsersAnonymousGamesAreClaimedAtSignUp) {
    const SessionInfo ann = accounts_->sign_up("Ann", "battery staple 42", "10.0.0.1", "browser-token-1");
    EXPECT_EQ(accounts_->token_account("browser-token-1"), ann.account_id);
    EXPECT_FALSE(accounts_->token_account("browser-token-2"));
    const std::vector<GameEnd> games = {
        {"a1", "avalanche", "bullet", ann.account_id, 0, "Anonymous", "Computer", Outcome::WhiteWins, false},
        {"a2", "chess", "rapid", 0, ann.account_id, "Anonymous", "Anonymous", Outcome::WhiteWins, true},
        {"a3", "chess", "rapid", 0, 0, "Anonymous", "Anonymous", Outcome::WhiteWins, false}};  // not hers
    EXPECT_EQ(accounts_->claim_games(ann.account_id, games), 2);
    EXPECT_EQ(accounts_->claim_games(ann.account_id, games), 0);  // once
    const auto p = accounts_->profile("Ann");
    EXPECT_EQ(p["counts"]["all"], 2);
    EXPECT_EQ(p["counts"]["rated"], 0);  // anonymous games are never rated
    EXPECT_EQ(p["counts"]["loss"], 1);
    // Logging in from another browser links that one too; logging out
    // unlinks it (the next anonymous player there is not Ann).
    const SessionInfo second = accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "browser-token-2");
    EXPECT_EQ(accounts_->token_account("browser-token-2"), ann.account_id);
    accounts_->log_out(second.secret, "browser-token-2");
    EXPECT_FALSE(accounts_->token_account("browser-token-2"));
    EXPECT_EQ(accounts_->token_account("browser-token-1"), ann.account_id);
    accounts_->log_out_everywhere(ann.secret);
    EXPECT_FALSE(accounts_->token_account("browser-token-1"));
}

TEST_F(AccountsTest, LeaderboardsShowEstablishedActivePlayers) {
    options_.rated_games_per_pair_per_day = 1000;  // 25 games a pair within a day
    open();
    std::vector<SessionInfo> p;
    for (int k = 0; k < 4; ++k) p.push_back(sign_up("lb" + std::to_string(k) + "x", "10.8.0." + std::to_string(k)));
    // p0 beats everyone many times: established and on top.
    int n = 0;
    for (int round = 0; round < 25; ++round)
        for (int k = 1; k < 4; ++k) {
            now_ += 60'000;
            accounts_->record_result({game_id('l', n++), "avalanche", "blitz", p[0].account_id, p[k].account_id, "", "",
                                      round % 4 == 3 ? Outcome::Draw : Outcome::WhiteWins, true});
        }
    const auto board = accounts_->leaderboard("avalanche", "blitz");
    ASSERT_FALSE(board["players"].empty());
    EXPECT_EQ(board["players"][0]["username"], "lb0x");
    EXPECT_EQ(board["players"][0]["rank"], 1);
    for (const auto& row : board["players"]) EXPECT_LE(row["rd"].get<int>(), 110);
    EXPECT_TRUE(accounts_->leaderboard("chess", "blitz")["players"].empty());
    now_ += std::int64_t(options_.leaderboard_active_days + 1) * 86'400'000;
    EXPECT_TRUE(accounts_->leaderboard("avalanche", "blitz")["players"].empty());  // inactive now
    EXPECT_EQ(error_of([&] { accounts_->leaderboard("avalanche", "hyper"); }).field, "speed");
    EXPECT_EQ(error_of([&] { accounts_->leaderboard("checkers", "blitz"); }).field, "variant");
}

TEST_F(AccountsTest, NoSecretIsStoredInClear) {
    const SessionInfo s = accounts_->sign_up("Ann", "my very secret words", "10.0.0.1", "the-browser-token-xyz");
    accounts_->change_password(s.secret, "my very secret words", "other secret words");
    accounts_.reset();
    std::string bytes;
    for (const auto& f : std::filesystem::directory_iterator(dir_)) {
        std::ifstream in(f.path(), std::ios::binary);
        bytes.append(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_NE(bytes.find("Ann"), std::string::npos);  // the file (and WAL) was read
    EXPECT_EQ(bytes.find("my very secret words"), std::string::npos);
    EXPECT_EQ(bytes.find("other secret words"), std::string::npos);
    EXPECT_EQ(bytes.find(s.secret), std::string::npos);
    EXPECT_EQ(bytes.find("the-browser-token-xyz"), std::string::npos);
    EXPECT_NE(bytes.find(secret_hash(s.secret)), std::string::npos);
}

TEST_F(AccountsTest, TheServiceRunsOnItsWorkerAndPostsTheAnswer) {
    std::atomic<int> posted{0};
    std::thread::id ran_on;
    std::mutex m;
    auto service =
        std::make_unique<AccountService>(std::move(accounts_), ServiceOptions{}, [&](std::function<void()> f) {
            ++posted;
            f();
        });
    std::promise<HttpAnswer> p;
    HttpIn in;
    in.content_type = "application/json";
    in.body = {{"username", "Ann"}, {"password", "correct horse"}};
    in.client_ip = "10.0.0.1";
    service->handle(Endpoint::SignUp, in, [&](HttpAnswer a) {
        {
            std::lock_guard lock(m);
            ran_on = std::this_thread::get_id();
        }
        p.set_value(std::move(a));
    });
    const HttpAnswer a = p.get_future().get();
    EXPECT_EQ(a.status, 201);
    EXPECT_EQ(posted, 1);
    {
        std::lock_guard lock(m);
        EXPECT_NE(ran_on, std::this_thread::get_id());
    }
    std::promise<std::pair<std::optional<RatingChanges>, std::optional<AccountError>>> r;
    service->record_result({"g", "chess", "blitz", a.account_id, 0, "Ann", "Anonymous", Outcome::Draw, true},
                           [&](auto c, auto e) {
                               r.set_value({c, e});
                           });
    const auto [changes, error] = r.get_future().get();
    EXPECT_FALSE(changes);
    EXPECT_FALSE(error);
    std::promise<std::optional<Me>> me;
    service->session_account("echecs_session=" + session_cookie(a.set_cookie.substr(0, a.set_cookie.find(';'))).value(),
                             [&](std::optional<Me> m) { me.set_value(m); });
    const auto who = me.get_future().get();
    ASSERT_TRUE(who);
    EXPECT_EQ(who->username, "Ann");
}

TEST_F(AccountsTest, TheServiceBoundsItsQueuePerClientAndAnswersWhatItNeverRan) {
    // The first answer's completion holds the worker until released, so that
    // the next requests wait in the queue (or are refused at once).
    std::promise<void> entered, release;
    std::shared_future<void> released = release.get_future().share();
    ServiceOptions opt;
    opt.per_client = 2;
    opt.max_queue = 3;
    auto service = std::make_unique<AccountService>(std::move(accounts_), opt);
    std::mutex m;
    std::vector<int> statuses;
    auto record = [&](HttpAnswer a) {
        std::lock_guard lock(m);
        statuses.push_back(a.status);
    };
    HttpIn in;
    in.client_ip = "10.0.0.1";
    in.query = {{"variant", "chess"}, {"speed", "blitz"}};
    service->handle(Endpoint::Leaderboard, in, [&](HttpAnswer a) {
        record(std::move(a));
        entered.set_value();
        released.wait();
    });
    entered.get_future().wait();
    service->handle(Endpoint::Leaderboard, in, record);  // queued (2nd of this client)
    service->handle(Endpoint::Leaderboard, in, record);  // refused: 429 at once
    in.client_ip = "10.0.0.2";
    service->handle(Endpoint::Leaderboard, in, record);  // queued
    in.client_ip = "10.0.0.3";
    service->handle(Endpoint::Leaderboard, in, record);  // queued (3 waiting)
    in.client_ip = "10.0.0.4";
    service->handle(Endpoint::Leaderboard, in, record);  // refused: 503, the queue is full
    {
        std::lock_guard lock(m);
        EXPECT_EQ(statuses, (std::vector<int>{200, 429, 503}));
    }
    // The server's own job, queued last, runs before the waiting requests.
    service->token_account("some-token", [&](std::optional<std::int64_t> id) {
        std::lock_guard lock(m);
        statuses.push_back(id ? 1 : 0);
    });
    release.set_value();
    service.reset();  // answers everything still queued
    std::lock_guard lock(m);
    ASSERT_EQ(statuses.size(), 7u);
    EXPECT_EQ(statuses[3], 0);  // the token lookup, before the three queued requests
    statuses.erase(statuses.begin() + 3);
    EXPECT_EQ(std::count(statuses.begin(), statuses.end(), 200) + std::count(statuses.begin(), statuses.end(), 503), 5);
}

// The order of log-ins under a flood: login_flood_test.cpp.

}  // namespace

namespace {

TEST_F(AccountsTest, TheWorkerForgetsExpiredSessions) {
    const SessionInfo a = sign_up("Ann");
    now_ += options_.session_ms + 1;  // before the worker starts: the clock is not shared while it runs
    ServiceOptions opt;
    opt.sweep_ms = 1;
    auto service = std::make_unique<AccountService>(std::move(accounts_), opt);
    HttpIn in;
    in.query = {{"variant", "chess"}, {"speed", "blitz"}};
    for (int k = 0; k < 3; ++k) {
        std::promise<void> done;
        service->handle(Endpoint::Leaderboard, in, [&](HttpAnswer) { done.set_value(); });
        done.get_future().wait();
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
    service.reset();
    EXPECT_FALSE(open_account_store(path_)->find_session(secret_hash(a.secret)));
}

}  // namespace

// Against rating farming: five rated games a day between the same two
// accounts; the next ones are recorded as casual, until a day has passed.
TEST_F(AccountsTest, RatedGamesBetweenTheSamePairAreLimitedPerDay) {
    const SessionInfo ann = sign_up("Ann"), bob = sign_up("Bob"), cid = sign_up("Cid");
    auto play = [&](const std::string& id, const SessionInfo& w, const SessionInfo& b) {
        now_ += 60'000;
        return accounts_->record_result(
            {id, "chess", "blitz", w.account_id, b.account_id, w.username, b.username, Outcome::WhiteWins, true});
    };
    for (int i = 0; i < options_.rated_games_per_pair_per_day; ++i)
        EXPECT_TRUE(play("g" + std::to_string(i), i % 2 ? bob : ann, i % 2 ? ann : bob)) << i;
    EXPECT_FALSE(play("over1", ann, bob));  // casual: no rating change
    EXPECT_FALSE(play("over2", bob, ann));  // in either colour
    EXPECT_TRUE(play("other", ann, cid));   // another opponent: rated
    const auto games = accounts_->user_games("Ann", {});
    int rated = 0;
    for (const auto& g : games["games"]) rated += g["rated"].get<bool>();
    EXPECT_EQ(rated, options_.rated_games_per_pair_per_day + 1);
    now_ += 86'400'000;  // a day later
    EXPECT_TRUE(play("next-day", ann, bob));
}

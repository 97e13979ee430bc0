// The accounts' operations, synchronous: sign up, log in and out, password
// change, deletion, sessions, profiles, leaderboards and rated results. Each
// throws AccountError (a field and a stable reason) or StoreError. Not
// thread-safe and slow by design (Argon2id): AccountService runs it on its
// own worker thread, never on the server's I/O thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/accounts/account_error.h"
#include "server/accounts/account_store.h"
#include "server/accounts/attempt_limiter.h"
#include "server/accounts/credentials.h"
#include "server/accounts/glicko2.h"

namespace echecs::server::accounts {

struct AccountsOptions {
    HashCost cost = HashCost::owasp();            // tests: HashCost::minimal()
    std::int64_t session_ms = 30LL * 86'400'000;  // a session cookie lasts this long
    GlickoParams glicko;
    // Log-in attempts: per client address (any attempt) and per account name
    // and address (failed attempts), in a sliding window.
    int login_per_ip = 20;
    std::int64_t login_ip_window_ms = 600'000;
    int login_failures_per_account = 8;
    std::int64_t login_account_window_ms = 900'000;
    // Device cookies (OWASP): a browser that logged in to an account gets a
    // signed cookie for it; its log-ins to that account are trusted (their
    // own queue, exempt from the limits above) until this many failures
    // from that cookie in the window, and for this long.
    int login_failures_per_device = 8;
    std::int64_t device_ms = 365LL * 86'400'000;
    // Against rating farming: rated games between the same two accounts
    // within a day; the next ones count as casual (ACCOUNTS.md).
    int rated_games_per_pair_per_day = 5;
    // Sign-ups per client address.
    int signups_per_ip = 5;
    std::int64_t signup_window_ms = 3'600'000;
    // Leaderboards: a rated game in the category within this many days, a
    // deviation at most this (not provisional), at most this many rows.
    int leaderboard_active_days = 30;
    int leaderboard_size = 100;
    int history_points = 500;  // per game x speed in a profile
};

struct SessionInfo {
    std::int64_t account_id = 0;
    std::string username;
    std::string secret;  // for the cookie; never stored
    std::int64_t expires_at = 0;
    std::string device;  // a new device cookie's value ("" for none)
};

// The Argon2id part of a request, cut out so that it runs on a hashing
// worker while the accounts thread serves others: run() touches nothing but
// these fields.
struct PasswordWork {
    std::string password;      // verified against `stored` when that is not empty
    std::string stored;        // an Argon2id string (the dummy for an unknown name)
    std::string new_password;  // hashed when not empty
    bool rehash = false;       // verified: hash `password` again at `cost` (an older cost)
    HashCost cost{0, 0};
    bool verified = false;  // results
    std::string new_hash;
    void run();
};

// A log-in between its steps (log_in_prepare, log_in_admit, the hash,
// log_in_finish).
struct LoginPlan {
    std::string username, name_key, ip, device_id;
    std::optional<AccountRecord> account;  // nullopt (or deleted): the dummy hash
    bool trusted = false;                  // a valid device cookie for this account
    PasswordWork work;
};
struct SignUpPlan {
    std::string username, ip;
    PasswordWork work;
};
// A password change or deletion by a session's owner.
struct OwnerPlan {
    std::int64_t account_id = 0;
    std::string username, session_hash, field;
    PasswordWork work;
};

struct Me {
    std::int64_t account_id = 0;
    std::string username;
    std::int64_t created_at = 0;
    std::string session_hash;
};

enum class Outcome { WhiteWins, BlackWins, Draw };

// A finished game as the server reports it. Accounts are 0 for anonymous
// players and the computer; names are those the game shows.
struct GameEnd {
    std::string game_id;
    std::string variant;  // chess | alice | avalanche
    std::string speed;    // speed_name(); "" for unlimited (never rated)
    std::int64_t white_account = 0, black_account = 0;
    std::string white_name, black_name;
    Outcome outcome = Outcome::Draw;
    bool rated = false;
    bool is_private = false;  // from a direct challenge: listed in no player's games
};

// The account on a seat of a game or a seek, with its rating in the game's
// category (1500 and provisional for a category never played; 0 and
// provisional for unlimited games, which have none).
struct SeatAccount {
    std::int64_t account_id = 0;
    std::string username;
    int rating = 0;  // rounded, as shown
    bool provisional = true;
};

struct RatingChange {
    std::int64_t account_id = 0;
    double before = 0, after = 0;  // ratings
    double deviation = 0;          // after
    int diff = 0;                  // rounded after - rounded before, as shown
    bool provisional = false;      // after
};
struct RatingChanges {
    RatingChange white, black;
};

class Accounts {
public:
    using Clock = std::function<std::int64_t()>;  // epoch ms
    Accounts(std::unique_ptr<AccountStore> store, AccountsOptions options = {}, Clock clock = nullptr);

    // token: the browser's X-Echecs-Token ("" for none), linked to the account.
    SessionInfo sign_up(const std::string& username, const std::string& password, const std::string& ip,
                        const std::string& token);
    // device: the browser's device cookie ("" for none).
    SessionInfo log_in(const std::string& username, const std::string& password, const std::string& ip,
                       const std::string& token, const std::string& device = "");

    // The same operations in steps, so that the hash (PasswordWork::run)
    // runs elsewhere (AccountService): prepare reads and checks (429 when a
    // limit is reached, 400 for bad fields), admit counts the attempt when
    // its hash is about to run (re-checking the limits), finish writes.
    LoginPlan log_in_prepare(const std::string& username, const std::string& password, const std::string& ip,
                             const std::string& device);
    void log_in_admit(const LoginPlan& p);
    SessionInfo log_in_finish(const LoginPlan& p, const std::string& token);
    SignUpPlan sign_up_prepare(const std::string& username, const std::string& password, const std::string& ip);
    void sign_up_admit(const SignUpPlan& p);
    SessionInfo sign_up_finish(const SignUpPlan& p, const std::string& token);
    OwnerPlan change_password_prepare(const std::string& secret, const std::string& old_password,
                                      const std::string& new_password);
    OwnerPlan delete_account_prepare(const std::string& secret, const std::string& password);
    void owner_admit(const OwnerPlan& p);
    void change_password_finish(const OwnerPlan& p);
    void delete_account_finish(const OwnerPlan& p);
    // The account a device cookie was signed for (canonical name), or "".
    static std::string device_name(const std::string& device);
    // The account of a session secret; throws unauthorized (not_logged_in,
    // session_expired) otherwise.
    Me who_am_i(const std::string& secret);
    // Also unlinks this browser's token (the next anonymous player of a
    // shared computer is not taken for the account); everywhere: every
    // session and every browser token of the account.
    void log_out(const std::string& secret, const std::string& token = "");
    // Returns the account whose sessions were all ended.
    std::int64_t log_out_everywhere(const std::string& secret);
    // Revokes every other session; the current one stays.
    void change_password(const std::string& secret, const std::string& old_password, const std::string& new_password);
    // The password again, so that a stolen cookie alone cannot delete.
    void delete_account(const std::string& secret, const std::string& password);

    // The account a browser token is logged in as, for code that sees only
    // the token (a seat's own requests); a request with the session cookie
    // should use who_am_i.
    std::optional<std::int64_t> token_account(const std::string& token);
    // The account of a session secret (or, without a secret, of a browser
    // token) and its rating in variant x speed; nullopt when neither is
    // logged in. Never throws for a bad secret or token.
    std::optional<SeatAccount> seat_account(const std::string& secret, const std::string& token,
                                            const std::string& variant, const std::string& speed);
    // "deleted" for a deleted account; nullopt for an unknown id.
    std::optional<std::string> display_name(std::int64_t account_id);

    // GET /api/users/<name> (404 user_not_found).
    nlohmann::json profile(const std::string& username);
    // GET /api/users/<name>/games: newest first, keyset on `before`.
    nlohmann::json user_games(const std::string& username, const GameQuery& filter);
    // GET /api/leaderboard?variant=&speed=
    nlohmann::json leaderboard(const std::string& variant, const std::string& speed);

    // The rated (Glicko-2 instant update, as lichess) or casual result of a
    // game: the players' rows, history points and new ratings in one
    // transaction. Rated needs two distinct live accounts and a speed.
    // Recording a game twice is refused (conflict, already_recorded).
    std::optional<RatingChanges> record_result(const GameEnd& g);
    // The changes a rated game's recorded result made (nullopt: not
    // recorded, or not rated): what record_result returned then.
    std::optional<RatingChanges> recorded_changes(const std::string& game_id);
    // A player's anonymous games, now theirs (at sign-up in the same
    // browser): casual rows for those not yet recorded; how many were added.
    int claim_games(std::int64_t account_id, const std::vector<GameEnd>& games);

    // Forgets expired sessions; how many.
    int sweep();
    const AccountsOptions& options() const { return options_; }
    AccountStore& store() { return *store_; }
    std::int64_t now() const { return clock_(); }  // epoch ms, by the clock given

private:
    SessionInfo open_session(const AccountRecord& a);
    // A signed device cookie for the account (its current password hash).
    std::string new_device(const AccountRecord& a);
    // The device cookie's id when it is valid for this account, else "".
    std::string valid_device(const std::string& device, const AccountRecord& a);
    void log_in_admit_check(const LoginPlan& p);
    OwnerPlan owner_prepare(const std::string& secret, const std::string& password, const char* field);
    // A wrong password counts as a failed log-in of the account.
    void owner_check(const OwnerPlan& p);

    std::unique_ptr<AccountStore> store_;
    AccountsOptions options_;
    Clock clock_;
    AttemptLimiter login_ip_, login_account_, login_device_, signup_ip_;
};

// Variant names the ratings know: chess, alice, avalanche.
bool known_variant(const std::string& v);

}  // namespace echecs::server::accounts

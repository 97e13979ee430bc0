// The accounts on their own worker thread. Argon2id costs 0.1-0.5 s a hash:
// it never runs on the server's I/O thread nor on the thread that commits
// moves. Requests wait in a bounded queue (and at most `per_client` per
// client address); results go back through the `post` function the server
// supplies (it posts them to its I/O thread). The worker takes, in order:
// the server's own jobs (seats, results), then the requests that hash no
// password (who am I, profiles, log-out), then one password hash per
// address in turn, an address not yet served first, so that a flood of
// log-ins from many addresses delays a logged-in player by one hash at
// most, and a new address's log-in by one hash (once every flooding
// address has had one), not by the whole flood.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "server/accounts/account_http.h"
#include "server/accounts/accounts.h"

namespace echecs::server::accounts {

struct ServiceOptions {
    std::size_t max_queue = 256;        // requests waiting, all clients together
    std::size_t per_client = 4;         // requests waiting or running per client address
    std::int64_t sweep_ms = 3'600'000;  // expired sessions are forgotten this often
};

enum class Endpoint { SignUp, LogIn, LogOut, ChangePassword, DeleteAccount, Me, User, UserGames, Leaderboard };

class AccountService {
public:
    // Runs a completion where the server wants it (its I/O thread). Without
    // one, completions run on the worker thread.
    using Post = std::function<void(std::function<void()>)>;
    AccountService(std::unique_ptr<Accounts> accounts, ServiceOptions options = {}, Post post = nullptr);
    // Finishes the request running; those still queued are answered 503 accounts_stopping.
    ~AccountService();
    AccountService(const AccountService&) = delete;
    AccountService& operator=(const AccountService&) = delete;

    // An HTTP endpoint (account_http.h); `done` gets the answer exactly once
    // (503 accounts_busy / 429 too_many_requests at once when the queue is full).
    void handle(Endpoint e, HttpIn in, std::function<void(HttpAnswer)> done);

    // The server's own jobs below run before any waiting HTTP request (a
    // seat or a result never waits behind a queue of password hashes) and
    // are never refused for a full queue.
    //
    // A finished game (rated or casual): the rating changes, nullopt when not
    // rated, or the error; with already_recorded, the changes recorded then
    // (nullopt when not rated).
    using ResultDone = std::function<void(std::optional<RatingChanges>, std::optional<AccountError>)>;
    void record_result(GameEnd game, ResultDone done);
    // The account behind a Cookie header (nullopt: not logged in), for the
    // seat of a game being created or joined.
    void session_account(std::string cookie_header, std::function<void(std::optional<Me>)> done);
    // The account of a seat with its rating in variant x speed: the Cookie
    // header's session when there is one, else the browser token's link
    // (a WebSocket peer's token); nullopt for an anonymous player.
    void seat_account(std::string cookie_header, std::string token, std::string variant, std::string speed,
                      std::function<void(std::optional<SeatAccount>)> done);
    // The account a browser token is linked to.
    void token_account(std::string token, std::function<void(std::optional<std::int64_t>)> done);
    // The browser's anonymous games, claimed by the account (after sign-up):
    // how many were added, -1 when the claim failed.
    void claim_games(std::int64_t account_id, std::vector<GameEnd> games, std::function<void(int)> done);

    std::size_t queued() const;

private:
    struct Job {
        std::string client;   // "" for the server's own jobs (no per-client limit)
        bool hashes = false;  // an HTTP request that hashes a password
        std::function<void(Accounts&)> run;
        std::function<void()> refuse;  // answers a job never run (stopping)
    };
    // false when refused (queue or client full); `refuse` is not called then.
    bool enqueue(Job job, bool bounded, Reason* why);
    void deliver(std::function<void()> f);
    void loop();

    std::unique_ptr<Accounts> accounts_;
    ServiceOptions options_;
    Post post_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<Job> next_job();  // with mutex_ held
    std::size_t http_waiting() const { return quick_.size() + hash_waiting_; }

    std::deque<Job> urgent_;  // the server's own jobs, run first
    std::deque<Job> quick_;   // HTTP requests without a password hash, next
    // HTTP requests that hash a password, per address, the addresses in turn.
    std::unordered_map<std::string, std::deque<Job>> hashing_;
    std::deque<std::string> turn_;  // the addresses with waiting hashes, next first
    // The addresses served a hash since they last held nothing.
    std::unordered_set<std::string> served_;
    std::size_t hash_waiting_ = 0;
    std::unordered_map<std::string, std::size_t> per_client_;
    bool stopping_ = false;
    std::thread worker_;
};

}  // namespace echecs::server::accounts

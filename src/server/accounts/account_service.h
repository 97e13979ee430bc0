// The accounts on their own thread, and their password hashes on the
// server's scheduler of heavy work (work/scheduler.h). Argon2id costs
// 40-500 ms a hash: it never runs on the server's I/O thread nor on the
// thread that commits moves, nor on the accounts thread. The accounts
// thread does the database work and the limits: the server's own jobs
// (seats, results) first, then the answers of finished hashes, then the
// requests that hash no password (who am I, profiles, log-out), and it
// prepares the requests that hash one (reads the account, checks the
// limits) and hands their hashes to the scheduler, as many at a time as it
// has threads. A logged-in player's request so waits for no hash at all.
//
// The hashes wait here in two queues, each fair between addresses and
// between accounts: the trusted one (a valid device cookie for the account,
// or a session's owner changing the password) before the other. In each, a
// request's turn is the later of its address's and its account's next
// turn: an address or an account with many requests waiting has them
// served one per round, and a new address for a new account goes before
// every one of them. The untrusted queue is bounded: past max_hash_waiting,
// the request with the latest turn is refused at once (503 accounts_busy,
// with a Retry-After of the queue's expected wait). Requests wait in a
// bounded queue (and at most `per_client` per client address); results go
// back through the `post` function the server supplies (its I/O thread).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "server/accounts/account_http.h"
#include "server/accounts/accounts.h"
#include "server/work/scheduler.h"

namespace echecs::server::accounts {

struct ServiceOptions {
    std::size_t max_queue = 256;        // requests waiting, all clients together
    std::size_t per_client = 4;         // requests waiting or running per client address
    std::int64_t sweep_ms = 3'600'000;  // expired sessions are forgotten this often
    std::size_t max_hash_waiting = 64;  // untrusted hashes waiting (about 2 s of work on 2 cores)
    // The server's scheduler, which must outlive the service. Without one,
    // the service runs its own: hash_workers threads (0: one per core, at
    // most 8), hash_nice nicer than the process (Linux).
    work::Scheduler* scheduler = nullptr;
    std::size_t hash_workers = 0;
    int hash_nice = 5;
    // Tests: runs on the scheduler's thread before each hash (to hold it there).
    std::function<void()> before_hash;
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
    // Another route's own work on the accounts (the puzzles' ratings),
    // queued and bounded as handle()'s requests that hash no password:
    // `run` on the accounts thread (its errors answered as errors), `done`
    // as for handle().
    void request(std::string client, std::function<HttpAnswer(Accounts&)> run, std::function<void(HttpAnswer)> done);

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
    // Hashes waiting in the trusted and untrusted queues (tests, the operator).
    std::size_t hashes_waiting() const;
    // How long password hashes waited for a hashing worker, and how many
    // were refused for a full queue, since the last call (the server logs
    // it every minute for the operator: docs/SECURITY.md).
    struct HashWaits {
        std::uint64_t count = 0, total_ms = 0, max_ms = 0;
        std::uint64_t refused = 0;  // answered 503 accounts_busy
    };
    HashWaits take_hash_waits();

private:
    struct Job {
        std::string client;  // "" for the server's own jobs (no per-client limit)
        std::function<void(Accounts&)> run;
        std::function<void()> refuse;  // answers a job never run (stopping)
    };
    // A request whose password hash waits, runs or has run.
    struct HashJob {
        std::string client, account;
        bool trusted = false;
        std::uint64_t turn = 0, seq = 0;
        std::chrono::steady_clock::time_point queued_at;  // for the operator's waits
        HttpStaged staged;
        std::shared_ptr<std::function<void(HttpAnswer)>> done;
    };
    using HashPtr = std::shared_ptr<HashJob>;
    // One queue of hashes, fair between addresses and accounts.
    struct FairQueue {
        std::map<std::pair<std::uint64_t, std::uint64_t>, HashPtr> waiting;  // by (turn, seq)
        // "a <address>" / "n <account>": the next turn, and the jobs held (waiting or running)
        std::unordered_map<std::string, std::pair<std::uint64_t, std::size_t>> keys;
        std::uint64_t turn_for(const HashJob& j) const;
        void add(const HashPtr& j);
        void release(const HashJob& j);
    };
    // false when refused (queue or client full); `refuse` is not called then.
    bool enqueue(Job job, bool bounded, bool stage, Reason* why);
    void deliver(std::function<void()> f);
    void answer(const HashPtr& j, HttpAnswer a);  // and releases it (mutex_ not held)
    void release(const HashJob& j);               // with mutex_ held
    void queue_hash(HashPtr j);                   // after staging, on the accounts thread
    HttpAnswer busy_answer() const;               // with mutex_ held
    void loop();
    void hash(const HashPtr& j);        // on the scheduler's thread
    void hand_over(const HashPtr& j);   // to the scheduler (admitted, on the accounts thread)
    std::function<void()> next_step();  // with mutex_ held

    std::unique_ptr<Accounts> accounts_;
    ServiceOptions options_;
    Post post_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, drained_;
    std::size_t http_waiting() const {
        return quick_.size() + staging_.size() + trusted_.waiting.size() + untrusted_.waiting.size();
    }

    std::deque<Job> urgent_;   // the server's own jobs, run first
    std::deque<Job> quick_;    // HTTP requests without a password hash, next
    std::deque<Job> staging_;  // HTTP requests with one, to prepare
    FairQueue trusted_, untrusted_;
    std::vector<HashPtr> handed_;   // admitted, handed to the scheduler, not yet started
    std::deque<HashPtr> finished_;  // hashed: their answers to write
    std::size_t hashing_ = 0;       // picked and not yet hashed (at most one per scheduler thread)
    std::size_t in_flight_ = 0;     // jobs given to the scheduler and not yet over (the destructor waits for them)
    std::uint64_t seq_ = 0;
    double hash_ms_ = 100;  // the mean hash's time, for Retry-After
    HashWaits hash_waits_;
    std::unordered_map<std::string, std::size_t> per_client_;
    bool stopping_ = false;
    std::size_t workers_n_ = 1;                       // the scheduler's threads
    std::unique_ptr<work::Scheduler> own_scheduler_;  // when the server gives none
    work::Scheduler* scheduler_ = nullptr;
    std::thread worker_;
};

}  // namespace echecs::server::accounts

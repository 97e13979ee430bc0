// The server's one scheduler of heavy work: its threads run every job too
// heavy for the I/O thread (the computer's moves, evaluations, analysis
// streams, reviews, solves, PGN and Popeye uploads, password hashes).
//
// Three classes. Searches for games in progress (the computer's move) and
// analyses are the engine's: they run on at most `engine_threads` threads
// at once, game searches first. Password hashes run on the other threads
// (the scheduler has more than engine_threads) and on any the engine leaves
// free: a log-in never waits for a search, and a flood of log-ins never
// takes the engine's threads. Within a class, one queue per client (an
// address, or a tournament), the client served least recently first, so
// that one address's many games against the computer do not make another
// player's computer wait behind all of them, and a flood of analyses from
// one client delays neither the computer's moves nor the other clients'
// analyses.
//
// A game search that finds the engine's threads all busy with analyses
// stops the oldest of them early (it answers with the line found so far).
// Game searches share the engine's threads in slices: while another
// client's game search waits, one that has run its slice stops and plays
// the best move found so far, so that a player's computer move waits one
// slice, not the whole think of every address ahead of it. The slice is
// GAME_ROUND_MS shared by the clients waiting, between GAME_MIN_SLICE_MS
// and GAME_SLICE_MS: when many addresses start at once (none served yet,
// all equal), a round of them still takes about 2 s. When hashes hold
// every thread, a game search waits for the first to end (one Argon2id
// hash, tens of milliseconds): hashes are never stopped.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace echecs::server::work {

class Scheduler {
public:
    // The job receives its stop flag: set when the scheduler stops, or when
    // a game search needs the thread of this analysis.
    using Job = std::function<void(const std::atomic<bool>& stop)>;

    static constexpr std::int64_t GAME_SLICE_MS = 500, GAME_MIN_SLICE_MS = 100, GAME_ROUND_MS = 2000;

    struct Options {
        int engine_threads = 1;       // game searches and analyses running at once (0: none, a hashing-only scheduler)
        int threads = 0;              // in all; at least engine_threads + 1 when hashes are run (0: engine_threads)
        std::size_t max_queue = 256;  // analyses and game searches waiting, all clients together
        std::size_t per_client = 2;   // analyses waiting or running per client
        // The threads run that much nicer than the process (Linux), so that
        // cores full of searches and hashes still give the I/O thread its time at once.
        int nice = 0;
    };
    explicit Scheduler(Options o);
    Scheduler(int engine_threads, std::size_t max_queue, std::size_t per_client, int nice = 0)
        : Scheduler(Options{engine_threads, 0, max_queue, per_client, nice}) {}
    ~Scheduler();  // stops running searches, drops queued jobs
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    // A search for a game in progress (the computer's move), for `client`
    // (the address that started the game); its stop flag also ends its
    // slice (see above). False only when stopping.
    bool submit_game(const std::string& client, Job job);

    enum class Refusal { None, ClientFull, QueueFull, Stopping };
    // An analysis for `client` (its address): refused when that client
    // already has per_client analyses waiting or running, or when max_queue
    // jobs wait in all. `owner` names the submitter for cancel().
    Refusal submit_analysis(const std::string& client, Job job, const void* owner = nullptr);
    // The owner no longer wants its analyses: those waiting are dropped, the
    // one running is told to stop. Their client's places are given back at
    // once (a stopped analysis still holds its engine thread until it
    // returns), so that a stream stopped and started again is not refused
    // while the old search winds down. How many were dropped or stopped.
    std::size_t cancel(const void* owner);
    // What submit_analysis would answer now, without queueing anything: an
    // upload is refused from its head, its body unread (HttpSession).
    Refusal analysis_refusal(const std::string& client) const;

    // A password hash for `client`. Not bounded here: its owner (the
    // accounts) keeps its own fair, bounded queue and hands over at most
    // threads() hashes at a time. False only when stopping. `owner` names
    // the submitter for withdraw().
    bool submit_hash(const std::string& client, Job job, const void* owner);
    // Drops the owner's queued hashes (not those running): how many. Their
    // owner calls it before it goes, since its jobs refer to it.
    std::size_t withdraw(const void* owner);

    int threads() const { return int(workers_.size()); }
    std::size_t queued() const;  // game searches and analyses waiting

    // How long jobs waited in the queue, per class, since the last call (the
    // server logs it every minute for the operator: docs/SECURITY.md).
    struct Waits {
        std::uint64_t count = 0, total_ms = 0, max_ms = 0;
        std::uint64_t cut = 0;  // game searches stopped at the end of their slice
    };
    struct AllWaits {
        Waits games, hashes, analyses;
    };
    AllWaits take_waits();
    std::uint64_t preemptions() const { return preemptions_.load(); }
    // The slicer's check as if it ran at `now` (a clock the tests control):
    // true when it stopped a game search at the end of its slice.
    bool check_slices(std::chrono::steady_clock::time_point now) {
        std::lock_guard lock(mutex_);
        return cut_a_long_game_search(now);
    }

private:
    enum class Class { Game, Analysis, Hash };
    struct Worker {
        std::atomic<bool> stop{false};
        bool busy = false;
        Class cls = Class::Game;
        std::string client;                           // whose job it runs
        const void* owner = nullptr;                  // its submitter (cancel)
        bool released = false;                        // cancelled: its client's place given back already
        std::uint64_t started = 0;                    // order of start, to stop the oldest analysis first
        std::chrono::steady_clock::time_point since;  // when its job started
        bool engine() const { return busy && cls != Class::Hash; }
    };
    void loop(Worker& w);
    void keep_time();                                                        // the slicer's thread
    bool cut_a_long_game_search(std::chrono::steady_clock::time_point now);  // with mutex_ held
    Refusal refusal_locked(const std::string& client) const;                 // under mutex_
    bool engine_free() const { return engine_running_ < engine_threads_; }   // under mutex_
    bool can_start() const;                                                  // under mutex_
    void next_job(Job& job, Worker& w);                                      // with mutex_ held, can_start()

    // Jobs of one class, one queue per client, served round robin: the
    // client served least recently (never: first), then the one waiting
    // longest. A client is forgotten once it holds nothing.
    struct FairQueue {
        struct Queued {
            Job job;
            std::chrono::steady_clock::time_point at;
            const void* owner = nullptr;
        };
        struct ClientQueue {
            std::deque<Queued> jobs;
            std::uint64_t since = 0;  // when it last became non-empty (ties)
        };
        std::unordered_map<std::string, ClientQueue> clients;        // clients with waiting jobs
        std::unordered_map<std::string, std::size_t> holding;        // jobs waiting or running per client
        std::unordered_map<std::string, std::uint64_t> last_served;  // while the client holds jobs
        std::size_t size = 0;                                        // jobs waiting
        bool empty() const { return clients.empty(); }
        void push(const std::string& client, Queued q, std::uint64_t stamp);
        Queued pop(std::string& client, std::uint64_t stamp);
        void done(const std::string& client);  // a job of the client ended
        std::size_t drop(const void* owner);   // its waiting jobs
        void clear() {
            clients.clear();
            size = 0;
        }
    };
    FairQueue& queue(Class c) { return c == Class::Game ? games_ : c == Class::Hash ? hashes_ : analyses_; }

    mutable std::mutex mutex_;
    std::condition_variable cv_, slicer_cv_;
    FairQueue games_, hashes_, analyses_;
    AllWaits waits_;
    int engine_threads_;
    int engine_running_ = 0;  // workers running a game search or an analysis
    std::size_t max_queue_, per_client_;
    bool stopping_ = false;
    std::uint64_t starts_ = 0;
    std::atomic<std::uint64_t> preemptions_{0};
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<std::thread> threads_;
    std::thread slicer_;
};

}  // namespace echecs::server::work

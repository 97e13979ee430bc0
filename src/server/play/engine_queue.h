// The engine's worker threads and what they work on: searches for games in
// progress first, then analysis requests (evaluations, solves, uploads to
// read). Each kind has one queue per client (its address), the client served
// least recently first, so that one address's many games against the
// computer do not make another player's computer wait behind all of them,
// and a flood of analyses from one client delays neither the computer's
// moves nor the other clients' analyses. A game search that finds every
// thread busy with analyses stops the oldest of them early (it answers with
// the line found so far). Game searches share the threads in slices: while
// another client's game search waits, one that has run its slice stops and
// plays the best move found so far, so that a player's computer move waits
// one slice, not the whole think of every address ahead of it. The slice is
// GAME_ROUND_MS shared by the clients waiting, between GAME_MIN_SLICE_MS and
// GAME_SLICE_MS: when many addresses start at once (none served yet, all
// equal), a round of them still takes about 2 s.
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

namespace echecs::server {

class EngineScheduler {
public:
    // The job receives its stop flag: set when the pool stops, or when a
    // game search needs the thread of this analysis.
    using Job = std::function<void(const std::atomic<bool>& stop)>;

    static constexpr std::int64_t GAME_SLICE_MS = 500, GAME_MIN_SLICE_MS = 100, GAME_ROUND_MS = 2000;

    // `nice`: the worker threads run that much nicer than the process (Linux), so
    // that a core full of searches still gives the I/O thread its time at once.
    EngineScheduler(int threads, std::size_t max_queue, std::size_t per_client, int nice = 0);
    ~EngineScheduler();  // stops running searches, drops queued ones
    EngineScheduler(const EngineScheduler&) = delete;
    EngineScheduler& operator=(const EngineScheduler&) = delete;

    // A search for a game in progress (the computer's move), for `client`
    // (the address that started the game); its stop flag also ends its
    // slice (see above). False only when stopping.
    bool submit_game(const std::string& client, Job job);

    enum class Refusal { None, ClientFull, QueueFull, Stopping };
    // An analysis for `client` (its address): refused when that client
    // already has per_client analyses waiting or running, or when max_queue
    // jobs wait in all.
    Refusal submit_analysis(const std::string& client, Job job);
    // What submit_analysis would answer now, without queueing anything: an
    // upload is refused from its head, its body unread (HttpSession).
    Refusal analysis_refusal(const std::string& client) const;

    std::size_t queued() const;

    // How long jobs waited in the queue, per kind, since the last call (the
    // server logs it every minute for the operator: docs/SECURITY.md).
    struct Waits {
        std::uint64_t count = 0, total_ms = 0, max_ms = 0;
        std::uint64_t cut = 0;  // game searches stopped at the end of their slice
    };
    std::pair<Waits, Waits> take_waits();  // {game searches, analyses}
    std::uint64_t preemptions() const { return preemptions_.load(); }
    // The slicer's check as if it ran at `now` (a clock the tests control):
    // true when it stopped a game search at the end of its slice.
    bool check_slices(std::chrono::steady_clock::time_point now) {
        std::lock_guard lock(mutex_);
        return cut_a_long_game_search(now);
    }

private:
    struct Worker {
        std::atomic<bool> stop{false};
        bool busy = false;
        bool analysis = false;
        std::string client;                           // whose job it runs
        std::uint64_t started = 0;                    // order of start, to stop the oldest analysis first
        std::chrono::steady_clock::time_point since;  // when its job started
    };
    void loop(Worker& w);
    void keep_time();                                                        // the slicer's thread
    bool cut_a_long_game_search(std::chrono::steady_clock::time_point now);  // with mutex_ held
    Refusal refusal_locked(const std::string& client) const;                 // under mutex_
    bool next_job(Job& job, Worker& w);                                      // with mutex_ held

    // Jobs of one kind, one queue per client, served round robin: the
    // client served least recently (never: first), then the one waiting
    // longest. A client is forgotten once it holds nothing.
    struct FairQueue {
        struct Queued {
            Job job;
            std::chrono::steady_clock::time_point at;
        };
        struct ClientQueue {
            std::deque<Queued> jobs;
            std::uint64_t since = 0;  // when it last became non-empty (ties)
        };
        std::unordered_map<std::string, ClientQueue> clients;        // clients with waiting jobs
        std::unordered_map<std::string, std::size_t> holding;        // jobs waiting or running per client
        std::unordered_map<std::string, std::uint64_t> last_served;  // while the client holds jobs
        bool empty() const { return clients.empty(); }
        void push(const std::string& client, Job job, std::uint64_t stamp);
        Queued pop(std::string& client, std::uint64_t stamp);
        void done(const std::string& client);  // a job of the client ended
        void clear() { clients.clear(); }
    };

    mutable std::mutex mutex_;
    std::condition_variable cv_, slicer_cv_;
    FairQueue games_, analyses_;
    Waits game_waits_, analysis_waits_;
    std::size_t waiting_ = 0;
    std::size_t max_queue_, per_client_;
    bool stopping_ = false;
    std::uint64_t starts_ = 0;
    std::atomic<std::uint64_t> preemptions_{0};
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<std::thread> threads_;
    std::thread slicer_;
};

}  // namespace echecs::server

// The solving jobs of the problems page. A job is submitted with a runner
// that queues it on the server's engine pool (below the games in progress);
// its owner polls it for progress and the result and may cancel it. Jobs are
// kept a while after they end, then forgotten; one address has at most
// `per_client` jobs unfinished, and at most `max_jobs` are kept in all.
// Thread-safe: the pool's thread updates a job, the I/O thread reads it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/problems/problem_request.h"

namespace echecs::problems {

struct JobLimits {
    double max_seconds = 60;         // a solve's time limit (a request may ask for less)
    std::size_t per_client = 1;      // unfinished jobs per address
    std::size_t max_jobs = 256;      // jobs kept, finished or not
    std::int64_t keep_ms = 600'000;  // a finished job's result is kept this long
    int threads = 1;                 // solver threads per job
    std::size_t hash_megabytes = 16;
};

// Always owned by a shared_ptr (make_shared): a queued job keeps it alive,
// so the pool may outlive whoever created it.
class ProblemJobs : public std::enable_shared_from_this<ProblemJobs> {
public:
    // The work a runner receives: run it on a pool thread with the pool's stop
    // flag (set when the pool needs the thread back or stops).
    using Work = std::function<void(const std::atomic<bool>& stop)>;
    // Queues the work; false when the pool refuses it (full).
    using Runner = std::function<bool(Work)>;

    using Clock = std::function<std::int64_t()>;  // milliseconds, monotonic
    explicit ProblemJobs(JobLimits limits = {}, Clock clock = nullptr);

    enum class Refusal { None, ClientBusy, TooMany, PoolFull };
    struct Submitted {
        Refusal refusal = Refusal::None;
        std::string id;
    };
    // Also forgets the finished jobs older than keep_ms.
    Submitted submit(SolveRequest request, const std::string& client, const std::string& owner, const Runner& run);

    // {"id","status":"queued"|"running"|"done","progress":{...},"found":[...],"result":<solver JSON or
    // null>,"text":...}; nullopt for an unknown (or forgotten) id.
    std::optional<nlohmann::json> status(const std::string& id) const;

    enum class Cancel { Done, NotFound, NotOwner };
    Cancel cancel(const std::string& id, const std::string& owner);

    // Forgets finished jobs older than keep_ms.
    void sweep();
    std::size_t size() const;
    const JobLimits& limits() const { return limits_; }
    // The keys and solutions a job shows while it runs, at most (the result has them all).
    static constexpr std::size_t FOUND_MAX = 100;

private:
    struct Job {
        std::string id, client, owner;
        solver::Progress progress;
        std::string state = "queued";    // queued, running, done
        nlohmann::json result;           // the solver's JSON tree, when done
        std::string text, error;         // composers' notation; an error that stopped the solve
        std::vector<std::string> found;  // keys and solutions as the solver proves them (FOUND_MAX)
        bool preempted = false;          // stopped because the pool needed the thread
        std::int64_t ended_ms = 0;
        std::atomic<bool> cancel{false};
    };
    void run(const std::shared_ptr<Job>& job, const SolveRequest& request, const std::atomic<bool>& stop);
    std::size_t unfinished_of(const std::string& client) const;  // with mutex_ held
    void sweep_locked();

    JobLimits limits_;
    Clock clock_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<Job>> jobs_;
    std::uint64_t next_ = 0;
    std::uint64_t salt_ = 0;
};

}  // namespace echecs::problems

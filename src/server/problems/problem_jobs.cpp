#include "server/problems/problem_jobs.h"

#include <chrono>
#include <random>

#include "solver/output.h"

namespace echecs::problems {

using nlohmann::json;

namespace {

// Job identifiers are not guessable: a job's result is its owner's until shared.
std::string new_id(std::uint64_t n, std::uint64_t& salt) {
    if (!salt) salt = (std::uint64_t(std::random_device{}()) << 32) | std::random_device{}();
    static constexpr char ALPHABET[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::uint64_t x = (n + 1) * 0x9E3779B97F4A7C15ull ^ salt;
    std::string id;
    for (int i = 0; i < 12; ++i) {
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 32;
        id += ALPHABET[x % 36];
    }
    return id;
}

std::int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

ProblemJobs::ProblemJobs(JobLimits limits, Clock clock)
    : limits_(limits), clock_(clock ? std::move(clock) : steady_ms) {}

std::size_t ProblemJobs::unfinished_of(const std::string& client) const {
    std::size_t n = 0;
    for (const auto& [id, j] : jobs_)
        if (j->client == client && j->state != "done") ++n;
    return n;
}

ProblemJobs::Submitted ProblemJobs::submit(SolveRequest request, const std::string& client, const std::string& owner,
                                           const Runner& runner) {
    std::shared_ptr<Job> job;
    {
        std::lock_guard lock(mutex_);
        sweep_locked();
        if (unfinished_of(client) >= limits_.per_client) return {Refusal::ClientBusy, ""};
        if (jobs_.size() >= limits_.max_jobs) {
            // Make room by forgetting the oldest finished job, if any.
            auto oldest = jobs_.end();
            for (auto it = jobs_.begin(); it != jobs_.end(); ++it)
                if (it->second->state == "done" &&
                    (oldest == jobs_.end() || it->second->ended_ms < oldest->second->ended_ms))
                    oldest = it;
            if (oldest == jobs_.end()) return {Refusal::TooMany, ""};
            jobs_.erase(oldest);
        }
        job = std::make_shared<Job>();
        job->id = new_id(next_++, salt_);
        job->client = client;
        job->owner = owner;
        jobs_[job->id] = job;
    }
    auto req = std::make_shared<SolveRequest>(std::move(request));
    const bool queued =
        runner([self = shared_from_this(), job, req](const std::atomic<bool>& stop) { self->run(job, *req, stop); });
    if (!queued) {
        std::lock_guard lock(mutex_);
        jobs_.erase(job->id);
        return {Refusal::PoolFull, ""};
    }
    return {Refusal::None, job->id};
}

void ProblemJobs::run(const std::shared_ptr<Job>& job, const SolveRequest& request, const std::atomic<bool>& stop) {
    {
        std::lock_guard lock(mutex_);
        job->state = "running";
    }
    solver::Options o;
    o.tries = request.tries;
    o.set_play = request.set_play;
    o.threats = request.threats;
    // "All" is at most MAX_SOLUTIONS here: a cooked h#4 finds millions in
    // seconds, each kept for the answer (3 GB in 3 s), which would take the
    // server's memory from everyone. The answer then says "max solutions".
    o.max_solutions = request.max_solutions > 0 ? request.max_solutions : MAX_SOLUTIONS;
    o.timeout_seconds =
        request.timeout_seconds > 0 ? std::min(request.timeout_seconds, limits_.max_seconds) : limits_.max_seconds;
    o.threads = limits_.threads;
    o.hash_megabytes = limits_.hash_megabytes;
    o.cancel = &job->cancel;
    o.progress = [this, &job, &stop](const solver::Progress& p) {
        if (stop && !job->cancel) {
            std::lock_guard lock(mutex_);
            job->preempted = true;
            job->cancel = true;
        }
        std::lock_guard lock(mutex_);
        job->progress = p;
    };
    // Each key or solution as soon as it is proven: a long solve shows what it has found.
    o.found = [this, &job, &st = request.problem.stipulation](const solver::AttackLine* key,
                                                              const solver::HelpLine* solution) {
        std::string line = key ? solver::key_text(*key) : solver::solution_text(*solution, st);
        while (!line.empty() && line.back() == '\n') line.pop_back();
        std::lock_guard lock(mutex_);
        if (job->found.size() < FOUND_MAX) job->found.push_back(std::move(line));
    };
    json result;
    std::string text, error;
    try {
        if (!stop) {  // cancelled by its owner meanwhile, the solver says so at once
            const solver::Result r = solver::solve(request.problem, o);
            result = json::parse(solver::to_json(r));
            text = solver::to_text(r);
        } else {
            error = "cancelled before it started";
        }
    } catch (const std::exception& e) {
        error = e.what();
    }
    std::lock_guard lock(mutex_);
    job->state = "done";
    job->result = std::move(result);
    job->text = std::move(text);
    job->error = std::move(error);
    job->ended_ms = clock_();
}

std::optional<json> ProblemJobs::status(const std::string& id) const {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return std::nullopt;
    const Job& j = *it->second;
    json out = {{"id", j.id},
                {"status", j.state},
                {"progress",
                 {{"first_moves", j.progress.first_moves},
                  {"first_moves_done", j.progress.first_moves_done},
                  {"nodes", j.progress.nodes},
                  {"solutions", j.progress.solutions},
                  {"seconds", j.progress.seconds}}},
                {"found", j.found},
                {"result", j.result.is_null() ? json(nullptr) : j.result},
                {"text", j.text.empty() ? json(nullptr) : json(j.text)},
                {"error", j.error.empty() ? json(nullptr) : json(j.error)},
                {"preempted", j.preempted}};
    return out;
}

ProblemJobs::Cancel ProblemJobs::cancel(const std::string& id, const std::string& owner) {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return Cancel::NotFound;
    if (it->second->owner != owner) return Cancel::NotOwner;
    it->second->cancel = true;
    return Cancel::Done;
}

void ProblemJobs::sweep() {
    std::lock_guard lock(mutex_);
    sweep_locked();
}

void ProblemJobs::sweep_locked() {
    const std::int64_t now = clock_();
    for (auto it = jobs_.begin(); it != jobs_.end();)
        if (it->second->state == "done" && now - it->second->ended_ms > limits_.keep_ms)
            it = jobs_.erase(it);
        else
            ++it;
}

std::size_t ProblemJobs::size() const {
    std::lock_guard lock(mutex_);
    return jobs_.size();
}

}  // namespace echecs::problems

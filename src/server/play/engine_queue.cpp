#include "server/play/engine_queue.h"

#include <algorithm>
#include <iostream>
#include <utility>

#include "platform/thread_priority.h"

namespace echecs::server {

void EngineScheduler::FairQueue::push(const std::string& client, Job job, std::uint64_t stamp) {
    ++holding[client];
    ClientQueue& q = clients[client];
    if (q.jobs.empty()) q.since = stamp;
    q.jobs.push_back({std::move(job), std::chrono::steady_clock::now()});
}

EngineScheduler::FairQueue::Queued EngineScheduler::FairQueue::pop(std::string& client, std::uint64_t stamp) {
    auto best = clients.end();
    std::pair<std::uint64_t, std::uint64_t> best_key{};
    for (auto it = clients.begin(); it != clients.end(); ++it) {
        auto served = last_served.find(it->first);
        const std::pair<std::uint64_t, std::uint64_t> key{served == last_served.end() ? 0 : served->second,
                                                          it->second.since};
        if (best == clients.end() || key < best_key) {
            best = it;
            best_key = key;
        }
    }
    Queued job = std::move(best->second.jobs.front());
    best->second.jobs.pop_front();
    client = best->first;
    if (best->second.jobs.empty()) clients.erase(best);
    last_served[client] = stamp;
    return job;
}

void EngineScheduler::FairQueue::done(const std::string& client) {
    auto it = holding.find(client);
    if (it != holding.end() && --it->second == 0) {
        holding.erase(it);
        last_served.erase(client);
    }
}

EngineScheduler::EngineScheduler(int threads, std::size_t max_queue, std::size_t per_client, int nice)
    : max_queue_(max_queue), per_client_(std::max<std::size_t>(1, per_client)) {
    for (int i = 0; i < std::max(1, threads); ++i) workers_.push_back(std::make_unique<Worker>());
    for (auto& w : workers_)
        threads_.emplace_back([this, w = w.get(), nice] {
            // Measured: a PGN upload flood took a bystander's move round trip to
            // 3.0-3.6 times its baseline with the engine at the server's
            // priority, 0.8 times at 5 below (PERFORMANCE.md).
            platform::lower_this_thread(nice);
            loop(*w);
        });
    slicer_ = std::thread([this] { keep_time(); });
}

EngineScheduler::~EngineScheduler() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        games_.clear();
        analyses_.clear();
        for (auto& w : workers_) w->stop = true;
    }
    cv_.notify_all();
    slicer_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
    slicer_.join();
}

bool EngineScheduler::submit_game(const std::string& client, Job job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return false;
        games_.push(client, std::move(job), ++starts_);
        ++waiting_;
        // Every thread busy: the oldest analysis gives its thread up.
        bool idle = false;
        Worker* oldest = nullptr;
        for (auto& w : workers_) {
            if (!w->busy) idle = true;
            if (w->busy && w->analysis && !w->stop && (!oldest || w->started < oldest->started)) oldest = w.get();
        }
        if (!idle && oldest) {
            oldest->stop = true;
            preemptions_++;
        }
    }
    cv_.notify_one();
    slicer_cv_.notify_one();
    return true;
}

// While game searches wait, every 20 ms: the longest running game search of
// another client past its slice stops. Asleep otherwise.
void EngineScheduler::keep_time() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (games_.empty()) {
            slicer_cv_.wait(lock);
            continue;
        }
        cut_a_long_game_search(std::chrono::steady_clock::now());
        slicer_cv_.wait_for(lock, std::chrono::milliseconds(20));
    }
}

bool EngineScheduler::cut_a_long_game_search(std::chrono::steady_clock::time_point now) {
    Worker* longest = nullptr;
    const std::int64_t waiting = std::int64_t(games_.clients.size());
    const auto slice = std::chrono::milliseconds(
        std::clamp(GAME_ROUND_MS / std::max<std::int64_t>(1, waiting), GAME_MIN_SLICE_MS, GAME_SLICE_MS));
    for (auto& w : workers_) {
        if (!w->busy) return false;  // a free thread takes the waiting search
        if (w->analysis || w->stop || now - w->since < slice) continue;
        bool other = false;  // a waiting search of another client: one's own waits its turn
        for (const auto& [client, q] : games_.clients) other = other || client != w->client;
        if (other && (!longest || w->since < longest->since)) longest = w.get();
    }
    if (!longest) return false;
    longest->stop = true;
    ++game_waits_.cut;
    return true;
}

EngineScheduler::Refusal EngineScheduler::refusal_locked(const std::string& client) const {
    if (stopping_) return Refusal::Stopping;
    auto held = analyses_.holding.find(client);
    if (held != analyses_.holding.end() && held->second >= per_client_) return Refusal::ClientFull;
    if (waiting_ >= max_queue_) return Refusal::QueueFull;
    return Refusal::None;
}

EngineScheduler::Refusal EngineScheduler::analysis_refusal(const std::string& client) const {
    std::lock_guard lock(mutex_);
    return refusal_locked(client);
}

EngineScheduler::Refusal EngineScheduler::submit_analysis(const std::string& client, Job job) {
    {
        std::lock_guard lock(mutex_);
        if (const Refusal r = refusal_locked(client); r != Refusal::None) return r;
        analyses_.push(client, std::move(job), ++starts_);
        ++waiting_;
    }
    cv_.notify_one();
    return Refusal::None;
}

std::size_t EngineScheduler::queued() const {
    std::lock_guard lock(mutex_);
    return waiting_;
}

std::pair<EngineScheduler::Waits, EngineScheduler::Waits> EngineScheduler::take_waits() {
    std::lock_guard lock(mutex_);
    return {std::exchange(game_waits_, {}), std::exchange(analysis_waits_, {})};
}

bool EngineScheduler::next_job(Job& job, Worker& w) {
    FairQueue::Queued q;
    if (!games_.empty()) {
        q = games_.pop(w.client, starts_ + 1);
        w.analysis = false;
    } else if (!analyses_.empty()) {
        q = analyses_.pop(w.client, starts_ + 1);
        w.analysis = true;
    } else {
        return false;
    }
    job = std::move(q.job);
    const auto waited = std::uint64_t(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - q.at).count());
    Waits& waits = w.analysis ? analysis_waits_ : game_waits_;
    ++waits.count;
    waits.total_ms += waited;
    waits.max_ms = std::max(waits.max_ms, waited);
    --waiting_;
    w.busy = true;
    w.stop = false;
    w.started = ++starts_;
    w.since = std::chrono::steady_clock::now();
    return true;
}

void EngineScheduler::loop(Worker& w) {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || !games_.empty() || !analyses_.empty(); });
            if (stopping_) return;
            next_job(job, w);
        }
        try {
            job(w.stop);
        } catch (const std::exception& e) {
            std::cerr << "echecs serve: engine job: " << e.what() << "\n";
        }
        std::lock_guard lock(mutex_);
        (w.analysis ? analyses_ : games_).done(w.client);
        w.busy = false;
        w.analysis = false;
        if (stopping_) w.stop = true;
    }
}

}  // namespace echecs::server

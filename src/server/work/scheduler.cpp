#include "server/work/scheduler.h"

#include <algorithm>
#include <iostream>
#include <utility>

#include "platform/thread_priority.h"

namespace echecs::server::work {

void Scheduler::FairQueue::push(const std::string& client, Queued q, std::uint64_t stamp) {
    ++holding[client];
    ++size;
    ClientQueue& c = clients[client];
    if (c.jobs.empty()) c.since = stamp;
    c.jobs.push_back(std::move(q));
}

Scheduler::FairQueue::Queued Scheduler::FairQueue::pop(std::string& client, std::uint64_t stamp) {
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
    --size;
    client = best->first;
    if (best->second.jobs.empty()) clients.erase(best);
    last_served[client] = stamp;
    return job;
}

void Scheduler::FairQueue::done(const std::string& client) {
    auto it = holding.find(client);
    if (it != holding.end() && --it->second == 0) {
        holding.erase(it);
        last_served.erase(client);
    }
}

std::size_t Scheduler::FairQueue::drop(const void* owner) {
    std::size_t n = 0;
    for (auto it = clients.begin(); it != clients.end();) {
        const std::string client = it->first;
        auto& jobs = it->second.jobs;
        const auto kept = std::remove_if(jobs.begin(), jobs.end(), [&](const Queued& q) { return q.owner == owner; });
        const auto dropped = std::size_t(jobs.end() - kept);
        jobs.erase(kept, jobs.end());
        n += dropped;
        size -= dropped;
        it = jobs.empty() ? clients.erase(it) : std::next(it);
        for (std::size_t i = 0; i < dropped; ++i) done(client);
    }
    return n;
}

Scheduler::Scheduler(Options o)
    : engine_threads_(std::max(0, o.engine_threads)),
      max_queue_(o.max_queue),
      per_client_(std::max<std::size_t>(1, o.per_client)) {
    const int n = std::max({1, o.threads, engine_threads_});
    for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>());
    for (auto& w : workers_)
        threads_.emplace_back([this, w = w.get(), nice = o.nice] {
            // Measured: a PGN upload flood took a bystander's move round trip to
            // 3.0-3.6 times its baseline with the engine at the server's
            // priority, 0.8 times at 5 below (PERFORMANCE.md).
            platform::lower_this_thread(nice);
            loop(*w);
        });
    slicer_ = std::thread([this] { keep_time(); });
}

Scheduler::~Scheduler() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        games_.clear();
        hashes_.clear();
        analyses_.clear();
        for (auto& w : workers_) w->stop = true;
    }
    cv_.notify_all();
    slicer_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
    slicer_.join();
}

bool Scheduler::submit_game(const std::string& client, Job job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return false;
        games_.push(client, {std::move(job), std::chrono::steady_clock::now()}, ++starts_);
        // The engine's threads all busy: the oldest analysis gives its thread up.
        if (!engine_free()) {
            Worker* oldest = nullptr;
            for (auto& w : workers_)
                if (w->busy && w->cls == Class::Analysis && !w->stop && (!oldest || w->started < oldest->started))
                    oldest = w.get();
            if (oldest) {
                oldest->stop = true;
                preemptions_++;
            }
        }
    }
    cv_.notify_all();
    slicer_cv_.notify_one();
    return true;
}

// While game searches wait, every 20 ms: the longest running game search of
// another client past its slice stops. Asleep otherwise.
void Scheduler::keep_time() {
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

bool Scheduler::cut_a_long_game_search(std::chrono::steady_clock::time_point now) {
    // A free engine thread takes the waiting search (at once, or after the hash it runs).
    if (engine_free()) return false;
    Worker* longest = nullptr;
    const std::int64_t waiting = std::int64_t(games_.clients.size());
    const auto slice = std::chrono::milliseconds(
        std::clamp(GAME_ROUND_MS / std::max<std::int64_t>(1, waiting), GAME_MIN_SLICE_MS, GAME_SLICE_MS));
    for (auto& w : workers_) {
        if (!w->busy || w->cls != Class::Game || w->stop || now - w->since < slice) continue;
        bool other = false;  // a waiting search of another client: one's own waits its turn
        for (const auto& [client, q] : games_.clients) other = other || client != w->client;
        if (other && (!longest || w->since < longest->since)) longest = w.get();
    }
    if (!longest) return false;
    longest->stop = true;
    ++waits_.games.cut;
    return true;
}

Scheduler::Refusal Scheduler::refusal_locked(const std::string& client) const {
    if (stopping_) return Refusal::Stopping;
    auto held = analyses_.holding.find(client);
    if (held != analyses_.holding.end() && held->second >= per_client_) return Refusal::ClientFull;
    if (games_.size + analyses_.size >= max_queue_) return Refusal::QueueFull;
    return Refusal::None;
}

Scheduler::Refusal Scheduler::analysis_refusal(const std::string& client) const {
    std::lock_guard lock(mutex_);
    return refusal_locked(client);
}

Scheduler::Refusal Scheduler::submit_analysis(const std::string& client, Job job, const void* owner) {
    {
        std::lock_guard lock(mutex_);
        if (const Refusal r = refusal_locked(client); r != Refusal::None) return r;
        analyses_.push(client, {std::move(job), std::chrono::steady_clock::now(), owner}, ++starts_);
    }
    cv_.notify_one();
    return Refusal::None;
}

std::size_t Scheduler::cancel(const void* owner) {
    if (!owner) return 0;
    std::size_t n;
    {
        std::lock_guard lock(mutex_);
        n = analyses_.drop(owner);
        for (auto& w : workers_) {
            if (!w->busy || w->cls != Class::Analysis || w->owner != owner || w->released) continue;
            w->stop = true;
            w->released = true;
            analyses_.done(w->client);
            ++n;
        }
    }
    return n;
}

bool Scheduler::submit_hash(const std::string& client, Job job, const void* owner) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return false;
        hashes_.push(client, {std::move(job), std::chrono::steady_clock::now(), owner}, ++starts_);
    }
    cv_.notify_one();
    return true;
}

std::size_t Scheduler::withdraw(const void* owner) {
    std::lock_guard lock(mutex_);
    return hashes_.drop(owner);
}

std::size_t Scheduler::queued() const {
    std::lock_guard lock(mutex_);
    return games_.size + analyses_.size;
}

Scheduler::AllWaits Scheduler::take_waits() {
    std::lock_guard lock(mutex_);
    return std::exchange(waits_, {});
}

bool Scheduler::can_start() const {
    return !hashes_.empty() || (engine_free() && (!games_.empty() || !analyses_.empty()));
}

void Scheduler::next_job(Job& job, Worker& w) {
    // A free thread takes, in order: a game search, an analysis (both while
    // the engine has a thread free), a hash.
    w.cls = !engine_free()       ? Class::Hash
            : !games_.empty()    ? Class::Game
            : !analyses_.empty() ? Class::Analysis
                                 : Class::Hash;
    FairQueue::Queued q = queue(w.cls).pop(w.client, starts_ + 1);
    job = std::move(q.job);
    w.owner = q.owner;
    w.released = false;
    const auto waited = std::uint64_t(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - q.at).count());
    Waits& waits = w.cls == Class::Game ? waits_.games : w.cls == Class::Hash ? waits_.hashes : waits_.analyses;
    ++waits.count;
    waits.total_ms += waited;
    waits.max_ms = std::max(waits.max_ms, waited);
    if (w.cls != Class::Hash) ++engine_running_;
    w.busy = true;
    w.stop = false;
    w.started = ++starts_;
    w.since = std::chrono::steady_clock::now();
}

void Scheduler::loop(Worker& w) {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || can_start(); });
            if (stopping_) return;
            next_job(job, w);
        }
        try {
            job(w.stop);
        } catch (const std::exception& e) {
            std::cerr << "echecs serve: background job: " << e.what() << "\n";
        }
        bool engine = false;
        {
            std::lock_guard lock(mutex_);
            if (!w.released) queue(w.cls).done(w.client);
            engine = w.engine();
            if (engine) --engine_running_;
            w.busy = false;
            if (stopping_) w.stop = true;
        }
        // An engine thread freed: a worker waiting (every one idle may be) can take engine work.
        if (engine) cv_.notify_all();
    }
}

}  // namespace echecs::server::work

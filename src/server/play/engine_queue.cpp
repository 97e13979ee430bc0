#include "server/play/engine_queue.h"

#include <iostream>

namespace echecs::server {

EngineScheduler::EngineScheduler(int threads, std::size_t max_queue, std::size_t per_client)
    : max_queue_(max_queue), per_client_(std::max<std::size_t>(1, per_client)) {
    for (int i = 0; i < std::max(1, threads); ++i) workers_.push_back(std::make_unique<Worker>());
    for (auto& w : workers_) threads_.emplace_back([this, w = w.get()] { loop(*w); });
}

EngineScheduler::~EngineScheduler() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        games_.clear();
        clients_.clear();
        for (auto& w : workers_) w->stop = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
}

bool EngineScheduler::submit_game(Job job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return false;
        games_.push_back(std::move(job));
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
    return true;
}

EngineScheduler::Refusal EngineScheduler::submit_analysis(const std::string& client, Job job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return Refusal::Stopping;
        std::size_t& held = holding_[client];
        if (held >= per_client_) return Refusal::ClientFull;
        if (waiting_ >= max_queue_) {
            if (held == 0) holding_.erase(client);
            return Refusal::QueueFull;
        }
        ++held;
        ClientQueue& q = clients_[client];
        if (q.jobs.empty()) q.since = ++starts_;
        q.jobs.push_back(std::move(job));
        ++waiting_;
    }
    cv_.notify_one();
    return Refusal::None;
}

std::size_t EngineScheduler::queued() const {
    std::lock_guard lock(mutex_);
    return waiting_;
}

bool EngineScheduler::next_job(Job& job, Worker& w) {
    if (!games_.empty()) {
        job = std::move(games_.front());
        games_.pop_front();
        w.analysis = false;
        w.client.clear();
    } else if (!clients_.empty()) {
        // The client served least recently (never: 0), then the one waiting longest.
        auto best = clients_.end();
        std::pair<std::uint64_t, std::uint64_t> best_key{};
        for (auto it = clients_.begin(); it != clients_.end(); ++it) {
            auto served = last_served_.find(it->first);
            std::pair<std::uint64_t, std::uint64_t> key{served == last_served_.end() ? 0 : served->second,
                                                        it->second.since};
            if (best == clients_.end() || key < best_key) {
                best = it;
                best_key = key;
            }
        }
        job = std::move(best->second.jobs.front());
        best->second.jobs.pop_front();
        w.client = best->first;
        if (best->second.jobs.empty()) clients_.erase(best);
        w.analysis = true;
        last_served_[w.client] = starts_ + 1;
    } else {
        return false;
    }
    --waiting_;
    w.busy = true;
    w.stop = false;
    w.started = ++starts_;
    return true;
}

void EngineScheduler::loop(Worker& w) {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || !games_.empty() || !clients_.empty(); });
            if (stopping_) return;
            next_job(job, w);
        }
        try {
            job(w.stop);
        } catch (const std::exception& e) {
            std::cerr << "echecs serve: engine job: " << e.what() << "\n";
        }
        std::lock_guard lock(mutex_);
        if (w.analysis) {
            auto it = holding_.find(w.client);
            if (it != holding_.end() && --it->second == 0) {
                holding_.erase(it);
                last_served_.erase(w.client);
            }
        }
        w.busy = false;
        w.analysis = false;
        if (stopping_) w.stop = true;
    }
}

}  // namespace echecs::server

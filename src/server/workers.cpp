#include "server/workers.h"

#include <chrono>
#include <iostream>

#include "server/util.h"

namespace echecs::server {

StorageWorker::StorageWorker(std::unique_ptr<Storage> storage, Post post, std::int64_t heartbeat_ms)
    : storage_(std::move(storage)), post_(std::move(post)), heartbeat_ms_(heartbeat_ms) {
    thread_ = std::thread([this] { loop(); });
}

StorageWorker::~StorageWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void StorageWorker::write(std::vector<WriteOp> ops, std::function<void(bool, std::string)> done) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(Job{std::move(ops), std::move(done), nullptr});
    }
    cv_.notify_one();
}

void StorageWorker::run(std::function<void(Storage&)> job) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(Job{{}, nullptr, std::move(job)});
    }
    cv_.notify_one();
}

void StorageWorker::loop() {
    auto next_beat = std::chrono::steady_clock::now();
    for (;;) {
        std::deque<Job> jobs;
        {
            std::unique_lock lock(mutex_);
            cv_.wait_until(lock, next_beat, [this] { return stopping_ || !queue_.empty(); });
            jobs.swap(queue_);
            if (jobs.empty() && stopping_) return;
        }
        if (std::chrono::steady_clock::now() >= next_beat) {
            // Records that the server is up, so that a restart knows how long it was down.
            try {
                std::vector<WriteOp> beat;
                beat.emplace_back(std::in_place_type<Heartbeat>, now_ms());
                storage_->apply(beat);
            } catch (const std::exception& e) {
                std::cerr << "echecs serve: heartbeat: " << e.what() << "\n";
            }
            next_beat = std::chrono::steady_clock::now() + std::chrono::milliseconds(heartbeat_ms_);
        }
        while (!jobs.empty()) {
            if (jobs.front().read) {
                try {
                    jobs.front().read(*storage_);
                } catch (const std::exception& e) {
                    std::cerr << "echecs serve: storage read: " << e.what() << "\n";
                }
                jobs.pop_front();
                continue;
            }
            // Group the consecutive writes into one transaction.
            std::vector<Job> group;
            std::vector<WriteOp> all;
            while (!jobs.empty() && !jobs.front().read) {
                for (const WriteOp& op : jobs.front().ops) all.push_back(op);
                group.push_back(std::move(jobs.front()));
                jobs.pop_front();
            }
            try {
                storage_->apply(all);
                transactions_++;
                for (Job& j : group) post_([done = std::move(j.done)] { done(true, ""); });
            } catch (const std::exception& grouped) {
                // One bad write must not fail the others: retry one by one.
                for (Job& j : group) {
                    try {
                        storage_->apply(j.ops);
                        transactions_++;
                        post_([done = std::move(j.done)] { done(true, ""); });
                    } catch (const std::exception& e) {
                        std::cerr << "echecs serve: storage write: " << e.what() << "\n";
                        post_([done = std::move(j.done), msg = std::string(e.what())] { done(false, msg); });
                    }
                }
            }
        }
    }
}

EnginePool::EnginePool(int threads, std::size_t max_queue) : max_queue_(max_queue) {
    for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { loop(); });
}

EnginePool::~EnginePool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
}

bool EnginePool::submit(std::function<void(const std::atomic<bool>&)> job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || queue_.size() >= max_queue_) return false;
        queue_.push_back(std::move(job));
    }
    cv_.notify_one();
    return true;
}

std::size_t EnginePool::queued() {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void EnginePool::loop() {
    for (;;) {
        std::function<void(const std::atomic<bool>&)> job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        try {
            job(stopping_);
        } catch (const std::exception& e) {
            std::cerr << "echecs serve: engine job: " << e.what() << "\n";
        }
    }
}

}  // namespace echecs::server

#include "server/storage/workers.h"

#include <chrono>
#include <iostream>

#include "platform/thread_priority.h"
#include "server/app/util.h"

namespace echecs::server {

StorageWorker::StorageWorker(std::unique_ptr<Storage> storage, Post post, std::int64_t heartbeat_ms,
                             std::size_t max_reads)
    : storage_(std::move(storage)),
      reader_(storage_->open_reader()),
      post_(std::move(post)),
      heartbeat_ms_(heartbeat_ms),
      max_reads_(max_reads) {
    writer_ = std::thread([this] { write_loop(); });
    reader_thread_ = std::thread([this] { read_loop(); });
}

StorageWorker::~StorageWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    write_cv_.notify_all();
    read_cv_.notify_all();
    writer_.join();
    reader_thread_.join();
}

void StorageWorker::write(std::vector<WriteOp> ops, std::function<void(bool, std::string)> done) {
    {
        std::lock_guard lock(mutex_);
        writes_.push_back(Job{std::move(ops), std::move(done), nullptr});
    }
    write_cv_.notify_one();
}

void StorageWorker::run(std::function<void(Storage&)> job) {
    {
        std::lock_guard lock(mutex_);
        writes_.push_back(Job{{}, nullptr, std::move(job)});
    }
    write_cv_.notify_one();
}

bool StorageWorker::read(std::function<void(Storage&)> job) {
    {
        std::lock_guard lock(mutex_);
        if (reads_.size() >= max_reads_) return false;
        reads_.push_back(std::move(job));
    }
    read_cv_.notify_one();
    return true;
}

namespace {
// The reader runs listings that any address can ask for, many at once: below
// the writer and the I/O thread, so that moves commit and are answered first
// on a machine the listings fill (PERFORMANCE.md, "Listings, after").
constexpr int READER_NICE = 5;
}  // namespace

void StorageWorker::read_loop() {
    platform::lower_this_thread(READER_NICE);
    for (;;) {
        std::function<void(Storage&)> job;
        {
            std::unique_lock lock(mutex_);
            read_cv_.wait(lock, [this] { return stopping_ || !reads_.empty(); });
            if (reads_.empty()) return;  // stopping, nothing left
            job = std::move(reads_.front());
            reads_.pop_front();
        }
        try {
            job(*reader_);
        } catch (const std::exception& e) {
            std::cerr << "echecs serve: storage read: " << e.what() << "\n";
        }
    }
}

void StorageWorker::write_loop() {
    auto next_beat = std::chrono::steady_clock::now();
    for (;;) {
        std::deque<Job> jobs;
        {
            std::unique_lock lock(mutex_);
            write_cv_.wait_until(lock, next_beat, [this] { return stopping_ || !writes_.empty(); });
            jobs.swap(writes_);
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
        // Writes queued together share a transaction; a run() job goes between them, in turn.
        std::deque<Job> group;
        for (Job& j : jobs) {
            if (!j.run) {
                group.push_back(std::move(j));
                continue;
            }
            apply_group(group);
            try {
                j.run(*storage_);
            } catch (const std::exception& e) {
                std::cerr << "echecs serve: storage job: " << e.what() << "\n";
            }
        }
        apply_group(group);
    }
}

void StorageWorker::apply_group(std::deque<Job>& jobs) {
    if (jobs.empty()) return;
    std::vector<WriteOp> all;
    for (const Job& j : jobs) all.insert(all.end(), j.ops.begin(), j.ops.end());
    try {
        storage_->apply(all);
        transactions_++;
        for (Job& j : jobs) post_([done = std::move(j.done)] { done(true, ""); });
    } catch (const std::exception&) {
        // One bad write must not fail the others: retry one by one.
        for (Job& j : jobs) {
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
    jobs.clear();
}

}  // namespace echecs::server

// The two kinds of background threads of the server: the storage worker
// (one thread owning the database connection; writes are grouped into
// transactions) and the engine pool (a bounded queue of searches).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/storage.h"

namespace echecs::server {

class StorageWorker {
public:
    // `post` runs a completion on the server's I/O thread.
    using Post = std::function<void(std::function<void()>)>;
    StorageWorker(std::unique_ptr<Storage> storage, Post post, std::int64_t heartbeat_ms = 1000);
    ~StorageWorker();  // finishes the queued jobs
    StorageWorker(const StorageWorker&) = delete;
    StorageWorker& operator=(const StorageWorker&) = delete;

    // Applies `ops` in one transaction (possibly grouped with other writes
    // queued at the same time), then posts done(ok, error message).
    void write(std::vector<WriteOp> ops, std::function<void(bool, std::string)> done);
    // Runs `job` on the storage thread (reads); the job posts its own result.
    void run(std::function<void(Storage&)> job);

    std::uint64_t transactions() const { return transactions_.load(); }

private:
    struct Job {
        std::vector<WriteOp> ops;
        std::function<void(bool, std::string)> done;
        std::function<void(Storage&)> read;
    };
    void loop();

    std::unique_ptr<Storage> storage_;
    Post post_;
    std::int64_t heartbeat_ms_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    std::atomic<std::uint64_t> transactions_{0};
    std::thread thread_;
};

class EnginePool {
public:
    EnginePool(int threads, std::size_t max_queue);
    ~EnginePool();  // cancels running searches, drops queued ones
    EnginePool(const EnginePool&) = delete;
    EnginePool& operator=(const EnginePool&) = delete;

    // False when the queue is full. The job receives the pool's stop flag.
    bool submit(std::function<void(const std::atomic<bool>& stopping)> job);
    std::size_t queued();

private:
    void loop();
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void(const std::atomic<bool>&)>> queue_;
    std::size_t max_queue_;
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> threads_;
};

}  // namespace echecs::server

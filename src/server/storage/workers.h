// The storage threads of the server: one writer owning the connection that
// commits (writes queued together share one transaction) and one reader on
// its own connection (listings, games loaded on demand), so that no read
// ever waits behind a write or delays one.
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

#include "server/storage/storage.h"

namespace echecs::server {

class StorageWorker {
public:
    // `post` runs a completion on the server's I/O thread.
    using Post = std::function<void(std::function<void()>)>;
    StorageWorker(std::unique_ptr<Storage> storage, Post post, std::int64_t heartbeat_ms = 1000,
                  std::size_t max_reads = 256);
    ~StorageWorker();  // finishes the queued jobs
    StorageWorker(const StorageWorker&) = delete;
    StorageWorker& operator=(const StorageWorker&) = delete;

    // Applies `ops` in one transaction (possibly grouped with other writes
    // queued at the same time), then posts done(ok, error message).
    void write(std::vector<WriteOp> ops, std::function<void(bool, std::string)> done);
    // Runs `job` on the read connection's thread; the job posts its own
    // result. False (job dropped) when max_reads jobs are already waiting.
    bool read(std::function<void(Storage&)> job);
    // Runs `job` on the writing connection's thread, in turn with the writes
    // (a cluster's lease renewals: writes, and never behind the reader's
    // listings at its lower priority). The job posts its own result.
    void run(std::function<void(Storage&)> job);

    std::uint64_t transactions() const { return transactions_.load(); }

private:
    struct Job {
        std::vector<WriteOp> ops;
        std::function<void(bool, std::string)> done;
        std::function<void(Storage&)> run;  // set: a job of run(), not a write
    };
    void write_loop();
    void apply_group(std::deque<Job>& jobs);
    void read_loop();

    std::unique_ptr<Storage> storage_;
    std::unique_ptr<Storage> reader_;
    Post post_;
    std::int64_t heartbeat_ms_;
    std::size_t max_reads_;
    std::mutex mutex_;
    std::condition_variable write_cv_, read_cv_;
    std::deque<Job> writes_;
    std::deque<std::function<void(Storage&)>> reads_;
    bool stopping_ = false;
    std::atomic<std::uint64_t> transactions_{0};
    std::thread writer_, reader_thread_;
};

}  // namespace echecs::server

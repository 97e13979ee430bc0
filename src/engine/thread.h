// Runs one search at a time on its own thread, so that a protocol loop keeps
// reading commands (stop, quit, isready) while the engine thinks.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include "search.h"
#include "tt.h"

namespace echecs::engine {

class SearchThread {
public:
    using DoneCallback = std::function<void(const SearchResult&)>;

    // The default table is touched now, as a resized one is (set_hash).
    SearchThread() : searcher_(tt_) { clear_hash(); }
    ~SearchThread() {
        stop();
        wait();
    }
    SearchThread(const SearchThread&) = delete;
    SearchThread& operator=(const SearchThread&) = delete;

    // Searches `pos`, which the caller leaves alone until wait() returns;
    // `on_done` runs on the search thread with the result. A ponder search
    // gives no result until ponderhit() (then it runs on the limits) or stop().
    void start(Position& pos, Limits limits, const SearchOptions& options, InfoCallback on_info, DoneCallback on_done,
               bool ponder = false) {
        wait();
        stop_ = false;
        busy_ = true;
        answered_ = false;
        next_.reset();
        Job job{&pos, std::move(limits), options, std::move(on_info), std::move(on_done), ponder};
        arm(job);
        thread_ = std::thread([this, job = std::move(job)]() mutable {
            for (;;) {
                const SearchResult r = searcher_.run(*job.pos, job.limits, job.options, &stop_, job.on_info);
                ponder_ = false;  // before the answer: a ponderhit after it has nothing to hit
                {
                    // Before the answer: a command the GUI sends after it must
                    // not find the search "running" (interrupt()).
                    std::lock_guard<std::mutex> lock(m_);
                    answered_ = true;
                }
                if (job.on_done) job.on_done(r);
                std::lock_guard<std::mutex> lock(m_);
                // A stop that came meanwhile cancels the follow-up.
                if (!next_ || stop_) break;
                job = std::move(*next_);
                next_.reset();
                arm(job);
            }
            next_.reset();
            busy_ = false;
        });
    }
    // From inside on_done: the search this thread runs next (xboard's
    // pondering after its move), unless stop() is called first.
    void then(Position& pos, Limits limits, const SearchOptions& options, InfoCallback on_info, DoneCallback on_done,
              bool ponder) {
        std::lock_guard<std::mutex> lock(m_);
        next_ = Job{&pos, std::move(limits), options, std::move(on_info), std::move(on_done), ponder};
        answered_ = false;
    }
    void stop() {
        std::lock_guard<std::mutex> lock(m_);
        stop_ = true;
    }
    // Stops a search that has neither answered nor been told to stop, calling
    // `announce` first; returns whether it did. Under the lock the search
    // thread takes before it answers, so that `announce`'s output always
    // comes before the answer, never after it.
    template <class Announce>
    bool interrupt(Announce announce) {
        std::lock_guard<std::mutex> lock(m_);
        if (!busy_ || answered_ || stop_) return false;
        announce();
        stop_ = true;
        return true;
    }
    void ponderhit() { ponder_ = false; }
    bool pondering() const { return busy_ && ponder_; }
    // Until the search (and its helper threads) has ended.
    void wait() {
        if (thread_.joinable()) thread_.join();
        searcher_.join_helpers();
    }
    bool busy() const { return busy_; }

    // The table as the protocols keep it: resized, then touched over the
    // search threads (clear_hash), so that no search pays its page faults.
    // Throws std::bad_alloc as resize() does (the 1 MB table is cleared too).
    // Neither during a search.
    void set_hash(std::size_t mb) {
        try {
            tt_.resize(mb);
        } catch (const std::bad_alloc&) {
            clear_hash();
            throw;
        }
        clear_hash();
    }
    void clear_hash() { tt_.clear(searcher_.threads()); }

    TranspositionTable& tt() { return tt_; }
    Searcher& searcher() { return searcher_; }

private:
    struct Job {
        Position* pos;
        Limits limits;
        SearchOptions options;
        InfoCallback on_info;
        DoneCallback on_done;
        bool ponder;
    };
    void arm(Job& job) {
        stop_ = false;
        ponder_ = job.ponder;
        job.limits.ponder = job.ponder ? &ponder_ : nullptr;
    }

    std::mutex m_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> busy_{false};
    std::atomic<bool> ponder_{false};
    bool answered_ = false;  // guarded by m_: the running job's on_done has begun
    std::optional<Job> next_;
    TranspositionTable tt_;
    Searcher searcher_;
    std::thread thread_;
};

}  // namespace echecs::engine

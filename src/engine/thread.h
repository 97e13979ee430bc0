// Runs one search at a time on its own thread, so that a protocol loop keeps
// reading commands (stop, quit, isready) while the engine thinks.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

#include "search.h"
#include "tt.h"

namespace echecs::engine {

class SearchThread {
public:
    SearchThread() : searcher_(tt_) {}
    ~SearchThread() {
        stop();
        wait();
    }
    SearchThread(const SearchThread&) = delete;
    SearchThread& operator=(const SearchThread&) = delete;

    // Searches `pos`, which the caller leaves alone until wait() returns;
    // `on_done` runs on the search thread with the result. A ponder search
    // gives no result until ponderhit() (then it runs on the limits) or stop().
    void start(Position& pos, Limits limits, const SearchOptions& options, InfoCallback on_info,
               std::function<void(const SearchResult&)> on_done, bool ponder = false) {
        wait();
        stop_ = false;
        ponder_ = ponder;
        limits.ponder = ponder ? &ponder_ : nullptr;
        busy_ = true;
        thread_ = std::thread([this, &pos, limits = std::move(limits), options, on_info = std::move(on_info),
                               on_done = std::move(on_done)] {
            const SearchResult r = searcher_.run(pos, limits, options, &stop_, on_info);
            if (on_done) on_done(r);
            busy_ = false;
        });
    }
    void stop() { stop_ = true; }
    void ponderhit() { ponder_ = false; }
    bool pondering() const { return busy_ && ponder_; }
    void wait() {
        if (thread_.joinable()) thread_.join();
    }
    bool busy() const { return busy_; }

    TranspositionTable& tt() { return tt_; }
    Searcher& searcher() { return searcher_; }

private:
    std::atomic<bool> stop_{false};
    std::atomic<bool> busy_{false};
    std::atomic<bool> ponder_{false};
    TranspositionTable tt_;
    Searcher searcher_;
    std::thread thread_;
};

}  // namespace echecs::engine

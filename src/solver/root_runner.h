#pragma once

// The first moves of a problem shared out to threads, the limits (timeout,
// cancel flag, progress) watched by the calling thread: the one contract of
// every stipulation (solver.h), kept in one place.

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>

#include "solver/search.h"
#include "solver/solver.h"

namespace echecs::solver {

class RootRunner {
public:
    // `roots` first moves; Options::threads (0: the machine's) is capped by them.
    RootRunner(const Options& options, Shared& shared, int roots);

    int threads() const { return threads_; }

    // Runs `body` on threads() threads and returns once they have all ended.
    // Each body takes first moves with next() and counts those searched to
    // the end with finished(). An exception in a body halts the search and is
    // rethrown here.
    void run(const std::function<void()>& body);

    // The next first move to search, or -1 when none is left or the search stopped.
    int next();
    void finished();
    int finished_count() const;

    // Passes a proven key or solution to Options::found, one at a time.
    void report(const AttackLine* key, const HelpLine* solution);
    // A help line proven from `root` (this thread's copy of the diagram):
    // kept in `lines`, counted, reported (up to Options::max_solutions),
    // and the search stopped at that maximum. Nothing once it has stopped.
    void help_solution(Position& root, std::vector<std::vector<Move>>& lines, const std::vector<Move>& line,
                       Goal goal = Goal::Mate);

private:
    void monitor();

    const Options& options_;
    Shared& shared_;
    const int roots_;
    int threads_ = 1;
    std::atomic<int> next_{0};
    mutable std::mutex mutex_;
    std::mutex found_mutex_;
    std::condition_variable ended_cv_;
    int ended_ = 0;     // bodies that have returned
    int finished_ = 0;  // first moves searched to the end
    std::exception_ptr error_;
};

}  // namespace echecs::solver

#include "solver/root_runner.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "solver/tree.h"

namespace echecs::solver {

using Clock = std::chrono::steady_clock;

RootRunner::RootRunner(const Options& options, Shared& shared, int roots)
    : options_(options), shared_(shared), roots_(roots) {
    int t = options.threads > 0 ? options.threads : int(std::thread::hardware_concurrency());
    threads_ = std::max(1, std::min(std::clamp(t, 1, 256), roots));
}

void RootRunner::run(const std::function<void()>& body) {
    // Cancelled before it starts: the same answer as a solve cancelled midway.
    if (options_.cancel && options_.cancel->load()) shared_.halt(Status::Cancelled);
    std::vector<std::thread> pool;
    for (int i = 0; i < threads_; ++i)
        pool.emplace_back([this, &body] {
            try {
                body();
            } catch (...) {
                std::lock_guard lock(mutex_);
                if (!error_) error_ = std::current_exception();
                shared_.halt(Status::Cancelled);
            }
            std::lock_guard lock(mutex_);
            ++ended_;
            ended_cv_.notify_all();
        });
    monitor();
    for (auto& t : pool) t.join();
    if (error_) std::rethrow_exception(error_);
}

// Waits for the bodies; enforces the timeout and the cancel flag; reports progress.
void RootRunner::monitor() {
    const auto t0 = Clock::now();
    auto last_progress = t0;
    std::unique_lock lock(mutex_);
    while (ended_ < threads_) {
        ended_cv_.wait_for(lock, std::chrono::milliseconds(20));
        const auto now = Clock::now();
        const double secs = std::chrono::duration<double>(now - t0).count();
        if (options_.timeout_seconds > 0 && secs >= options_.timeout_seconds) shared_.halt(Status::Timeout);
        if (options_.cancel && options_.cancel->load()) shared_.halt(Status::Cancelled);
        if (options_.progress && now - last_progress >= std::chrono::milliseconds(100)) {
            last_progress = now;
            Progress pr{finished_, roots_, shared_.nodes.load(), shared_.solutions.load(), secs};
            lock.unlock();
            options_.progress(pr);
            lock.lock();
        }
    }
}

int RootRunner::next() {
    if (shared_.stop.load()) return -1;
    const int i = next_.fetch_add(1);
    return i < roots_ ? i : -1;
}

void RootRunner::finished() {
    std::lock_guard lock(mutex_);
    ++finished_;
}

int RootRunner::finished_count() const {
    std::lock_guard lock(mutex_);
    return finished_;
}

void RootRunner::report(const AttackLine* key, const HelpLine* solution) {
    if (!options_.found) return;
    std::lock_guard lock(found_mutex_);
    options_.found(key, solution);
}

void RootRunner::help_solution(Position& root, std::vector<std::vector<Move>>& lines, const std::vector<Move>& line,
                               Goal goal) {
    if (shared_.stop.load()) return;
    lines.push_back(line);
    const int count = shared_.count_solution();
    if (options_.found && (options_.max_solutions == 0 || count <= options_.max_solutions)) {
        const HelpLine h = help_line(root, line, goal);
        report(nullptr, &h);
    }
    shared_.check_max_solutions(count);
}

}  // namespace echecs::solver

#include "uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace echecs::engine {

UciProcess::UciProcess(const std::string& command) {
    int in[2], out[2];
    // Close-on-exec: an engine never inherits the pipes of the other engines.
    if (pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for '" + command + "'");
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]), close(in[1]);
        throw std::runtime_error("cannot create a pipe for '" + command + "'");
    }
    const std::string script = "exec " + command;  // before fork: the child must not allocate
    pid_ = fork();
    if (pid_ < 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        throw std::runtime_error("cannot start '" + command + "'");
    }
    if (pid_ == 0) {
        // dup2 gives the copies no close-on-exec; the originals close at exec.
        if (in[0] == STDIN_FILENO) fcntl(in[0], F_SETFD, 0);
        if (out[1] == STDOUT_FILENO) fcntl(out[1], F_SETFD, 0);
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]), close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    alive_ = true;
}

UciProcess::~UciProcess() {
    if (alive_) send("quit");
    close(to_child_);
    // Give the engine a moment to quit, then end it (only our own child).
    for (int i = 0; i < 50; ++i) {
        if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
            close(from_child_);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    close(from_child_);
}

bool UciProcess::send(const std::string& line) {
    if (!alive_) return false;
    const std::string s = line + "\n";
    // An engine that has exited must not end this process with SIGPIPE: the
    // signal is blocked for this thread around the write and, if raised,
    // taken off the pending set before it is unblocked.
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    struct Restore {
        sigset_t& pipe;
        sigset_t& old;
        ~Restore() {
            sigset_t pending;
            sigpending(&pending);
            if (sigismember(&pending, SIGPIPE)) {
                const timespec zero{0, 0};
                sigtimedwait(&pipe, nullptr, &zero);
            }
            pthread_sigmask(SIG_SETMASK, &old, nullptr);
        }
    } restore{pipe_set, old_set};
    size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = write(to_child_, s.data() + done, s.size() - done);
        if (n <= 0) {
            alive_ = false;
            return false;
        }
        done += size_t(n);
    }
    return true;
}

std::optional<std::string> UciProcess::read_line(std::int64_t timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (!alive_) return std::nullopt;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) return std::nullopt;
        pollfd p{from_child_, POLLIN, 0};
        const int r = poll(&p, 1, int(std::min<std::int64_t>(left, 1000)));
        if (r < 0) return std::nullopt;
        if (r == 0) continue;
        char buf[4096];
        const ssize_t n = read(from_child_, buf, sizeof buf);
        if (n <= 0) {
            alive_ = false;
            continue;
        }
        buffer_.append(buf, size_t(n));
    }
}

std::optional<std::string> UciProcess::wait_for(const std::string& prefix, std::int64_t timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        auto line = read_line(std::max<std::int64_t>(0, left));
        if (!line) return std::nullopt;
        if (line->rfind(prefix, 0) == 0) return line;
    }
}

}  // namespace echecs::engine

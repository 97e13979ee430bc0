// What the server benchmarks share: the server in a child process (the same
// program started with --serve, so that server and clients have their own
// descriptors and CPU accounting), its settings, /proc CPU time and
// percentiles.
#pragma once

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/app/server.h"

extern char** environ;

namespace echecs::bench {

// As root the hard limit is raised too: 5,000 games and 10,000 lobby viewers
// are 20,000 sockets on each side.
inline void raise_fd_limit(rlim_t want = 65536) {
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
    rlimit up{std::max(rl.rlim_cur, want), std::max(rl.rlim_max, want)};
    if (setrlimit(RLIMIT_NOFILE, &up) != 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

// `--serve --db PATH [--fd-limit N] [key=value ...]`: the server with the
// benchmark's settings (limits per address opened wide unless set: every
// client of a benchmark comes from 127.0.0.1).
inline int serve(const std::vector<std::string>& args) {
    server::ServerOptions o;
    o.port = 0;
    o.log = false;
    o.max_connections_per_ip = 1 << 30;
    o.http_rate_per_second = o.http_burst = 1e9;
    o.max_seeks_per_ip = 1 << 30;
    o.max_engine_games_per_ip = 1 << 30;
    o.signups_per_ip = 1 << 30;
    // Accounts (the arena's players) made in milliseconds, not 60 ms each;
    // `fast_password_hash=0` for the real cost (the log-in flood).
    o.fast_password_hash = true;
    // Setting up thousands of games takes longer than the 30 s a real-time
    // game gives its first move: the first games would be aborted.
    o.first_move_ms = 600'000;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--db" && i + 1 < args.size()) {
            o.db = args[++i];
        } else if (a == "--fd-limit" && i + 1 < args.size()) {
            rlimit rl{};
            getrlimit(RLIMIT_NOFILE, &rl);
            rl.rlim_cur = std::stoul(args[++i]);
            setrlimit(RLIMIT_NOFILE, &rl);
        } else if (auto eq = a.find('='); eq != std::string::npos) {
            const std::string k = a.substr(0, eq);
            const double v = std::stod(a.substr(eq + 1));
            if (k == "max_connections_per_ip")
                o.max_connections_per_ip = int(v);
            else if (k == "max_connections")
                o.max_connections = int(v);
            else if (k == "http_rate")
                o.http_rate_per_second = o.http_burst = v;
            else if (k == "http_burst")
                o.http_burst = v;
            else if (k == "eval_rate")
                o.eval_rate_per_second = o.eval_burst = v;
            else if (k == "engine_queue_per_client")
                o.engine_queue_per_client = std::size_t(v);
            else if (k == "eval_max_ms")
                o.eval_max_ms = std::int64_t(v);
            else if (k == "ws_send_budget")
                o.ws_send_budget = std::size_t(v);
            else if (k == "max_engine_games_per_ip")
                o.max_engine_games_per_ip = int(v);
            else if (k == "max_engine_games_per_player")
                o.max_engine_games_per_player = int(v);
            else if (k == "fast_password_hash")
                o.fast_password_hash = v != 0;
            else if (k == "lobby_games")
                o.lobby_games = std::size_t(v);
            else if (k == "lobby_batch_ms")
                o.lobby_batch_ms = std::int64_t(v);
            else if (k == "lobby_sends_per_second")
                o.lobby_sends_per_second = std::int64_t(v);
            else
                throw std::runtime_error("unknown setting " + k);
        }
    }
    server::Server srv(o);
    std::cout << "echecs server listening on http://127.0.0.1:" << srv.port() << "/" << std::endl;
    srv.run(true);
    return 0;
}

// Starts this program with `args`, its output on a pipe; returns pid and the pipe's read end.
inline std::pair<pid_t, int> spawn_self(const std::vector<std::string>& args) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::string self = std::filesystem::read_symlink("/proc/self/exe");
    std::vector<std::string> all = {self};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    if (posix_spawn(&pid, self.c_str(), &fa, nullptr, argv.data(), environ) != 0) throw std::runtime_error("spawn");
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    return {pid, out[0]};
}

// One line from a child's pipe, without its newline; false if the pipe ends
// or stays silent `timeout_ms` before the newline.
inline bool read_line(int fd, int timeout_ms, std::string& line) {
    line.clear();
    char ch;
    pollfd pfd{fd, POLLIN, 0};
    while (poll(&pfd, 1, timeout_ms) > 0 && read(fd, &ch, 1) == 1) {
        if (ch == '\n') return true;
        line += ch;
    }
    return false;
}

// This program started with --serve `args`; returns its pid and port.
inline std::pair<pid_t, int> spawn_server(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"--serve"};
    all.insert(all.end(), args.begin(), args.end());
    auto [pid, out] = spawn_self(all);
    std::string line;
    const bool got = read_line(out, 60000, line);
    close(out);
    const auto at = line.find("127.0.0.1:");
    if (!got || at == std::string::npos) {
        kill(pid, SIGKILL);
        throw std::runtime_error("the server did not start: " + line);
    }
    return {pid, std::stoi(line.substr(at + 10))};
}

inline void stop_server(pid_t pid) {
    if (pid <= 0) return;
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
}

// CPU seconds (user + system) used so far by a process, from /proc.
inline double cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14) utime = std::stod(field);
        if (i == 15) stime = std::stod(field);
    }
    return (utime + stime) / double(sysconf(_SC_CLK_TCK));
}

inline double load_average() {
    double load[3] = {0, 0, 0};
    return getloadavg(load, 3) < 1 ? -1 : load[0];
}

}  // namespace echecs::bench

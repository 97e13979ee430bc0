// A server in the test process (ServerTest) or in a child process
// (ServerProcess, for SIGKILL and descriptor limits), on loopback with a
// temporary database.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <thread>

#include "client.h"
#include "server/app/server.h"
#include "server/app/util.h"
#include "test_paths.h"

extern char** environ;

namespace echecs::test {

namespace fs = std::filesystem;

class TempDir {
public:
    TempDir() : path_(fs::temp_directory_path() / ("echecs-server-" + server::random_id(10))) {
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

using Tweak = std::function<void(server::ServerOptions&)>;

class ServerTest : public ::testing::Test {
protected:
    void SetUp() override { start(); }
    void TearDown() override { stop(); }

    server::ServerOptions options(const Tweak& tweak = {}) {
        fs::create_directories(dir_.path() / "web" / "assets");
        std::ofstream(dir_.path() / "web" / "index.html") << "<!doctype html><title>echecs</title>INDEX";
        std::ofstream(dir_.path() / "web" / "assets" / "app.js") << "console.log('echecs');";
        std::ofstream(dir_.path() / "secret.txt") << "SECRET";
        server::ServerOptions o;
        o.port = 0;
        o.db = (dir_.path() / "test.db").string();
        o.web_root = (dir_.path() / "web").string();
        o.log = false;
        if (tweak) tweak(o);
        return o;
    }
    void start(const Tweak& tweak = {}) {
        server_ = std::make_unique<server::Server>(options(tweak));
        port_ = server_->port();
        thread_ = std::thread([this] { server_->run(); });
    }
    void stop() {
        if (!server_) return;
        server_->stop();
        // Bounded: a server that does not stop would hang the test until the
        // runner kills it without a word.
        auto stopped = std::async(std::launch::async, [this] {
            thread_.join();
            server_.reset();
        });
        if (stopped.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
            std::cerr << "the server did not stop within 60 s\n";
            std::abort();
        }
    }
    void restart(const Tweak& tweak = {}) {
        stop();
        start(tweak);
    }
    // The server's SQLite file (options()).
    std::string db_path() const { return (dir_.path() / "test.db").string(); }

    std::string token() {
        auto r = http_request(port_, http::verb::post, "/api/session");
        EXPECT_EQ(r.status, 200);
        return r.j()["token"];
    }

    // A game between two fresh tokens: white = a, black = b.
    struct Pair {
        std::string game, a, b;
    };
    Pair new_game(const std::string& variant, json time = {{"kind", "unlimited"}}, bool is_private = false) {
        Pair p{"", token(), token()};
        json seek = post_json(
            port_, "/api/seeks",
            {{"variant", variant}, {"time", time}, {"color", "white"}, {"nickname", "Ann"}, {"private", is_private}},
            p.a);
        EXPECT_EQ(seek["_status"], 201) << seek.dump();
        json acc = post_json(port_, "/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept",
                             {{"nickname", "Bob"}}, p.b);
        EXPECT_EQ(acc["_status"], 201) << acc.dump();
        EXPECT_EQ(acc["color"], "black");
        p.game = acc["game"];
        return p;
    }

    static json join(WsClient& c, const std::string& game) {
        c.send({{"type", "join"}, {"game", game}});
        return c.recv_until([&](const json& j) { return j["type"] == "state" && j["game"] == game; });
    }

    // Joins and waits for the state at `ply`: the join's own state when the
    // move was played before it (e.g. the computer's first move).
    static json join_until(WsClient& c, const std::string& game, int ply, std::chrono::milliseconds timeout) {
        json first = join(c, game);
        return first["ply"] == ply ? first : c.state(game, ply, timeout);
    }

    // Plays the moves alternately from the two clients; returns the last state.
    static json play(WsClient& w, WsClient& b, const std::string& game, const std::vector<std::string>& moves,
                     int first_ply = 0) {
        json last;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            int ply = first_ply + int(i);
            WsClient& mover = ply % 2 ? b : w;
            mover.send({{"type", "move"}, {"game", game}, {"move", moves[i]}, {"ply", ply}});
            last = w.state(game, ply + 1);
            json other = b.state(game, ply + 1);
            EXPECT_EQ(other["fen"], last["fen"]);
        }
        return last;
    }

    TempDir dir_;
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
    std::uint16_t port_ = 0;
};

// tests/server/serve_main.cpp (or another server program: `echecs serve`) as
// a child process, with at most fd_limit descriptors when it is not zero.
class ServerProcess {
public:
    explicit ServerProcess(std::vector<std::string> args)
        : ServerProcess(test_path(ECHECS_SERVE_BIN), std::move(args)) {}
    ServerProcess(const std::string& program, std::vector<std::string> args, rlim_t fd_limit = 0) {
        int out[2];
        if (pipe(out) != 0) throw std::runtime_error("pipe");
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        posix_spawn_file_actions_addclose(&fa, out[0]);
        args.insert(args.begin(), program);
        std::vector<char*> argv;
        for (auto& s : args) argv.push_back(s.data());
        argv.push_back(nullptr);
        // The child inherits the limit at its start: lowered for the spawn only.
        rlimit saved{};
        getrlimit(RLIMIT_NOFILE, &saved);
        if (fd_limit != 0) {
            rlimit low = saved;
            low.rlim_cur = fd_limit;
            setrlimit(RLIMIT_NOFILE, &low);
        }
        const int spawned = posix_spawn(&pid_, program.c_str(), &fa, nullptr, argv.data(), environ);
        if (fd_limit != 0) setrlimit(RLIMIT_NOFILE, &saved);
        posix_spawn_file_actions_destroy(&fa);
        close(out[1]);
        if (spawned != 0) {
            close(out[0]);
            throw std::runtime_error("spawn failed: " + program + ": " + std::strerror(spawned));
        }
        // "echecs server listening on http://127.0.0.1:PORT/ ..."
        std::string line;
        char ch;
        pollfd pfd{out[0], POLLIN, 0};
        while (line.find('\n') == std::string::npos) {
            if (poll(&pfd, 1, 20000) <= 0 || read(out[0], &ch, 1) != 1) {
                close(out[0]);
                kill9();
                throw std::runtime_error("no banner: " + line);
            }
            line += ch;
        }
        close(out[0]);
        auto at = line.find("127.0.0.1:");
        if (at == std::string::npos) {
            kill9();
            throw std::runtime_error("unexpected banner: " + line);
        }
        port_ = std::uint16_t(std::stoi(line.substr(at + 10)));
    }
    ServerProcess(const std::string& db, const std::string& web)
        : ServerProcess({"--port", "0", "--db", db, "--web-root", web, "--quiet"}) {}
    ~ServerProcess() { kill9(); }
    void kill9() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            int status;
            waitpid(pid_, &status, 0);
            pid_ = -1;
        }
    }
    // SIGTERM, then waits for the process to end (bounded: 60 s, then
    // SIGKILL); its exit status (-1 when it had to be killed).
    int terminate() {
        if (pid_ <= 0) return -1;
        ::kill(pid_, SIGTERM);
        int status = 0;
        for (int i = 0; i < 6000; ++i) {
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        std::cerr << "the server did not end within 60 s of SIGTERM\n";
        kill9();
        return -1;
    }
    pid_t pid() const { return pid_; }
    std::uint16_t port() const { return port_; }

private:
    pid_t pid_ = -1;
    std::uint16_t port_ = 0;
};

// CPU seconds (user + system) a process has used, from /proc.
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

}  // namespace echecs::test

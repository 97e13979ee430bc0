// The game server: HTTP + WebSocket (Boost.Beast) on one I/O thread, games
// as state machines (LiveGame), a storage worker thread and an engine pool.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace echecs::server {

struct ServerOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 8080;  // 0: any free port (see Server::port)
    std::string db = "echecs.db";
    bool durable = false;  // SQLite: sync every commit to disk (survives a power cut)
    std::string web_root = "web/dist";
    int engine_threads = 1;
    std::size_t engine_queue = 256;
    std::int64_t first_move_ms = 30'000;  // real-time games: time for each side's first move
    std::size_t max_message = 16 * 1024;  // larger WebSocket messages get `too_large`
    double rate_per_second = 30;          // WebSocket messages per socket
    double rate_burst = 60;
    std::int64_t heartbeat_ms = 1000;
    bool log = true;
};

class Server {
public:
    // Opens the storage (creating or migrating it), loads live games and
    // seeks, binds the port. Throws on failure (StorageError, system_error).
    explicit Server(ServerOptions options);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    std::uint16_t port() const;
    // Serves until stop() (or SIGINT/SIGTERM when handle_signals).
    void run(bool handle_signals = false);
    // Thread-safe.
    void stop();

    struct Impl;  // server.cpp

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace echecs::server

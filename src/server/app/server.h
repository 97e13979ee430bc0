// The game server: HTTP + WebSocket (Boost.Beast) on one I/O thread, a
// GameRoom per game, the lobby, a storage writer and reader thread and the
// engine threads. The parts: listener -> http_session -> router and the
// api_*.cpp handlers, or -> ws_session -> messages -> hub -> game_room.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "server/app/options.h"

namespace echecs::server {

// What a running server holds, for tests and operators.
struct ServerStats {
    std::size_t rooms = 0;  // games in memory
    std::size_t peers = 0;  // WebSocket clients
    int connections = 0;    // open sockets (HTTP and WebSocket)
    std::size_t lobby_subscribers = 0;
    std::uint64_t lobby_seq = 0;      // lobby deltas so far
    std::size_t seeks = 0;            // open seeks in memory
    std::uint64_t accept_errors = 0;  // failed accepts (EMFILE...)
    std::uint64_t refused = 0;        // connections over a limit, closed at once
    std::uint64_t evicted = 0;        // idle HTTP connections closed to make room for new ones
    std::uint64_t engine_preemptions = 0;
};

class Server {
public:
    // Binds the port, opens the storage (one server per database: a second
    // one is refused before anything is changed; the schema is created or
    // migrated), loads live games and seeks. Throws on failure
    // (StorageError, system_error).
    explicit Server(ServerOptions options);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    std::uint16_t port() const;
    // Serves until stop() (or SIGINT/SIGTERM when handle_signals).
    void run(bool handle_signals = false);
    // Thread-safe.
    void stop();
    // Thread-safe while run() runs (asks the I/O thread).
    ServerStats stats();

    struct Impl;  // server.cpp

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace echecs::server

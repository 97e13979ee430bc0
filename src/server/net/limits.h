// Rate and count limits: a token bucket, and the per-client-address table
// (connections, API requests, evaluations, engine games, seeks).
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace echecs::server {

class TokenBucket {
public:
    TokenBucket(double rate_per_second, double burst, std::int64_t now_ms)
        : rate_(rate_per_second), burst_(burst), tokens_(burst), last_(now_ms) {}
    // Takes one token; false (and nothing taken) when empty.
    bool take(std::int64_t now_ms);
    bool full(std::int64_t now_ms) const;

private:
    double rate_, burst_, tokens_;
    std::int64_t last_;
};

struct ServerOptions;
class ConnectionSlot;

// What one client address holds and may still do. Thread-safe (sessions may
// be released on a worker thread at shutdown), used on the I/O thread.
class ClientLimits {
public:
    explicit ClientLimits(const ServerOptions& opt) : opt_(opt) {}

    // A socket of `ip` opens: false when the address is full, or the server
    // is and no idle HTTP connection could be closed to make room for it.
    bool open_connection(const std::string& ip, int total_limit);
    void close_connection(const std::string& ip);
    int connections() const;
    // Idle HTTP connections (waiting for a request, whole or in part, or
    // closing) closed to make room for new clients: those of the address
    // holding the most idle ones, the oldest first. WebSockets never are.
    std::uint64_t evicted() const;

    bool take_http(const std::string& ip, std::int64_t now);
    bool take_eval(const std::string& ip, std::int64_t now);

    // Counters of things that last (engine games, seeks): `delta` +1/-1.
    int engine_games(const std::string& ip) const;
    void add_engine_game(const std::string& ip, int delta);
    int seeks(const std::string& ip) const;
    void add_seek(const std::string& ip, int delta);

    // Forgets addresses that hold nothing and have full buckets.
    void sweep(std::int64_t now);
    std::size_t size() const;

private:
    friend class ConnectionSlot;
    void set_idle(ConnectionSlot& slot, bool idle);
    bool evict_one();  // under mutex_

    struct Entry {
        int connections = 0;
        std::list<ConnectionSlot*> idle;  // the oldest first
        int engine_games = 0;
        int seeks = 0;
        std::unique_ptr<TokenBucket> http, eval;
    };
    Entry& entry(const std::string& ip);

    const ServerOptions& opt_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entry> by_ip_;
    int total_ = 0;
    std::uint64_t evicted_ = 0;
};

// Holds one connection of an address for as long as it lives.
class ConnectionSlot {
public:
    ConnectionSlot(std::shared_ptr<ClientLimits> limits, std::string ip)
        : limits_(std::move(limits)), ip_(std::move(ip)) {}
    ~ConnectionSlot() {
        if (!limits_) return;
        busy();
        limits_->close_connection(ip_);
    }
    ConnectionSlot(const ConnectionSlot&) = delete;
    ConnectionSlot& operator=(const ConnectionSlot&) = delete;
    const std::string& ip() const { return ip_; }

    // The connection waits for its client: `close` may be called (once, on
    // any thread, under the limits' lock: it must only post) to make room.
    void idle(std::function<void()> close) {
        close_ = std::move(close);
        if (limits_) limits_->set_idle(*this, true);
    }
    // It works for its client (a request is read), or is a WebSocket.
    void busy() {
        if (limits_) limits_->set_idle(*this, false);
    }

private:
    friend class ClientLimits;
    std::shared_ptr<ClientLimits> limits_;
    std::string ip_;
    std::function<void()> close_;
    std::optional<std::list<ConnectionSlot*>::iterator> idle_at_;  // in its address's idle list
};

}  // namespace echecs::server

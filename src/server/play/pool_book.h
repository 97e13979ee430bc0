// Quick pairing pools: per game, the preset time controls 1+0, 3+2, 5+3,
// 10+0, 15+10 and correspondence 3 days. A waiting player is paired with
// another of the same pool whose rating is within both players' ranges; a
// player's range starts at +-100 and widens by 50 every 5 s of waiting, so
// nobody waits for ever for want of a close opponent. Players with an
// account pair only with other accounts (rated games); anonymous players
// only with anonymous ones (casual). Nobody is paired with their own token
// or account. Pure logic, no I/O and no clock of its own: the hub feeds it
// the time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/storage/storage.h"

namespace echecs::server {

struct PoolSpec {
    std::string id;  // "chess-3+2", "alice-corr3"
    Variant variant = Variant::Chess;
    TimeControl time;
};

struct PoolEntry {
    std::uint64_t peer = 0;  // the socket that joined: closing it leaves the pool
    std::string token;
    std::string name;          // shown on the seat
    std::int64_t account = 0;  // 0: anonymous
    int rating = 1500;         // in the pool's category (anonymous: 1500)
    bool provisional = true;
    std::int64_t joined_at = 0;  // epoch ms
};

struct PoolPairing {
    std::string pool;
    PoolEntry a, b;  // a waited longer
};

struct PoolRange {
    int initial = 100;             // +- rating points at first
    int widen_by = 50;             // added ...
    std::int64_t every_ms = 5000;  // ... this often
};

class PoolBook {
public:
    explicit PoolBook(PoolRange range = {}) : range_(range) {}

    // Every pool, in a stable order (per game: the time controls above).
    static const std::vector<PoolSpec>& presets();
    static const PoolSpec* find_spec(const std::string& id);

    // The range of a player who joined at `joined_at`.
    int range_at(std::int64_t joined_at, std::int64_t now) const;

    // Joins `pool` (a browser, whichever of its sockets, waits in one pool
    // at a time: joining another leaves the first). false when the pool is
    // unknown.
    bool join(const std::string& pool, PoolEntry e);
    // Leaves whatever pool the peer waits in; true if it was waiting.
    bool leave(std::uint64_t peer);
    // The pool a peer waits in.
    std::optional<std::string> pool_of(std::uint64_t peer) const;
    // Every pairing possible now (oldest waiters first, each with the closest
    // rating among those compatible); the paired players leave their pool.
    std::vector<PoolPairing> pair(std::int64_t now);

    std::size_t waiting(const std::string& pool) const;
    std::size_t size() const;

private:
    bool compatible(const PoolEntry& a, const PoolEntry& b, std::int64_t now) const;

    PoolRange range_;
    struct Pool {
        std::string id;
        std::vector<PoolEntry> waiting;  // in joining order
    };
    std::vector<Pool> pools_;  // created on first join, in presets() order of first use
};

}  // namespace echecs::server

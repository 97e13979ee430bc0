// The quick pairing pools as the server runs them (the pairing itself is
// PoolBook): a WebSocket peer joins with `pool_join` and leaves with
// `pool_leave`, by leaving the lobby or by closing its socket; every second
// (and at once on a join) waiting players are paired and their game is
// created, rated between two accounts, casual between anonymous players.
// Both players' sockets get `pool_paired` with the game and their colour.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "server/net/peer.h"
#include "server/play/pool_book.h"

namespace echecs::server {

class Hub;

class Pools {
public:
    explicit Pools(Hub& hub);

    // The peer must have said hello. Answers `pool_waiting` (or an error).
    void join(const PeerPtr& p, const std::string& pool, const std::string& nickname, const std::string& id_json);
    // Answers `pool_left` when the peer was waiting (`tell`).
    void leave(Peer& p, bool tell);
    // GET /api/pools: every pool with its time control, speed and how many wait.
    nlohmann::json view() const;

    std::size_t waiting() const { return book_.size(); }

private:
    void pair_now();
    void arm();
    void start_game(const PoolPairing& pairing);

    Hub& hub_;
    PoolBook book_;
    boost::asio::steady_timer timer_;
    bool armed_ = false;
    // Joins waiting for the accounts worker, by peer: a leave meanwhile cancels.
    std::unordered_map<std::uint64_t, std::uint64_t> pending_;
    std::uint64_t next_ticket_ = 0;
};

}  // namespace echecs::server

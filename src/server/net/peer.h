// A WebSocket client as the rest of the server sees it: something to send
// messages to, with the token it said hello with and what it watches. The
// socket (ws_session.h) is one kind of Peer; the tests and the fuzz target
// use others.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "server/net/limits.h"

namespace echecs::server {

class Peer : public std::enable_shared_from_this<Peer> {
public:
    Peer(std::uint64_t id, std::string ip, double rate, double burst, std::int64_t now)
        : messages(rate, burst, now), id_(id), ip_(std::move(ip)) {}
    virtual ~Peer() = default;
    Peer(const Peer&) = delete;
    Peer& operator=(const Peer&) = delete;

    // Queues a message. Never closes the peer or calls back into the server
    // before returning (a broadcast loop may be running): a peer that has
    // fallen too far behind is dropped later, from its own handler.
    virtual void send(std::shared_ptr<const std::string> text) = 0;
    void send(std::string text) { send(std::make_shared<const std::string>(std::move(text))); }
    // Closes from the server's side (flood); same rule as send().
    virtual void close_later(const char* why) = 0;

    // A stand-in for a socket held by another node of the cluster (docs/CLUSTER.md).
    virtual bool remote() const { return false; }

    std::uint64_t id() const { return id_; }
    const std::string& ip() const { return ip_; }

    // The key (token_key) of the token it said hello with ("" until then):
    // what seats and seeks hold. The token itself only for the accounts.
    std::string token, token_secret;
    // The account the token is logged in as (0: anonymous), once the
    // accounts worker has said (your_turn.h); chat shows its name.
    std::int64_t account = 0;
    std::string account_name;
    std::set<std::string> watching;  // game ids
    bool lobby = false;              // subscribed to the lobby
    std::int64_t lag_ms = 0;         // one-way network lag estimate (half the ping round trip)
    TokenBucket messages;            // message rate limit
    int violations = 0;              // messages refused by the rate limit

    // Chat rate limits (chat.h), from the first line or report.
    std::optional<TokenBucket> chat_lines, chat_reports;

private:
    std::uint64_t id_;
    std::string ip_;
};

using PeerPtr = std::shared_ptr<Peer>;

}  // namespace echecs::server

// The open seeks: created, cancelled, accepted, and expired when their
// creator's last socket has been gone for a grace period (so that nobody
// accepts a ghost). It tells the lobby what to list and the creator's
// sockets which seeks are theirs (`my_seeks`).
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

class SeekBook {
public:
    explicit SeekBook(Hub& hub) : hub_(hub) {}

    // At start-up: every creator is away until a socket says hello.
    void load(std::vector<SeekRecord> seeks);

    const SeekRecord* find(const std::string& id) const;
    int open_of_token(const std::string& token) const;
    // Added in memory at once (counted for the limits); `stored` says
    // whether the write succeeded (then it is announced) or not (forgotten).
    void add(SeekRecord s, const std::string& ip);
    void stored(const std::string& id, bool ok);
    // Cancelled, accepted or expired: gone from memory and the lobby.
    void remove(const std::string& id);
    // Accepted: the game that it created, so that a second acceptance fails
    // while the game is being stored.
    void mark_taken(const std::string& id, const std::string& game);

    // The creator's sockets: the first one (re)appears, the last one left.
    void owner_present(const std::string& token);
    void owner_absent(const std::string& token);
    // `my_seeks` to every socket of `token`.
    void tell_owner(const std::string& token);
    std::string my_seeks_text(const std::string& token) const;

    std::size_t size() const { return seeks_.size(); }

private:
    void expire(const std::string& token);

    Hub& hub_;
    struct Entry {
        SeekRecord seek;
        std::string ip;
        bool announced = false;  // stored and shown in the lobby
    };
    std::map<std::string, Entry> seeks_;
    std::map<std::string, std::unique_ptr<boost::asio::steady_timer>> expiry_;  // by creator token
};

}  // namespace echecs::server

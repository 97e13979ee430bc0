// The "your turn" list: the live games of a person in which it is their
// move, whatever the time control. A person is a browser token, and the
// account it is logged in as: a logged-in player sees the account's games
// from every browser. An index of the rooms by seat (token and account; live
// games are always in memory) makes it cost only the player's own games; it
// is pushed (`your_turn`) to every socket of the token and of the account
// after every change of one of its games, and served at GET /api/your-turn.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/net/peer.h"
#include "server/protocol/server_messages.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Hub;
class LiveGame;
class Router;

class TurnIndex {
public:
    // A seat's game under its token and under its account.
    void add(const Seat& seat, const std::string& game);
    void remove(const Seat& seat, const std::string& game);
    const std::set<std::string>& games_of(const std::string& token) const;
    const std::set<std::string>& games_of_account(std::int64_t account) const;
    std::size_t tokens() const { return by_key_.size(); }

    // Several nodes (docs/CLUSTER.md): on the node that runs the lobby, the
    // live games other nodes run, as they last said: their seats and, for
    // the side to move, its entry of the list. A game over is forgotten.
    struct RemoteTurn {
        Seat white, black;
        std::optional<out::YourTurnGame> entry;  // of the side to move
        Seat mover;
    };
    void set_remote(const std::string& game, std::optional<RemoteTurn> t);
    const RemoteTurn* remote(const std::string& game) const;

    // The sockets logged in as an account (the peer's `account`).
    void bind_peer(const PeerPtr& p);
    void unbind_peer(const Peer& p);
    std::vector<PeerPtr> peers_of_account(std::int64_t account) const;

private:
    void add_key(const std::string& key, const std::string& game);
    void remove_key(const std::string& key, const std::string& game);
    std::unordered_map<std::string, std::set<std::string>> by_key_;  // token, or account_key() (chat.h)
    std::unordered_map<std::int64_t, std::unordered_map<std::uint64_t, std::weak_ptr<Peer>>> peers_;
    std::unordered_map<std::string, RemoteTurn> remote_;
};

// The side to move's entry of a live game (nullopt when over).
std::optional<out::YourTurnGame> turn_entry(const LiveGame& g, std::int64_t now);

// The games where `token` or `account` (0: none) is to move, the most urgent
// first; your_turn_json() is the same list as GET /api/your-turn's {"games": [...]}.
out::YourTurn your_turn(Hub& hub, const std::string& token, std::int64_t account = 0);
nlohmann::json your_turn_json(Hub& hub, const std::string& token, std::int64_t account = 0);
// Sends `your_turn` to every socket of the seat's token and of its account.
void push_your_turn(Hub& hub, const Seat& seat);
// Sends `your_turn` to one socket.
void push_your_turn_to(Hub& hub, Peer& p);
// A game changed: its two players' lists, from the node that runs the lobby
// when there are several nodes.
void your_turn_changed(Hub& hub, const LiveGame& g);

// After hello: the account the token is logged in as becomes the peer's
// (chat names, the list), and the list is pushed again when there is one.
void resolve_peer_account(Hub& hub, const PeerPtr& p);
// After a log-in, sign-up (account set) or log-out (nullopt) over HTTP: the
// open sockets of `token` follow.
void relink_token_peers(Hub& hub, const std::string& token, std::optional<std::int64_t> account,
                        const std::string& username);
// After "log out everywhere": every open socket of the account, whatever its
// browser, becomes anonymous (its list is pushed again, now without the
// account's games).
void unlink_account_peers(Hub& hub, std::int64_t account);

void add_your_turn_routes(Router& r, Hub& hub);

}  // namespace echecs::server

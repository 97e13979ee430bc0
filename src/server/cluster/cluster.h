// One node of several (docs/CLUSTER.md). Any node holds any client's
// socket (the "front"); each game is run by the node holding its lease in
// PostgreSQL, and the lobby, seeks, pools and tournaments by the node
// holding the lobby's lease (the "leader"). A front sends a client's message
// for a game or the lobby it does not run to the node that does, which
// answers through a stand-in of the socket (RemotePeer); every message
// between nodes goes through Redis (bus.h). Everything here runs on the I/O
// thread; the database work runs on the storage threads.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/api/router.h"
#include "server/app/options.h"
#include "server/net/peer.h"
#include "server/play/tournaments.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Bus;
class Hub;
class LiveGame;
class RemotePeer;

class Cluster {
public:
    // The lobby's lease, a row of game_leases under a name no game id takes.
    static constexpr const char* LOBBY = "~lobby";

    Cluster(Hub& hub, const ServerOptions& opt);
    ~Cluster();
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    // This run's name: the configured one and a random suffix, so that a
    // restarted node never passes for its former self.
    const std::string& node() const { return node_; }
    bool leader() const { return leader_; }
    void start();  // the bus, then a tick every lease_ms / 5
    void stop();

    // --- The front: messages of this node's own sockets.
    // Sends `text` to the node running `game`, when that is another node
    // known to be up; false: handle it here (the room loads under a lease,
    // or learns who holds it, then redirect()).
    bool to_game_node(const PeerPtr& p, const std::string& game, std::string_view text);
    // Sends `text` to the leader when this node is not it; false: handle it
    // here. Throws node_unavailable while no leader is known.
    bool to_leader(const PeerPtr& p, std::string_view text);
    // A game message that found no room here because another node holds the
    // game: sent on to it (own socket) or back to the stand-in's front to
    // route again. False when no holder is known.
    bool redirect(const PeerPtr& p, const std::string& game, std::string_view text);
    void peer_closed(Peer& p);
    // What the leader keeps of a socket here besides its hello and lobby
    // subscription: the pool it waits in, the tournament it watches. Its
    // last message of each (`text`, "" when it left) is sent again to a new
    // leader, so that a failover keeps them.
    enum class Kept { Pool, Tournament };
    void keep(const Peer& p, Kept what, std::string_view text);
    // HTTP: true when the request went to another node (answered later).
    bool route_http(const HttpContextPtr& ctx);

    // --- Leases of the games run here.
    // Each write of games `ids` is fenced with this node's token; a new game
    // (no lease yet) takes its first lease in the same transaction.
    void fence(const std::vector<std::string>& ids, std::vector<WriteOp>& ops);
    // The new games' leases are held; returns the games placed on other
    // nodes (place()), whose rooms then leave this node.
    std::vector<std::string> committed(const std::vector<std::string>& ids);
    // The leader places a new game of the lobby on the node that runs the
    // fewest live games (as each node last said, with the games placed since):
    // fence() gives that node the first lease, and committed() tells it.
    void place(const std::string& game);
    // The room left memory (or was dropped): its lease is given back.
    void released(const std::string& id);
    // On the storage thread, before a room is loaded: takes the game's lease
    // (the game exists). nullopt: `holder` (when set) runs it.
    // On the storage thread: another node holds the game's lease, not lapsed
    // (its name in `holder`); the room is then not read here at all.
    bool held_elsewhere(Storage& s, const std::string& id, std::int64_t now, std::string* holder);
    std::optional<Lease> claim(Storage& s, const std::string& id, std::int64_t now, std::string* holder,
                               std::int64_t* gap_since);
    // On the I/O thread, after claim(): the room is loaded; `gap_since`: the
    // game changed hands, its clock stopped then (0: it did not).
    void loaded(const std::string& id, const Lease& lease, std::int64_t gap_since);
    void learned_holder(const std::string& id, const std::string& node);
    // A tournament's game ended here: the leader counts it (reading it back).
    void tournament_game_ended(const std::string& game);
    // A game here changed: the leader keeps its players' "your turn" lists.
    void turn_changed(const LiveGame& g);

    // A message from another node, as the bus hands it over (the fuzz target
    // calls it directly: it runs without Redis, `redis` empty).
    void receive(std::string text) { on_bus("", std::move(text)); }

    // For the tests and the bench.
    const std::string& leader_node() const { return leader_node_; }
    std::uint64_t messages_out() const;
    std::uint64_t messages_in() const { return messages_in_; }

private:
    friend class RemotePeer;
    void publish(const std::string& node, const std::string& header, std::string_view body);
    void broadcast(const std::string& header);
    void on_bus(const std::string& channel, std::string text);
    void on_in(const nlohmann::json& h, std::string body);
    void on_http(const nlohmann::json& h, std::string body);
    void on_http_answer(const nlohmann::json& h, std::string body);
    void on_owner(const std::string& game, const std::string& node);
    void on_turn(const nlohmann::json& h);
    void on_leader(const std::string& node);
    void forward(const PeerPtr& p, const std::string& node, std::string_view text);
    void forward_http(const HttpContextPtr& ctx, const std::string& node);
    bool up(const std::string& node) const;
    void tick();
    void arm();
    void node_gone(const std::string& node);
    void rejoin();
    void become_leader(std::vector<SeekRecord> seeks, std::vector<Tournaments::Stored> tournaments);
    void tell_leader_again(const PeerPtr& p, const std::string& node);

    Hub& hub_;
    const ServerOptions& opt_;
    std::string node_;
    std::unique_ptr<Bus> bus_;
    std::shared_ptr<bool> alive_;  // false once stopped: late bus completions are dropped
    boost::asio::steady_timer timer_;
    bool stopped_ = false, ticking_ = false;

    bool leader_ = false;
    std::string leader_node_;                             // "" while unknown
    std::unordered_map<std::string, std::int64_t> seen_;  // node: when last heard
    std::set<std::string> gone_;                          // nodes taken for dead (until heard again)
    // Games a dead node ran that sockets here watch: ticks left to find
    // where they went (another node's claim, or a room here). A game that
    // ended there as it died has no claimer, and its last state may not
    // have reached these sockets.
    std::unordered_map<std::string, int> rejoin_;
    std::unordered_map<std::string, std::string> holders_;  // game: the node running it elsewhere
    struct Held {
        std::int64_t token = 0;
        std::int64_t since = 0;  // when this node learned it holds it (a renewal from before does not count it)
    };
    std::unordered_map<std::string, Held> held_;                        // game: this node's lease
    std::unordered_map<std::string, std::string> placed_;               // new game: the node given it
    std::unordered_map<std::string, std::int64_t> load_;                // node: its live games
    std::unordered_map<std::string, std::int64_t> released_;            // game: when its room left here
    std::unordered_map<std::uint64_t, std::set<std::string>> sent_to_;  // own peer: nodes holding its stand-ins
    struct KeptText {
        std::string pool, tournament;
    };
    std::unordered_map<std::uint64_t, KeptText> kept_;                        // own peer: see keep()
    std::unordered_map<std::string, std::shared_ptr<RemotePeer>> stand_ins_;  // "node peer": stand-in
    struct PendingHttp {
        HttpContextPtr ctx;
        std::int64_t deadline = 0;
    };
    std::unordered_map<std::uint64_t, PendingHttp> http_;  // requests sent on, by number
    std::uint64_t next_http_ = 1;
    std::uint64_t messages_in_ = 0;
    int hops_ = 0;  // of a message sent back to this front, while it is routed again
};

}  // namespace echecs::server

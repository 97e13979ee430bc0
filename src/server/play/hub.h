// The server's shared state, in the spirit of Beast's chat-multi
// `shared_state`: the game rooms, the peers by token, the seeks, the lobby,
// the limits per client address, the storage and engine workers, and the
// HTTP routes. Everything here runs on the one I/O thread; the workers give
// their results back as posted completions.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "server/api/router.h"
#include "server/app/options.h"
#include "server/net/limits.h"
#include "server/net/peer.h"
#include "server/play/chat.h"
#include "server/play/lobby.h"
#include "server/play/seeks.h"
#include "server/play/your_turn.h"
#include "server/storage/workers.h"
#include "server/work/scheduler.h"

namespace echecs::server {

namespace accounts {
class AccountService;
}

class Cluster;
class GameRoom;
class LiveGame;
class Pools;
class ReviewService;
class AnalysisStreams;
class Tournaments;

class Hub {
public:
    // `storage` is the open (locked, migrated) database. Live games and
    // seeks are loaded from it; nothing is written until start().
    Hub(boost::asio::io_context& ioc, const ServerOptions& opt, std::unique_ptr<Storage> storage);
    ~Hub();
    Hub(const Hub&) = delete;
    Hub& operator=(const Hub&) = delete;

    // Stores the resumed clocks, then starts the timers, the engine and the
    // storage and engine threads. Called once the port is bound.
    void start();
    // Stops engine searches and storage (finishing queued writes).
    void shutdown();

    boost::asio::io_context& ioc() { return ioc_; }
    const ServerOptions& options() const { return opt_; }
    const Router& router() const { return router_; }
    ClientLimits& limits() { return *limits_; }
    const std::shared_ptr<ClientLimits>& limits_ptr() { return limits_; }
    StorageWorker& storage() { return *storage_; }
    // The one scheduler of heavy work: the engine's searches and analyses, the accounts' hashes.
    work::Scheduler& work() { return *work_; }
    SeekBook& seeks() { return seeks_; }
    // The accounts (one service for the process, on the server's database).
    accounts::AccountService& accounts() { return *accounts_; }
    Pools& pools() { return *pools_; }
    Tournaments& tournaments() { return *tournaments_; }
    Lobby& lobby() { return lobby_; }
    ChatService& chat() { return chat_; }
    TurnIndex& turns() { return turns_; }
    std::mt19937& rng() { return rng_; }
    ReviewService& reviews() { return *reviews_; }
    void log(const std::string& s) const;

    // Peers (WebSocket clients).
    std::uint64_t next_peer_id() { return next_peer_id_++; }
    void peer_opened(const PeerPtr& p);
    void peer_closed(Peer& p);
    // A text (or binary) message from a peer: parsed once, then dispatched.
    // `oversized`: the message was longer than max_message and was dropped
    // unread (text is empty).
    void on_message(const PeerPtr& p, std::string_view text, bool binary, bool oversized = false);
    // The peers that said hello with `token`.
    std::vector<PeerPtr> peers_of(const std::string& token) const;
    PeerPtr peer(std::uint64_t id) const;
    void each_peer(const std::function<void(const PeerPtr&)>& fn) const;
    // A stand-in of another node's socket that said hello there (cluster).
    void adopt_token(const PeerPtr& p);

    // Several nodes (docs/CLUSTER.md); nullptr for one server.
    Cluster* cluster() { return cluster_.get(); }
    // Another node runs the game now: its room leaves (its watchers told).
    void drop_lost(const std::string& id);
    // The tournaments tick on the node that runs the lobby (once).
    void start_tournaments();
    // A tournament's game ended (stored): its tournament counts it, on the
    // node that runs the tournaments.
    void tournament_game_ended(const GameRecord& g);
    // The lobby moved to another node: the live games here are listed there,
    // with their players' "your turn".
    void announce_lobby_games();
    std::size_t peer_count() const { return peers_.size(); }
    bool peer_open(std::uint64_t id) const { return peers_.count(id) > 0; }

    // Rooms. fn(room) runs when the room is free (no write in flight),
    // loading the game from storage if needed; fn(nullptr) when there is no
    // such game or too many actions wait.
    void with_room(const std::string& id, std::function<void(GameRoom*)> fn);
    GameRoom* find_room(const std::string& id);
    // Live games against the computer this player (the seat's browser token,
    // or its account when it has one) plays.
    int live_engine_games_of(const Seat& player) const;
    // A new game (not yet stored): its room, busy until the commit is done.
    GameRoom& add_room(std::unique_ptr<LiveGame> game, const std::string& creator_ip = "");
    // A game of the lobby (a seek, a pool, a tournament), just added: on
    // several nodes the leader may give it to the node running the fewest
    // games; its room then leaves here once it is stored and announced.
    void place(const std::string& id);
    std::size_t live_room_count() const;
    // fn(game) with the game in memory or read from storage without keeping
    // it (HTTP reads of finished games); fn(nullptr) if unknown.
    void read_game(const std::string& id, std::function<void(const LiveGame*, GameRoom*)> fn);
    std::string new_game_id();
    std::size_t room_count() const { return rooms_.size(); }

    // Writes `ops` for the rooms `ids` (busy meanwhile); then each room's
    // after_change(), then `then`. On failure the rooms are dropped (they
    // are read back from storage on next use) and their watchers told.
    void commit(const std::vector<std::string>& ids, std::vector<WriteOp> ops, std::function<void()> then,
                std::function<void(const std::string&)> failed = nullptr);

    // Fair play: the live games whose current position is `key`.
    void index_position(const std::string& room, std::uint64_t old_key, std::uint64_t new_key);
    void unindex_position(const std::string& room, std::uint64_t key);
    // A live game of `token`'s whose current position is (v, key).
    bool plays_position(const std::string& token, Variant v, std::uint64_t key);

    // Every few seconds: rooms leave memory, idle unlimited games are
    // archived, client addresses forgotten.
    void sweep();

private:
    void load_from_storage(Storage& s);
    void drop_room(const std::string& id, const std::string& why);
    void hand_over(const std::string& id);  // see place()
    void drain(const std::string& id);

    boost::asio::io_context& ioc_;
    const ServerOptions& opt_;
    std::shared_ptr<ClientLimits> limits_;
    std::unique_ptr<Storage> initial_storage_;  // until start() hands it to the worker
    std::unique_ptr<StorageWorker> storage_;
    std::unique_ptr<work::Scheduler> work_;  // before accounts_, which hashes on it
    std::unique_ptr<accounts::AccountService> accounts_;
    std::unique_ptr<Pools> pools_;
    std::unique_ptr<Tournaments> tournaments_;
    Router router_;
    std::shared_ptr<ReviewService> reviews_;
    std::shared_ptr<AnalysisStreams> streams_;
    SeekBook seeks_;
    Lobby lobby_;
    ChatService chat_;
    TurnIndex turns_;                   // before rooms_: the rooms leave it as they go
    std::unique_ptr<Cluster> cluster_;  // before rooms_: the rooms hold its stand-ins
    bool tournaments_started_ = false;
    std::unordered_map<std::string, std::unique_ptr<GameRoom>> rooms_;
    std::size_t rooms_freed_ = 0;  // since the memory was last given back
    void cap_finished_rooms(const std::string& keep);
    std::int64_t waits_logged_at_ = 0;
    void log_engine_waits(std::int64_t now);
    std::unordered_map<std::string, std::vector<std::function<void(GameRoom*)>>> loading_;
    std::unordered_map<std::uint64_t, std::vector<std::string>> positions_;
    std::unordered_map<std::uint64_t, std::weak_ptr<Peer>> peers_;
    std::unordered_map<std::string, std::unordered_set<std::uint64_t>> peers_by_token_;
    boost::asio::steady_timer sweep_timer_;
    std::uint64_t next_peer_id_ = 1;
    std::mt19937 rng_{std::random_device{}()};
    std::int64_t down_since_ = 0;
    bool started_ = false;
};

// Registers the API routes (api_*.cpp) and the static files on the hub's router.
void add_seek_routes(Router& r, Hub& hub);
void add_game_routes(Router& r, Hub& hub);
void add_analysis_routes(Router& r, Hub& hub);
void add_variant_routes(Router& r, Hub& hub);  // the table of the games
void add_problem_routes(Router& r, Hub& hub);  // and PGN import
std::shared_ptr<ReviewService> add_review_routes(Router& r, Hub& hub);
// GET /api/games/:id of a finished game: its state with its `review` summary.
void send_game_with_review(Hub& hub, const HttpContextPtr& ctx, const std::string& game, std::string state_text);
void add_static_routes(Router& r, Hub& hub);
void add_account_routes(Router& r, Hub& hub);     // api_accounts.cpp
void add_puzzle_routes(Router& r, Hub& hub);      // api_puzzles.cpp: loads data/puzzles
void add_tournament_routes(Router& r, Hub& hub);  // api_tournaments.cpp

}  // namespace echecs::server

// One live (or recently finished) game with everything around it: its
// LiveGame, its watchers, who of the players is connected, its deadline
// timer and its engine requests. The only code that changes a game: every
// action goes through the room, one at a time (an action that arrives while
// a write is in flight waits for it).
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "server/net/peer.h"
#include "server/play/chat.h"
#include "server/play/live_game.h"
#include "server/protocol/messages.h"

namespace echecs::server {

class Hub;

class GameRoom {
public:
    GameRoom(Hub& hub, std::unique_ptr<LiveGame> game, std::string creator_ip);
    ~GameRoom();
    GameRoom(const GameRoom&) = delete;
    GameRoom& operator=(const GameRoom&) = delete;

    const std::string& id() const { return id_; }
    bool in_lobby() const { return announced_; }  // listed among the lobby's live games
    LiveGame& game() { return *game_; }
    const LiveGame& game() const { return *game_; }

    // Writes in flight: actions wait (at most MAX_WAITING, else refused).
    bool busy() const { return busy_; }
    void set_busy(bool b) { busy_ = b; }
    bool enqueue(std::function<void()> action);
    std::function<void()> next_waiting();
    std::deque<std::function<void()>> take_waiting() { return std::move(waiting_); }
    static constexpr std::size_t MAX_WAITING = 64;

    // Messages of peers.
    void join(const PeerPtr& p);
    void leave(const Peer& p);
    void peer_hello(const PeerPtr& p);  // p (a watcher) has just said hello
    void handle(const PeerPtr& p, const msg::Move& m, const std::string& id_json);
    void handle(const PeerPtr& p, const msg::GameCommand& c, const std::string& id_json);
    // Chat (chat_room.cpp): `text` already checked (clean_chat_text) and
    // the rate taken by the dispatcher.
    void chat(const PeerPtr& p, std::string text, const std::string& id_json);
    void report(const PeerPtr& p, const msg::Report& r, std::string reason, const std::string& id_json);
    void restore_chat(const std::vector<ChatRecord>& stored) { chat_.restore(stored); }

    // A message for every watcher (the game's computer review).
    void tell_watchers(const std::shared_ptr<const std::string>& text) const;

    // The state for an HTTP reader holding `token`.
    std::string state_for(const std::string& token) const;
    Presence presence(std::int64_t now) const;

    // After a successful write: tell the watchers, the lobby and the
    // fair-play index; arm the timer; ask the engine.
    void after_change();
    // After the room was created or loaded: timer and engine.
    void start();
    // The server stops: engine searches are cancelled, timers stopped.
    void stop();
    // Several nodes: the game was placed on another node as it was created
    // (Cluster::place); the room leaves this node without a word, its lobby
    // entry kept for the node that runs it now.
    void handed_over() {
        announced_ = false;
        stop();
    }
    // A failed write: every watcher gets the error; the room is then dropped.
    void storage_failed(const std::string& error);
    // Whether the sweep may drop the room now.
    bool evictable(std::int64_t now) const;
    // Evictable but for its time to live: over, idle, no player watching.
    bool unloadable() const;
    std::int64_t last_used() const { return last_used_; }
    void touch(std::int64_t now) { last_used_ = now; }
    // An unlimited game idle for too long: ended and stored.
    void archive(std::int64_t now);

    // `epoch`: the takebacks counted when the search was asked for.
    void on_engine_move(std::uint64_t epoch, int ply, std::string uci);
    void on_timer();

private:
    // A game a Swiss tournament paired (no abort, no berserk).
    bool swiss() const;
    // Over and at rest: no move being written or waiting, no engine search.
    bool settled() const;
    // A player (either seat) has a socket on the room.
    bool players_here() const;
    void broadcast();
    void send_state(Peer& p) const;
    std::optional<Color> seat_of(const std::string& token) const;
    // A watcher holding `token` arrives (+1) or leaves (-1); true when a
    // seat's connection changed (then everybody is told).
    bool count_seats(const std::string& token, int delta, std::int64_t now);
    void schedule_timer();
    void maybe_engine();
    void reply_error(const PeerPtr& p, const ApiError& e, const std::string& id_json) const;
    void store_end_if_over(bool was_live);
    std::vector<WriteOp> move_ops();
    void rematch(const PeerPtr& p, const std::string& id_json);
    // Moves were just taken back: the engine's search is dropped, the game stored.
    void took_back();
    ChatRoom chat_room_of(const Peer& p) const;
    void send_chat_history(Peer& p) const;

    Hub& hub_;
    std::string id_;
    std::unique_ptr<LiveGame> game_;
    std::string creator_ip_;  // a game against the computer counts for this address while live
    struct Watcher {
        std::weak_ptr<Peer> peer;
        std::string token;  // as counted in seat_peers_
    };
    std::unordered_map<std::uint64_t, Watcher> watchers_;
    int seat_peers_[2] = {0, 0};           // watchers holding each seat
    std::int64_t gone_since_[2] = {0, 0};  // when each seat's last watcher left
    boost::asio::steady_timer timer_;
    std::shared_ptr<std::atomic<bool>> engine_cancel_;
    bool engine_pending_ = false;
    std::uint64_t engine_epoch_;  // new at each takeback: an engine answer from before one is dropped
    // The computer's move in the engine queue: since when, and when its
    // search started (0: still waiting), set by the engine's thread.
    std::int64_t engine_queued_at_ = 0;
    std::shared_ptr<std::atomic<std::int64_t>> engine_started_;
    std::int64_t uncharged_wait(std::int64_t now) const;
    std::int64_t flag_grace(std::int64_t now) const;
    bool busy_ = false;
    std::deque<std::function<void()>> waiting_;
    // What the lobby and the fair-play index were last told.
    bool announced_ = false;  // listed in the lobby
    int told_ply_ = -1;
    bool owes_broadcast_ = false;  // a connection changed while a write was in flight
    bool counts_engine_game_ = false;
    std::uint64_t indexed_key_ = 0;
    bool indexed_ = false;
    std::int64_t last_used_ = 0;
    bool seen_live_ = false;  // this room saw the game live: its end is recorded for the accounts
    GameChat chat_;
};

}  // namespace echecs::server

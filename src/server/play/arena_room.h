// One arena tournament as the server runs it (one actor, on the I/O thread):
// its clock (created, started, finished), its players, the pairing of those
// who are free and here, the points of each game that ends (the rules:
// server/tournament/arena.h) and the standings pushed to its watchers.
//
// Nothing here is the only copy of an outcome: the points are counted from
// the tournament's finished games, which the game rooms store before they
// tell anyone; a restart counts them again from storage (Tournaments).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/accounts/accounts.h"
#include "server/api/errors.h"
#include "server/net/peer.h"
#include "server/storage/storage.h"
#include "server/tournament/arena.h"

namespace echecs::server {

class Hub;

class ArenaRoom {
public:
    static constexpr std::size_t MAX_PLAYERS = 2000;

    // `games`: the arena's stored games, oldest end first (live ones too).
    ArenaRoom(Hub& hub, TournamentRecord rec, const std::vector<TournamentPlayerRecord>& players,
              const std::vector<GameRecord>& games);

    const TournamentRecord& record() const { return rec_; }
    const std::string& id() const { return rec_.id; }
    std::int64_t ends_at() const { return rec_.starts_at + rec_.duration_ms; }
    bool finished() const { return rec_.status == "finished"; }

    // Once a second: starts and ends by the clock, pairs, pushes the standings.
    void tick(std::int64_t now);
    // A game of this arena ended (it is stored): its points. Once per game.
    void game_ended(const GameRecord& g);

    // Joins, comes back from a pause, or moves the seat to this browser
    // (`token`); stored before done(). Throws ApiError when refused.
    void join(const accounts::SeatAccount& a, const std::string& token, std::function<void(bool, std::string)> done);
    // Pauses (a player keeps the points, and is paired no more until they
    // join again). Throws ApiError when the account is not a player.
    void withdraw(std::int64_t account, std::function<void(bool, std::string)> done);

    // GET /api/tournaments: the tournament without its standings.
    nlohmann::json summary() const;
    // GET /api/tournaments/:id and the pushed `tournament` message.
    nlohmann::json view() const;
    // The player whose seat is `token` ("joined": false when none).
    nlohmann::json me(const std::string& token) const;
    // A player's place, by name (case-insensitive): {rank, score, results}, or null.
    nlohmann::json standing_of(const std::string& name) const;

    void watch(const PeerPtr& p);
    void unwatch(std::uint64_t peer);

private:
    struct Player {
        TournamentPlayerRecord rec;
        tournament::ArenaSheet sheet;
        std::string results;  // W, D or L per finished game, in order
        std::int64_t last_opponent = 0;
        std::string game;  // the live game, or ""
        int white_minus_black = 0;
    };
    // Score, then rating, then account: the standings and the pairing's order.
    std::vector<const Player*> ranked() const;
    void count(const GameRecord& g);
    void pair(std::int64_t now);
    // Playing a real-time game outside this arena (its clock runs: not free).
    bool playing_elsewhere(const Player& p) const;
    void start_game(Player& white, Player& black, std::int64_t now);
    void save_status(std::string status);

    Hub& hub_;
    TournamentRecord rec_;
    std::map<std::int64_t, Player> players_;  // by account
    std::set<std::string> counted_;           // the finished games whose points are in
    std::unordered_map<std::string, std::pair<std::int64_t, std::int64_t>> live_;  // game: white, black accounts
    std::unordered_map<std::uint64_t, std::weak_ptr<Peer>> watchers_;
    bool changed_ = true;  // since the watchers were last sent the standings
};

}  // namespace echecs::server

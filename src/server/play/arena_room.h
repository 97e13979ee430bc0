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
#include "server/play/tournament_room.h"
#include "server/storage/storage.h"
#include "server/tournament/arena.h"

namespace echecs::server {

class ArenaRoom : public TournamentRoom {
public:
    static constexpr std::size_t MAX_PLAYERS = 2000;

    // `games`: the arena's stored games, oldest end first (live ones too).
    ArenaRoom(Hub& hub, TournamentRecord rec, const std::vector<TournamentPlayerRecord>& players,
              const std::vector<GameRecord>& games);

    std::int64_t ends_at() const override { return rec_.starts_at + rec_.duration_ms; }
    void game_ended(const GameRecord& g) override;
    // Also comes back from a pause.
    void join(const accounts::SeatAccount& a, const std::string& token,
              std::function<void(bool, std::string)> done) override;
    // Pauses (a player keeps the points, and is paired no more until they
    // join again).
    void withdraw(std::int64_t account, std::function<void(bool, std::string)> done) override;
    nlohmann::json summary() const override;
    nlohmann::json view() const override;
    nlohmann::json me(const std::string& token) const override;
    nlohmann::json standing_of(const std::string& name) const override;

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
    // Starts and ends by the clock, pairs.
    void advance(std::int64_t now) override;

    std::map<std::int64_t, Player> players_;  // by account
    std::set<std::string> counted_;           // the finished games whose points are in
    std::unordered_map<std::string, std::pair<std::int64_t, std::int64_t>> live_;  // game: white, black accounts
};

}  // namespace echecs::server

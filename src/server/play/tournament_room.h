// What every tournament room shares (an arena: ArenaRoom; a Swiss:
// SwissRoom), one actor each on the I/O thread: its record and status, the
// sockets that watch it and the standings pushed to them at most once a
// tick, and the interface Tournaments and the API use.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "server/accounts/accounts.h"
#include "server/net/peer.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

class TournamentRoom {
public:
    TournamentRoom(Hub& hub, TournamentRecord rec) : hub_(hub), rec_(std::move(rec)) {}
    virtual ~TournamentRoom() = default;
    TournamentRoom(const TournamentRoom&) = delete;
    TournamentRoom& operator=(const TournamentRoom&) = delete;

    const TournamentRecord& record() const { return rec_; }
    const std::string& id() const { return rec_.id; }
    bool finished() const { return rec_.status == "finished"; }
    // When it ended or will end, for the order of the finished ones kept.
    virtual std::int64_t ends_at() const = 0;

    // Once a second: the clock, the pairing; then the standings pushed.
    void tick(std::int64_t now);
    // A game of this tournament ended (it is stored). Once per game.
    virtual void game_ended(const GameRecord& g) = 0;

    // Joins, or comes back, or moves the seat to this browser (`token`);
    // stored before done(). Throws ApiError when refused.
    virtual void join(const accounts::SeatAccount& a, const std::string& token,
                      std::function<void(bool, std::string)> done) = 0;
    // Throws ApiError when the account is not a player.
    virtual void withdraw(std::int64_t account, std::function<void(bool, std::string)> done) = 0;

    // GET /api/tournaments: the tournament without its standings.
    virtual nlohmann::json summary() const = 0;
    // GET /api/tournaments/:id and the pushed `tournament` message.
    virtual nlohmann::json view() const = 0;
    // The player whose seat is `token` ("joined": false when none).
    virtual nlohmann::json me(const std::string& token) const = 0;
    // A player's place, by name (case-insensitive): {rank, score, results}, or null.
    virtual nlohmann::json standing_of(const std::string& name) const = 0;

    void watch(const PeerPtr& p);
    void unwatch(std::uint64_t peer);

protected:
    virtual void advance(std::int64_t now) = 0;  // the tick's own part
    void save_status(std::string status);
    // A new game of this tournament (its room added, busy until the caller
    // commits it): the record to store.
    GameRecord open_game(const TournamentPlayerRecord& white, const TournamentPlayerRecord& black, std::int64_t now);
    static std::string lower(std::string s);
    // A player's row as they join from the browser `token`: `before` when
    // they are coming back (rating and time of joining kept), else new.
    TournamentPlayerRecord entry(const TournamentPlayerRecord* before, const accounts::SeatAccount& a,
                                 const std::string& token) const;

    Hub& hub_;
    TournamentRecord rec_;
    bool changed_ = true;  // since the watchers were last sent the standings

private:
    std::unordered_map<std::uint64_t, std::weak_ptr<Peer>> watchers_;
};

}  // namespace echecs::server

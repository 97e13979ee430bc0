// The server's tournaments (docs/TOURNAMENTS.md): each an ArenaRoom or a
// SwissRoom, ticked once a second on the I/O thread; a daily arena per game
// scheduled by the server; the list and the sockets that watch one.
// Loaded from storage at start-up: the unfinished tournaments and the most
// recent finished ones, each with its players and games.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "server/net/peer.h"
#include "server/play/tournament_room.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

class Tournaments {
public:
    // The daily arenas: one per game, at this hour (UTC), this long, 3+2.
    static constexpr int DAILY_HOUR_UTC = 18;
    static constexpr std::int64_t DAILY_MS = 60 * 60'000;
    // Finished tournaments kept in memory (and listed); older ones stay stored.
    static constexpr std::size_t FINISHED_KEPT = 50;
    // Unfinished tournaments an account may have created, and in all.
    static constexpr int MAX_OPEN_PER_ACCOUNT = 2;
    static constexpr std::size_t MAX_OPEN = 500;

    // What storage holds of one tournament.
    struct Stored {
        TournamentRecord rec;
        std::vector<TournamentPlayerRecord> players;
        std::vector<GameRecord> games;
        std::vector<SwissPairingRecord> pairings;
    };
    // On a storage thread: the unfinished tournaments and the most recent finished ones.
    static std::vector<Stored> load(Storage& storage);
    // On a storage thread: one tournament with its players and games (nullopt: none).
    static std::optional<Stored> load_one(Storage& storage, const std::string& id);
    // A finished tournament no longer kept in memory, as GET
    // /api/tournaments/:id shows one: {"tournament": its view, "me": the
    // seat of `token`}. Pure (it touches nothing of the hub): it runs on the
    // storage reader, so that a long tournament's standings are not
    // computed on the I/O thread.
    static nlohmann::json archived(Hub& hub, Stored t, const std::string& token);
    // A profile's older tournaments: the finished ones of `player` that
    // started before `before` (those in memory start later), at most
    // ARCHIVED_LISTED, newest first, as list(player) gives them, each with
    // "archived": true. On the storage reader, pure as archived().
    static constexpr int ARCHIVED_LISTED = 20;
    static nlohmann::json archived_of(Hub& hub, Storage& storage, const std::string& player, std::int64_t before);

    Tournaments(Hub& hub, Storage& storage);
    ~Tournaments();
    Tournaments(const Tournaments&) = delete;
    Tournaments& operator=(const Tournaments&) = delete;

    // Schedules the daily arenas (stored), then ticks every second.
    void start();
    void stop();
    // Several nodes: a node that takes over the lobby starts from what the
    // former one stored, not from what it read itself when it started.
    void reload(std::vector<Stored> stored);

    TournamentRoom* find(const std::string& id);
    // The earliest start of a finished tournament in memory (INT64_MAX when none).
    std::int64_t oldest_finished_start() const;
    // GET /api/tournaments: upcoming and running by start, then finished,
    // newest first; with `player` (a name), only theirs, each with their place.
    nlohmann::json list(const std::string& player = "") const;
    // A new tournament (its fields checked by the caller): stored, then done.
    // Throws ApiError past the limits.
    void create(TournamentRecord rec, std::function<void(bool, std::string)> done);

    // A game ended (stored): its tournament counts it.
    void game_ended(const GameRecord& g);
    // A socket watches one tournament at a time (throws when unknown).
    void watch(const PeerPtr& p, const std::string& id);
    void unwatch(Peer& p);

    // The next daily start after `now` (epoch ms): today's at DAILY_HOUR_UTC, or tomorrow's.
    static std::int64_t next_daily_start(std::int64_t now);

private:
    void tick();
    void arm();
    void schedule_daily(std::int64_t now);
    void drop_old_finished();
    // The room of the record's kind, with what storage holds of it.
    static std::unique_ptr<TournamentRoom> make_room(Hub& hub, Stored t);

    Hub& hub_;
    std::map<std::string, std::unique_ptr<TournamentRoom>> rooms_;
    std::unordered_map<std::uint64_t, std::string> watched_;  // peer: tournament
    boost::asio::steady_timer timer_;
    bool stopped_ = false;
};

}  // namespace echecs::server

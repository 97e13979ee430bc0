// One Swiss tournament as the server runs it (an actor on the I/O thread,
// docs/TOURNAMENTS.md "The Swiss as the server runs it"): at the start, then
// each time every game of a round has ended and the interval has passed, the
// next round is paired by the FIDE Dutch system (server/tournament/swiss.h)
// over the players not withdrawn; after the last round, finished.
//
// Nothing here is the only copy: each round's boards (and the bye) are rows
// stored with the round's games before anyone is told of them, and the
// results are read from the stored games; a restart reads both back and
// resumes the round in progress.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/play/tournament_room.h"
#include "server/tournament/swiss.h"

namespace echecs::server {

class SwissRoom : public TournamentRoom {
public:
    static constexpr std::size_t MAX_PLAYERS = 500;
    static constexpr int MIN_ROUNDS = 3, MAX_ROUNDS = 15;
    static constexpr int MAX_INTERVAL_S = 300;

    // `games`: its stored games; `pairings`: its stored boards.
    SwissRoom(Hub& hub, TournamentRecord rec, const std::vector<TournamentPlayerRecord>& players,
              const std::vector<GameRecord>& games, const std::vector<SwissPairingRecord>& pairings);

    std::int64_t ends_at() const override { return ended_at_ ? ended_at_ : rec_.starts_at; }
    void game_ended(const GameRecord& g) override;
    // Until the last round is paired; a late player is absent (0) in the
    // rounds before. Joining again after a withdrawal comes back.
    void join(const accounts::SeatAccount& a, const std::string& token,
              std::function<void(bool, std::string)> done) override;
    // Before the start, removes the player; after, they are paired no more
    // (absent) until they join again.
    void withdraw(std::int64_t account, std::function<void(bool, std::string)> done) override;
    nlohmann::json summary() const override;
    nlohmann::json view() const override;
    nlohmann::json me(const std::string& token) const override;
    nlohmann::json standing_of(const std::string& name) const override;

private:
    // A game's outcome, in half points, as the round sees it.
    struct Result {
        bool over = false;
        int white2 = 0, black2 = 0;
        bool forfeit = false;  // a side never moved: the other wins by forfeit
        std::int64_t ended_at = 0;
    };
    // One player's round, for the standings and the pairing.
    struct Entry {
        tournament::RoundEntry tie;  // kind, opponent, points
        tournament::Colour colour = tournament::Colour::None;
        std::int64_t opponent = 0;  // over the board or by forfeit
        std::string game;
        bool live = false;
    };

    void advance(std::int64_t now) override;
    int round() const { return int(rounds_.size()); }
    // The round in progress has ended (every game); when, in end_ms.
    bool round_over(std::int64_t* end_ms = nullptr) const;
    void pair_next(std::int64_t now);  // pairs on the engine's threads, then store_round
    void store_round(const std::optional<tournament::DutchPairing>& pairing, const tournament::DutchOptions& o,
                     std::int64_t now);
    void finish(std::int64_t at);
    // Each player's rounds so far (one Entry per round), by account.
    std::map<std::int64_t, std::vector<Entry>> entries() const;
    std::vector<tournament::SwissPlayer> pairing_input() const;
    std::vector<tournament::Standing> standings() const;
    nlohmann::json round_json(const Entry& e) const;
    // When the next round is due (0: not known yet, or none).
    std::int64_t next_round_at() const;
    std::string name_of(std::int64_t account) const;
    static Result result_of(const GameRecord& g);

    std::map<std::int64_t, TournamentPlayerRecord> players_;  // by account
    std::vector<std::vector<SwissPairingRecord>> rounds_;     // stored boards, round 1 first
    std::unordered_map<std::string, Result> results_;         // by game
    std::set<std::string> forfeits_counted_;                  // the withdrawals done
    bool writing_ = false;                                    // a round's pairing or write is under way
    std::int64_t ended_at_ = 0;
};

}  // namespace echecs::server

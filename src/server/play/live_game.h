// One game of the server as a small state machine: the rules (core Game), the
// clocks, offers, claims and the end of the game. No I/O: its GameRoom feeds
// it actions with the current time and stores/broadcasts what changed.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "server/api/errors.h"
#include "server/storage/storage.h"

namespace echecs::server {

struct GameSettings {
    std::int64_t first_move_ms = 30'000;  // real-time: time for each side's first move
    int draw_offer_interval = 20;         // plies between two draw offers of one player
    // The computer grants takebacks at the levels rated this much or less in
    // their game: each game has its own ladder (chess level 8, Alice 7,
    // Avalanche 6), a beginner's strength, not one level number for all.
    int takeback_max_rating = 1400;
};

// What a state message adds to the game: who is connected and whether a
// player may claim the game of an absent opponent.
struct Presence {
    bool connected[2] = {false, false};
    struct Claim {
        Color by;                   // the player who may claim
        std::int64_t available_at;  // from this instant (server clock)
    };
    std::optional<Claim> claim;
};

class LiveGame {
public:
    // Replays the record's moves (throws std::runtime_error when the record is
    // inconsistent).
    explicit LiveGame(GameRecord rec, GameSettings settings = {});

    const GameRecord& record() const { return rec_; }
    // The record without its moves (what SaveGame stores).
    GameRecord meta();
    const std::string& id() const { return rec_.id; }
    bool live() const { return rec_.status == "live"; }
    Color turn() const { return game_->position().side_to_move(); }
    int ply() const { return int(rec_.moves.size()); }
    const Seat& seat(Color c) const { return c == WHITE ? rec_.white : rec_.black; }
    bool against_computer() const { return rec_.white.computer() || rec_.black.computer(); }
    // The seats that `token` holds (both in a game against oneself).
    std::vector<Color> seats_of(const std::string& token) const;
    // The seat `token` acts for: its seat, or the side to move in a game
    // against oneself; none for a spectator.
    std::optional<Color> seat_for(const std::string& token) const;
    const std::vector<std::string>& legal_moves() const { return legal_; }
    // The current position, for the fair-play index of live positions.
    std::uint64_t position_key() const { return game_->position().key(); }
    Variant variant() const { return rec_.variant; }

    // Actions of a seat. On success the record has changed. `lag_credit_ms`:
    // the part of the time since the last move not charged to the mover (its
    // network lag, bounded by the caller).
    ActionResult move(Color seat, const std::string& uci, std::optional<int> expected_ply, std::int64_t now,
                      std::int64_t lag_credit_ms = 0);
    ActionResult draw_offer(Color seat, std::int64_t now);
    ActionResult draw_accept(Color seat, std::int64_t now);
    ActionResult draw_decline(Color seat);
    ActionResult resign(Color seat, std::int64_t now);
    ActionResult abort(Color seat, std::int64_t now);
    // A tournament player halves their own clock before their first move,
    // and plays without increment (docs/TOURNAMENTS.md).
    ActionResult berserk(Color seat);
    bool berserk_of(Color c) const { return c == WHITE ? rec_.white_berserk : rec_.black_berserk; }
    // The opponent of `claimant` left (the room decides when that is so):
    // a win for the claimant (a draw when it cannot mate), or a draw.
    ActionResult claim(Color claimant, bool victory, std::int64_t now);
    // Takeback (live_game_takeback.cpp, docs/API.md "Takeback"): a player
    // takes back their last move, and the opponent's answer after it if
    // there is one. Never in rated games; against the computer (up to
    // takeback_max_level()) and in a game against oneself it is
    // granted at once; otherwise the opponent accepts or declines. `taken`:
    // the plies taken back now (0 while an offer waits).
    ActionResult takeback_offer(Color seat, std::int64_t now, int& taken);
    ActionResult takeback_accept(Color seat, std::int64_t now, int& taken);
    ActionResult takeback_decline(Color seat);
    // Whether takebacks exist in this game at all, and whether `seat` may
    // propose one now (for the state).
    bool takebacks_allowed() const;
    // The strongest computer level that grants takebacks in this game (its
    // ladder's last level rated GameSettings::takeback_max_rating or less).
    int takeback_max_level() const;
    bool may_take_back(Color seat) const;
    std::optional<Color> takeback_offer_by() const { return takeback_offer_; }
    // Rematch: sets `agreed` when both want it (the caller creates the game).
    ActionResult rematch_offer(Color seat, bool& agreed);
    ActionResult rematch_accept(Color seat);
    ActionResult rematch_decline(Color seat);
    void set_rematch_game(const std::string& id) {
        rec_.rematch_game = id;
        rec_.rematch_offer.clear();
    }
    // The result is recorded for the accounts; a rated game's with each
    // side's rating change.
    void result_recorded(std::optional<int> white_diff, std::optional<int> black_diff) {
        if (white_diff) rec_.white_rating_diff = white_diff;
        if (black_diff) rec_.black_rating_diff = black_diff;
        rec_.result_pending = false;
    }
    // An unlimited game nobody moved in for too long: ended without result.
    void archive(std::int64_t now);

    // The instant of the next time-out (flag fall, first-move or
    // correspondence deadline), if any.
    std::optional<std::int64_t> next_deadline() const;
    // Ends the game if a deadline passed before now - grace_ms; true if it ended now.
    bool check_time(std::int64_t now, std::int64_t grace_ms = 0);
    // After a move is stored: the opponent's time starts now, not when the
    // move arrived (the storage's time is charged to nobody).
    void start_clock(std::int64_t now);
    // Restart: the server was down from `down_since` until `now`; that time is
    // not charged to anybody.
    void resume(std::int64_t down_since, std::int64_t now);
    // The instant of the last move (or of the start).
    std::int64_t last_activity() const { return rec_.moves.empty() ? rec_.created_at : rec_.moves.back().at; }

    std::int64_t remaining(Color c, std::int64_t now) const;
    bool clock_running() const;

    // The `state` message (docs/API.md): the part common to all receivers,
    // then the text for a receiver holding `you`.
    std::string state_base(std::int64_t now, const Presence& presence) const;
    std::string state_text(const std::string& base, std::optional<Color> you) const;
    nlohmann::json state_json(std::optional<Color> you, std::int64_t now, const Presence& presence = {}) const;
    // `site`: the game's address for the Site tag.
    std::string pgn(const std::string& site) const;

    // A game record that has just been created by a seek, a computer game or
    // a rematch.
    // `fen`: the position the game starts from (checked by the caller).
    static GameRecord new_record(const std::string& id, Variant v, const TimeControl& tc, Seat white, Seat black,
                                 std::int64_t now, std::string_view fen = Position::START_FEN);

private:
    void finish(Outcome o, Termination t, std::int64_t now);
    void refresh();  // fen, legal moves, check
    std::int64_t& clock_of(Color c) { return c == WHITE ? rec_.white_ms : rec_.black_ms; }
    int& draw_ply_of(Color c) { return c == WHITE ? rec_.white_draw_ply : rec_.black_draw_ply; }
    void append_move_text(const MoveRecord& m, const Position& after);
    // Why `seat` may not propose a takeback now, or nothing.
    ActionResult takeback_refusal(Color seat) const;
    // The plies a takeback by `seat` removes: 1 on the opponent's turn, 2 on its own.
    int takeback_plies(Color seat) const { return seat == turn() ? 2 : 1; }
    // Removes the last `n` moves and replays the rest (the clock rule is in
    // the .cpp); `taken` = n.
    void take_back(int n, std::int64_t now, int& taken);

    GameRecord rec_;
    GameSettings settings_;
    std::unique_ptr<Game> game_;
    std::vector<std::string> legal_;
    std::string moves_text_;      // the JSON of the move list, without brackets
    std::string legal_text_;      // the JSON of legal_, without brackets
    std::string legal_san_text_;  // the JSON of the SAN of each of legal_, same order
    bool check_ = false;
    // Not stored: an open offer does not outlive the room (a restart drops it).
    std::optional<Color> takeback_offer_;
    int takeback_declined_ply_[2] = {-1, -1};  // the ply at which each side's offer was declined
};

nlohmann::json time_json(const TimeControl& tc);
// A seek as the lobby and the API show it (`mine` only in HTTP answers).
nlohmann::json seek_json(const SeekRecord& s, std::optional<bool> mine);
nlohmann::json summary_json(const GameRecord& g);

}  // namespace echecs::server

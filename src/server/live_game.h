// One game of the server as a small state machine: the rules (core Game), the
// clocks, offers and the end of the game. No I/O: the server feeds it
// actions with the current time and stores/broadcasts what changed.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "server/storage.h"

namespace echecs::server {

struct ActionError {
    std::string code;
    std::string message;
};
using ActionResult = std::optional<ActionError>;  // nullopt: done

std::string_view color_name(Color c);
std::optional<Color> color_from(std::string_view s);
std::string_view termination_text(Termination t);

class LiveGame {
public:
    // Replays the record's moves (throws std::runtime_error when the record is
    // inconsistent). first_move_ms: the first-move deadline of real-time games.
    LiveGame(GameRecord rec, std::int64_t first_move_ms);

    const GameRecord& record() const { return rec_; }
    // The record without its moves (what SaveGame stores).
    GameRecord meta();
    const std::string& id() const { return rec_.id; }
    bool live() const { return rec_.status == "live"; }
    Color turn() const { return game_->position().side_to_move(); }
    int ply() const { return int(rec_.moves.size()); }
    const Seat& seat(Color c) const { return c == WHITE ? rec_.white : rec_.black; }
    // The seats that `token` holds (both in a game against oneself).
    std::vector<Color> seats_of(const std::string& token) const;
    const std::vector<std::string>& legal_moves() const { return legal_; }

    // Actions of a seat. On success the record has changed.
    ActionResult move(Color seat, const std::string& uci, std::optional<int> expected_ply, std::int64_t now);
    ActionResult draw_offer(Color seat, std::int64_t now);
    ActionResult draw_accept(Color seat, std::int64_t now);
    ActionResult draw_decline(Color seat);
    ActionResult resign(Color seat, std::int64_t now);
    ActionResult abort(Color seat, std::int64_t now);
    // Rematch: returns true when both want it (the caller creates the game).
    ActionResult rematch_offer(Color seat, bool& agreed);
    ActionResult rematch_accept(Color seat);
    ActionResult rematch_decline(Color seat);
    void set_rematch_game(const std::string& id) {
        rec_.rematch_game = id;
        rec_.rematch_offer.clear();
    }

    // The instant of the next time-out (flag fall, first-move or
    // correspondence deadline), if any.
    std::optional<std::int64_t> next_deadline() const;
    // Ends the game if a deadline has passed; true if it ended now.
    bool check_time(std::int64_t now);
    // Restart: the server was down from `down_since` until `now`; that time is
    // not charged to anybody.
    void resume(std::int64_t down_since, std::int64_t now);

    std::int64_t remaining(Color c, std::int64_t now) const;
    bool clock_running() const;

    // The `state` message (docs/API.md): the part common to all receivers,
    // then the text for a receiver holding `you`.
    std::string state_base(std::int64_t now, bool white_connected, bool black_connected) const;
    std::string state_text(const std::string& base, std::optional<Color> you) const;
    nlohmann::json state_json(std::optional<Color> you, std::int64_t now, bool white_connected,
                              bool black_connected) const;
    nlohmann::json summary_json() const;
    std::string pgn();

    // A game record that has just been created by a seek, a computer game or
    // a rematch.
    static GameRecord new_record(const std::string& id, Variant v, const TimeControl& tc, Seat white, Seat black,
                                 std::int64_t now);

private:
    void finish(Outcome o, std::string_view termination, std::int64_t now);
    void refresh();  // fen, legal moves, check, board result
    std::int64_t& clock_of(Color c) { return c == WHITE ? rec_.white_ms : rec_.black_ms; }

    GameRecord rec_;
    std::int64_t first_move_ms_;
    std::unique_ptr<Game> game_;
    std::vector<std::string> legal_;
    std::string moves_text_;      // the JSON of the move list, without brackets
    std::string legal_text_;      // the JSON of legal_, without brackets
    std::string legal_san_text_;  // the JSON of the SAN of each of legal_, same order
    void append_move_text(const MoveRecord& m, const Position& after);
    bool check_ = false;
};

nlohmann::json time_json(const TimeControl& tc);
nlohmann::json seek_json(const SeekRecord& s, bool mine);
nlohmann::json summary_json(const GameRecord& g);

}  // namespace echecs::server

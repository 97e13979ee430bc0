// Takeback, as on lichess: a player takes back their last move (and the
// opponent's answer, if the opponent already moved). The rules are in
// docs/API.md ("Takeback"); this file is their one implementation.
#include <algorithm>

#include "engine/strength.h"
#include "server/play/live_game.h"

namespace echecs::server {

namespace {
constexpr std::int64_t ONE_DAY_MS = 86'400'000;

ApiError game_over_error(const GameRecord& r) {
    return ApiError(Reason::game_over, "the game is over", "", {{"termination", r.termination}});
}
ApiError takeback_refused(Reason reason, std::string message, nlohmann::json params = nlohmann::json::object()) {
    return ApiError(reason, std::move(message), "", std::move(params));
}
}  // namespace

int LiveGame::takeback_max_level() const {
    int level = 0;
    const Variant v = variant();
    while (level < engine::level_count(v) && engine::level_rating(v, level + 1) <= settings_.takeback_max_rating)
        ++level;
    return level;
}

bool LiveGame::takebacks_allowed() const {
    if (!live() || rec_.rated) return false;
    for (Color c : {WHITE, BLACK})
        if (seat(c).computer() && seat(c).level > takeback_max_level()) return false;
    return true;
}

ActionResult LiveGame::takeback_refusal(Color seat) const {
    if (!live()) return game_over_error(rec_);
    if (rec_.rated) return takeback_refused(Reason::takeback_rated, "no takeback in a rated game");
    if (!takebacks_allowed())
        return takeback_refused(Reason::takeback_computer_level,
                                "the computer grants takebacks up to level " + std::to_string(takeback_max_level()),
                                {{"max_level", takeback_max_level()}});
    // Moves alternate: the player's last move is the last ply on the
    // opponent's turn, the one before on their own.
    if (ply() < takeback_plies(seat))
        return takeback_refused(Reason::no_takeback_move, "you have no move to take back");
    return std::nullopt;
}

bool LiveGame::may_take_back(Color seat) const {
    return !takeback_refusal(seat) && !takeback_offer_ && takeback_declined_ply_[seat] != ply();
}

ActionResult LiveGame::takeback_offer(Color seat, std::int64_t now, int& taken) {
    taken = 0;
    if (ActionResult why = takeback_refusal(seat)) return why;
    if (takeback_offer_ == ~seat) return takeback_accept(seat, now, taken);
    if (takeback_offer_ == seat)
        return takeback_refused(Reason::takeback_offer_pending, "your takeback offer is still open");
    if (takeback_declined_ply_[seat] == ply())
        return takeback_refused(Reason::takeback_declined, "your takeback offer was declined: play on");
    if (check_time(now)) return game_over_error(rec_);
    const bool granted_at_once = this->seat(~seat).computer() || this->seat(WHITE).token == this->seat(BLACK).token;
    if (granted_at_once) {
        // Against oneself, "my last move" is simply the last move.
        const bool oneself = !this->seat(~seat).computer();
        take_back(oneself ? 1 : takeback_plies(seat), now, taken);
        return std::nullopt;
    }
    takeback_offer_ = seat;
    return std::nullopt;
}

ActionResult LiveGame::takeback_accept(Color seat, std::int64_t now, int& taken) {
    taken = 0;
    if (!live()) return game_over_error(rec_);
    if (takeback_offer_ != ~seat) return takeback_refused(Reason::no_takeback_offer, "no takeback offer to accept");
    if (check_time(now)) return game_over_error(rec_);
    take_back(takeback_plies(~seat), now, taken);
    return std::nullopt;
}

ActionResult LiveGame::takeback_decline(Color seat) {
    if (takeback_offer_ != ~seat) return takeback_refused(Reason::no_takeback_offer, "no takeback offer to decline");
    takeback_declined_ply_[~seat] = ply();
    takeback_offer_.reset();
    return std::nullopt;
}

// The clocks are not turned back: the time each side used stays used (the
// side to move is charged up to now), and the side that moves after the
// takeback starts its time now, as after a move; a correspondence game
// gives it its full days again. Before both first moves are (again) played
// the first-move deadline counts from now.
void LiveGame::take_back(int n, std::int64_t now, int& taken) {
    switch (rec_.time.kind) {
        case TimeControl::Realtime:
            if (clock_running()) clock_of(turn()) = remaining(turn(), now);
            break;
        case TimeControl::Correspondence:
            rec_.white_ms = rec_.black_ms = std::int64_t(rec_.time.days) * ONE_DAY_MS;
            break;
        default: break;
    }
    rec_.clock_at = now;
    rec_.moves.resize(rec_.moves.size() - std::size_t(n));
    rec_.draw_offer.clear();
    takeback_offer_.reset();
    // Replayed from the start: the position, its repetition history and the
    // move list's text are those of the shorter game.
    game_ = std::make_unique<Game>(rec_.variant, rec_.initial_fen);
    moves_text_.clear();
    for (const MoveRecord& m : rec_.moves) {
        game_->play_uci(m.uci);
        append_move_text(m, game_->position());
    }
    refresh();
    taken = n;
}

}  // namespace echecs::server

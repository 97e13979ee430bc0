#include "server/play/live_game.h"

#include <algorithm>
#include <stdexcept>

#include "core/notation.h"
#include "server/play/game_results.h"

namespace echecs::server {

namespace {
constexpr std::int64_t DAY_MS = 86'400'000;

std::int64_t correspondence_ms(const TimeControl& tc) { return std::int64_t(tc.days) * DAY_MS; }

ApiError over_error(const GameRecord& r) {
    return ApiError(Reason::game_over,
                    r.termination.empty() ? "the game is over" : "the game is over: " + r.termination, "",
                    {{"termination", r.termination}});
}
ApiError not_allowed(Reason reason, std::string message, nlohmann::json params = nlohmann::json::object()) {
    return ApiError(reason, std::move(message), "", std::move(params));
}
}  // namespace

GameRecord LiveGame::new_record(const std::string& id, Variant v, const TimeControl& tc, Seat white, Seat black,
                                std::int64_t now, std::string_view fen) {
    GameRecord r;
    r.id = id;
    r.variant = v;
    r.initial_fen = std::string(fen);
    r.fen = r.initial_fen;
    r.time = tc;
    r.white = std::move(white);
    r.black = std::move(black);
    r.created_at = now;
    r.clock_at = now;
    std::int64_t start = tc.kind == TimeControl::Realtime         ? tc.initial_ms
                         : tc.kind == TimeControl::Correspondence ? correspondence_ms(tc)
                                                                  : 0;
    r.white_ms = r.black_ms = start;
    return r;
}

LiveGame::LiveGame(GameRecord rec, GameSettings settings)
    : rec_(std::move(rec)), settings_(settings), game_(std::make_unique<Game>(rec_.variant, rec_.initial_fen)) {
    for (const MoveRecord& m : rec_.moves) {
        try {
            game_->play_uci(m.uci);
            append_move_text(m, game_->position());
        } catch (const std::exception& e) {
            throw std::runtime_error("game " + rec_.id + ": stored move " + std::to_string(m.ply + 1) + " (" + m.uci +
                                     ") cannot be replayed: " + e.what());
        }
    }
    refresh();
}

void LiveGame::refresh() {
    Position& pos = game_->position();
    rec_.fen = pos.fen();
    rec_.ply = int(rec_.moves.size());
    check_ = pos.in_check();
    legal_.clear();
    std::vector<std::string> sans;
    if (live()) {
        // One scratch list per thread (16 KiB: not on the stack, not per move).
        thread_local std::unique_ptr<MoveList> list = std::make_unique<MoveList>();
        list->count = 0;
        game_->legal_moves(*list);
        legal_.reserve(list->size());
        for (Move m : *list) legal_.push_back(to_uci(m));
        sans = to_san_all(pos, *list);
    }
    legal_text_.clear();
    legal_san_text_.clear();
    // Coordinate strings and SAN are ASCII letters, digits and + # = , : - :
    // they need no escaping.
    for (std::size_t i = 0; i < legal_.size(); ++i) {
        if (i) legal_text_ += ',', legal_san_text_ += ',';
        legal_text_ += '"' + legal_[i] + '"';
        legal_san_text_ += '"' + sans[i] + '"';
    }
}

GameRecord LiveGame::meta() {
    std::vector<MoveRecord> moves;
    moves.swap(rec_.moves);
    GameRecord copy = rec_;
    rec_.moves.swap(moves);
    return copy;
}

std::vector<Color> LiveGame::seats_of(const std::string& token) const {
    std::vector<Color> out;
    if (token.empty()) return out;
    if (rec_.white.token == token) out.push_back(WHITE);
    if (rec_.black.token == token) out.push_back(BLACK);
    return out;
}

std::optional<Color> LiveGame::seat_for(const std::string& token) const {
    std::vector<Color> seats = seats_of(token);
    if (seats.empty()) return std::nullopt;
    if (seats.size() == 2) return turn();
    return seats[0];
}

bool LiveGame::clock_running() const {
    if (!live()) return false;
    if (rec_.time.kind == TimeControl::Realtime) return ply() >= 2;
    return rec_.time.kind == TimeControl::Correspondence;
}

std::int64_t LiveGame::remaining(Color c, std::int64_t now) const {
    std::int64_t base = c == WHITE ? rec_.white_ms : rec_.black_ms;
    if (clock_running() && c == turn()) base -= std::max<std::int64_t>(0, now - rec_.clock_at);
    return std::max<std::int64_t>(0, base);
}

std::optional<std::int64_t> LiveGame::next_deadline() const {
    if (!live()) return std::nullopt;
    switch (rec_.time.kind) {
        case TimeControl::Realtime:
            if (ply() < 2) {
                if (against_computer()) return std::nullopt;
                return rec_.clock_at + settings_.first_move_ms;
            }
            return rec_.clock_at + (turn() == WHITE ? rec_.white_ms : rec_.black_ms);
        case TimeControl::Correspondence: return rec_.clock_at + (turn() == WHITE ? rec_.white_ms : rec_.black_ms);
        default: return std::nullopt;
    }
}

bool LiveGame::check_time(std::int64_t now, std::int64_t grace_ms) {
    std::optional<std::int64_t> deadline = next_deadline();
    if (!deadline || now - grace_ms < *deadline) return false;
    Color loser = turn();
    if (ply() < 2) {  // a side that never moved: the game did not start
        finish(Outcome::Ongoing, Termination::Aborted, now);
        return true;
    }
    clock_of(loser) = 0;
    rec_.clock_at = now;
    Color winner = ~loser;
    Outcome o = can_mate(game_->position(), winner) ? (winner == WHITE ? Outcome::WhiteWins : Outcome::BlackWins)
                                                    : Outcome::Draw;
    finish(o, Termination::TimeForfeit, now);
    return true;
}

void LiveGame::start_clock(std::int64_t now) {
    if (live() && now > rec_.clock_at) rec_.clock_at = now;
}

void LiveGame::resume(std::int64_t down_since, std::int64_t now) {
    if (!live()) return;
    // Time already used before the server stopped is charged; the downtime is not.
    if (down_since > rec_.clock_at) {
        std::int64_t used = down_since - rec_.clock_at;
        if (clock_running())
            clock_of(turn()) = std::max<std::int64_t>(0, clock_of(turn()) - used);
        else if (rec_.time.kind == TimeControl::Realtime && ply() < 2) {
            // The first-move deadline keeps the part already waited.
            rec_.clock_at = now - std::min(used, settings_.first_move_ms);
            return;
        }
    }
    rec_.clock_at = now;
}

ActionResult LiveGame::move(Color seat, const std::string& uci, std::optional<int> expected_ply, std::int64_t now,
                            std::int64_t lag_credit_ms) {
    if (!live()) return over_error(rec_);
    if (expected_ply && *expected_ply != ply())
        return ApiError(Reason::ply_mismatch,
                        "the game is at ply " + std::to_string(ply()) + ", not " + std::to_string(*expected_ply), "ply",
                        {{"ply", ply()}, {"sent", *expected_ply}});
    if (seat != turn())
        return ApiError(Reason::not_your_turn, "it is " + std::string(color_name(turn())) + "'s turn", "",
                        {{"turn", color_name(turn())}});
    // The lag credit can only give back time that has passed.
    const std::int64_t credit =
        clock_running() ? std::clamp<std::int64_t>(lag_credit_ms, 0, std::max<std::int64_t>(0, now - rec_.clock_at))
                        : 0;
    if (check_time(now, credit)) return over_error(rec_);
    Position& pos = game_->position();
    Move m;
    try {
        m = parse_uci(pos, uci);
    } catch (const std::exception& e) {
        return ApiError(Code::illegal_move, Reason::move_illegal, "illegal move " + uci + ": " + e.what(), "move",
                        {{"move", uci}});
    }
    std::string san = to_san(pos, m);
    const Color mover = seat;
    const std::int64_t at = now - credit;
    const std::int64_t left_before = remaining(mover, at);  // while it is still the mover's turn
    if (!game_->play(m))
        return ApiError(Code::illegal_move, Reason::move_illegal, "illegal move: " + uci, "move", {{"move", uci}});

    std::optional<std::int64_t> clock;
    switch (rec_.time.kind) {
        case TimeControl::Realtime: {
            std::int64_t& c = clock_of(mover);
            if (ply() >= 2) c -= std::max<std::int64_t>(0, at - rec_.clock_at);
            c = std::max<std::int64_t>(0, c) + (berserk_of(mover) ? 0 : rec_.time.increment_ms);
            clock = c;
            break;
        }
        case TimeControl::Correspondence:
            clock = left_before;
            rec_.white_ms = rec_.black_ms = correspondence_ms(rec_.time);
            break;
        default: break;
    }
    rec_.clock_at = now;
    if (rec_.draw_offer == color_name(~mover)) rec_.draw_offer.clear();  // declined by playing on
    takeback_offer_.reset();  // a move answers a takeback offer: declined (or withdrawn)

    MoveRecord mr;
    mr.ply = ply();
    mr.uci = to_uci(m);
    mr.san = std::move(san);
    mr.white_ms = rec_.white_ms;
    mr.black_ms = rec_.black_ms;
    mr.at = now;
    mr.clock = clock;
    rec_.moves.push_back(std::move(mr));
    append_move_text(rec_.moves.back(), pos);

    GameResult r = game_->result();
    if (r.over()) {
        rec_.status = "over";  // before refresh: no legal moves to list
        finish(r.outcome, r.termination, now);
    } else {
        refresh();
    }
    return std::nullopt;
}

void LiveGame::finish(Outcome o, Termination t, std::int64_t now) {
    if (clock_running()) {  // freeze the clocks at the end
        Color c = turn();
        clock_of(c) = remaining(c, now);
        rec_.clock_at = now;
    }
    rec_.status = "over";
    rec_.result = std::string(pgn_result(o));
    rec_.termination = std::string(termination_name(t));
    rec_.ended_at = now;
    rec_.draw_offer.clear();
    takeback_offer_.reset();
    rec_.result_pending = result_to_record(rec_);
    refresh();
}

ActionResult LiveGame::draw_offer(Color seat, std::int64_t now) {
    if (!live()) return over_error(rec_);
    if (rec_.draw_offer == color_name(~seat)) return draw_accept(seat, now);
    if (this->seat(~seat).computer())
        return not_allowed(Reason::computer_declines_draw, "the computer does not accept draws");
    if (rec_.draw_offer == color_name(seat))
        return not_allowed(Reason::draw_offer_pending, "your draw offer is still open");
    const int last = draw_ply_of(seat);
    const int interval = settings_.draw_offer_interval;
    if (last >= 0 && ply() - last < interval)
        return not_allowed(Reason::draw_offer_too_soon,
                           "a new draw offer is possible " + std::to_string(interval) +
                               " plies after the last one (ply " + std::to_string(last + interval) + ")",
                           {{"interval", interval}, {"next_ply", last + interval}});
    rec_.draw_offer = std::string(color_name(seat));
    draw_ply_of(seat) = ply();
    return std::nullopt;
}

ActionResult LiveGame::draw_accept(Color seat, std::int64_t now) {
    if (!live()) return over_error(rec_);
    if (rec_.draw_offer != color_name(~seat)) return not_allowed(Reason::no_draw_offer, "no draw offer to accept");
    if (check_time(now)) return over_error(rec_);
    finish(Outcome::Draw, Termination::Agreement, now);
    return std::nullopt;
}

ActionResult LiveGame::draw_decline(Color seat) {
    if (!live()) return over_error(rec_);
    if (rec_.draw_offer != color_name(~seat)) return not_allowed(Reason::no_draw_offer, "no draw offer to decline");
    rec_.draw_offer.clear();
    return std::nullopt;
}

ActionResult LiveGame::resign(Color seat, std::int64_t now) {
    if (!live()) return over_error(rec_);
    if (check_time(now)) return over_error(rec_);
    finish(seat == WHITE ? Outcome::BlackWins : Outcome::WhiteWins, Termination::Resignation, now);
    return std::nullopt;
}

ActionResult LiveGame::abort(Color /*seat*/, std::int64_t now) {
    if (!live()) return over_error(rec_);
    if (ply() >= 2)
        return not_allowed(Reason::abort_too_late, "a game can be aborted only before each side's first move");
    finish(Outcome::Ongoing, Termination::Aborted, now);
    return std::nullopt;
}

ActionResult LiveGame::berserk(Color seat) {
    if (!live()) return over_error(rec_);
    if (rec_.tournament.empty() || rec_.time.kind != TimeControl::Realtime)
        return not_allowed(Reason::berserk_not_tournament, "berserk is for tournament games");
    if (berserk_of(seat)) return std::nullopt;
    if (ply() > (seat == WHITE ? 0 : 1))
        return not_allowed(Reason::berserk_too_late, "berserk only before one's first move");
    (seat == WHITE ? rec_.white_berserk : rec_.black_berserk) = true;
    clock_of(seat) = rec_.time.initial_ms / 2;
    return std::nullopt;
}

ActionResult LiveGame::claim(Color claimant, bool victory, std::int64_t now) {
    if (!live()) return over_error(rec_);
    if (check_time(now)) return over_error(rec_);
    Outcome o = Outcome::Draw;
    if (victory && can_mate(game_->position(), claimant))
        o = claimant == WHITE ? Outcome::WhiteWins : Outcome::BlackWins;
    finish(o, Termination::Abandonment, now);
    return std::nullopt;
}

void LiveGame::archive(std::int64_t now) {
    if (live()) finish(Outcome::Ongoing, Termination::Abandonment, now);
}

ActionResult LiveGame::rematch_offer(Color seat, bool& agreed) {
    agreed = false;
    if (live()) return not_allowed(Reason::game_not_over, "the game is not over");
    if (!rec_.rematch_game.empty()) return not_allowed(Reason::rematch_exists, "the rematch already exists");
    if (rec_.rematch_offer == color_name(~seat) || this->seat(~seat).computer()) {
        agreed = true;
        return std::nullopt;
    }
    if (rec_.rematch_offer == color_name(seat))
        return not_allowed(Reason::rematch_offer_pending, "your rematch offer is still open");
    rec_.rematch_offer = std::string(color_name(seat));
    return std::nullopt;
}

ActionResult LiveGame::rematch_accept(Color seat) {
    if (live()) return not_allowed(Reason::game_not_over, "the game is not over");
    if (!rec_.rematch_game.empty()) return not_allowed(Reason::rematch_exists, "the rematch already exists");
    if (rec_.rematch_offer != color_name(~seat))
        return not_allowed(Reason::no_rematch_offer, "no rematch offer to accept");
    return std::nullopt;
}

ActionResult LiveGame::rematch_decline(Color seat) {
    if (rec_.rematch_offer != color_name(~seat))
        return not_allowed(Reason::no_rematch_offer, "no rematch offer to decline");
    rec_.rematch_offer.clear();
    return std::nullopt;
}

}  // namespace echecs::server

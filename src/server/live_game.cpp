#include "server/live_game.h"

#include <ctime>
#include <stdexcept>

#include "core/notation.h"
#include "core/pgn.h"

namespace echecs::server {

using nlohmann::json;

namespace {
constexpr std::int64_t DAY_MS = 86'400'000;

std::int64_t correspondence_ms(const TimeControl& tc) { return std::int64_t(tc.days) * DAY_MS; }

const std::pair<Termination, std::string_view> TERMINATIONS[] = {
    {Termination::Checkmate, "checkmate"},          {Termination::Stalemate, "stalemate"},
    {Termination::AvalancheLoss, "avalanche loss"}, {Termination::Repetition, "repetition"},
    {Termination::FiftyMoves, "fifty moves"},       {Termination::InsufficientMaterial, "insufficient material"},
    {Termination::TimeForfeit, "time forfeit"},     {Termination::Resignation, "resignation"},
    {Termination::Agreement, "agreement"},          {Termination::Aborted, "aborted"},
};

Termination termination_from(std::string_view s) {
    for (const auto& [t, name] : TERMINATIONS)
        if (name == s) return t;
    return Termination::None;
}

json seat_json(const Seat& s) {
    json j = {{"name", s.name}, {"computer", s.computer()}, {"level", nullptr}};
    if (s.computer()) j["level"] = s.level;
    return j;
}

json nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json nullable_time(std::int64_t t) { return t == 0 ? json(nullptr) : json(t); }
}  // namespace

std::string_view color_name(Color c) { return c == WHITE ? "white" : "black"; }

std::optional<Color> color_from(std::string_view s) {
    if (s == "white") return WHITE;
    if (s == "black") return BLACK;
    return std::nullopt;
}

std::string_view termination_text(Termination t) {
    for (const auto& [term, name] : TERMINATIONS)
        if (term == t) return name;
    return "";
}

json time_json(const TimeControl& tc) {
    switch (tc.kind) {
        case TimeControl::Realtime: {
            json minutes =
                tc.initial_ms % 60000 == 0 ? json(tc.initial_ms / 60000) : json(double(tc.initial_ms) / 60000.0);
            json inc =
                tc.increment_ms % 1000 == 0 ? json(tc.increment_ms / 1000) : json(double(tc.increment_ms) / 1000.0);
            return {{"kind", "realtime"}, {"minutes", minutes}, {"increment", inc}};
        }
        case TimeControl::Correspondence: return {{"kind", "correspondence"}, {"days", tc.days}};
        default: return {{"kind", "unlimited"}};
    }
}

json seek_json(const SeekRecord& s, bool mine) {
    return {{"id", s.id},
            {"variant", variant_name(s.variant)},
            {"time", time_json(s.time)},
            {"color", s.color},
            {"nickname", s.nickname},
            {"created_at", s.created_at},
            {"private", s.is_private},
            {"mine", mine},
            {"game", nullable(s.game)}};
}

json summary_json(const GameRecord& g) {
    return {{"id", g.id},
            {"variant", variant_name(g.variant)},
            {"time", time_json(g.time)},
            {"white", seat_json(g.white)},
            {"black", seat_json(g.black)},
            {"status", g.status},
            {"ply", g.ply},
            {"fen", g.fen},
            {"result", g.result},
            {"termination", nullable(g.termination)},
            {"created_at", g.created_at},
            {"ended_at", nullable_time(g.ended_at)}};
}

GameRecord LiveGame::new_record(const std::string& id, Variant v, const TimeControl& tc, Seat white, Seat black,
                                std::int64_t now) {
    GameRecord r;
    r.id = id;
    r.variant = v;
    r.initial_fen = std::string(Position::START_FEN);
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

LiveGame::LiveGame(GameRecord rec, std::int64_t first_move_ms)
    : rec_(std::move(rec)),
      first_move_ms_(first_move_ms),
      game_(std::make_unique<Game>(rec_.variant, rec_.initial_fen)) {
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
                if (rec_.white.computer() || rec_.black.computer()) return std::nullopt;
                return rec_.clock_at + first_move_ms_;
            }
            return rec_.clock_at + (turn() == WHITE ? rec_.white_ms : rec_.black_ms);
        case TimeControl::Correspondence: return rec_.clock_at + (turn() == WHITE ? rec_.white_ms : rec_.black_ms);
        default: return std::nullopt;
    }
}

bool LiveGame::check_time(std::int64_t now) {
    std::optional<std::int64_t> deadline = next_deadline();
    if (!deadline || now < *deadline) return false;
    Color loser = turn();
    if (ply() < 2) {  // a side that never moved: the game did not start
        finish(Outcome::Ongoing, "aborted", now);
        return true;
    }
    clock_of(loser) = 0;
    rec_.clock_at = now;
    Color winner = ~loser;
    Outcome o = can_mate(game_->position(), winner) ? (winner == WHITE ? Outcome::WhiteWins : Outcome::BlackWins)
                                                    : Outcome::Draw;
    finish(o, "time forfeit", now);
    return true;
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
            rec_.clock_at = now - std::min(used, first_move_ms_);
            return;
        }
    }
    rec_.clock_at = now;
}

ActionResult LiveGame::move(Color seat, const std::string& uci, std::optional<int> expected_ply, std::int64_t now) {
    if (!live()) return ActionError{"game_over", "the game is over"};
    if (expected_ply && *expected_ply != ply())
        return ActionError{"stale",
                           "the game is at ply " + std::to_string(ply()) + ", not " + std::to_string(*expected_ply)};
    if (seat != turn()) return ActionError{"not_your_turn", "it is " + std::string(color_name(turn())) + "'s turn"};
    if (check_time(now)) return ActionError{"game_over", "the game is over: " + rec_.termination};
    Position& pos = game_->position();
    Move m;
    try {
        m = parse_uci(pos, uci);
    } catch (const std::exception& e) {
        return ActionError{"illegal_move", "illegal move " + uci + ": " + e.what()};
    }
    std::string san = to_san(pos, m);
    if (!game_->play(m)) return ActionError{"illegal_move", "illegal move: " + uci};

    Color mover = seat;
    switch (rec_.time.kind) {
        case TimeControl::Realtime: {
            std::int64_t& c = clock_of(mover);
            if (ply() >= 2) c -= std::max<std::int64_t>(0, now - rec_.clock_at);
            c = std::max<std::int64_t>(0, c) + rec_.time.increment_ms;
            break;
        }
        case TimeControl::Correspondence: rec_.white_ms = rec_.black_ms = correspondence_ms(rec_.time); break;
        default: break;
    }
    rec_.clock_at = now;
    if (rec_.draw_offer == color_name(~mover)) rec_.draw_offer.clear();  // declined by playing on

    MoveRecord mr;
    mr.ply = ply();
    mr.uci = to_uci(m);
    mr.san = std::move(san);
    mr.white_ms = rec_.white_ms;
    mr.black_ms = rec_.black_ms;
    mr.at = now;
    rec_.moves.push_back(std::move(mr));
    append_move_text(rec_.moves.back(), pos);

    GameResult r = game_->result();
    if (r.over()) {
        rec_.status = "over";  // before refresh: no legal moves to list
        finish(r.outcome, termination_text(r.termination), now);
    } else {
        refresh();
    }
    return std::nullopt;
}

void LiveGame::finish(Outcome o, std::string_view termination, std::int64_t now) {
    if (clock_running()) {  // freeze the clocks at the end
        Color t = turn();
        clock_of(t) = remaining(t, now);
        rec_.clock_at = now;
    }
    rec_.status = "over";
    rec_.result = o == Outcome::Ongoing ? "*" : std::string(pgn_result(o));
    rec_.termination = std::string(termination);
    rec_.ended_at = now;
    rec_.draw_offer.clear();
    refresh();
}

ActionResult LiveGame::draw_offer(Color seat, std::int64_t now) {
    if (!live()) return ActionError{"game_over", "the game is over"};
    if (rec_.draw_offer == color_name(~seat)) return draw_accept(seat, now);
    if (this->seat(~seat).computer()) return ActionError{"not_allowed", "the computer does not accept draws"};
    rec_.draw_offer = std::string(color_name(seat));
    return std::nullopt;
}

ActionResult LiveGame::draw_accept(Color seat, std::int64_t now) {
    if (!live()) return ActionError{"game_over", "the game is over"};
    if (rec_.draw_offer != color_name(~seat)) return ActionError{"not_allowed", "no draw offer to accept"};
    if (check_time(now)) return ActionError{"game_over", "the game is over: " + rec_.termination};
    finish(Outcome::Draw, "agreement", now);
    return std::nullopt;
}

ActionResult LiveGame::draw_decline(Color seat) {
    if (!live()) return ActionError{"game_over", "the game is over"};
    if (rec_.draw_offer != color_name(~seat)) return ActionError{"not_allowed", "no draw offer to decline"};
    rec_.draw_offer.clear();
    return std::nullopt;
}

ActionResult LiveGame::resign(Color seat, std::int64_t now) {
    if (!live()) return ActionError{"game_over", "the game is over"};
    if (check_time(now)) return ActionError{"game_over", "the game is over: " + rec_.termination};
    finish(seat == WHITE ? Outcome::BlackWins : Outcome::WhiteWins, "resignation", now);
    return std::nullopt;
}

ActionResult LiveGame::abort(Color /*seat*/, std::int64_t now) {
    if (!live()) return ActionError{"game_over", "the game is over"};
    if (ply() >= 2) return ActionError{"not_allowed", "a game can be aborted only before each side's first move"};
    finish(Outcome::Ongoing, "aborted", now);
    return std::nullopt;
}

ActionResult LiveGame::rematch_offer(Color seat, bool& agreed) {
    agreed = false;
    if (live()) return ActionError{"not_allowed", "the game is not over"};
    if (!rec_.rematch_game.empty()) return ActionError{"not_allowed", "the rematch already exists"};
    if (rec_.rematch_offer == color_name(~seat) || this->seat(~seat).computer()) {
        agreed = true;
        return std::nullopt;
    }
    rec_.rematch_offer = std::string(color_name(seat));
    return std::nullopt;
}

ActionResult LiveGame::rematch_accept(Color seat) {
    if (live()) return ActionError{"not_allowed", "the game is not over"};
    if (!rec_.rematch_game.empty()) return ActionError{"not_allowed", "the rematch already exists"};
    if (rec_.rematch_offer != color_name(~seat)) return ActionError{"not_allowed", "no rematch offer to accept"};
    return std::nullopt;
}

ActionResult LiveGame::rematch_decline(Color seat) {
    if (rec_.rematch_offer != color_name(~seat)) return ActionError{"not_allowed", "no rematch offer to decline"};
    rec_.rematch_offer.clear();
    return std::nullopt;
}

std::string LiveGame::state_base(std::int64_t now, bool white_connected, bool black_connected) const {
    // Written by hand: this runs for every move of every game (see
    // docs/PERFORMANCE.md, "Server load"). Strings that may need escaping
    // (names, ids from the database) go through nlohmann::json.
    auto str = [](const std::string& v) { return json(v).dump(); };
    auto opt_str = [&](const std::string& v) { return v.empty() ? std::string("null") : str(v); };
    auto seat = [&](const Seat& st, bool connected) {
        std::string out = "{\"name\":" + str(st.name) + ",\"computer\":" + (st.computer() ? "true" : "false") +
                          ",\"level\":" + (st.computer() ? std::to_string(st.level) : "null") +
                          ",\"connected\":" + (st.computer() || connected ? "true" : "false") + "}";
        return out;
    };
    std::string clock = "null";
    if (rec_.time.kind != TimeControl::Unlimited) {
        std::string deadline = "null";
        if (live() && rec_.time.kind == TimeControl::Realtime && ply() < 2)
            if (auto d = next_deadline()) deadline = std::to_string(*d);
        clock = "{\"white\":" + std::to_string(remaining(WHITE, now)) +
                ",\"black\":" + std::to_string(remaining(BLACK, now)) + ",\"running\":" +
                (clock_running() ? std::string(turn() == WHITE ? "\"white\"" : "\"black\"") : "null") +
                ",\"server_time\":" + std::to_string(now) + ",\"first_move_deadline\":" + deadline + "}";
    }
    std::string winner = rec_.result == "1-0" ? "\"white\"" : rec_.result == "0-1" ? "\"black\"" : "null";
    std::string out;
    out.reserve(1024);
    out += "{\"type\":\"state\",\"game\":" + str(rec_.id);
    out += ",\"variant\":\"" + std::string(variant_name(rec_.variant)) + "\"";
    out += ",\"time\":" + time_json(rec_.time).dump();
    out += ",\"initial_fen\":" + str(rec_.initial_fen);
    out += ",\"fen\":" + str(rec_.fen);
    out += ",\"ply\":" + std::to_string(ply());
    out += std::string(",\"turn\":") + (turn() == WHITE ? "\"white\"" : "\"black\"");
    out += std::string(",\"check\":") + (check_ ? "true" : "false");
    out += ",\"clock\":" + clock;
    out += ",\"status\":" + str(rec_.status);
    out += ",\"result\":" + str(rec_.result);
    out += ",\"termination\":" + opt_str(rec_.termination);
    out += ",\"winner\":" + winner;
    out += ",\"players\":{\"white\":" + seat(rec_.white, white_connected) +
           ",\"black\":" + seat(rec_.black, black_connected) + "}";
    out += ",\"draw_offer\":" + opt_str(rec_.draw_offer);
    out += ",\"rematch_offer\":" + opt_str(rec_.rematch_offer);
    out += ",\"rematch_game\":" + opt_str(rec_.rematch_game);
    out += std::string(",\"can_abort\":") + (live() && ply() < 2 ? "true" : "false");
    out += ",\"created_at\":" + std::to_string(rec_.created_at);
    out += ",\"ended_at\":" + (rec_.ended_at ? std::to_string(rec_.ended_at) : std::string("null"));
    out += "}";
    return out;
}

std::string LiveGame::state_text(const std::string& base, std::optional<Color> you) const {
    // The move list and the legal moves are kept serialised: a state costs a
    // copy of them, not a serialisation.
    std::string out;
    out.reserve(base.size() + moves_text_.size() + legal_text_.size() + legal_san_text_.size() + 64);
    out += "{\"you\":";
    out += you ? (*you == WHITE ? "\"white\"" : "\"black\"") : "null";
    out += ",\"moves\":[";
    out += moves_text_;
    out += "],\"legal_moves\":[";
    out += legal_text_;
    out += "],\"legal_san\":[";
    out += legal_san_text_;
    out += "],";
    out.append(base, 1, std::string::npos);
    return out;
}

json LiveGame::state_json(std::optional<Color> you, std::int64_t now, bool white_connected,
                          bool black_connected) const {
    return json::parse(state_text(state_base(now, white_connected, black_connected), you));
}

void LiveGame::append_move_text(const MoveRecord& m, const Position& after) {
    if (!moves_text_.empty()) moves_text_ += ',';
    moves_text_ += json{{"uci", m.uci}, {"san", m.san}, {"fen", after.fen()}, {"check", after.in_check()}}.dump();
}

json LiveGame::summary_json() const { return server::summary_json(rec_); }

std::string LiveGame::pgn() {
    std::vector<std::pair<std::string, std::string>> tags;
    char date[16] = "????.??.??";
    std::time_t t = std::time_t(rec_.created_at / 1000);
    std::tm tm{};
    if (gmtime_r(&t, &tm)) std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    std::string tc = "-";
    if (rec_.time.kind == TimeControl::Realtime)
        tc = std::to_string(rec_.time.initial_ms / 1000) + "+" + std::to_string(rec_.time.increment_ms / 1000);
    tags = {{"Event", "echecs game " + rec_.id},
            {"Site", "echecs /game/" + rec_.id},
            {"Date", date},
            {"Round", "-"},
            {"White", rec_.white.computer() ? "Computer level " + std::to_string(rec_.white.level) : rec_.white.name},
            {"Black", rec_.black.computer() ? "Computer level " + std::to_string(rec_.black.level) : rec_.black.name},
            {"Result", rec_.result},
            {"TimeControl", tc}};
    if (!rec_.termination.empty()) tags.emplace_back("Termination", rec_.termination);
    GameResult r;
    if (rec_.result == "1-0")
        r.outcome = Outcome::WhiteWins;
    else if (rec_.result == "0-1")
        r.outcome = Outcome::BlackWins;
    else if (rec_.result == "1/2-1/2")
        r.outcome = Outcome::Draw;
    r.termination = termination_from(rec_.termination);
    return write_pgn(*game_, tags, r);
}

}  // namespace echecs::server

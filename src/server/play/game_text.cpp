// What a LiveGame says to the outside: the `state` message, the JSON of
// summaries, seeks and time controls, and the PGN.
#include <ctime>

#include "core/pgn.h"
#include "server/api/api_accounts.h"
#include "server/play/live_game.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"
#include "server/storage/storage_common.h"

namespace echecs::server {

using nlohmann::json;

namespace {
json seat_json(const Seat& s) {
    json j = {{"name", s.name}, {"computer", s.computer()}, {"level", nullptr}};
    if (s.computer()) j["level"] = s.level;
    j["account"] = s.account != 0;
    j["rating"] = s.rating ? json(s.rating) : json(nullptr);
    j["provisional"] = s.provisional;
    return j;
}

json diff_json(const std::optional<int>& d) { return d ? json(*d) : json(nullptr); }

json nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json nullable_time(std::int64_t t) { return t == 0 ? json(nullptr) : json(t); }

// PGN clock comment: [%clk h:mm:ss].
std::string clk(std::int64_t ms) {
    const std::int64_t s = std::max<std::int64_t>(0, ms) / 1000;
    char buf[48];
    std::snprintf(buf, sizeof buf, "[%%clk %lld:%02lld:%02lld]", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
    return buf;
}
}  // namespace

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

json seek_json(const SeekRecord& s, std::optional<bool> mine) {
    json j = {
        {"id", s.id},
        {"variant", variant_name(s.variant)},
        {"time", time_json(s.time)},
        {"color", s.color},
        {"nickname", s.nickname},
        {"created_at", s.created_at},
        {"private", s.is_private},
        {"game", nullable(s.game)},
        {"rated", s.rated},
        {"speed", nullable(speed_of(s.time))},
        {"rating", s.rating ? json(s.rating) : json(nullptr)},
        {"provisional", s.provisional},
        {"rating_range", s.rating_min || s.rating_max ? json{{"min", s.rating_min ? json(s.rating_min) : json(nullptr)},
                                                             {"max", s.rating_max ? json(s.rating_max) : json(nullptr)}}
                                                      : json(nullptr)},
        {"fen", nullable(s.initial_fen)}};
    if (mine) j["mine"] = *mine;
    return j;
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
            {"ended_at", nullable_time(g.ended_at)},
            {"rated", g.rated},
            {"speed", nullable(speed_of(g.time))},
            {"rating_diff", g.white_rating_diff || g.black_rating_diff ? json{{"white", diff_json(g.white_rating_diff)},
                                                                              {"black", diff_json(g.black_rating_diff)}}
                                                                       : json(nullptr)}};
}

std::string LiveGame::state_base(std::int64_t now, const Presence& presence) const {
    auto player = [&](const Seat& st, bool connected) {
        out::StatePlayer p{st.name,         st.computer(), std::nullopt,  st.computer() || connected,
                           st.account != 0, std::nullopt,  st.provisional};
        if (st.computer()) p.level = st.level;
        if (st.rating) p.rating = st.rating;
        return p;
    };
    out::State m;
    m.game = rec_.id;
    m.variant = variant_name(rec_.variant);
    m.time = time_json(rec_.time);
    m.initial_fen = rec_.initial_fen;
    m.fen = rec_.fen;
    m.ply = ply();
    m.turn = color_name(turn());
    m.check = check_;
    if (rec_.time.kind != TimeControl::Unlimited) {
        out::StateClock c{remaining(WHITE, now), remaining(BLACK, now), "", now, std::nullopt};
        if (clock_running()) c.running = color_name(turn());
        if (live() && rec_.time.kind == TimeControl::Realtime && ply() < 2) c.first_move_deadline = next_deadline();
        m.clock = std::move(c);
    }
    m.status = rec_.status;
    m.result = rec_.result;
    m.termination = rec_.termination;
    m.winner = rec_.result == "1-0" ? color_name(WHITE) : rec_.result == "0-1" ? color_name(BLACK) : "";
    m.white = player(rec_.white, presence.connected[WHITE]);
    m.black = player(rec_.black, presence.connected[BLACK]);
    m.white.berserk = rec_.white_berserk;
    m.black.berserk = rec_.black_berserk;
    m.tournament = rec_.tournament;
    m.draw_offer = rec_.draw_offer;
    m.rematch_offer = rec_.rematch_offer;
    m.rematch_game = rec_.rematch_game;
    m.can_abort = live() && ply() < 2;
    if (takebacks_allowed())
        m.takeback = out::StateTakeback{takeback_offer_ ? std::string(color_name(*takeback_offer_)) : "",
                                        may_take_back(WHITE), may_take_back(BLACK)};
    if (live() && presence.claim)
        m.claim = out::StateClaim{std::string(color_name(presence.claim->by)), presence.claim->available_at};
    m.created_at = rec_.created_at;
    if (rec_.ended_at) m.ended_at = rec_.ended_at;
    m.rated = rec_.rated;
    m.speed = speed_of(rec_.time);
    m.white_rating_diff = rec_.white_rating_diff;
    m.black_rating_diff = rec_.black_rating_diff;
    return out::state_base_text(m);
}

std::string LiveGame::state_text(const std::string& base, std::optional<Color> you) const {
    return out::state_text(base, you ? color_name(*you) : std::string_view(), moves_text_, legal_text_,
                           legal_san_text_);
}

json LiveGame::state_json(std::optional<Color> you, std::int64_t now, const Presence& presence) const {
    return json::parse(state_text(state_base(now, presence), you));
}

void LiveGame::append_move_text(const MoveRecord& m, const Position& after) {
    if (!moves_text_.empty()) moves_text_ += ',';
    moves_text_ += dump(json{{"uci", m.uci},
                             {"san", m.san},
                             {"fen", after.fen()},
                             {"check", after.in_check()},
                             {"clock", m.clock ? json(*m.clock) : json(nullptr)}});
}

std::string LiveGame::pgn(const std::string& site) const {
    char date[16] = "????.??.??";
    std::time_t t = std::time_t(rec_.created_at / 1000);
    std::tm tm{};
    if (gmtime_r(&t, &tm)) std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    std::string tc = "-";
    if (rec_.time.kind == TimeControl::Realtime)
        tc = std::to_string(rec_.time.initial_ms / 1000) + "+" + std::to_string(rec_.time.increment_ms / 1000);
    else if (rec_.time.kind == TimeControl::Correspondence)
        tc = "1/" + std::to_string(std::int64_t(rec_.time.days) * 86400);
    auto name = [](const Seat& s) { return s.computer() ? "Computer level " + std::to_string(s.level) : s.name; };
    std::vector<std::pair<std::string, std::string>> tags = {
        {"Event", "echecs game " + rec_.id},
        {"Site", site},
        {"Date", date},
        {"Round", "-"},
        {"White", name(rec_.white)},
        {"Black", name(rec_.black)},
        {"TimeControl", tc},
    };
    GameResult r;
    if (rec_.result == "1-0")
        r.outcome = Outcome::WhiteWins;
    else if (rec_.result == "0-1")
        r.outcome = Outcome::BlackWins;
    else if (rec_.result == "1/2-1/2")
        r.outcome = Outcome::Draw;
    r.termination = termination_named(rec_.termination);
    // A game over without a result (aborted, archived): the core writes no
    // Termination for it, so the server says why.
    if (!live() && !r.over() && !rec_.termination.empty()) tags.emplace_back("Termination", rec_.termination);
    std::vector<std::string> comments;
    for (const MoveRecord& m : rec_.moves) comments.push_back(m.clock ? clk(*m.clock) : "");
    return write_pgn(*game_, tags, r, comments);
}

}  // namespace echecs::server

#include "server/protocol/server_messages.h"

#include "server/protocol/text.h"

namespace echecs::server::out {

using nlohmann::json;

namespace {

// The client's `id`, as it sent it (messages.cpp checked it: a number or a
// short string); nothing when it had none.
void echo_id(json& j, const std::string& id_json) {
    if (id_json.empty()) return;
    json id = json::parse(id_json, nullptr, false);
    if (!id.is_discarded()) j["id"] = std::move(id);
}

json nullable(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

// Pong, Error and MySeeks are written by hand, in the order their fields
// always had (the others are nlohmann objects: keys in alphabetical order).
std::string to_text(const Pong& m) {
    return "{\"type\":\"pong\",\"t\":" + m.t_json + ",\"server_time\":" + std::to_string(m.server_time) + "}";
}

std::string to_text(const Error& m) {
    std::string out = "{\"type\":\"error\",\"code\":" + quote(m.code) + ",\"message\":" + quote(m.message) +
                      ",\"reason\":" + quote(m.reason) +
                      ",\"field\":" + (m.field.empty() ? std::string("null") : quote(m.field)) +
                      ",\"params\":" + dump(m.params);
    if (!m.game.empty()) out += ",\"game\":" + quote(m.game);
    if (!m.id_json.empty()) out += ",\"id\":" + m.id_json;
    out += '}';
    return out;
}

std::string to_text(const MySeeks& m) {
    std::string ids;
    for (const std::string& id : m.seeks) {  // appended, not prepended: GCC 12's -Wrestrict misfires on "," + s
        if (!ids.empty()) ids += ',';
        ids += quote(id);
    }
    return "{\"type\":\"my_seeks\",\"seeks\":[" + ids + "]}";
}

std::string to_text(const SeekAccepted& m) {
    return dump(json{{"type", "seek_accepted"}, {"seek", m.seek}, {"game", m.game}, {"color", m.color}});
}

std::string to_text(const Lobby& m) {
    return dump(json{{"type", "lobby"}, {"seq", m.seq}, {"seeks", m.seeks}, {"games", m.games}});
}

std::string to_text(const LobbyDelta& m) {
    return dump(json{{"type", "lobby_delta"}, {"seq", m.seq}, {"changes", m.changes}});
}

std::string to_text(const PoolWaiting& m) {
    json j = {{"type", "pool_waiting"},
              {"pool", m.pool},
              {"rated", m.rated},
              {"rating", m.rating ? json(*m.rating) : json(nullptr)},
              {"range", m.range}};
    echo_id(j, m.id_json);
    return dump(j);
}

std::string to_text(const PoolLeft& m) {
    return dump(json{{"type", "pool_left"}, {"pool", m.pool ? json(*m.pool) : json(nullptr)}});
}

std::string to_text(const PoolPaired& m) {
    return dump(json{{"type", "pool_paired"}, {"pool", m.pool}, {"game", m.game}, {"color", m.color}});
}

std::string to_text(const TournamentPaired& m) {
    json j{{"type", "tournament_paired"}, {"tournament", m.tournament}, {"game", m.game}, {"color", m.color}};
    if (m.round) j["round"] = m.round;
    return dump(j);
}

std::string to_text(const TournamentView& m) {
    return dump(json{{"type", "tournament"}, {"tournament", m.tournament}});
}

json to_json(const ChatLine& l) {
    return {{"id", l.id},     {"author", l.author}, {"account", l.account},
            {"seat", l.seat}, {"text", l.text},     {"at", l.at}};
}

std::string to_text(const Chat& m) {
    json j{{"type", "chat"}, {"room", m.room}, {"line", to_json(m.line)}};
    if (!m.game.empty()) j["game"] = m.game;
    return dump(j);
}

std::string to_text(const ChatHistory& m) {
    json lines = json::array();
    for (const ChatLine& l : m.lines) lines.push_back(to_json(l));
    json j{{"type", "chat_history"},
           {"room", m.room},
           {"enabled", m.enabled},
           {"max_chars", m.max_chars},
           {"lines", std::move(lines)}};
    if (!m.game.empty()) j["game"] = m.game;
    return dump(j);
}

std::string to_text(const Reported& m) {
    json j{{"type", "reported"}, {"line", m.line}};
    if (!m.game.empty()) j["game"] = m.game;
    echo_id(j, m.id_json);
    return dump(j);
}

std::string to_text(const Analysis& m) {
    json lines = json::array();
    for (const AnalysisLine& l : m.lines)
        lines.push_back({{"multipv", l.multipv},
                         {"cp", l.cp ? json(*l.cp) : json(nullptr)},
                         {"mate", l.mate ? json(*l.mate) : json(nullptr)},
                         {"wdl", {l.win, l.draw, l.loss}},
                         {"depth", l.depth},
                         {"moves", l.moves},
                         {"san", l.san}});
    json j = {{"type", "analysis"},   {"depth", m.depth}, {"nodes", m.nodes},         {"nps", m.nps},
              {"time_ms", m.time_ms}, {"final", m.final}, {"lines", std::move(lines)}};
    echo_id(j, m.id_json);
    return dump(j);
}

std::string to_text(const Review& m) {
    json j = m.body;
    j["type"] = "review";
    j["game"] = m.game;
    return dump(j);
}

json to_json(const YourTurnGame& g) {
    json e{{"game", g.game},   {"variant", g.variant},   {"time_kind", g.time_kind},
           {"color", g.color}, {"opponent", g.opponent}, {"ply", g.ply},
           {"fen", g.fen},     {"since", g.since},       {"deadline", nullable(g.deadline)}};
    if (g.remaining_ms) e["remaining_ms"] = *g.remaining_ms;
    return e;
}

std::string to_text(const YourTurn& m) {
    json games = json::array();
    for (const YourTurnGame& g : m.games) games.push_back(to_json(g));
    return dump(json{{"type", "your_turn"}, {"games", std::move(games)}});
}

namespace {

std::string opt_str(const std::string& v) { return v.empty() ? std::string("null") : quote(v); }
// Colour names and the other names of ours need no escaping.
std::string opt_name(std::string_view v) {
    if (v.empty()) return "null";
    std::string s = "\"";
    s += v;  // (appended, not "\"" + std::string: GCC 12 gives a false -Wrestrict on that)
    s += '"';
    return s;
}
template <class T>
std::string opt_num(const std::optional<T>& v) {
    return v ? std::to_string(*v) : std::string("null");
}

std::string player_text(const StatePlayer& p) {
    return "{\"name\":" + quote(p.name) + ",\"computer\":" + (p.computer ? "true" : "false") +
           ",\"level\":" + opt_num(p.level) + ",\"connected\":" + (p.connected ? "true" : "false") +
           ",\"account\":" + (p.account ? "true" : "false") + ",\"rating\":" + opt_num(p.rating) +
           ",\"provisional\":" + (p.provisional ? "true" : "false") + ",\"berserk\":" + (p.berserk ? "true" : "false") +
           "}";
}

}  // namespace

std::string state_base_text(const State& m) {
    std::string clock = "null";
    if (m.clock)
        clock = "{\"white\":" + std::to_string(m.clock->white) + ",\"black\":" + std::to_string(m.clock->black) +
                ",\"running\":" + opt_name(m.clock->running) +
                ",\"server_time\":" + std::to_string(m.clock->server_time) +
                ",\"first_move_deadline\":" + opt_num(m.clock->first_move_deadline) + "}";
    std::string claim = "null";
    if (m.claim)
        claim = "{\"by\":" + opt_name(m.claim->by) + ",\"available_at\":" + std::to_string(m.claim->available_at) + "}";
    std::string out;
    out.reserve(1024);
    out += "{\"type\":\"state\",\"game\":" + quote(m.game);
    out += ",\"variant\":" + opt_name(m.variant);
    out += ",\"time\":" + dump(m.time);
    out += ",\"initial_fen\":" + quote(m.initial_fen);
    out += ",\"fen\":" + quote(m.fen);
    out += ",\"ply\":" + std::to_string(m.ply);
    out += ",\"turn\":" + opt_name(m.turn);
    out += std::string(",\"check\":") + (m.check ? "true" : "false");
    out += ",\"clock\":" + clock;
    out += ",\"status\":" + quote(m.status);
    out += ",\"result\":" + quote(m.result);
    out += ",\"termination\":" + opt_str(m.termination);
    out += ",\"winner\":" + opt_name(m.winner);
    out += ",\"players\":{\"white\":" + player_text(m.white) + ",\"black\":" + player_text(m.black) + "}";
    out += ",\"draw_offer\":" + opt_str(m.draw_offer);
    out += ",\"rematch_offer\":" + opt_str(m.rematch_offer);
    out += ",\"rematch_game\":" + opt_str(m.rematch_game);
    out += std::string(",\"can_abort\":") + (m.can_abort ? "true" : "false");
    out += ",\"takeback\":";
    if (m.takeback)
        out += "{\"offer\":" + opt_name(m.takeback->offer) + ",\"white\":" + (m.takeback->white ? "true" : "false") +
               ",\"black\":" + (m.takeback->black ? "true" : "false") + "}";
    else
        out += "null";
    out += ",\"claim\":" + claim;
    out += ",\"created_at\":" + std::to_string(m.created_at);
    out += ",\"ended_at\":" + opt_num(m.ended_at);
    out += ",\"tournament\":" + opt_str(m.tournament);
    out += std::string(",\"rated\":") + (m.rated ? "true" : "false");
    out += ",\"speed\":" + opt_str(m.speed);
    out += ",\"rating_diff\":" +
           (m.white_rating_diff || m.black_rating_diff
                ? "{\"white\":" + opt_num(m.white_rating_diff) + ",\"black\":" + opt_num(m.black_rating_diff) + "}"
                : std::string("null"));
    out += "}";
    return out;
}

std::string state_text(const std::string& base, std::string_view you, const std::string& moves,
                       const std::string& legal, const std::string& legal_san) {
    // The lists are copied, not serialised: a state costs a copy of them.
    std::string out;
    out.reserve(base.size() + moves.size() + legal.size() + legal_san.size() + 64);
    out += "{\"you\":";
    out += opt_name(you);
    out += ",\"moves\":[";
    out += moves;
    out += "],\"legal_moves\":[";
    out += legal;
    out += "],\"legal_san\":[";
    out += legal_san;
    out += "],";
    out.append(base, 1, std::string::npos);
    return out;
}

}  // namespace echecs::server::out

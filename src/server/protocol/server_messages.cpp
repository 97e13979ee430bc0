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
    for (const std::string& id : m.seeks) ids += (ids.empty() ? "" : ",") + quote(id);
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

}  // namespace echecs::server::out

#include "server/protocol/messages.h"

#include <nlohmann/json.hpp>

#include "server/api/input.h"
#include "server/app/util.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

enum class Kind {
    Hello,
    Ping,
    LobbySubscribe,
    LobbyUnsubscribe,
    Join,
    Leave,
    Move,
    Command,
    PoolJoin,
    PoolLeave,
    Chat,
    Report,
    Analyse,
    AnalyseStop,
    TournamentWatch,
    TournamentUnwatch
};

struct TypeEntry {
    std::string_view name;
    Kind kind;
    msg::Command command;  // when kind == Command
};

constexpr TypeEntry TYPES[] = {
    {"hello", Kind::Hello, {}},
    {"ping", Kind::Ping, {}},
    {"lobby_subscribe", Kind::LobbySubscribe, {}},
    {"lobby_unsubscribe", Kind::LobbyUnsubscribe, {}},
    {"join", Kind::Join, {}},
    {"leave", Kind::Leave, {}},
    {"move", Kind::Move, {}},
    {"draw_offer", Kind::Command, msg::Command::DrawOffer},
    {"draw_accept", Kind::Command, msg::Command::DrawAccept},
    {"draw_decline", Kind::Command, msg::Command::DrawDecline},
    {"resign", Kind::Command, msg::Command::Resign},
    {"abort", Kind::Command, msg::Command::Abort},
    {"rematch_offer", Kind::Command, msg::Command::RematchOffer},
    {"rematch_accept", Kind::Command, msg::Command::RematchAccept},
    {"rematch_decline", Kind::Command, msg::Command::RematchDecline},
    {"claim_victory", Kind::Command, msg::Command::ClaimVictory},
    {"claim_draw", Kind::Command, msg::Command::ClaimDraw},
    {"takeback_offer", Kind::Command, msg::Command::TakebackOffer},
    {"takeback_accept", Kind::Command, msg::Command::TakebackAccept},
    {"takeback_decline", Kind::Command, msg::Command::TakebackDecline},
    {"berserk", Kind::Command, msg::Command::Berserk},
    {"pool_join", Kind::PoolJoin, {}},
    {"pool_leave", Kind::PoolLeave, {}},
    {"chat", Kind::Chat, {}},
    {"report", Kind::Report, {}},
    {"analyse", Kind::Analyse, {}},
    {"analyse_stop", Kind::AnalyseStop, {}},
    {"tournament_watch", Kind::TournamentWatch, {}},
    {"tournament_unwatch", Kind::TournamentUnwatch, {}},
};

ApiError bad_message(Reason reason, std::string message, std::string field = "", json params = json::object()) {
    return ApiError(Code::bad_message, reason, std::move(message), std::move(field), std::move(params));
}

std::string string_member(const json& j, const char* name) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null())
        throw bad_message(Reason::field_missing, std::string("missing field '") + name + "'", name);
    if (!it->is_string())
        throw bad_message(Reason::field_type, std::string("field '") + name + "' must be a string", name,
                          {{"expected", "string"}});
    return it->get<std::string>();
}

// A chat message's room: `game`, or `"room": "lobby"` ("" is returned).
std::string chat_target(const json& j) {
    if (auto it = j.find("game"); it != j.end() && !it->is_null()) return string_member(j, "game");
    auto it = j.find("room");
    if (it == j.end() || it->is_null())
        throw bad_message(Reason::field_missing, "missing field 'game' (or \"room\": \"lobby\")", "game");
    if (!it->is_string() || it->get_ref<const std::string&>() != "lobby")
        throw bad_message(Reason::room_unknown, "field 'room' must be \"lobby\" (a game's room comes from 'game')",
                          "room");
    return "";
}

// The shapes of an `analyse` message; the position itself is checked by the
// rules core when it is analysed (the same errors as POST /api/analysis).
msg::Analyse parse_analyse(const json& j) {
    msg::Analyse a;
    if (j.contains("variant")) a.variant = string_member(j, "variant");
    if (j.contains("fen") && !j["fen"].is_null()) a.fen = string_member(j, "fen");
    if (a.fen.size() > 200)
        throw bad_message(Reason::fen_too_long, "fen: longer than 200 characters", "fen", {{"max", 200}});
    if (auto it = j.find("moves"); it != j.end() && !it->is_null()) {
        if (!it->is_array())
            throw bad_message(Reason::field_type, "moves must be an array of strings", "moves",
                              {{"expected", "array"}});
        if (it->size() > 1000)
            throw bad_message(Reason::moves_too_many, "at most 1000 moves", "moves", {{"max", 1000}});
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& m = (*it)[i];
            const std::string path = "moves[" + std::to_string(i) + "]";
            if (!m.is_string() || m.get_ref<const std::string&>().size() > 32)
                throw bad_message(Reason::field_type, path + " must be a move (a string of at most 32 characters)",
                                  path, {{"index", i}, {"expected", "string"}});
            a.moves.push_back(m.get<std::string>());
        }
    }
    if (auto it = j.find("multipv"); it != j.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > 3)
            throw bad_message(Reason::number_range, "multipv must be a whole number between 1 and 3", "multipv",
                              {{"min", 1}, {"max", 3}});
        a.multipv = int(it->get<std::int64_t>());
    }
    return a;
}

}  // namespace

std::string_view command_name(msg::Command c) {
    for (const TypeEntry& t : TYPES)
        if (t.kind == Kind::Command && t.command == c) return t.name;
    return "";
}

ParsedMessage parse_client_message(std::string_view text) {
    ParsedMessage out;
    if (json_depth(text) > MAX_JSON_DEPTH) {
        out.error = ApiError(Reason::json_too_deep,
                             "the message nests arrays and objects deeper than " + std::to_string(MAX_JSON_DEPTH), "",
                             {{"max", MAX_JSON_DEPTH}});
        return out;
    }
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        out.error = ApiError(Reason::json_invalid, "the message is not valid JSON (UTF-8)");
        return out;
    }
    if (!j.is_object()) {
        out.error = ApiError(Reason::json_not_object, "the message must be a JSON object");
        return out;
    }
    if (auto it = j.find("id"); it != j.end()) {
        if (it->is_number() || (it->is_string() && it->get_ref<const std::string&>().size() <= 64))
            out.id_json = dump(*it);
    }
    if (auto it = j.find("game"); it != j.end() && it->is_string())
        out.game = ascii_excerpt(it->get<std::string>(), 16);
    try {
        const std::string type = string_member(j, "type");
        const TypeEntry* entry = nullptr;
        for (const TypeEntry& t : TYPES)
            if (t.name == type) entry = &t;
        if (!entry)
            throw ApiError(Reason::type_unknown, "unknown message type '" + ascii_excerpt(type, 32) + "'", "type");
        switch (entry->kind) {
            case Kind::Hello: {
                std::string token = string_member(j, "token");
                if (!valid_token(token))
                    throw bad_message(Reason::token_invalid, "token must be 16-64 characters of [A-Za-z0-9_-]",
                                      "token");
                out.message = msg::Hello{std::move(token)};
                break;
            }
            case Kind::Ping: {
                auto it = j.find("t");
                out.message = msg::Ping{it == j.end() ? "null" : dump(*it)};
                break;
            }
            case Kind::LobbySubscribe: out.message = msg::LobbySubscribe{}; break;
            case Kind::LobbyUnsubscribe: out.message = msg::LobbyUnsubscribe{}; break;
            case Kind::Join: out.message = msg::Join{string_member(j, "game")}; break;
            case Kind::Leave: out.message = msg::Leave{string_member(j, "game")}; break;
            case Kind::Move: {
                msg::Move m;
                m.game = string_member(j, "game");
                m.uci = string_member(j, "move");
                if (m.uci.size() > 32)
                    throw ApiError(Reason::move_too_long, "illegal move: longer than 32 characters", "move");
                if (auto it = j.find("ply"); it != j.end() && !it->is_null()) {
                    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > 100000)
                        throw bad_message(Reason::field_type, "field 'ply' must be a whole number 0-100000", "ply",
                                          {{"expected", "integer"}});
                    m.ply = int(it->get<std::int64_t>());
                }
                out.message = std::move(m);
                break;
            }
            case Kind::PoolJoin:
                out.message = msg::PoolJoin{string_member(j, "pool"), parse_nickname(j, "nickname")};
                break;
            case Kind::PoolLeave: out.message = msg::PoolLeave{}; break;
            case Kind::Command: out.message = msg::GameCommand{string_member(j, "game"), entry->command}; break;
            case Kind::Chat: {
                std::string game = chat_target(j);
                out.message = msg::Chat{std::move(game), string_member(j, "text")};
                break;
            }
            case Kind::Report: {
                msg::Report r;
                r.game = chat_target(j);
                auto it = j.find("line");
                if (it == j.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1)
                    throw bad_message(Reason::field_type, "field 'line' must be a line's id (a whole number from 1)",
                                      "line", {{"expected", "integer"}});
                r.line = it->get<std::uint64_t>();
                if (auto rs = j.find("reason"); rs != j.end() && !rs->is_null()) r.reason = string_member(j, "reason");
                out.message = std::move(r);
                break;
            }
            case Kind::Analyse: out.message = parse_analyse(j); break;
            case Kind::AnalyseStop: out.message = msg::AnalyseStop{}; break;
            case Kind::TournamentWatch: out.message = msg::TournamentWatch{string_member(j, "tournament")}; break;
            case Kind::TournamentUnwatch: out.message = msg::TournamentUnwatch{}; break;
        }
    } catch (const ApiError& e) {
        out.error = e;
        out.message.reset();
    }
    return out;
}

}  // namespace echecs::server

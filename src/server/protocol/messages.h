// The messages a WebSocket client sends, each parsed once into a typed value
// (lila-ws style): the session and the game rooms never look at JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/api/errors.h"

namespace echecs::server {

namespace msg {
struct Hello {
    std::string token;
};
struct Ping {
    std::string t_json;  // the client's `t`, as JSON text, echoed in the pong
};
struct LobbySubscribe {};
struct LobbyUnsubscribe {};
struct Join {
    std::string game;
};
struct Leave {
    std::string game;
};
struct Move {
    std::string game;
    std::string uci;
    std::optional<int> ply;  // the ply the client saw; another one makes the move `stale`
};
enum class Command {
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Abort,
    RematchOffer,
    RematchAccept,
    RematchDecline,
    ClaimVictory,
    ClaimDraw,
    TakebackOffer,
    TakebackAccept,
    TakebackDecline,
    Berserk,
};
struct GameCommand {
    std::string game;
    Command command;
};
struct PoolJoin {
    std::string pool;      // PoolBook::presets() id, e.g. "chess-3+2"
    std::string nickname;  // checked; "Anonymous" by default (an account's name replaces it)
};
struct PoolLeave {};
// The tournament whose standings this socket wants pushed (one at a time);
// unwatch stops them.
struct TournamentWatch {
    std::string tournament;
};
struct TournamentUnwatch {};
// A chat line to a game (the server picks the players' or the spectators'
// room from the seat) or, with an empty game, to the lobby.
struct Chat {
    std::string game;
    std::string text;  // as sent: chat.h checks it
};
// A line of that room reported to the operator.
struct Report {
    std::string game;
    std::uint64_t line = 0;
    std::string reason;
};
// Continuous analysis of a position of the analysis board (analysis_stream.h).
struct Analyse {
    std::string variant = "chess";
    std::string fen;                 // "": the start position
    std::vector<std::string> moves;  // coordinate strings played from fen
    int multipv = 1;                 // 1..3
};
struct AnalyseStop {};
}  // namespace msg

using ClientMessage =
    std::variant<msg::Hello, msg::Ping, msg::LobbySubscribe, msg::LobbyUnsubscribe, msg::Join, msg::Leave, msg::Move,
                 msg::GameCommand, msg::PoolJoin, msg::PoolLeave, msg::Chat, msg::Report, msg::Analyse,
                 msg::AnalyseStop, msg::TournamentWatch, msg::TournamentUnwatch>;

struct ParsedMessage {
    std::optional<ClientMessage> message;  // set when error is not
    std::optional<ApiError> error;
    std::string game;     // the message's `game`, echoed in its error
    std::string id_json;  // the message's `id` (a number or a short string) as JSON text, echoed too
};

// Never throws. `text` is a text frame's payload.
ParsedMessage parse_client_message(std::string_view text);

std::string_view command_name(msg::Command c);

}  // namespace echecs::server

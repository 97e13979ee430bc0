// The messages the server sends over a WebSocket, one struct each (the other
// half of messages.h, lila-ws `ClientIn` style): play/ and api/ fill a struct,
// to_text() writes it. docs/protocol/server-messages.schema.json describes
// the same messages and tests/server/server_messages_test.cpp holds the two
// equal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace echecs::server::out {

// `id_json`: the client message's `id` as JSON text ("" when it had none),
// echoed as is.

struct Pong {
    std::string t_json;  // the client's `t`, as JSON text
    std::int64_t server_time = 0;
};
struct Error {
    std::string code, message, reason;
    std::string field;  // "": null
    nlohmann::json params = nlohmann::json::object();
    std::string game;  // "": omitted
    std::string id_json;
};
struct MySeeks {
    std::vector<std::string> seeks;
};
struct SeekAccepted {
    std::string seek, game, color;
};
// The lists' entries and the changes are the objects of GET /api/lobby
// (play/lobby.cpp keeps them serialisable once for every subscriber).
struct Lobby {
    std::uint64_t seq = 0;
    nlohmann::json seeks = nlohmann::json::array(), games = nlohmann::json::array();
};
struct LobbyDelta {
    std::uint64_t seq = 0;
    nlohmann::json changes = nlohmann::json::array();
};
struct PoolWaiting {
    std::string pool;
    bool rated = false;
    std::optional<int> rating;  // null when anonymous
    int range = 0;
    std::string id_json;
};
struct PoolLeft {
    std::optional<std::string> pool;  // null when it left before its account was known
};
struct PoolPaired {
    std::string pool, game, color;
};
// A tournament paired this player: their game and colour.
struct TournamentPaired {
    std::string tournament, game, color;
    int round = 0;  // a Swiss round; 0 in an arena (not sent)
};
// The standings of a watched tournament (its view, as GET /api/tournaments/:id).
struct TournamentView {
    nlohmann::json tournament;
};
struct ChatLine {
    std::uint64_t id = 0;
    std::string author;
    bool account = false;
    std::string seat;  // "white", "black" or ""
    std::string text;
    std::int64_t at = 0;
};
struct Chat {
    std::string room;
    std::string game;  // "": omitted (the lobby)
    ChatLine line;
};
struct ChatHistory {
    std::string room;
    std::string game;  // "": omitted
    bool enabled = true;
    std::size_t max_chars = 0;
    std::vector<ChatLine> lines;
};
struct Reported {
    std::string game;  // "": omitted
    std::uint64_t line = 0;
    std::string id_json;
};
struct AnalysisLine {
    int multipv = 1;
    std::optional<int> cp, mate;  // White's side
    int win = 0, draw = 0, loss = 0;
    int depth = 0;
    std::vector<std::string> moves, san;
};
struct Analysis {
    int depth = 0;
    std::uint64_t nodes = 0, nps = 0;
    std::int64_t time_ms = 0;
    bool final = false;
    std::vector<AnalysisLine> lines;
    std::string id_json;
};
// `body`: the object of GET /api/games/<id>/review (status, done, total,
// review or error), which the message extends with `game`.
struct Review {
    std::string game;
    nlohmann::json body = nlohmann::json::object();
};
struct YourTurnGame {
    std::string game, variant, time_kind, color, opponent;
    int ply = 0;
    std::string fen;
    std::int64_t since = 0;
    std::optional<std::int64_t> deadline;      // null without a clock
    std::optional<std::int64_t> remaining_ms;  // real-time games only, else omitted
};
struct YourTurn {
    std::vector<YourTurnGame> games;
};

// `state`, on every move of every game: written by hand (docs/PERFORMANCE.md),
// in two parts, the text all watchers share, then each one's with its seat
// and the lists LiveGame keeps serialised. Colours as names, "" for null.
struct StatePlayer {
    std::string name;
    bool computer = false;
    std::optional<int> level;
    bool connected = false, account = false;
    std::optional<int> rating;
    bool provisional = false;
    bool berserk = false;
};
struct StateClock {
    std::int64_t white = 0, black = 0;
    std::string running;
    std::int64_t server_time = 0;
    std::optional<std::int64_t> first_move_deadline;
};
struct StateClaim {
    std::string by;
    std::int64_t available_at = 0;
};
// Takebacks in a game where they exist: the open offer's author ("" for
// none) and whether each seat may propose one now.
struct StateTakeback {
    std::string offer;
    bool white = false, black = false;
};
struct State {
    std::string game, variant;
    nlohmann::json time;  // time_json()
    std::string initial_fen, fen;
    int ply = 0;
    std::string turn;
    bool check = false;
    std::optional<StateClock> clock;  // null without a clock
    std::string status, result, termination, winner;
    StatePlayer white, black;
    std::string draw_offer, rematch_offer, rematch_game;
    bool can_abort = false;
    std::optional<StateTakeback> takeback;  // null: no takeback in this game
    std::optional<StateClaim> claim;
    std::int64_t created_at = 0;
    std::optional<std::int64_t> ended_at;
    std::string tournament;  // "": none
    bool rated = false;
    std::string speed;
    std::optional<int> white_rating_diff, black_rating_diff;  // neither: null
};
// The part every watcher shares.
std::string state_base_text(const State& m);
// One watcher's message: `base` with its seat ("" for a spectator) and the
// move list, legal moves and their SAN as JSON array contents (no brackets).
std::string state_text(const std::string& base, std::string_view you, const std::string& moves,
                       const std::string& legal, const std::string& legal_san);

// The JSON text of each message (never throws; valid UTF-8).
std::string to_text(const Pong& m);
std::string to_text(const Error& m);
std::string to_text(const MySeeks& m);
std::string to_text(const SeekAccepted& m);
std::string to_text(const Lobby& m);
std::string to_text(const LobbyDelta& m);
std::string to_text(const PoolWaiting& m);
std::string to_text(const PoolLeft& m);
std::string to_text(const PoolPaired& m);
std::string to_text(const TournamentPaired& m);
std::string to_text(const TournamentView& m);
std::string to_text(const Chat& m);
std::string to_text(const ChatHistory& m);
std::string to_text(const Reported& m);
std::string to_text(const Analysis& m);
std::string to_text(const Review& m);
std::string to_text(const YourTurn& m);

// The pieces shared with the HTTP routes (GET /api/your-turn, the chat lines).
nlohmann::json to_json(const ChatLine& l);
nlohmann::json to_json(const YourTurnGame& g);

}  // namespace echecs::server::out

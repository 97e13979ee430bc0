// Chat: the text rules of a line, the bounded logs of the rooms (a game's
// players and its spectators, the lobby), the rate limits per connection and
// per client address, and the messages sent to clients. The game room
// (game_room.cpp) and the dispatcher (ws_dispatch.cpp) call this; the lines of
// a game are stored with it (AddChat), the lobby's live in memory only.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/api/errors.h"
#include "server/app/options.h"
#include "server/net/limits.h"
#include "server/net/peer.h"
#include "server/storage/storage.h"

namespace echecs::server {

enum class ChatRoom { Players, Spectators, Lobby };
std::string_view chat_room_name(ChatRoom r);

struct ChatLine {
    std::uint64_t id = 0;  // increasing within the room while it is in memory (reports name it)
    std::string author;
    std::string seat;        // white | black | ""
    std::string author_key;  // never sent: who wrote it, for reports
    std::string text;
    std::int64_t at = 0;
};

// The last `capacity` lines of one room.
class ChatLog {
public:
    explicit ChatLog(std::size_t capacity) : capacity_(capacity) {}
    const ChatLine& add(ChatLine line);  // assigns the id
    const ChatLine* find(std::uint64_t id) const;
    const std::deque<ChatLine>& lines() const { return lines_; }

private:
    std::size_t capacity_;
    std::uint64_t next_id_ = 1;
    std::deque<ChatLine> lines_;
};

// The two rooms of a game.
struct GameChat {
    explicit GameChat(std::size_t capacity) : players(capacity), spectators(capacity) {}
    ChatLog& log(ChatRoom r) { return r == ChatRoom::Players ? players : spectators; }
    const ChatLog& log(ChatRoom r) const { return r == ChatRoom::Players ? players : spectators; }
    void restore(const std::vector<ChatRecord>& stored);  // oldest first, as load_chat gives them
    ChatLog players, spectators;
};

// The line as sent: trimmed, valid UTF-8, 1..max_chars code points, no
// control or bidirectional-override characters. Throws ApiError (bad_message
// with reason text_empty, text_too_long, text_invalid_utf8 or
// text_control_character) naming `field`.
std::string clean_chat_text(std::string_view raw, std::size_t max_chars, const char* field = "text",
                            bool allow_empty = false);

// Who a peer is in chat without its secret: "a:" and the account id when
// logged in, else "t:" and a hash of its token, or "ip:" and its address
// before hello.
std::string person_key(const Peer& p);
std::string account_key(std::int64_t account);
// Whether a line's author is an account (its key), sent as `account`.
bool is_account_key(std::string_view key);
// A peer's name in chat: its account's name when logged in, else
// "Guest-" and 6 characters of a hash of its token. Account names never
// start with "guest-" (refused at sign-up), so a guest never passes for an
// account.
std::string guest_name(const Peer& p);

// Server messages.
std::string chat_line_text(ChatRoom r, const std::string& game, const ChatLine& line);
std::string chat_history_text(ChatRoom r, const std::string& game, const ChatLog* log, const ServerOptions& opt);
std::string reported_text(const std::string& game, std::uint64_t line, const std::string& id_json);
ChatRecord chat_record(ChatRoom r, const std::string& game, const ChatLine& line);

// Shared state: the lobby's log and the per-address buckets.
class ChatService {
public:
    explicit ChatService(const ServerOptions& opt) : opt_(opt), lobby_(opt.chat_history) {}
    bool enabled() const { return opt_.chat; }
    // Throws ApiError: chat_disabled, chat_needs_hello, chat_rate_limited.
    void admit_line(Peer& p, std::int64_t now);
    void admit_report(Peer& p, std::int64_t now);
    ChatLog& lobby() { return lobby_; }
    // Forgets the addresses whose buckets are full again.
    void sweep(std::int64_t now);
    std::size_t addresses() const { return by_ip_.size(); }

private:
    struct Buckets {
        TokenBucket lines, reports;
    };
    Buckets& of_ip(const std::string& ip, std::int64_t now);

    const ServerOptions& opt_;
    ChatLog lobby_;
    std::unordered_map<std::string, Buckets> by_ip_;
};

}  // namespace echecs::server

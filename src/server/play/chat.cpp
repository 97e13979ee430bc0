#include "server/play/chat.h"

#include <nlohmann/json.hpp>

#include "core/utf8.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

ApiError bad_text(Reason reason, std::string message, const char* field, json params = json::object()) {
    return ApiError(Code::bad_message, reason, std::move(message), field, std::move(params));
}

// Control characters, and those that reorder or hide the text around them
// (a line that renders backwards or spills into the next name).
bool refused(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
           (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB);
}

bool is_space(char32_t c) { return c == ' ' || c == 0xA0 || c == 0x3000 || (c >= 0x2000 && c <= 0x200A); }

out::ChatLine line_out(const ChatLine& l) {
    return {l.id, l.author, is_account_key(l.author_key), l.seat, l.text, l.at};
}

}  // namespace

std::string_view chat_room_name(ChatRoom r) {
    switch (r) {
        case ChatRoom::Players: return "players";
        case ChatRoom::Spectators: return "spectators";
        case ChatRoom::Lobby: return "lobby";
    }
    return "";
}

const ChatLine& ChatLog::add(ChatLine line) {
    line.id = next_id_++;
    if (capacity_ == 0) capacity_ = 1;
    while (lines_.size() >= capacity_) lines_.pop_front();
    lines_.push_back(std::move(line));
    return lines_.back();
}

const ChatLine* ChatLog::find(std::uint64_t id) const {
    for (const ChatLine& l : lines_)
        if (l.id == id) return &l;
    return nullptr;
}

void GameChat::restore(const std::vector<ChatRecord>& stored) {
    for (const ChatRecord& r : stored)
        log(r.room == "players" ? ChatRoom::Players : ChatRoom::Spectators)
            .add(ChatLine{0, r.author, r.seat, r.author_key, r.text, r.at});
}

namespace {

// The generic combining diacritical marks (U+0300-036F and their extensions):
// stacked by the hundred, they draw over the lines around ("Zalgo" text).
bool combining_mark(char32_t c) {
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
           (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}
constexpr int MAX_COMBINING_RUN = 4;  // more than any language writes on one letter

}  // namespace

std::string clean_chat_text(std::string_view raw, std::size_t max_chars, const char* field, bool allow_empty) {
    // Decoded once; the trimmed range is kept as byte offsets.
    std::size_t first = std::string_view::npos, last = 0, count = 0;
    int run = 0;
    for (std::size_t i = 0; i < raw.size();) {
        const std::size_t at = i;
        const char32_t c = utf8_decode(raw, i);
        if (i == at)
            throw bad_text(Reason::text_invalid_utf8, std::string("field '") + field + "' is not valid UTF-8", field,
                           {{"byte", at}});
        if (refused(c))
            throw bad_text(Reason::text_control_character,
                           std::string("field '") + field + "' holds a control or formatting character", field,
                           {{"at", count}});
        run = combining_mark(c) ? run + 1 : 0;
        if (run > MAX_COMBINING_RUN)
            throw bad_text(Reason::text_combining_marks,
                           std::string("field '") + field + "' stacks more than " + std::to_string(MAX_COMBINING_RUN) +
                               " combining marks",
                           field, {{"at", count}});
        ++count;
        if (!is_space(c)) {
            if (first == std::string_view::npos) first = at;
            last = i;
        }
    }
    if (first == std::string_view::npos) {
        if (allow_empty) return "";
        throw bad_text(Reason::text_empty, std::string("field '") + field + "' is empty", field);
    }
    // Code points from the first to the last non-space one.
    std::size_t chars = 0;
    for (std::size_t i = first; i < last; ++chars) utf8_decode(raw, i);
    if (chars > max_chars)
        throw bad_text(Reason::text_too_long,
                       std::string("field '") + field + "' is over " + std::to_string(max_chars) + " characters", field,
                       {{"max", max_chars}});
    return std::string(raw.substr(first, last - first));
}

std::string account_key(std::int64_t account) { return "a:" + std::to_string(account); }

bool is_account_key(std::string_view key) { return key.starts_with("a:"); }

std::string person_key(const Peer& p) {
    if (p.account) return account_key(p.account);
    if (p.token.empty()) return "ip:" + p.ip();
    return "t:" + p.token.substr(0, 32);  // the token's hash (token_key)
}

std::string guest_name(const Peer& p) {
    if (p.account && !p.account_name.empty()) return p.account_name;
    if (p.token.empty()) return "Guest";
    return "Guest-" + p.token.substr(0, 6);
}

std::string chat_line_text(ChatRoom r, const std::string& game, const ChatLine& line) {
    return out::to_text(out::Chat{std::string(chat_room_name(r)), game, line_out(line)});
}

std::string chat_history_text(ChatRoom r, const std::string& game, const ChatLog* log, const ServerOptions& opt) {
    out::ChatHistory m{std::string(chat_room_name(r)), game, opt.chat, opt.chat_max_chars, {}};
    if (log && opt.chat)
        for (const ChatLine& l : log->lines()) m.lines.push_back(line_out(l));
    return out::to_text(m);
}

std::string reported_text(const std::string& game, std::uint64_t line, const std::string& id_json) {
    return out::to_text(out::Reported{game, line, id_json});
}

ChatRecord chat_record(ChatRoom r, const std::string& game, const ChatLine& line) {
    return ChatRecord{game,   std::string(chat_room_name(r)), line.author, line.seat, line.author_key, line.text,
                      line.at};
}

ChatService::Buckets& ChatService::of_ip(const std::string& ip, std::int64_t now) {
    auto it = by_ip_.find(ip);
    if (it == by_ip_.end())
        it = by_ip_
                 .emplace(ip, Buckets{TokenBucket(opt_.chat_rate_per_second, opt_.chat_burst, now),
                                      TokenBucket(opt_.report_rate_per_second, opt_.report_burst, now)})
                 .first;
    return it->second;
}

void ChatService::admit_line(Peer& p, std::int64_t now) {
    if (!opt_.chat) throw ApiError(Reason::chat_disabled, "chat is turned off on this server");
    if (p.token.empty()) throw ApiError(Reason::chat_needs_hello, "say hello (with a token) before chatting");
    if (!p.chat_lines) p.chat_lines.emplace(opt_.chat_rate_per_second, opt_.chat_burst, now);
    const json params{{"per_second", opt_.chat_rate_per_second}, {"burst", opt_.chat_burst}};
    if (!p.chat_lines->take(now) || !of_ip(p.ip(), now).lines.take(now))
        throw ApiError(Reason::chat_rate_limited, "too many chat lines: slow down", "", params);
}

void ChatService::admit_report(Peer& p, std::int64_t now) {
    if (!opt_.chat) throw ApiError(Reason::chat_disabled, "chat is turned off on this server");
    if (!p.chat_reports) p.chat_reports.emplace(opt_.report_rate_per_second, opt_.report_burst, now);
    if (!p.chat_reports->take(now) || !of_ip(p.ip(), now).reports.take(now))
        throw ApiError(Reason::report_rate_limited, "too many reports: slow down", "",
                       {{"per_second", opt_.report_rate_per_second}, {"burst", opt_.report_burst}});
}

void ChatService::sweep(std::int64_t now) {
    for (auto it = by_ip_.begin(); it != by_ip_.end();)
        if (it->second.lines.full(now) && it->second.reports.full(now))
            it = by_ip_.erase(it);
        else
            ++it;
}

}  // namespace echecs::server

// The chat of a game room: the players' room (the seats' tokens) and the
// spectators' room (everybody else); each sees only its own. A line is sent
// at once and stored with the game (written on its own, outside the room's
// busy state, so that a move never waits for chat).
#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/protocol/text.h"

namespace echecs::server {

ChatRoom GameRoom::chat_room_of(const Peer& p) const {
    return game_->seats_of(p.token).empty() ? ChatRoom::Spectators : ChatRoom::Players;
}

void GameRoom::send_chat_history(Peer& p) const {
    const ChatRoom r = chat_room_of(p);
    p.send(chat_history_text(r, id_, &chat_.log(r), hub_.options()));
}

void GameRoom::chat(const PeerPtr& p, std::string text, const std::string& id_json) {
    if (!watchers_.count(p->id()))
        return reply_error(p, ApiError(Reason::chat_not_joined, "join game " + id_ + " before chatting in it"),
                           id_json);
    const ChatRoom r = chat_room_of(*p);
    const std::int64_t now = now_ms();
    touch(now);
    // A person's name is the same in every room: the account's, or the
    // guest name (never an anonymous player's nickname, which could pass for
    // an account's). A seat taken by an account keeps that account's name.
    std::string author = guest_name(*p), seat, key = person_key(*p);
    if (r == ChatRoom::Players) {
        const std::vector<Color> seats = game_->seats_of(p->token);
        const Color c = seats.size() == 1 ? seats[0] : game_->turn();
        if (const Seat& s = game_->seat(c); s.account) {
            author = s.name;
            key = account_key(s.account);
        }
        seat = std::string(color_name(c));
    }
    const ChatLine& line =
        chat_.log(r).add(ChatLine{0, std::move(author), std::move(seat), std::move(key), std::move(text), now});
    std::vector<WriteOp> ops;
    ops.emplace_back(AddChat{chat_record(r, id_, line)});
    hub_.storage().write(std::move(ops), [&hub = hub_, id = id_](bool ok, const std::string& err) {
        if (!ok) hub.log("game " + id + ": chat line not stored: " + err);
    });
    auto shared = std::make_shared<const std::string>(chat_line_text(r, id_, line));
    for (auto& [pid, w] : watchers_)
        if (PeerPtr peer = w.peer.lock(); peer && chat_room_of(*peer) == r) peer->send(shared);
}

void GameRoom::report(const PeerPtr& p, const msg::Report& rep, std::string reason, const std::string& id_json) {
    const ChatRoom r = chat_room_of(*p);
    const ChatLine* line = chat_.log(r).find(rep.line);
    if (!line)
        return reply_error(p,
                           ApiError(Reason::chat_line_not_found,
                                    "no line " + std::to_string(rep.line) + " in this room's recent chat", "line"),
                           id_json);
    std::vector<WriteOp> ops;
    ops.emplace_back(AddReport{ReportRecord{id_, std::string(chat_room_name(r)), person_key(*p), line->author,
                                            line->author_key, line->text, std::move(reason), now_ms()}});
    hub_.storage().write(std::move(ops), [weak = std::weak_ptr<Peer>(p), line_id = rep.line, id = id_, id_json](
                                             bool ok, const std::string& err) {
        PeerPtr peer = weak.lock();
        if (!peer) return;
        if (ok)
            peer->send(reported_text(id, line_id, id_json));
        else
            peer->send(
                ws_error_text(ApiError(Reason::storage_failed, "the report was not stored: " + err), id, id_json));
    });
}

}  // namespace echecs::server

// The WebSocket messages of a peer, parsed once (messages.h) and handed to
// the hub (hello, ping, lobby) or to the game's room (everything else).
#include <boost/asio/post.hpp>

#include "server/analysis_stream.h"
#include "server/game_room.h"
#include "server/hub.h"
#include "server/messages.h"
#include "server/text.h"
#include "server/util.h"

namespace echecs::server {

namespace {
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

void send_error(Peer& p, const ApiError& e, const std::string& game, const std::string& id_json) {
    p.send(ws_error_text(e, game, id_json));
}
}  // namespace

void Hub::on_message(const PeerPtr& p, std::string_view text, bool binary, bool oversized) {
    const std::int64_t now = now_ms();
    if (!p->messages.take(now)) {
        if (++p->violations > 200) return p->close_later("flood");
        if (p->violations % 10 == 1)
            send_error(*p,
                       ApiError("rate_limited", "rate_limited", "too many messages: slow down", "",
                                {{"per_second", opt_.rate_per_second}}),
                       "", "");
        return;
    }
    if (binary)
        return send_error(*p, ApiError("bad_message", "message_binary", "binary messages are not accepted"), "", "");
    if (oversized || text.size() > opt_.max_message)
        return send_error(
            *p,
            ApiError("too_large", "message_too_large", "message over " + std::to_string(opt_.max_message) + " bytes",
                     "", {{"max", opt_.max_message}}),
            "", "");
    ParsedMessage m = parse_client_message(text);
    if (m.error) return send_error(*p, *m.error, m.game, m.id_json);
    const std::string id_json = m.id_json;

    // A room's answer may come later (after a write or a load): guarded too.
    auto in_room = [this, weak = std::weak_ptr<Peer>(p), id_json](const std::string& game, auto action) {
        with_room(game, [this, weak, game, id_json, action](GameRoom* room) mutable {
            PeerPtr peer = weak.lock();
            if (!peer) return;
            try {
                if (!room) {
                    if (find_room(game))
                        throw ApiError("unavailable", "room_busy", "too many actions are waiting in game " + game);
                    throw ApiError("not_found", "game_not_found", "no game " + ascii_excerpt(game, 16));
                }
                action(peer, *room);
            } catch (const ApiError& e) {
                send_error(*peer, e, ascii_excerpt(game, 16), id_json);
            } catch (const std::exception& e) {
                send_error(*peer, internal_error(e), ascii_excerpt(game, 16), id_json);
            }
        });
    };

    try {
        std::visit(
            Overloaded{
                [&](const msg::Hello& h) {
                    if (!p->token.empty()) {
                        if (p->token != h.token)
                            throw ApiError("bad_message", "hello_token_changed",
                                           "this socket already said hello with another token", "token");
                        p->send(seeks_.my_seeks_text(h.token));
                        return;
                    }
                    p->token = h.token;
                    auto& mine = peers_by_token_[h.token];
                    mine.insert(p->id());
                    if (mine.size() == 1) seeks_.owner_present(h.token);
                    p->send(seeks_.my_seeks_text(h.token));
                    for (const std::string& gid : p->watching)
                        in_room(gid, [](const PeerPtr& peer, GameRoom& room) { room.peer_hello(peer); });
                },
                [&](const msg::Ping& ping) {
                    p->send("{\"type\":\"pong\",\"t\":" + ping.t_json + ",\"server_time\":" + std::to_string(now) +
                            "}");
                },
                [&](const msg::LobbySubscribe&) { lobby_.subscribe(p); },
                [&](const msg::LobbyUnsubscribe&) {
                    lobby_.unsubscribe(p->id());
                    p->lobby = false;
                },
                [&](const msg::Join& j) {
                    if (!p->watching.count(j.game) && int(p->watching.size()) >= opt_.max_watched)
                        throw ApiError("bad_message", "too_many_watched",
                                       "a socket may watch at most " + std::to_string(opt_.max_watched) + " games",
                                       "game", {{"max", opt_.max_watched}});
                    in_room(j.game, [](const PeerPtr& peer, GameRoom& room) { room.join(peer); });
                },
                [&](const msg::Leave& l) {
                    p->watching.erase(l.game);
                    if (GameRoom* room = find_room(l.game)) room->leave(*p);
                },
                [&](const msg::Move& mv) {
                    in_room(mv.game,
                            [mv, id_json](const PeerPtr& peer, GameRoom& room) { room.handle(peer, mv, id_json); });
                },
                [&](const msg::GameCommand& c) {
                    in_room(c.game,
                            [c, id_json](const PeerPtr& peer, GameRoom& room) { room.handle(peer, c, id_json); });
                },
                [&](const msg::Analyse& a) { streams_->start(p, a, id_json); },
                [&](const msg::AnalyseStop&) { streams_->stop(*p); },
            },
            *m.message);
    } catch (const ApiError& e) {
        send_error(*p, e, m.game, id_json);
    } catch (const std::exception& e) {
        send_error(*p, internal_error(e), m.game, id_json);
    }
}

}  // namespace echecs::server

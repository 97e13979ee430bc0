// The WebSocket messages of a peer, parsed once (messages.h) and handed to
// the hub (hello, ping, lobby) or to the game's room (everything else).
#include <boost/asio/post.hpp>

#include "server/app/util.h"
#include "server/cluster/cluster.h"
#include "server/play/analysis_stream.h"
#include "server/play/chat.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/pools.h"
#include "server/play/tournaments.h"
#include "server/protocol/messages.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

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
    if (!p->remote() && !p->messages.take(now)) {  // a stand-in's front took it
        if (++p->violations > 200) return p->close_later("flood");
        if (p->violations % 10 == 1)
            send_error(*p,
                       ApiError(Reason::rate_limited, "too many messages: slow down", "",
                                {{"per_second", opt_.rate_per_second}}),
                       "", "");
        return;
    }
    if (binary) return send_error(*p, ApiError(Reason::message_binary, "binary messages are not accepted"), "", "");
    if (oversized || text.size() > opt_.max_message)
        return send_error(
            *p,
            ApiError(Reason::message_too_large, "message over " + std::to_string(opt_.max_message) + " bytes", "",
                     {{"max", opt_.max_message}}),
            "", "");
    ParsedMessage m = parse_client_message(text);
    if (m.error) return send_error(*p, *m.error, m.game, m.id_json);
    const std::string id_json = m.id_json;
    // Several nodes (docs/CLUSTER.md): a socket's message for a game or for
    // the lobby that another node runs goes there, as it came.
    Cluster* const cluster = p->remote() ? nullptr : cluster_.get();
    auto elsewhere = [&](const std::string& game) { return cluster && cluster->to_game_node(p, game, text); };
    auto at_leader = [&] { return cluster && cluster->to_leader(p, text); };

    // A room's answer may come later (after a write or a load): guarded too.
    auto in_room = [this, weak = std::weak_ptr<Peer>(p), id_json, text = std::string(cluster_ ? text : "")](
                       const std::string& game, auto action) {
        with_room(game, [this, weak, game, id_json, action, text](GameRoom* room) mutable {
            PeerPtr peer = weak.lock();
            if (!peer) return;
            try {
                if (!room && cluster_ && cluster_->redirect(peer, game, text)) return;  // another node runs it
                if (!room) {
                    if (find_room(game))
                        throw ApiError(Reason::room_busy, "too many actions are waiting in game " + game);
                    throw ApiError(Reason::game_not_found, "no game " + ascii_excerpt(game, 16));
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
                    const std::string key = token_key(h.token);
                    if (!p->token.empty()) {
                        if (p->token != key)
                            throw ApiError(Reason::hello_token_changed,
                                           "this socket already said hello with another token", "token");
                        if (cluster && !cluster->leader()) return void(at_leader());
                        p->send(seeks_.my_seeks_text(key));
                        return;
                    }
                    if (cluster) {  // the lobby's node hears it too (seeks, pools), whatever happens here
                        try {
                            cluster->to_leader(p, text);
                        } catch (const ApiError&) {
                            // told again when the lobby's node is known (Cluster::on_leader)
                        }
                    }
                    p->token = key;
                    p->token_secret = h.token;
                    auto& mine = peers_by_token_[key];
                    mine.insert(p->id());
                    if (mine.size() == 1) seeks_.owner_present(key);
                    push_your_turn_to(*this, *p);  // before my_seeks, which clients wait for after hello
                    resolve_peer_account(*this, p);
                    if (!cluster || cluster->leader()) p->send(seeks_.my_seeks_text(key));  // else the lobby's node
                    for (const std::string& gid : p->watching)
                        in_room(gid, [](const PeerPtr& peer, GameRoom& room) { room.peer_hello(peer); });
                },
                [&](const msg::Ping& ping) {
                    p->send(out::to_text(out::Pong{ping.t_json, now}));
                },
                [&](const msg::LobbySubscribe&) {
                    if (at_leader()) return void(p->lobby = true);
                    lobby_.subscribe(p);
                    p->send(chat_history_text(ChatRoom::Lobby, "", &chat_.lobby(), opt_));
                },
                [&](const msg::LobbyUnsubscribe&) {
                    if (at_leader()) {
                        cluster->keep(*p, Cluster::Kept::Pool, "");
                        return void(p->lobby = false);
                    }
                    lobby_.unsubscribe(p->id());
                    p->lobby = false;
                    pools_->leave(*p, true);  // leaving the lobby leaves the pool
                },
                [&](const msg::PoolJoin& j) {
                    if (at_leader()) return cluster->keep(*p, Cluster::Kept::Pool, text);
                    pools_->join(p, j.pool, j.nickname, id_json);
                },
                [&](const msg::PoolLeave&) {
                    if (at_leader()) return cluster->keep(*p, Cluster::Kept::Pool, "");
                    pools_->leave(*p, true);
                },
                [&](const msg::TournamentWatch& w) {
                    if (at_leader()) return cluster->keep(*p, Cluster::Kept::Tournament, text);
                    tournaments_->watch(p, w.tournament);
                },
                [&](const msg::TournamentUnwatch&) {
                    if (at_leader()) return cluster->keep(*p, Cluster::Kept::Tournament, "");
                    tournaments_->unwatch(*p);
                },
                [&](const msg::Join& j) {
                    if (!p->watching.count(j.game) && int(p->watching.size()) >= opt_.max_watched)
                        throw ApiError(Reason::too_many_watched,
                                       "a socket may watch at most " + std::to_string(opt_.max_watched) + " games",
                                       "game", {{"max", opt_.max_watched}});
                    // At once on a node of several: its room may be or become another
                    // node's, and the socket joins it there again when it moves.
                    if (cluster) p->watching.insert(j.game);
                    if (elsewhere(j.game)) return;
                    in_room(j.game, [](const PeerPtr& peer, GameRoom& room) { room.join(peer); });
                },
                [&](const msg::Leave& l) {
                    p->watching.erase(l.game);
                    if (elsewhere(l.game)) return;
                    if (GameRoom* room = find_room(l.game)) room->leave(*p);
                },
                [&](const msg::Move& mv) {
                    if (elsewhere(mv.game)) return;
                    in_room(mv.game,
                            [mv, id_json](const PeerPtr& peer, GameRoom& room) { room.handle(peer, mv, id_json); });
                },
                [&](const msg::GameCommand& c) {
                    if (elsewhere(c.game)) return;
                    in_room(c.game,
                            [c, id_json](const PeerPtr& peer, GameRoom& room) { room.handle(peer, c, id_json); });
                },
                [&](const msg::Chat& c) {
                    if (!opt_.chat) throw ApiError(Reason::chat_disabled, "chat is turned off on this server");
                    std::string text = clean_chat_text(c.text, opt_.chat_max_chars);
                    if (!c.game.empty() && !p->watching.count(c.game))
                        throw ApiError(Reason::chat_not_joined, "join the game before chatting in it", "game");
                    if (c.game.empty() && !p->lobby)
                        throw ApiError(Reason::chat_not_joined, "subscribe to the lobby before chatting in it");
                    chat_.admit_line(*p, now);  // before any queue: a flood never reaches a room
                    if (c.game.empty() ? at_leader() : elsewhere(c.game)) return;
                    if (c.game.empty()) {
                        const ChatLine& line =
                            chat_.lobby().add(ChatLine{0, guest_name(*p), "", person_key(*p), std::move(text), now});
                        lobby_.send_all(std::make_shared<const std::string>(chat_line_text(ChatRoom::Lobby, "", line)));
                        return;
                    }
                    in_room(c.game, [text = std::move(text), id_json](const PeerPtr& peer, GameRoom& room) mutable {
                        room.chat(peer, std::move(text), id_json);
                    });
                },
                [&](const msg::Report& r) {
                    if (!opt_.chat) throw ApiError(Reason::chat_disabled, "chat is turned off on this server");
                    std::string reason = clean_chat_text(r.reason, opt_.chat_max_chars, "reason", true);
                    chat_.admit_report(*p, now);
                    if (r.game.empty() ? at_leader() : elsewhere(r.game)) return;
                    if (!r.game.empty())
                        return in_room(r.game, [r, reason = std::move(reason), id_json](const PeerPtr& peer,
                                                                                        GameRoom& room) mutable {
                            room.report(peer, r, std::move(reason), id_json);
                        });
                    const ChatLine* line = chat_.lobby().find(r.line);
                    if (!line)
                        throw ApiError(Reason::chat_line_not_found,
                                       "no line " + std::to_string(r.line) + " in the lobby's recent chat", "line");
                    std::vector<WriteOp> ops;
                    ops.emplace_back(AddReport{ReportRecord{"", "lobby", person_key(*p), line->author, line->author_key,
                                                            line->text, std::move(reason), now}});
                    storage_->write(std::move(ops), [weak = std::weak_ptr<Peer>(p), line_id = r.line, id_json](
                                                        bool ok, const std::string& err) {
                        if (PeerPtr peer = weak.lock())
                            peer->send(ok ? reported_text("", line_id, id_json)
                                          : ws_error_text(
                                                ApiError(Reason::storage_failed, "the report was not stored: " + err),
                                                "", id_json));
                    });
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

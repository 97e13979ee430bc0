#include "server/play/your_turn.h"

#include <algorithm>
#include <map>

#include "server/accounts/account_service.h"
#include "server/app/util.h"
#include "server/cluster/cluster.h"
#include "server/play/chat.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"
#include "server/play/seat_accounts.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

// Whether the seat is this person's: the same browser, or the same account.
bool is_theirs(const Seat& s, const std::string& token, std::int64_t account) {
    return (!token.empty() && s.token == token) || (account && s.account == account);
}

}  // namespace

void TurnIndex::add_key(const std::string& key, const std::string& game) { by_key_[key].insert(game); }

void TurnIndex::remove_key(const std::string& key, const std::string& game) {
    auto it = by_key_.find(key);
    if (it == by_key_.end()) return;
    it->second.erase(game);
    if (it->second.empty()) by_key_.erase(it);
}

void TurnIndex::add(const Seat& seat, const std::string& game) {
    if (!seat.token.empty()) add_key(seat.token, game);
    if (seat.account) add_key(account_key(seat.account), game);
}

void TurnIndex::remove(const Seat& seat, const std::string& game) {
    if (!seat.token.empty()) remove_key(seat.token, game);
    if (seat.account) remove_key(account_key(seat.account), game);
}

const std::set<std::string>& TurnIndex::games_of(const std::string& token) const {
    static const std::set<std::string> none;
    // Tokens never start with "a:" (they are checked: letters, digits, - and _).
    auto it = by_key_.find(token);
    return it == by_key_.end() ? none : it->second;
}

const std::set<std::string>& TurnIndex::games_of_account(std::int64_t account) const {
    static const std::set<std::string> none;
    if (!account) return none;
    auto it = by_key_.find(account_key(account));
    return it == by_key_.end() ? none : it->second;
}

void TurnIndex::set_remote(const std::string& game, std::optional<RemoteTurn> t) {
    if (auto it = remote_.find(game); it != remote_.end()) {
        remove(it->second.white, game);
        remove(it->second.black, game);
        remote_.erase(it);
    }
    if (!t) return;
    add(t->white, game);
    add(t->black, game);
    remote_.emplace(game, std::move(*t));
}

const TurnIndex::RemoteTurn* TurnIndex::remote(const std::string& game) const {
    auto it = remote_.find(game);
    return it == remote_.end() ? nullptr : &it->second;
}

void TurnIndex::bind_peer(const PeerPtr& p) {
    if (p->account) peers_[p->account][p->id()] = p;
}

void TurnIndex::unbind_peer(const Peer& p) {
    if (!p.account) return;
    auto it = peers_.find(p.account);
    if (it == peers_.end()) return;
    it->second.erase(p.id());
    if (it->second.empty()) peers_.erase(it);
}

std::vector<PeerPtr> TurnIndex::peers_of_account(std::int64_t account) const {
    std::vector<PeerPtr> out;
    auto it = peers_.find(account);
    if (it == peers_.end()) return out;
    for (const auto& [id, weak] : it->second)
        if (PeerPtr p = weak.lock()) out.push_back(std::move(p));
    return out;
}

std::optional<out::YourTurnGame> turn_entry(const LiveGame& g, std::int64_t now) {
    if (!g.live()) return std::nullopt;
    const GameRecord& r = g.record();
    const Color you = g.turn();
    const Seat& opp = g.seat(~you);
    out::YourTurnGame e{r.id,
                        std::string(variant_name(r.variant)),
                        std::string(time_kind_name(r.time.kind)),
                        std::string(color_name(you)),
                        opp.computer() ? "Computer" : opp.name,
                        g.ply(),
                        r.fen,
                        g.last_activity(),
                        g.next_deadline(),
                        std::nullopt};
    if (r.time.kind == TimeControl::Realtime) e.remaining_ms = g.remaining(you, now);
    return e;
}

out::YourTurn your_turn(Hub& hub, const std::string& token, std::int64_t account) {
    struct Entry {
        std::int64_t key;  // the deadline, or the last move for games without one
        out::YourTurnGame value;
    };
    std::set<std::string> ids = hub.turns().games_of(token);
    const std::set<std::string>& of_account = hub.turns().games_of_account(account);
    ids.insert(of_account.begin(), of_account.end());
    std::vector<Entry> entries;
    const std::int64_t now = now_ms();
    for (const std::string& id : ids) {
        std::optional<out::YourTurnGame> e;
        if (GameRoom* room = hub.find_room(id)) {
            const LiveGame& g = room->game();
            if (g.live() && is_theirs(g.seat(g.turn()), token, account)) e = turn_entry(g, now);
        } else if (const TurnIndex::RemoteTurn* t = hub.turns().remote(id)) {  // another node's game
            if (t->entry && is_theirs(t->mover, token, account)) e = t->entry;
        }
        if (!e) continue;
        // Real-time and correspondence games by deadline, then unlimited ones
        // by their last move (the oldest waits longest).
        const std::int64_t key = e->deadline ? *e->deadline : (std::int64_t(1) << 62) + e->since;
        entries.push_back({key, std::move(*e)});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    out::YourTurn list;
    for (Entry& e : entries) list.games.push_back(std::move(e.value));
    return list;
}

json your_turn_json(Hub& hub, const std::string& token, std::int64_t account) {
    json games = json::array();
    for (const out::YourTurnGame& g : your_turn(hub, token, account).games) games.push_back(out::to_json(g));
    return {{"games", std::move(games)}};
}

void push_your_turn(Hub& hub, const Seat& seat) {
    if (seat.token.empty() && !seat.account) return;
    std::vector<PeerPtr> peers = seat.token.empty() ? std::vector<PeerPtr>{} : hub.peers_of(seat.token);
    if (seat.account)
        for (PeerPtr& p : hub.turns().peers_of_account(seat.account))
            if (p->token != seat.token) peers.push_back(std::move(p));
    // One text per person (token and account): a person's sockets share it.
    std::map<std::pair<std::string, std::int64_t>, std::shared_ptr<const std::string>> texts;
    for (const PeerPtr& p : peers) {
        auto& text = texts[{p->token, p->account}];
        if (!text) text = std::make_shared<const std::string>(out::to_text(your_turn(hub, p->token, p->account)));
        p->send(text);
    }
}

void push_your_turn_to(Hub& hub, Peer& p) {
    // Several nodes: the lists are the lobby's node's (your_turn_changed).
    if (hub.cluster() && !hub.cluster()->leader() && !p.remote()) return;
    p.send(out::to_text(your_turn(hub, p.token, p.account)));
}

void your_turn_changed(Hub& hub, const LiveGame& g) {
    if (hub.cluster() && !hub.cluster()->leader()) return hub.cluster()->turn_changed(g);
    push_your_turn(hub, g.seat(WHITE));
    if (g.seat(BLACK).token != g.seat(WHITE).token || g.seat(BLACK).account != g.seat(WHITE).account)
        push_your_turn(hub, g.seat(BLACK));
}

namespace {

void set_peer_account(Hub& hub, const PeerPtr& p, std::int64_t account, const std::string& username) {
    if (p->account == account && p->account_name == username) return;
    hub.turns().unbind_peer(*p);
    p->account = account;
    p->account_name = account ? username : "";
    hub.turns().bind_peer(p);
    push_your_turn_to(hub, *p);
}

}  // namespace

void resolve_peer_account(Hub& hub, const PeerPtr& p) {
    if (p->token.empty()) return;
    std::weak_ptr<Peer> weak = p;
    hub.accounts().seat_account("", p->token_secret, "chess", "", [&hub, weak](std::optional<SeatAccount> a) {
        PeerPtr peer = weak.lock();
        // Gone meanwhile: peer_closed has run, nothing to bind.
        if (!peer || !a || !hub.peer_open(peer->id())) return;
        set_peer_account(hub, peer, a->account_id, a->username);
    });
}

void unlink_account_peers(Hub& hub, std::int64_t account) {
    for (const PeerPtr& p : hub.turns().peers_of_account(account)) set_peer_account(hub, p, 0, "");
}

void relink_token_peers(Hub& hub, const std::string& token, std::optional<std::int64_t> account,
                        const std::string& username) {
    if (token.empty()) return;
    for (const PeerPtr& p : hub.peers_of(token)) set_peer_account(hub, p, account.value_or(0), username);
}

void add_your_turn_routes(Router& r, Hub& hub) {
    r.add("GET", "/api/your-turn", [&hub](const HttpContextPtr& ctx) {
        const std::string token = ctx->token_required();
        // The session cookie's account, else the token's link.
        with_seat_account(hub, ctx, Variant::Chess, TimeControl{},
                          [&hub, ctx, token](const std::optional<SeatAccount>& a) {
                              ctx->json(200, your_turn_json(hub, token, a ? a->account_id : 0));
                          });
    });
}

}  // namespace echecs::server

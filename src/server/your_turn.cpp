#include "server/your_turn.h"

#include <algorithm>

#include "server/game_room.h"
#include "server/hub.h"
#include "server/live_game.h"
#include "server/text.h"
#include "server/util.h"

namespace echecs::server {

using nlohmann::json;

void TurnIndex::add(const std::string& token, const std::string& game) {
    if (!token.empty()) by_token_[token].insert(game);
}

void TurnIndex::remove(const std::string& token, const std::string& game) {
    auto it = by_token_.find(token);
    if (it == by_token_.end()) return;
    it->second.erase(game);
    if (it->second.empty()) by_token_.erase(it);
}

const std::set<std::string>& TurnIndex::games_of(const std::string& token) const {
    static const std::set<std::string> none;
    auto it = by_token_.find(token);
    return it == by_token_.end() ? none : it->second;
}

json your_turn_json(Hub& hub, const std::string& token) {
    struct Entry {
        std::int64_t key;  // the deadline, or the last move for games without one
        json value;
    };
    std::vector<Entry> entries;
    const std::int64_t now = now_ms();
    for (const std::string& id : hub.turns().games_of(token)) {
        GameRoom* room = hub.find_room(id);
        if (!room) continue;
        const LiveGame& g = room->game();
        if (!g.live() || g.seat(g.turn()).token != token) continue;
        const GameRecord& r = g.record();
        const Color you = g.turn();
        const Seat& opp = g.seat(~you);
        std::optional<std::int64_t> deadline = g.next_deadline();
        json e{{"game", id},
               {"variant", std::string(variant_name(r.variant))},
               {"time_kind", std::string(time_kind_name(r.time.kind))},
               {"color", std::string(color_name(you))},
               {"opponent", opp.computer() ? "Computer" : opp.name},
               {"ply", g.ply()},
               {"fen", r.fen},
               {"since", g.last_activity()},
               {"deadline", deadline ? json(*deadline) : json(nullptr)}};
        if (r.time.kind == TimeControl::Realtime) e["remaining_ms"] = g.remaining(you, now);
        // Real-time and correspondence games by deadline, then unlimited ones
        // by their last move (the oldest waits longest).
        entries.push_back({deadline ? *deadline : (std::int64_t(1) << 62) + g.last_activity(), std::move(e)});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    json games = json::array();
    for (Entry& e : entries) games.push_back(std::move(e.value));
    return {{"games", std::move(games)}};
}

void push_your_turn(Hub& hub, const std::string& token) {
    if (token.empty()) return;
    std::vector<PeerPtr> peers = hub.peers_of(token);
    if (peers.empty()) return;
    json j = your_turn_json(hub, token);
    j["type"] = "your_turn";
    auto text = std::make_shared<const std::string>(dump(j));
    for (const PeerPtr& p : peers) p->send(text);
}

void add_your_turn_routes(Router& r, Hub& hub) {
    r.add("GET", "/api/your-turn",
          [&hub](const HttpContextPtr& ctx) { ctx->json(200, your_turn_json(hub, ctx->token_required())); });
}

}  // namespace echecs::server

#include "server/play/lobby.h"

#include <algorithm>
#include <unordered_set>

#include "server/play/live_game.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {
// Subscribers written to per turn of the I/O thread (about a millisecond of
// writes), then a pause: the I/O thread is left free for the games' moves,
// which would otherwise wait behind a whole delta sent to 10,000 viewers
// (measured: move round trip p99 35 ms with the delta posted in chunks of
// 256 without a pause, on 2 cores). A delta that takes longer than a batch
// to go out makes the next one wait and carry more (flush()).
constexpr std::size_t FAN_OUT_CHUNK = 64;
constexpr auto FAN_OUT_PAUSE = std::chrono::microseconds(500);
}  // namespace

Lobby::Lobby(boost::asio::io_context& ioc, const ServerOptions& opt) : opt_(opt), timer_(ioc), fan_out_timer_(ioc) {
    seeks_.capacity = opt.lobby_seeks;
    games_.capacity = opt.lobby_games;
}

std::vector<std::string> Lobby::List::window() const {
    std::vector<std::string> ids;
    for (auto it = order.begin(); it != order.end() && ids.size() < capacity; ++it) ids.push_back(it->second);
    return ids;
}

void Lobby::add(List& l, const std::string& id, Item item) {
    if (auto it = l.items.find(id); it != l.items.end()) l.order.erase({it->second.created_at, id});
    l.order.insert({item.created_at, id});
    l.items[id] = std::move(item);
    changed();
}

void Lobby::remove(List& l, const std::string& id) {
    auto it = l.items.find(id);
    if (it == l.items.end()) return;
    l.order.erase({it->second.created_at, id});
    l.items.erase(it);
    changed();
}

void Lobby::seek_added(const SeekRecord& s) {
    add(seeks_, s.id, Item{s.created_at, seek_json(s, std::nullopt), s.token});
}
void Lobby::seek_removed(const std::string& id) { remove(seeks_, id); }
void Lobby::game_started(const GameRecord& g) {
    nlohmann::json summary = summary_json(g);
    if (forward_ && forward_({{"op", "start"}, {"id", g.id}, {"at", g.created_at}, {"game", summary}})) return;
    add(games_, g.id, Item{g.created_at, std::move(summary), "", false});
}

void Lobby::game_ended(const std::string& id) {
    if (forward_ && forward_({{"op", "end"}, {"id", id}})) return;
    remove(games_, id);
}

void Lobby::apply(const nlohmann::json& c) {
    const std::string op = c.value("op", ""), id = c.value("id", "");
    if (id.empty()) return;
    // Whole numbers only (converting a float out of range is undefined).
    auto whole = [&c](const char* key) -> std::int64_t {
        auto it = c.find(key);
        return it != c.end() && it->is_number_integer() && !it->is_number_unsigned() ? it->get<std::int64_t>() : 0;
    };
    if (op == "start" && c.contains("game") && c["game"].is_object())
        add(games_, id, Item{whole("at"), c["game"], "", false});
    else if (op == "end")
        remove(games_, id);
    else if (op == "move")
        game_moved(id, int(std::clamp<std::int64_t>(whole("ply"), 0, 1'000'000)), c.value("fen", ""));
}

void Lobby::game_moved(const std::string& id, int ply, const std::string& fen) {
    if (forward_ && forward_({{"op", "move"}, {"id", id}, {"ply", ply}, {"fen", fen}})) return;
    auto it = games_.items.find(id);
    if (it == games_.items.end()) return;
    it->second.value["ply"] = ply;
    it->second.value["fen"] = fen;
    it->second.moved = true;
    changed();
}

std::int64_t Lobby::batch_ms() const {
    std::int64_t ms = opt_.lobby_batch_ms;
    // Each delta is one write per subscriber, and on a busy server those
    // writes (the kernel's, mostly) are what the lobby costs: 10,000 viewers
    // at two deltas a second were half the I/O thread (perf, 5,000 games).
    // A larger audience gets the same changes in fewer, larger deltas.
    if (opt_.lobby_sends_per_second > 0) {
        const auto n = static_cast<std::int64_t>(subscribers_.size());
        const std::int64_t budget_ms = (n * 1000 + opt_.lobby_sends_per_second - 1) / opt_.lobby_sends_per_second;
        ms = std::max(ms, std::min(budget_ms, opt_.lobby_batch_max_ms));
    }
    return ms;
}

void Lobby::changed() {
    if (timer_armed_) return;
    timer_armed_ = true;
    timer_.expires_after(std::chrono::milliseconds(batch_ms()));
    timer_.async_wait([this](boost::system::error_code ec) {
        if (ec) return;  // cancelled: the lobby is going away
        timer_armed_ = false;
        flush();
    });
}

void Lobby::flush() {
    if (fanning_out_) {  // the previous delta is still on its way: keep the order
        changed();
        return;
    }
    json changes = json::array();
    auto diff = [&](List& l, const char* added_op, const char* added_key, const char* removed_op, bool games) {
        const std::vector<std::string> now = l.window();
        const std::unordered_set<std::string> before(l.published.begin(), l.published.end());
        const std::unordered_set<std::string> after(now.begin(), now.end());
        for (const std::string& id : l.published)
            if (!after.count(id)) changes.push_back({{"op", removed_op}, {"id", id}});
        for (const std::string& id : now) {
            Item& item = l.items.at(id);
            if (!before.count(id))
                changes.push_back({{"op", added_op}, {added_key, item.value}});
            else if (games && item.moved)
                changes.push_back(
                    {{"op", "game_moved"}, {"id", id}, {"ply", item.value["ply"]}, {"fen", item.value["fen"]}});
            item.moved = false;
        }
        l.published = now;
    };
    diff(seeks_, "seek_added", "seek", "seek_removed", false);
    diff(games_, "game_started", "game", "game_ended", true);
    if (changes.empty()) return;
    ++seq_;
    snapshot_.reset();
    auto text = std::make_shared<const std::string>(out::to_text(out::LobbyDelta{seq_, std::move(changes)}));
    auto to = std::make_shared<std::vector<std::weak_ptr<Peer>>>();
    to->reserve(subscribers_.size());
    for (auto& [id, w] : subscribers_) to->push_back(w);
    fan_out(std::move(text), std::move(to), 0);
}

void Lobby::fan_out(std::shared_ptr<const std::string> text, std::shared_ptr<std::vector<std::weak_ptr<Peer>>> to,
                    std::size_t from) {
    fanning_out_ = true;
    const std::size_t end = std::min(to->size(), from + FAN_OUT_CHUNK);
    for (std::size_t i = from; i < end; ++i)
        if (PeerPtr p = (*to)[i].lock()) p->send(text);
    if (end < to->size()) {
        fan_out_timer_.expires_after(FAN_OUT_PAUSE);
        fan_out_timer_.async_wait(
            [this, text = std::move(text), to = std::move(to), end](boost::system::error_code ec) mutable {
                if (ec) return;  // cancelled: the lobby is going away
                fan_out(std::move(text), std::move(to), end);
            });
        return;
    }
    fanning_out_ = false;
    ++deltas_sent_;
}

std::shared_ptr<const std::string> Lobby::snapshot() {
    if (!snapshot_) {
        json seeks = json::array(), games = json::array();
        for (const std::string& id : seeks_.published)
            if (auto it = seeks_.items.find(id); it != seeks_.items.end()) seeks.push_back(it->second.value);
        for (const std::string& id : games_.published)
            if (auto it = games_.items.find(id); it != games_.items.end()) games.push_back(it->second.value);
        snapshot_ =
            std::make_shared<const std::string>(out::to_text(out::Lobby{seq_, std::move(seeks), std::move(games)}));
    }
    return snapshot_;
}

void Lobby::subscribe(const PeerPtr& p) {
    subscribers_[p->id()] = p;
    p->lobby = true;
    p->send(snapshot());
}

void Lobby::unsubscribe(std::uint64_t peer) { subscribers_.erase(peer); }

void Lobby::send_all(const std::shared_ptr<const std::string>& text) {
    for (auto& [id, w] : subscribers_)
        if (PeerPtr p = w.lock()) p->send(text);
}

json Lobby::http_view(const std::string& token) const {
    json seeks = json::array(), games = json::array();
    for (const std::string& id : seeks_.window()) {
        const Item& item = seeks_.items.at(id);
        json s = item.value;
        s["mine"] = !token.empty() && item.owner == token;
        seeks.push_back(std::move(s));
    }
    for (const std::string& id : games_.window()) games.push_back(games_.items.at(id).value);
    return {{"seeks", std::move(seeks)}, {"games", std::move(games)}};
}

}  // namespace echecs::server

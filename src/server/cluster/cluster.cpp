// (About 400 lines: the front, the stand-ins, the leases and the tick of a node.)
#include "server/cluster/cluster.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <climits>
#include <iostream>

#include "server/app/util.h"
#include "server/cluster/bus.h"
#include "server/play/game_results.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/seeks.h"
#include "server/protocol/messages.h"
#include "server/storage/workers.h"

namespace echecs::server {

using nlohmann::json;

namespace {
constexpr const char* ALL = "echecs:all";
constexpr std::int64_t HTTP_WAIT_MS = 10'000;
constexpr int MAX_HOPS = 3;
constexpr int ORPHANS_PER_TICK = 50;
constexpr int REJOIN_TICKS = 25;  // 5 leases: the dead node's lease lapses within one

std::string channel_of(const std::string& node) { return "echecs:n:" + node; }

// A whole number of a message from another node; anything else (a float, a
// string, absent) is `fallback`. nlohmann's value() would convert a float,
// and converting one out of an integer's range is undefined behaviour.
std::int64_t whole(const json& j, const char* key, std::int64_t fallback = 0) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return fallback;
    return it->is_number_unsigned() ? static_cast<std::int64_t>(it->get<std::uint64_t>()) : it->get<std::int64_t>();
}
int small(const json& j, const char* key, int fallback = 0) {
    return int(std::clamp<std::int64_t>(whole(j, key, fallback), INT_MIN, INT_MAX));
}
std::uint64_t id_of(const json& j, const char* key) { return static_cast<std::uint64_t>(whole(j, key)); }

// A message between nodes: one line of JSON (the header), then the body as
// it is (a client's message, a server's message, an HTTP body).
std::string frame(const std::string& header, std::string_view body) {
    std::string s;
    s.reserve(header.size() + 1 + body.size());
    s += header;
    s += '\n';
    s += body;
    return s;
}

bool leader_path(const std::string& path) {
    for (const char* p : {"/api/seeks", "/api/lobby", "/api/pools", "/api/tournaments", "/api/your-turn"})
        if (path.starts_with(p)) return true;
    return false;
}

ApiError node_unavailable(const std::string& what) {
    return ApiError(Reason::node_unavailable, "the node that runs " + what + " is not known yet: try again");
}
}  // namespace

// A socket of another node (its front), as the rooms and the lobby here see
// it: what they send it goes back through the bus.
class RemotePeer final : public Peer {
public:
    RemotePeer(Cluster& c, std::string front, std::uint64_t front_peer, std::uint64_t id, std::string ip)
        : Peer(id, std::move(ip), 1e9, 1e9, now_ms()), c_(c), front_(std::move(front)), front_peer_(front_peer) {}
    void send(std::shared_ptr<const std::string> text) override {
        c_.publish(front_, json{{"k", "out"}, {"peer", front_peer_}}.dump(), *text);
    }
    void close_later(const char* why) override {
        c_.publish(front_, json{{"k", "close"}, {"peer", front_peer_}, {"why", why}}.dump(), "");
    }
    bool remote() const override { return true; }
    const std::string& front() const { return front_; }
    std::uint64_t front_peer() const { return front_peer_; }
    int hops = 0;  // of the message being handled

private:
    Cluster& c_;
    std::string front_;
    std::uint64_t front_peer_;
};

Cluster::Cluster(Hub& hub, const ServerOptions& opt)
    : hub_(hub),
      opt_(opt),
      node_(opt.cluster_node + "." + random_id(6)),
      alive_(std::make_shared<bool>(true)),
      timer_(hub.ioc()) {}

Cluster::~Cluster() { stop(); }

void Cluster::start() {
    hub_.lobby().set_forward([this](const json& change) {
        if (leader_) return false;
        // Without a known leader the change is dropped: the next leader hears
        // every node's list again (on_leader).
        if (!leader_node_.empty()) publish(leader_node_, json{{"k", "lobby"}, {"from", node_}}.dump(), change.dump());
        return true;
    });
    std::weak_ptr<bool> alive = alive_;
    if (!opt_.redis.empty())  // empty: the fuzz target's node, without Redis
        bus_ = std::make_unique<Bus>(
            opt_.redis, std::vector<std::string>{channel_of(node_), ALL},
            [this, alive](std::function<void()> f) {
                boost::asio::post(hub_.ioc(), [alive, f = std::move(f)] {
                    if (auto a = alive.lock(); a && *a) f();
                });
            },
            [this](const std::string& ch, std::string text) { on_bus(ch, std::move(text)); },
            [this](bool up) { hub_.log(std::string("cluster: Redis ") + (up ? "connected" : "lost, reconnecting")); });
    hub_.log("cluster: node " + node_ + ", Redis " + opt_.redis);
    tick();
}

void Cluster::stop() {
    if (stopped_) return;
    stopped_ = true;
    *alive_ = false;
    timer_.cancel();
    bus_.reset();
}

std::uint64_t Cluster::messages_out() const { return bus_ ? bus_->published() : 0; }

void Cluster::publish(const std::string& node, const std::string& header, std::string_view body) {
    if (bus_) bus_->publish(channel_of(node), frame(header, body));
}

void Cluster::broadcast(const std::string& header) {
    if (bus_) bus_->publish(ALL, frame(header, ""));
}

bool Cluster::up(const std::string& node) const {
    auto it = seen_.find(node);
    return it != seen_.end() && now_ms() - it->second <= opt_.lease_ms;
}

// ---------------------------------------------------------------------------
// The front

void Cluster::forward(const PeerPtr& p, const std::string& node, std::string_view text) {
    int hops = hops_;
    std::string from = node_;
    std::uint64_t peer = p->id();
    if (p->remote()) {  // sent back by the node it went to: on to the next, for the same socket
        auto& r = static_cast<RemotePeer&>(*p);
        hops = r.hops + 1;
        from = r.front();
        peer = r.front_peer();
        if (hops > MAX_HOPS) throw ApiError(Reason::node_unavailable, "the game's node changed too often: try again");
        publish(from, json{{"k", "back"}, {"peer", peer}, {"node", node}, {"hops", hops}}.dump(), text);
        return;
    }
    sent_to_[peer].insert(node);
    publish(node,
            json{{"k", "in"},
                 {"from", from},
                 {"peer", peer},
                 {"ip", p->ip()},
                 {"tok", p->token},
                 {"sec", p->token_secret},
                 {"acc", p->account},
                 {"name", p->account_name},
                 {"lag", p->lag_ms},
                 {"hops", hops}}
                .dump(),
            text);
}

bool Cluster::to_game_node(const PeerPtr& p, const std::string& game, std::string_view text) {
    if (p->remote() || hub_.find_room(game)) return false;
    auto it = holders_.find(game);
    if (it == holders_.end() || it->second == node_ || !up(it->second)) return false;
    forward(p, it->second, text);
    return true;
}

bool Cluster::to_leader(const PeerPtr& p, std::string_view text) {
    if (p->remote() || leader_) return false;
    if (leader_node_.empty() || !up(leader_node_)) throw node_unavailable("the lobby");
    forward(p, leader_node_, text);
    return true;
}

bool Cluster::redirect(const PeerPtr& p, const std::string& game, std::string_view text) {
    auto it = holders_.find(game);
    if (it == holders_.end() || it->second == node_) return false;
    forward(p, it->second, text);
    return true;
}

void Cluster::peer_closed(Peer& p) {
    if (p.remote()) return;
    kept_.erase(p.id());
    auto it = sent_to_.find(p.id());
    if (it == sent_to_.end()) return;
    for (const std::string& node : it->second)
        publish(node, json{{"k", "gone"}, {"from", node_}, {"peer", p.id()}}.dump(), "");
    sent_to_.erase(it);
}

void Cluster::keep(const Peer& p, Kept what, std::string_view text) {
    if (p.remote()) return;
    KeptText& k = kept_[p.id()];
    (what == Kept::Pool ? k.pool : k.tournament) = text;
    if (k.pool.empty() && k.tournament.empty()) kept_.erase(p.id());
}

bool Cluster::route_http(const HttpContextPtr& ctx) {
    const HttpRequest& req = ctx->request();
    if (req.forwarded) return false;
    const std::string& path = ctx->path();
    if (leader_path(path)) {
        if (leader_) return false;
        if (leader_node_.empty() || !up(leader_node_)) throw node_unavailable("the lobby");
        forward_http(ctx, leader_node_);
        return true;
    }
    // A live game's state from the node that runs it (its clocks and who is connected).
    const std::string& game = ctx->param("id");
    if ((req.method == "GET" || req.method == "HEAD") && path == "/api/games/" + game && !hub_.find_room(game)) {
        auto it = holders_.find(game);
        if (it != holders_.end() && it->second != node_ && up(it->second)) {
            forward_http(ctx, it->second);
            return true;
        }
    }
    return false;
}

void Cluster::forward_http(const HttpContextPtr& ctx, const std::string& node) {
    const HttpRequest& req = ctx->request();
    const std::uint64_t n = next_http_++;
    http_[n] = PendingHttp{ctx, now_ms() + HTTP_WAIT_MS};
    ctx->hand_off();
    publish(node,
            json{{"k", "http"},
                 {"from", node_},
                 {"n", n},
                 {"m", req.method},
                 {"t", req.target},
                 {"ip", req.ip},
                 {"h", req.headers}}
                .dump(),
            req.body);
}

// ---------------------------------------------------------------------------
// Messages from the other nodes

void Cluster::on_bus(const std::string& channel, std::string text) {
    (void)channel;
    ++messages_in_;
    const auto nl = text.find('\n');
    if (nl == std::string::npos) return;
    json h = json::parse(std::string_view(text).substr(0, nl), nullptr, false);
    if (!h.is_object()) return;
    std::string body = text.substr(nl + 1);
    try {
        const std::string k = h.value("k", "");
        const std::string from = h.value("from", "");
        if (from == node_) return;  // our own broadcast
        if (!from.empty()) {
            seen_[from] = now_ms();
            gone_.erase(from);
        }
        if (k == "in") return on_in(h, std::move(body));
        if (k == "out" || k == "close") {
            PeerPtr p = hub_.peer(id_of(h, "peer"));
            if (!p) return;
            // Only a JSON object goes on to a browser, whatever a node sent.
            if (k == "out") {
                if (!body.starts_with('{') || !json::accept(body)) return;
                // Paired or out of its pool: a new leader must not put it back.
                if (auto it = kept_.find(p->id()); it != kept_.end() && !it->second.pool.empty() &&
                                                   (body.find(R"("type":"pool_paired")") != std::string::npos ||
                                                    body.find(R"("type":"pool_left")") != std::string::npos))
                    keep(*p, Kept::Pool, "");
                p->send(std::move(body));
                return;
            }
            return p->close_later("closed by the game's node");
        }
        if (k == "back") {  // a message the node we sent it to does not run: route again
            PeerPtr p = hub_.peer(id_of(h, "peer"));
            if (!p) return;
            const std::string node = h.value("node", "");
            ParsedMessage m = parse_client_message(body);
            if (!node.empty() && node != node_ && !m.game.empty()) {
                holders_[m.game] = node;
                seen_.emplace(node, now_ms());
            } else if (!m.game.empty()) {
                holders_.erase(m.game);
            }
            // Routed again with its hops so far: two nodes that disagree cannot pass it to and fro forever.
            hops_ = small(h, "hops", MAX_HOPS);
            try {
                hub_.on_message(p, body, false);
            } catch (...) {
                hops_ = 0;
                throw;
            }
            hops_ = 0;
            return;
        }
        if (k == "gone") {
            auto it = stand_ins_.find(from + " " + std::to_string(id_of(h, "peer")));
            if (it == stand_ins_.end()) return;
            std::shared_ptr<RemotePeer> p = std::move(it->second);
            stand_ins_.erase(it);
            hub_.peer_closed(*p);
            return;
        }
        if (k == "http") return on_http(h, std::move(body));
        if (k == "hres") return on_http_answer(h, std::move(body));
        if (k == "alive") {
            load_[from] = std::max<std::int64_t>(0, whole(h, "games"));
            if (h.value("leader", false) && !leader_ && leader_node_ != from) on_leader(from);
            return;
        }
        if (k == "place") {  // the leader gave this node a new game: its room loads (and says so)
            const std::string game = h.value("game", "");
            if (!hub_.find_room(game)) hub_.with_room(game, [](GameRoom*) {});
            return;
        }
        if (k == "owner") return on_owner(h.value("game", ""), from);
        if (k == "turn") return on_turn(h);
        if (k == "lobby") {
            if (leader_) hub_.lobby().apply(json::parse(body));
            return;
        }
        if (k == "tgame") {
            if (!leader_) return;
            return hub_.read_game(h.value("game", ""), [this](const LiveGame* g, GameRoom*) {
                if (g && !g->live()) hub_.tournament_game_ended(g->record());
            });
        }
        if (k == "leader") return on_leader(from);
    } catch (const std::exception& e) {
        hub_.log(std::string("cluster: a message from another node failed: ") + e.what());
    }
}

void Cluster::on_in(const json& h, std::string body) {
    const std::string from = h.value("from", "");
    const std::uint64_t peer = id_of(h, "peer");
    std::shared_ptr<RemotePeer>& sp = stand_ins_[from + " " + std::to_string(peer)];
    if (!sp) {
        sp = std::make_shared<RemotePeer>(*this, from, peer, hub_.next_peer_id(), h.value("ip", ""));
        hub_.peer_opened(sp);
    }
    std::shared_ptr<RemotePeer> p = sp;  // the map may change below
    p->lag_ms = whole(h, "lag");
    const std::int64_t account = whole(h, "acc");
    const std::string name = h.value("name", "");
    if (account != p->account || name != p->account_name) {  // logged in or out on its front
        hub_.turns().unbind_peer(*p);
        p->account = account;
        p->account_name = name;
        hub_.turns().bind_peer(p);
        if (leader_) push_your_turn_to(hub_, *p);
    }
    p->hops = small(h, "hops");
    if (p->token.empty()) {
        const std::string tok = h.value("tok", "");
        if (!tok.empty()) {
            p->token = tok;
            p->token_secret = h.value("sec", "");
            hub_.adopt_token(p);
        }
    }
    hub_.on_message(p, body, false);
}

void Cluster::on_http(const json& h, std::string body) {
    HttpRequest req;
    req.method = h.value("m", "");
    req.target = h.value("t", "");
    req.ip = h.value("ip", "");
    req.body = std::move(body);
    req.forwarded = true;
    if (h.contains("h") && h["h"].is_object())
        for (const auto& [name, value] : h["h"].items())
            if (value.is_string()) req.headers[name] = value.get<std::string>();
    const std::string from = h.value("from", "");
    const std::uint64_t n = id_of(h, "n");
    auto ctx = std::make_shared<HttpContext>(std::move(req), [this, from, n](HttpResponse res) {
        publish(from,
                json{{"k", "hres"}, {"n", n}, {"s", res.status}, {"ct", res.content_type}, {"h", res.headers}}.dump(),
                res.body);
    });
    hub_.router().dispatch(ctx);
}

void Cluster::on_http_answer(const json& h, std::string body) {
    auto it = http_.find(id_of(h, "n"));
    if (it == http_.end()) return;  // timed out already
    HttpContextPtr ctx = std::move(it->second.ctx);
    http_.erase(it);
    HttpResponse res;
    res.status = small(h, "s", 502);
    res.content_type = h.value("ct", "application/json");
    res.body = std::move(body);
    if (h.contains("h") && h["h"].is_array())
        for (const json& kv : h["h"])
            if (kv.is_array() && kv.size() == 2 && kv[0].is_string() && kv[1].is_string())
                res.headers.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
    ctx->send(std::move(res));
}

// Another node runs `game` now (it took it over): the sockets here that
// watch it join it there.
void Cluster::on_owner(const std::string& game, const std::string& node) {
    if (game.empty() || node.empty() || node == node_) return;
    holders_[game] = node;
    if (hub_.find_room(game)) hub_.drop_lost(game);
    const std::string join = json{{"type", "join"}, {"game", game}}.dump();
    hub_.each_peer([&](const PeerPtr& p) {
        if (!p->remote() && p->watching.count(game)) forward(p, node, join);
    });
}

// The lobby moved: the sockets here say hello to its node again, and
// subscribe again to the lobby.
void Cluster::on_leader(const std::string& node) {
    if (leader_ && node != node_) return;  // a stale word (a paused former leader): this node holds the lease
    leader_node_ = node;
    seen_.emplace(node, now_ms());
    if (node == node_) return;
    hub_.log("cluster: the lobby is run by " + node);
    hub_.announce_lobby_games();
    hub_.each_peer([&](const PeerPtr& p) {
        if (!p->remote()) tell_leader_again(p, node);
    });
}

// What a socket here had told the former leader, told to `node` (this node
// included: its own dispatcher then handles it).
void Cluster::tell_leader_again(const PeerPtr& p, const std::string& node) {
    std::vector<std::string> texts;
    if (!p->token_secret.empty()) texts.push_back(json{{"type", "hello"}, {"token", p->token_secret}}.dump());
    if (p->lobby) texts.push_back(json{{"type", "lobby_subscribe"}}.dump());
    if (auto it = kept_.find(p->id()); it != kept_.end()) {
        if (!it->second.pool.empty()) texts.push_back(it->second.pool);
        if (!it->second.tournament.empty()) texts.push_back(it->second.tournament);
    }
    for (const std::string& text : texts) {
        if (node != node_) {
            forward(p, node, text);
            continue;
        }
        try {
            hub_.on_message(p, text, false);
        } catch (const std::exception& e) {
            hub_.log(std::string("cluster: a socket's state for the new lobby failed: ") + e.what());
        }
    }
}

// ---------------------------------------------------------------------------
// Leases

void Cluster::fence(const std::vector<std::string>& ids, std::vector<WriteOp>& ops) {
    std::vector<WriteOp> first;
    for (const std::string& id : ids) {
        auto it = held_.find(id);
        if (it != held_.end()) {
            first.emplace_back(Fence{id, node_, it->second.token});
            continue;
        }
        auto placed = placed_.find(id);
        first.emplace_back(TakeLease{id, placed != placed_.end() ? placed->second : node_, now_ms() + opt_.lease_ms});
    }
    ops.insert(ops.begin(), std::make_move_iterator(first.begin()), std::make_move_iterator(first.end()));
}

std::vector<std::string> Cluster::committed(const std::vector<std::string>& ids) {
    std::vector<std::string> handed;
    for (const std::string& id : ids) {
        auto placed = placed_.find(id);
        if (placed == placed_.end()) {
            held_.emplace(id, Held{1, now_ms()});  // TakeLease's token; a held one stays
            continue;
        }
        // Its node loads it at once (else at its next tick, finding the lease).
        holders_[id] = placed->second;
        publish(placed->second, json{{"k", "place"}, {"from", node_}, {"game", id}}.dump(), "");
        handed.push_back(id);
        placed_.erase(placed);
    }
    return handed;
}

void Cluster::place(const std::string& game) {
    if (!leader_ || held_.count(game)) return;
    std::string best = node_;
    std::int64_t fewest = std::int64_t(hub_.live_room_count());
    for (const auto& [node, games] : load_)
        if (games < fewest && up(node)) best = node, fewest = games;
    if (best == node_) return;
    placed_[game] = best;
    ++load_[best];  // until it says again: the next games go elsewhere too
}

void Cluster::released(const std::string& id) {
    placed_.erase(id);  // a new game whose write failed
    auto it = held_.find(id);
    if (it == held_.end()) return;
    released_[id] = now_ms();  // a renewal already queued may still name it
    Lease l{id, node_, it->second.token, 0};
    held_.erase(it);
    hub_.storage().run([l](Storage& s) {
        try {
            s.release_lease(l);
        } catch (const std::exception&) {
            // it lapses by itself
        }
    });
}

bool Cluster::held_elsewhere(Storage& s, const std::string& id, std::int64_t now, std::string* holder) {
    const std::optional<Lease> l = s.lease_of(id);
    if (!l || l->node == node_ || l->expires_at <= now) return false;
    if (holder) *holder = l->node;
    return true;
}

std::optional<Lease> Cluster::claim(Storage& s, const std::string& id, std::int64_t now, std::string* holder,
                                    std::int64_t* gap_since) {
    const std::optional<Lease> before = s.lease_of(id);
    std::optional<Lease> got = s.acquire_lease(id, node_, now, opt_.lease_ms);
    if (!got) {
        const std::optional<Lease> held = s.lease_of(id);  // who won it, if it changed meanwhile
        if (holder && held && held->expires_at > now) *holder = held->node;
        return std::nullopt;
    }
    // The game was another node's: its clock stopped when that node last renewed.
    if (gap_since)
        *gap_since =
            before && before->node != node_ ? std::max<std::int64_t>(0, before->expires_at - opt_.lease_ms) : 0;
    return got;
}

void Cluster::loaded(const std::string& id, const Lease& lease, std::int64_t gap_since) {
    const bool moved = held_.find(id) == held_.end();
    held_[id] = Held{lease.token, now_ms()};
    hub_.turns().set_remote(id, std::nullopt);  // its room here says it now
    holders_.erase(id);
    if (!moved) return;
    broadcast(json{{"k", "owner"}, {"from", node_}, {"game", id}}.dump());
    (void)gap_since;
    // The sockets here that watched it on its former node join it here.
    hub_.each_peer([&](const PeerPtr& p) {
        if (!p->remote() && p->watching.count(id))
            hub_.with_room(id, [p](GameRoom* room) {
                if (room) room->join(p);
            });
    });
}

void Cluster::tournament_game_ended(const std::string& game) {
    if (!leader_node_.empty()) publish(leader_node_, json{{"k", "tgame"}, {"from", node_}, {"game", game}}.dump(), "");
}

namespace {
json seat_json(const Seat& s) { return {{"t", s.token}, {"a", s.account}}; }
Seat seat_of(const json& j) {
    Seat s;
    if (!j.is_object()) return s;
    s.token = j.value("t", "");
    s.account = whole(j, "a");
    return s;
}
std::optional<out::YourTurnGame> entry_of(const json& j) {
    if (!j.is_object()) return std::nullopt;
    out::YourTurnGame e;
    e.game = j.value("game", "");
    e.variant = j.value("variant", "");
    e.time_kind = j.value("time_kind", "");
    e.color = j.value("color", "");
    e.opponent = j.value("opponent", "");
    e.ply = small(j, "ply");
    e.fen = j.value("fen", "");
    e.since = whole(j, "since");
    if (j.contains("deadline") && j["deadline"].is_number_integer()) e.deadline = j["deadline"].get<std::int64_t>();
    if (j.contains("remaining_ms") && j["remaining_ms"].is_number_integer())
        e.remaining_ms = j["remaining_ms"].get<std::int64_t>();
    return e;
}
}  // namespace

void Cluster::turn_changed(const LiveGame& g) {
    if (leader_node_.empty()) return;  // the next leader hears it (on_leader)
    const std::optional<out::YourTurnGame> e = turn_entry(g, now_ms());
    publish(leader_node_,
            json{{"k", "turn"},
                 {"from", node_},
                 {"game", g.id()},
                 {"w", seat_json(g.seat(WHITE))},
                 {"b", seat_json(g.seat(BLACK))},
                 {"mover", seat_json(g.seat(g.turn()))},
                 {"entry", e ? out::to_json(*e) : json(nullptr)}}
                .dump(),
            "");
}

void Cluster::on_turn(const json& h) {
    if (!leader_) return;
    const std::string game = h.value("game", "");
    if (game.empty() || hub_.find_room(game)) return;  // a room here says it better
    TurnIndex::RemoteTurn t{seat_of(h.value("w", json())), seat_of(h.value("b", json())),
                            entry_of(h.value("entry", json())), seat_of(h.value("mover", json()))};
    const Seat white = t.white, black = t.black;
    hub_.turns().set_remote(game, t.entry ? std::optional(std::move(t)) : std::nullopt);
    push_your_turn(hub_, white);
    if (black.token != white.token || black.account != white.account) push_your_turn(hub_, black);
}

void Cluster::learned_holder(const std::string& id, const std::string& node) {
    if (node.empty() || node == node_) return;
    holders_[id] = node;
    // A node not heard yet may hold it (it just started); one taken for dead
    // keeps its lease a little longer than its silence, and is not up.
    if (!gone_.count(node)) seen_.emplace(node, now_ms());
}

// ---------------------------------------------------------------------------
// The tick: alive, leases renewed, the lobby's lease, dead nodes' games

void Cluster::arm() {
    timer_.expires_after(std::chrono::milliseconds(std::max<std::int64_t>(50, opt_.lease_ms / 5)));
    timer_.async_wait([this](boost::system::error_code ec) {
        if (!ec && !stopped_) tick();
    });
}

void Cluster::node_gone(const std::string& node) {
    hub_.log("cluster: node " + node + " is gone");
    seen_.erase(node);
    load_.erase(node);
    gone_.insert(node);
    std::set<std::string> watched;
    hub_.each_peer([&](const PeerPtr& p) {
        if (!p->remote()) watched.insert(p->watching.begin(), p->watching.end());
    });
    for (auto it = holders_.begin(); it != holders_.end();) {
        if (it->second != node) {
            ++it;
            continue;
        }
        if (watched.count(it->first)) rejoin_[it->first] = REJOIN_TICKS;
        it = holders_.erase(it);
    }
    if (leader_node_ == node) leader_node_.clear();
    const std::string prefix = node + " ";
    std::vector<std::shared_ptr<RemotePeer>> gone;
    for (auto it = stand_ins_.begin(); it != stand_ins_.end();) {
        if (it->first.starts_with(prefix)) {
            gone.push_back(std::move(it->second));
            it = stand_ins_.erase(it);
        } else {
            ++it;
        }
    }
    for (auto& p : gone) hub_.peer_closed(*p);
}

// The watched games of a dead node: a claim elsewhere says so (on_owner);
// else the room is loaded here once the lease has lapsed, and loaded() joins
// the watchers, who then see the game as it was stored, ended or not.
void Cluster::rejoin() {
    for (auto it = rejoin_.begin(); it != rejoin_.end();) {
        auto h = holders_.find(it->first);
        if (hub_.find_room(it->first) || (h != holders_.end() && up(h->second)) || --it->second <= 0) {
            it = rejoin_.erase(it);
            continue;
        }
        hub_.with_room(it->first, [](GameRoom*) {});
        ++it;
    }
}

void Cluster::become_leader(std::vector<SeekRecord> seeks, std::vector<Tournaments::Stored> tournaments) {
    leader_ = true;
    leader_node_ = node_;
    hub_.log("cluster: this node runs the lobby");
    hub_.seeks().load(std::move(seeks));
    // What the former leader stored, not what this node read when it started.
    hub_.tournaments().reload(std::move(tournaments));
    hub_.announce_lobby_games();
    hub_.start_tournaments();
    broadcast(json{{"k", "leader"}, {"from", node_}}.dump());
    // The sockets here that the former leader served are served here now.
    std::vector<PeerPtr> own;
    hub_.each_peer([&](const PeerPtr& p) {
        if (!p->remote()) own.push_back(p);
    });
    for (const PeerPtr& p : own) tell_leader_again(p, node_);
    kept_.clear();
}

void Cluster::tick() {
    arm();
    const std::int64_t now = now_ms();
    broadcast(json{{"k", "alive"}, {"from", node_}, {"leader", leader_}, {"games", hub_.live_room_count()}}.dump());
    std::vector<std::string> silent;
    for (const auto& [node, at] : seen_)
        if (now - at > opt_.lease_ms) silent.push_back(node);
    for (const std::string& node : silent) node_gone(node);
    rejoin();
    for (auto it = http_.begin(); it != http_.end();) {
        if (now < it->second.deadline) {
            ++it;
            continue;
        }
        HttpContextPtr ctx = std::move(it->second.ctx);
        it = http_.erase(it);
        ctx->error(ApiError(Reason::node_unavailable, "the node that runs this did not answer within 10 s: try again"));
    }
    if (ticking_) return;  // the last tick's database work is still running
    ticking_ = true;
    struct Result {
        std::vector<std::string> renewed;
        bool renew_failed = false;
        std::optional<Lease> lobby;
        std::string lobby_holder;
        std::vector<SeekRecord> seeks;
        std::vector<Tournaments::Stored> tournaments;
        std::vector<std::string> orphans;
        std::vector<std::string> unrecorded;
        std::int64_t at = 0;  // when the renewal ran
    };
    const bool was_leader = leader_;
    hub_.storage().run([this, was_leader](Storage& s) {
        auto r = std::make_shared<Result>();
        // The time when the statements run, not when the tick was queued: a
        // renewal that waited in the queue still gets the whole lease.
        const std::int64_t at = r->at = now_ms();
        try {
            r->renewed = s.renew_leases(node_, at, opt_.lease_ms);
            if (!was_leader) {
                r->lobby = s.acquire_lease(LOBBY, node_, at, opt_.lease_ms);
                if (r->lobby) {
                    r->seeks = s.open_seeks();
                    r->tournaments = Tournaments::load(s);
                } else if (auto l = s.lease_of(LOBBY); l && l->expires_at > at)
                    r->lobby_holder = l->node;
            }
            r->orphans = s.orphaned_live_games(at, ORPHANS_PER_TICK);
            r->unrecorded = s.unrecorded_unheld_games(at, ORPHANS_PER_TICK);
        } catch (const std::exception& e) {
            r->renew_failed = true;
            std::cerr << "echecs serve: cluster: " << e.what() << "\n";
        }
        boost::asio::post(hub_.ioc(), [this, r, alive = std::weak_ptr<bool>(alive_)] {
            if (auto a = alive.lock(); !a || !*a) return;
            ticking_ = false;
            if (stopped_ || r->renew_failed) return;
            std::set<std::string> renewed(r->renewed.begin(), r->renewed.end());
            if (leader_ && !renewed.count(LOBBY)) {
                // This node paused past its lease and another may run the
                // lobby now: two lobbies must never run, so this node stops
                // (its service manager starts it again, as a new node).
                std::cerr << "echecs serve: cluster: lost the lobby's lease (paused longer than " << opt_.lease_ms
                          << " ms?): stopping" << std::endl;
                std::_Exit(75);
            }
            std::vector<std::string> lost;
            for (const auto& [id, held] : held_)
                if (!renewed.count(id) && held.since < r->at) lost.push_back(id);
            for (const std::string& id : lost) {
                held_.erase(id);
                hub_.drop_lost(id);
            }
            if (r->lobby) become_leader(std::move(r->seeks), std::move(r->tournaments));
            if (!r->lobby_holder.empty() && r->lobby_holder != leader_node_ && !leader_) {
                seen_.emplace(r->lobby_holder, now_ms());
                on_leader(r->lobby_holder);
            }
            for (const std::string& id : r->orphans)
                if (!hub_.find_room(id)) hub_.with_room(id, [](GameRoom*) {});
            // A result no node recorded for the accounts (a rating change):
            // loaded here under a lease, and recorded (the accounts refuse a
            // second record, so a race with its former node records it once).
            for (const std::string& id : r->unrecorded)
                if (!hub_.find_room(id))
                    hub_.with_room(id, [this](GameRoom* room) {
                        if (room && room->game().record().result_pending)
                            record_game_result(hub_, room->game().record());
                    });
            // A game the leader placed here whose word was lost: its lease
            // names this node, so its room loads here.
            std::erase_if(released_, [&](const auto& kv) { return kv.second < r->at - 2 * opt_.lease_ms; });
            for (const std::string& id : r->renewed)
                if (id != LOBBY && !held_.count(id) && !released_.count(id) && !hub_.find_room(id))
                    hub_.with_room(id, [](GameRoom*) {});
        });
    });
}

}  // namespace echecs::server

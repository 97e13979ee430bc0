#include "server/play/hub.h"

#include <malloc.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <iostream>
#include <thread>

#include "server/accounts/account_service.h"
#include "server/app/util.h"
#include "server/cluster/cluster.h"
#include "server/play/analysis_stream.h"
#include "server/play/game_results.h"
#include "server/play/game_room.h"
#include "server/play/live_game.h"
#include "server/play/pools.h"
#include "server/play/tournaments.h"
#include "server/protocol/text.h"

// jemalloc's control, when the release build links it (it replaces malloc;
// the sanitizer builds keep glibc's): weak, so that both builds link.
extern "C" int mallctl(const char*, void*, std::size_t*, void*, std::size_t) __attribute__((weak));

namespace echecs::server {

namespace {
void give_memory_back() {
    if (mallctl)
        mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);  // 4096: MALLCTL_ARENAS_ALL
    else
        malloc_trim(0);
}
}  // namespace

namespace {
constexpr std::int64_t SWEEP_MS = 5'000;

// The heavy work's threads: the engine's, and one more at least for the hashes.
int work_threads(const ServerOptions& o) {
    const int cores = std::clamp(int(std::thread::hardware_concurrency()), 1, 8);
    return std::max(o.work_threads > 0 ? o.work_threads : cores, o.engine_threads + 1);
}

bool valid_game_id(const std::string& id) {
    return id.size() == 8 && std::all_of(id.begin(), id.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
           });
}
}  // namespace

Hub::Hub(boost::asio::io_context& ioc, const ServerOptions& opt, std::unique_ptr<Storage> storage)
    : ioc_(ioc),
      opt_(opt),
      limits_(std::make_shared<ClientLimits>(opt)),
      initial_storage_(std::move(storage)),
      seeks_(*this),
      lobby_(ioc, opt),
      chat_(opt),
      sweep_timer_(ioc) {
    accounts::AccountsOptions account_options;
    if (opt.fast_password_hash) account_options.cost = accounts::HashCost::minimal();
    account_options.signups_per_ip = opt.signups_per_ip;
    work_ = std::make_unique<work::Scheduler>(work::Scheduler::Options{
        opt_.engine_threads, work_threads(opt_), opt_.engine_queue, opt_.engine_queue_per_client, opt_.engine_nice});
    accounts::ServiceOptions service_options;
    service_options.scheduler = work_.get();
    accounts_ = std::make_unique<accounts::AccountService>(
        std::make_unique<accounts::Accounts>(accounts::open_account_store(opt.db), account_options),
        std::move(service_options), [this](std::function<void()> f) { boost::asio::post(ioc_, std::move(f)); });
    router_.set_before([this](const HttpContextPtr& ctx) {
        const HttpRequest& req = ctx->request();
        if (!req.forwarded && ctx->path().starts_with("/api/") && !limits_->take_http(req.ip, now_ms()))
            throw ApiError(Reason::rate_limited, "too many requests from this address: slow down", "",
                           {{"per_second", opt_.http_rate_per_second}});
        if (req.method != "GET" && req.method != "HEAD" &&
            from_another_site(req.header("origin"), req.header("host"), req.header("sec-fetch-site"), opt_))
            throw ApiError(Reason::cross_origin, "requests from another site are refused", "",
                           {{"origin", ascii_excerpt(req.header("origin"), 100)}});
        if (cluster_) cluster_->route_http(ctx);  // may hand the request to another node
    });
    add_seek_routes(router_, *this);
    add_game_routes(router_, *this);
    add_analysis_routes(router_, *this);
    add_variant_routes(router_, *this);
    add_problem_routes(router_, *this);
    add_puzzle_routes(router_, *this);
    pools_ = std::make_unique<Pools>(*this);
    add_account_routes(router_, *this);
    add_your_turn_routes(router_, *this);
    reviews_ = add_review_routes(router_, *this);
    streams_ = std::make_shared<AnalysisStreams>(
        *this, StreamLimits{opt.stream_max_depth, opt.stream_max_ms, opt.streams_per_client, opt.max_streams, 16});
    add_tournament_routes(router_, *this);
    add_static_routes(router_, *this);
    if (!opt.cluster_node.empty()) cluster_ = std::make_unique<Cluster>(*this, opt);
    load_from_storage(*initial_storage_);
    tournaments_ = std::make_unique<Tournaments>(*this, *initial_storage_);
}

Hub::~Hub() { shutdown(); }

void Hub::log(const std::string& s) const {
    if (opt_.log) std::cerr << "echecs serve: " << to_valid_utf8(s) << "\n";
}

void Hub::load_from_storage(Storage& s) {
    // A node of several loads no game: each is another node's, or taken
    // over under its lease once that lapses (Cluster::tick); the node that
    // runs the lobby loads the seeks.
    if (cluster_) return;
    // Restart: games resume where they were; the downtime is not charged.
    down_since_ = s.last_heartbeat();
    const std::int64_t now = now_ms();
    const GameSettings settings{opt_.first_move_ms, opt_.draw_offer_interval};
    for (GameRecord& rec : s.list_games({"live", 1'000'000, 0, "", false}, true)) {
        try {
            const std::string id = rec.id;
            auto g = std::make_unique<LiveGame>(std::move(rec), settings);
            g->resume(down_since_, now);
            add_room(std::move(g)).restore_chat(s.load_chat(id, int(opt_.chat_history)));
        } catch (const std::exception& e) {
            log(std::string("cannot resume a game: ") + e.what());
        }
    }
    // Finished games whose result a crash or a stop left unrecorded for the
    // accounts: recorded once the server starts (start()).
    for (GameRecord& rec : s.games_with_results_pending()) {
        try {
            const std::string id = rec.id;
            if (find_room(id)) continue;
            add_room(std::make_unique<LiveGame>(std::move(rec), settings))
                .restore_chat(s.load_chat(id, int(opt_.chat_history)));
        } catch (const std::exception& e) {
            log(std::string("cannot load a finished game: ") + e.what());
        }
    }
    for (auto& [id, room] : rooms_) room->set_busy(false);
    seeks_.load(s.open_seeks());
}

namespace {

// An unlimited game nobody moved in for too long is ended (a game against
// the computer sooner: it holds its player's and its address's places).
bool abandoned(const LiveGame& g, std::int64_t now, const ServerOptions& opt) {
    if (g.record().time.kind != TimeControl::Unlimited) return false;
    const std::int64_t idle = now - g.last_activity();
    return idle >= opt.unlimited_archive_ms || (g.against_computer() && idle >= opt.computer_archive_ms);
}

}  // namespace

int Hub::live_engine_games_of(const Seat& player) const {
    int n = 0;
    for (const auto& [id, room] : rooms_) {
        const LiveGame& g = room->game();
        if (!g.live() || !g.against_computer()) continue;
        const Seat& human = g.record().white.computer() ? g.record().black : g.record().white;
        n += (!player.token.empty() && human.token == player.token) ||
             (player.account && human.account == player.account);
    }
    return n;
}

void Hub::start() {
    if (started_) return;
    started_ = true;
    const std::int64_t now = now_ms();
    // Store the resumed clocks (the game rows only), and end the unlimited
    // games nobody moved in for too long.
    std::vector<WriteOp> resumed;
    for (auto& [id, room] : rooms_) {
        LiveGame& g = room->game();
        if (abandoned(g, now, opt_)) g.archive(now);
        resumed.emplace_back(std::in_place_type<SaveGame>, SaveGame{g.meta()});
    }
    if (!resumed.empty()) initial_storage_->apply(resumed);
    storage_ = std::make_unique<StorageWorker>(
        std::move(initial_storage_), [this](std::function<void()> f) { boost::asio::post(ioc_, std::move(f)); },
        opt_.heartbeat_ms, opt_.read_queue);
    for (auto& [id, room] : rooms_) room->start();
    for (auto& [id, room] : rooms_)
        if (room->game().record().result_pending) record_game_result(*this, room->game().record());
    if (cluster_)
        cluster_->start();  // the node that takes the lobby starts the tournaments
    else
        start_tournaments();
    sweep();
}

void Hub::shutdown() {
    // Engines first (their completions post into the I/O context), then
    // storage (finishes queued writes).
    if (cluster_) cluster_->stop();
    for (auto& [id, room] : rooms_) room->stop();
    if (tournaments_) tournaments_->stop();
    accounts_.reset();  // finishes the request running (its completion is never run), withdraws its hashes
    work_.reset();
    storage_.reset();
}

// ---------------------------------------------------------------------------
// Peers

void Hub::peer_opened(const PeerPtr& p) { peers_[p->id()] = p; }

void Hub::peer_closed(Peer& p) {
    if (cluster_) cluster_->peer_closed(p);
    peers_.erase(p.id());
    turns_.unbind_peer(p);
    streams_->stop(p);
    lobby_.unsubscribe(p.id());
    pools_->leave(p, false);
    tournaments_->unwatch(p);
    if (!p.token.empty()) {
        auto it = peers_by_token_.find(p.token);
        if (it != peers_by_token_.end()) {
            it->second.erase(p.id());
            if (it->second.empty()) {
                peers_by_token_.erase(it);
                seeks_.owner_absent(p.token);
            }
        }
    }
    for (const std::string& gid : p.watching)
        if (GameRoom* room = find_room(gid)) room->leave(p);
    p.watching.clear();
}

std::vector<PeerPtr> Hub::peers_of(const std::string& token) const {
    std::vector<PeerPtr> out;
    auto it = peers_by_token_.find(token);
    if (it == peers_by_token_.end()) return out;
    for (std::uint64_t id : it->second)
        if (auto p = peers_.find(id); p != peers_.end())
            if (PeerPtr sp = p->second.lock()) out.push_back(std::move(sp));
    return out;
}

PeerPtr Hub::peer(std::uint64_t id) const {
    auto it = peers_.find(id);
    return it == peers_.end() ? nullptr : it->second.lock();
}

void Hub::each_peer(const std::function<void(const PeerPtr&)>& fn) const {
    std::vector<PeerPtr> all;  // fn may open or close peers
    all.reserve(peers_.size());
    for (const auto& [id, w] : peers_)
        if (PeerPtr p = w.lock()) all.push_back(std::move(p));
    for (const PeerPtr& p : all) fn(p);
}

void Hub::adopt_token(const PeerPtr& p) {
    auto& mine = peers_by_token_[p->token];
    mine.insert(p->id());
    if (mine.size() == 1) seeks_.owner_present(p->token);
}

void Hub::drop_lost(const std::string& id) { drop_room(id, "another node runs this game now"); }

void Hub::tournament_game_ended(const GameRecord& g) {
    if (cluster_ && !cluster_->leader()) return cluster_->tournament_game_ended(g.id);
    tournaments_->game_ended(g);
}

void Hub::announce_lobby_games() {
    for (const auto& [id, room] : rooms_) {
        if (room->in_lobby()) {
            lobby_.game_started(room->game().record());
            lobby_.game_moved(id, room->game().ply(), room->game().record().fen);
        }
        if (room->game().live()) your_turn_changed(*this, room->game());
    }
}

void Hub::start_tournaments() {
    if (tournaments_started_) return;
    tournaments_started_ = true;
    tournaments_->start();
}

// ---------------------------------------------------------------------------
// Rooms

GameRoom* Hub::find_room(const std::string& id) {
    auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.get();
}

std::string Hub::new_game_id() {
    std::string id;
    do id = random_id(8);
    while (rooms_.count(id) || loading_.count(id));
    return id;
}

GameRoom& Hub::add_room(std::unique_ptr<LiveGame> game, const std::string& creator_ip) {
    const std::string id = game->id();
    auto room = std::make_unique<GameRoom>(*this, std::move(game), creator_ip);
    room->set_busy(true);
    GameRoom& ref = *room;
    rooms_[id] = std::move(room);
    return ref;
}

void Hub::with_room(const std::string& id, std::function<void(GameRoom*)> fn) {
    if (GameRoom* room = find_room(id)) {
        if (room->busy()) {
            if (!room->enqueue([this, id, fn]() mutable { with_room(id, std::move(fn)); })) fn(nullptr);
            return;
        }
        return fn(room);
    }
    if (!valid_game_id(id) || !storage_) return fn(nullptr);
    auto& pending = loading_[id];
    pending.push_back(std::move(fn));
    if (pending.size() > 1) return;
    const bool queued = storage_->read([this, id](Storage& s) {
        std::optional<GameRecord> rec;
        std::vector<ChatRecord> chat;
        std::optional<Lease> lease;  // several nodes: the room loads under this node's lease
        std::string holder;          // or another node runs it
        std::int64_t gap_since = 0;  // the game changed hands: its clock stopped then
        try {
            // Several nodes: a game another node runs is not read here, only its holder.
            if (!cluster_ || !cluster_->held_elsewhere(s, id, now_ms(), &holder)) rec = s.load_game(id);
            if (rec && cluster_) {
                lease = cluster_->claim(s, id, now_ms(), &holder, &gap_since);
                rec.reset();
                if (lease) rec = s.load_game(id);  // with what its former node wrote before the claim
            }
            if (rec) chat = s.load_chat(id, int(opt_.chat_history));
        } catch (const std::exception& e) {
            log(std::string("load game: ") + e.what());
        }
        boost::asio::post(ioc_,
                          [this, id, rec = std::move(rec), chat = std::move(chat), lease, holder, gap_since]() mutable {
                              auto callbacks = std::move(loading_[id]);
                              loading_.erase(id);
                              GameRoom* room = find_room(id);
                              if (cluster_ && !room && !holder.empty()) cluster_->learned_holder(id, holder);
                              if (!room && rec) {
                                  try {
                                      const GameSettings settings{opt_.first_move_ms, opt_.draw_offer_interval};
                                      auto g = std::make_unique<LiveGame>(std::move(*rec), settings);
                                      // Taken over from a node that died: the time the game had
                                      // no node is not charged to the side to move.
                                      const bool resumed = gap_since > 0 && g->live();
                                      if (resumed) g->resume(gap_since, now_ms());
                                      room = &add_room(std::move(g));
                                      room->restore_chat(chat);
                                      room->set_busy(false);
                                      if (cluster_ && lease) cluster_->loaded(id, *lease, gap_since);
                                      room->start();
                                      cap_finished_rooms(id);
                                      if (resumed) commit({id}, {SaveGame{room->game().meta()}}, nullptr);
                                  } catch (const std::exception& ex) {
                                      log(ex.what());
                                      room = nullptr;
                                  }
                              }
                              for (auto& cb : callbacks) {
                                  if (room)
                                      with_room(id, std::move(cb));
                                  else
                                      cb(nullptr);
                              }
                          });
    });
    if (!queued) {
        auto callbacks = std::move(loading_[id]);
        loading_.erase(id);
        for (auto& cb : callbacks) cb(nullptr);
    }
}

void Hub::read_game(const std::string& id, std::function<void(const LiveGame*, GameRoom*)> fn) {
    if (GameRoom* room = find_room(id)) {
        if (!room->busy()) return fn(&room->game(), room);
        return with_room(id, [fn](GameRoom* r) { fn(r ? &r->game() : nullptr, r); });
    }
    if (!valid_game_id(id)) return fn(nullptr, nullptr);
    const bool queued = storage_->read([this, id, fn](Storage& s) {
        std::optional<GameRecord> rec;
        try {
            rec = s.load_game(id);
        } catch (const std::exception& e) {
            log(std::string("load game: ") + e.what());
        }
        boost::asio::post(ioc_, [this, id, fn, rec = std::move(rec)]() mutable {
            if (find_room(id)) return read_game(id, fn);  // loaded meanwhile
            if (!rec) return fn(nullptr, nullptr);
            std::unique_ptr<LiveGame> g;
            try {
                g = std::make_unique<LiveGame>(std::move(*rec),
                                               GameSettings{opt_.first_move_ms, opt_.draw_offer_interval});
            } catch (const std::exception& ex) {
                log(ex.what());
                return fn(nullptr, nullptr);
            }
            if (g->live() && !cluster_) {  // a live game belongs in a room (this happens only after a failed write)
                return with_room(id, [fn](GameRoom* r) { fn(r ? &r->game() : nullptr, r); });
            }
            fn(g.get(), nullptr);
        });
    });
    if (!queued) throw ApiError(Reason::storage_busy, "the server is busy; try again");
}

void Hub::commit(const std::vector<std::string>& ids, std::vector<WriteOp> ops, std::function<void()> then,
                 std::function<void(const std::string&)> failed) {
    for (const std::string& id : ids)
        if (GameRoom* room = find_room(id)) room->set_busy(true);
    if (cluster_) cluster_->fence(ids, ops);
    storage_->write(
        std::move(ops), [this, ids, then = std::move(then), failed = std::move(failed)](bool ok, std::string err) {
            if (!ok) {
                for (const std::string& id : ids) drop_room(id, err);
                if (failed) failed(err);
                return;
            }
            const std::vector<std::string> handed = cluster_ ? cluster_->committed(ids) : std::vector<std::string>{};
            for (const std::string& id : ids)
                if (GameRoom* room = find_room(id)) room->set_busy(false);
            if (then) then();
            for (const std::string& id : ids)
                if (GameRoom* room = find_room(id)) room->after_change();
            for (const std::string& id : ids) drain(id);
            for (const std::string& id : handed) hand_over(id);
        });
}

void Hub::place(const std::string& id) {
    if (cluster_) cluster_->place(id);
}

std::size_t Hub::live_room_count() const {
    std::size_t n = 0;
    for (const auto& [id, room] : rooms_) n += room->game().live();
    return n;
}

void Hub::hand_over(const std::string& id) {
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    it->second->handed_over();
    auto waiting = it->second->take_waiting();
    rooms_.erase(it);
    for (auto& f : waiting) f();  // routed to its node now
}

void Hub::drop_room(const std::string& id, const std::string& why) {
    // Nothing was stored: forget the in-memory state; it is read back from
    // the database on next use.
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    log("game " + id + ": " + why);
    it->second->storage_failed(why);
    auto waiting = it->second->take_waiting();
    rooms_.erase(it);
    if (cluster_) cluster_->released(id);
    for (auto& f : waiting) f();
}

void Hub::drain(const std::string& id) {
    for (;;) {
        GameRoom* room = find_room(id);
        if (!room) return;
        std::function<void()> f = room->next_waiting();
        if (!f) return;
        f();
    }
}

// ---------------------------------------------------------------------------
// Fair play

void Hub::index_position(const std::string& room, std::uint64_t, std::uint64_t new_key) {
    positions_[new_key].push_back(room);
}

void Hub::unindex_position(const std::string& room, std::uint64_t key) {
    auto it = positions_.find(key);
    if (it == positions_.end()) return;
    auto& v = it->second;
    v.erase(std::remove(v.begin(), v.end(), room), v.end());
    if (v.empty()) positions_.erase(it);
}

bool Hub::plays_position(const std::string& token, Variant v, std::uint64_t key) {
    if (token.empty()) return false;
    auto it = positions_.find(key);
    if (it == positions_.end()) return false;
    for (const std::string& id : it->second)
        if (GameRoom* room = find_room(id)) {
            const LiveGame& g = room->game();
            if (g.live() && g.variant() == v && g.position_key() == key && !g.seats_of(token).empty()) return true;
        }
    return false;
}

// ---------------------------------------------------------------------------

// Once a minute, when the engine's queue or the password hashes' held
// anything: how long the work waited, for the operator (a queue that grows
// says: more engine threads, or more cores for the log-ins).
void Hub::log_engine_waits(std::int64_t now) {
    if (now - waits_logged_at_ < 60'000) return;
    waits_logged_at_ = now;
    if (accounts_) {
        const accounts::AccountService::HashWaits h = accounts_->take_hash_waits();
        if (h.count + h.refused > 0)
            log("password hashes, last minute: " + std::to_string(h.count) + " (wait mean " +
                std::to_string(h.count ? h.total_ms / h.count : 0) + " ms, max " + std::to_string(h.max_ms) + " ms), " +
                std::to_string(h.refused) + " refused (queue full), " + std::to_string(accounts_->hashes_waiting()) +
                " waiting now");
    }
    const auto [games, hashes, analyses] = work_->take_waits();
    if (games.count + analyses.count + hashes.count == 0) return;
    auto line = [](const char* what, const work::Scheduler::Waits& w) {
        return std::to_string(w.count) + " " + what + " (wait mean " +
               std::to_string(w.count ? w.total_ms / w.count : 0) + " ms, max " + std::to_string(w.max_ms) + " ms)";
    };
    log("work queue, last minute: " + line("computer moves", games) + " of which " + std::to_string(games.cut) +
        " cut at their slice, " + line("analyses", analyses) + ", " + line("password hashes", hashes) + ", " +
        std::to_string(work_->queued()) + " searches and analyses waiting now");
}

// Finished games loaded for their watchers stay in memory at most
// max_finished_rooms at once: past it, the least recently used goes (a
// watcher who comes back loads it again), so that spectators of thousands of
// finished games hold a bounded amount of memory (docs/SECURITY.md).
void Hub::cap_finished_rooms(const std::string& keep) {
    if (opt_.max_finished_rooms == 0) return;
    std::vector<std::pair<std::int64_t, std::string>> idle;
    for (const auto& [id, room] : rooms_)
        if (id != keep && room->unloadable()) idle.emplace_back(room->last_used(), id);
    if (idle.size() < opt_.max_finished_rooms) return;
    const std::size_t excess = idle.size() + 1 - opt_.max_finished_rooms;
    std::nth_element(idle.begin(), idle.begin() + std::ptrdiff_t(excess - 1), idle.end());
    for (std::size_t i = 0; i < excess; ++i) {
        rooms_.erase(idle[i].second);
        if (cluster_) cluster_->released(idle[i].second);
    }
    rooms_freed_ += excess;
}

void Hub::sweep() {
    const std::int64_t now = now_ms();
    std::vector<std::string> evict, archive;
    for (auto& [id, room] : rooms_) {
        if (room->evictable(now)) evict.push_back(id);
        if (room->game().live() && abandoned(room->game(), now, opt_)) archive.push_back(id);
    }
    for (const std::string& id : evict) {
        rooms_.erase(id);
        if (cluster_) cluster_->released(id);
    }
    rooms_freed_ += evict.size();
    // The allocator keeps what many freed rooms held: give it back to the
    // system now (a flood's memory returns within a sweep).
    if (rooms_freed_ >= 64) {
        rooms_freed_ = 0;
        give_memory_back();
    }
    for (const std::string& id : archive)
        if (GameRoom* room = find_room(id)) room->archive(now);
    limits_->sweep(now);
    chat_.sweep(now);
    log_engine_waits(now);
    // Often enough for the shortest expiry that is set.
    sweep_timer_.expires_after(
        std::chrono::milliseconds(std::clamp<std::int64_t>(opt_.finished_ttl_ms / 2, 50, SWEEP_MS)));
    sweep_timer_.async_wait([this](boost::system::error_code ec) {
        if (!ec) sweep();
    });
}

}  // namespace echecs::server

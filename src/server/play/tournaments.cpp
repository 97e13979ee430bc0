#include "server/play/tournaments.h"

#include <algorithm>
#include <limits>

#include "server/app/util.h"
#include "server/play/arena_room.h"
#include "server/play/hub.h"
#include "server/play/swiss_room.h"

namespace echecs::server {

using nlohmann::json;

namespace {
constexpr std::int64_t TICK_MS = 1000;
constexpr std::int64_t DAY_MS = 24 * 3600'000;
const TimeControl DAILY_TIME{TimeControl::Realtime, 3 * 60'000, 2'000, 0};
}  // namespace

namespace {
Tournaments::Stored stored_of(Storage& storage, TournamentRecord t) {
    Tournaments::Stored s;
    s.players = storage.tournament_players(t.id);
    s.games = storage.tournament_games(t.id);
    if (t.kind == "swiss") s.pairings = storage.swiss_pairings(t.id);
    s.rec = std::move(t);
    return s;
}
}  // namespace

nlohmann::json Tournaments::archived_of(Hub& hub, Storage& storage, const std::string& player, std::int64_t before) {
    nlohmann::json out = nlohmann::json::array();
    for (TournamentRecord& t : storage.finished_tournaments_of(player, before, ARCHIVED_LISTED)) {
        const std::unique_ptr<TournamentRoom> room = make_room(hub, stored_of(storage, std::move(t)));
        nlohmann::json place = room->standing_of(player);
        if (place.is_null()) continue;
        nlohmann::json s = room->summary();
        s["player"] = std::move(place);
        s["archived"] = true;
        out.push_back(std::move(s));
    }
    return out;
}

std::int64_t Tournaments::oldest_finished_start() const {
    std::int64_t oldest = std::numeric_limits<std::int64_t>::max();
    for (const auto& [id, room] : rooms_)
        if (room->finished()) oldest = std::min(oldest, room->record().starts_at);
    return oldest;
}

std::vector<Tournaments::Stored> Tournaments::load(Storage& storage) {
    std::vector<TournamentRecord> recs;
    for (const char* status : {"created", "started"})
        for (TournamentRecord& t : storage.list_tournaments(status, int(MAX_OPEN))) recs.push_back(std::move(t));
    for (TournamentRecord& t : storage.list_tournaments("finished", int(FINISHED_KEPT))) recs.push_back(std::move(t));
    std::vector<Stored> out;
    out.reserve(recs.size());
    for (TournamentRecord& t : recs) out.push_back(stored_of(storage, std::move(t)));
    return out;
}

std::optional<Tournaments::Stored> Tournaments::load_one(Storage& storage, const std::string& id) {
    std::optional<TournamentRecord> t = storage.load_tournament(id);
    if (!t) return std::nullopt;
    return stored_of(storage, std::move(*t));
}

nlohmann::json Tournaments::archived(Hub& hub, Stored t, const std::string& token) {
    const std::unique_ptr<TournamentRoom> room = make_room(hub, std::move(t));
    return {{"tournament", room->view()}, {"me", room->me(token)}};
}

Tournaments::Tournaments(Hub& hub, Storage& storage) : hub_(hub), timer_(hub.ioc()) { reload(load(storage)); }

Tournaments::~Tournaments() { stop(); }

void Tournaments::reload(std::vector<Stored> stored) {
    rooms_.clear();
    watched_.clear();
    for (Stored& t : stored) {
        const std::string id = t.rec.id;  // before t is moved from
        rooms_[id] = make_room(hub_, std::move(t));
    }
}

std::unique_ptr<TournamentRoom> Tournaments::make_room(Hub& hub, Stored t) {
    if (t.rec.kind == "swiss")
        return std::make_unique<SwissRoom>(hub, std::move(t.rec), t.players, t.games, std::move(t.pairings));
    return std::make_unique<ArenaRoom>(hub, std::move(t.rec), t.players, t.games);
}

void Tournaments::start() {
    schedule_daily(now_ms());
    arm();
}

void Tournaments::stop() {
    stopped_ = true;
    timer_.cancel();
}

std::int64_t Tournaments::next_daily_start(std::int64_t now) {
    const std::int64_t today = now - now % DAY_MS + DAILY_HOUR_UTC * 3600'000LL;
    return now < today ? today : today + DAY_MS;
}

void Tournaments::schedule_daily(std::int64_t now) {
    for (const VariantInfo& v : VARIANTS) {
        const bool scheduled = std::any_of(rooms_.begin(), rooms_.end(), [&](const auto& r) {
            const TournamentRecord& t = r.second->record();
            return t.created_by == 0 && t.variant == v.variant && t.status != "finished";
        });
        if (scheduled) continue;
        TournamentRecord t;
        do t.id = random_id(8);
        while (rooms_.count(t.id));
        t.variant = v.variant;
        t.time = DAILY_TIME;
        t.starts_at = next_daily_start(now);
        t.duration_ms = DAILY_MS;
        t.created_at = now;
        create(std::move(t), [this](bool ok, std::string err) {
            if (!ok) hub_.log("daily arena not stored: " + err);
        });
    }
}

void Tournaments::create(TournamentRecord rec, std::function<void(bool, std::string)> done) {
    std::size_t open = 0;
    int mine = 0;
    for (const auto& [id, room] : rooms_) {
        if (room->finished()) continue;
        ++open;
        mine += rec.created_by != 0 && room->record().created_by == rec.created_by;
    }
    if (mine >= MAX_OPEN_PER_ACCOUNT)
        throw ApiError(Reason::too_many_tournaments, "you already have tournaments to come: wait for one to end", "",
                       {{"max", MAX_OPEN_PER_ACCOUNT}});
    if (open >= MAX_OPEN)
        throw ApiError(Reason::too_many_tournaments, "too many tournaments to come on this server", "",
                       {{"max", MAX_OPEN}});
    const TournamentRecord stored = rec;
    rooms_[stored.id] = make_room(hub_, Stored{std::move(rec), {}, {}, {}});
    hub_.storage().write({SaveTournament{stored}}, [this, id = stored.id, done](bool ok, std::string err) {
        // Not stored: not kept either, so that nobody joins what a restart forgets.
        if (!ok) rooms_.erase(id);
        done(ok, std::move(err));
    });
}

TournamentRoom* Tournaments::find(const std::string& id) {
    auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second.get();
}

json Tournaments::list(const std::string& player) const {
    std::vector<const TournamentRoom*> open, done;
    for (const auto& [id, room] : rooms_) (room->finished() ? done : open).push_back(room.get());
    auto by_start = [](const TournamentRoom* a, const TournamentRoom* b) {
        return a->record().starts_at != b->record().starts_at ? a->record().starts_at < b->record().starts_at
                                                              : a->id() < b->id();
    };
    std::sort(open.begin(), open.end(), by_start);
    std::sort(done.begin(), done.end(),
              [&](const TournamentRoom* a, const TournamentRoom* b) { return by_start(b, a); });
    json out = json::array();
    for (const auto* list : {&open, &done})
        for (const TournamentRoom* r : *list) {
            if (player.empty()) {
                out.push_back(r->summary());
                continue;
            }
            json place = r->standing_of(player);
            if (place.is_null()) continue;
            json s = r->summary();
            s["player"] = std::move(place);
            out.push_back(std::move(s));
        }
    return {{"tournaments", std::move(out)}};
}

void Tournaments::game_ended(const GameRecord& g) {
    if (TournamentRoom* r = find(g.tournament)) r->game_ended(g);
}

void Tournaments::watch(const PeerPtr& p, const std::string& id) {
    TournamentRoom* r = find(id);
    if (!r) throw ApiError(Reason::tournament_not_found, "no such tournament", "tournament");
    unwatch(*p);
    watched_[p->id()] = id;
    r->watch(p);
}

void Tournaments::unwatch(Peer& p) {
    auto it = watched_.find(p.id());
    if (it == watched_.end()) return;
    if (TournamentRoom* r = find(it->second)) r->unwatch(p.id());
    watched_.erase(it);
}

void Tournaments::arm() {
    if (stopped_) return;
    timer_.expires_after(std::chrono::milliseconds(TICK_MS));
    timer_.async_wait([this](boost::system::error_code ec) {
        if (!ec) tick();
    });
}

void Tournaments::tick() {
    const std::int64_t now = now_ms();
    for (auto& [id, room] : rooms_) room->tick(now);
    schedule_daily(now);
    drop_old_finished();
    arm();
}

// Finished tournaments beyond FINISHED_KEPT leave memory (not the database),
// unless a socket still watches them.
void Tournaments::drop_old_finished() {
    std::vector<const TournamentRoom*> done;
    for (const auto& [id, room] : rooms_)
        if (room->finished()) done.push_back(room.get());
    if (done.size() <= FINISHED_KEPT) return;
    std::sort(done.begin(), done.end(),
              [](const TournamentRoom* a, const TournamentRoom* b) { return a->ends_at() > b->ends_at(); });
    std::set<std::string> watched;
    for (const auto& [peer, id] : watched_) watched.insert(id);
    std::vector<std::string> drop;
    for (std::size_t i = FINISHED_KEPT; i < done.size(); ++i)
        if (!watched.count(done[i]->id())) drop.push_back(done[i]->id());
    for (const std::string& id : drop) rooms_.erase(id);
}

}  // namespace echecs::server

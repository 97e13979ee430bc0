#include "server/play/arena_room.h"

#include <algorithm>

#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

ArenaRoom::ArenaRoom(Hub& hub, TournamentRecord rec, const std::vector<TournamentPlayerRecord>& players,
                     const std::vector<GameRecord>& games)
    : TournamentRoom(hub, std::move(rec)) {
    for (const TournamentPlayerRecord& p : players) players_[p.account].rec = p;
    for (const GameRecord& g : games) {
        if (g.status == "live") {
            live_[g.id] = {g.white.account, g.black.account};
            for (std::int64_t a : {g.white.account, g.black.account})
                if (auto it = players_.find(a); it != players_.end()) it->second.game = g.id;
        } else {
            count(g);
        }
    }
}

void ArenaRoom::count(const GameRecord& g) {
    if (!counted_.insert(g.id).second) return;
    live_.erase(g.id);
    auto w = players_.find(g.white.account), b = players_.find(g.black.account);
    if (w == players_.end() || b == players_.end()) return;
    for (Player* p : {&w->second, &b->second})
        if (p->game == g.id) p->game.clear();
    w->second.last_opponent = b->first;
    b->second.last_opponent = w->first;
    ++w->second.white_minus_black;
    --b->second.white_minus_black;
    // An aborted game (no result: a side never moved) gives no points.
    if (g.result == "*") return;
    using tournament::Outcome;
    const Outcome white = g.result == "1-0" ? Outcome::Win : g.result == "0-1" ? Outcome::Loss : Outcome::Draw;
    const Outcome black = white == Outcome::Win ? Outcome::Loss : white == Outcome::Loss ? Outcome::Win : Outcome::Draw;
    auto letter = [](Outcome o) { return o == Outcome::Win ? 'W' : o == Outcome::Loss ? 'L' : 'D'; };
    // Own moves for berserk's point: White moved first.
    w->second.sheet.add(white, g.white_berserk, (g.ply + 1) / 2);
    w->second.results += letter(white);
    b->second.sheet.add(black, g.black_berserk, g.ply / 2);
    b->second.results += letter(black);
}

void ArenaRoom::game_ended(const GameRecord& g) {
    if (g.tournament != rec_.id) return;
    count(g);
    changed_ = true;
}

std::vector<const ArenaRoom::Player*> ArenaRoom::ranked() const {
    std::vector<const Player*> out;
    for (const auto& [id, p] : players_) out.push_back(&p);
    std::stable_sort(out.begin(), out.end(), [](const Player* a, const Player* b) {
        if (a->sheet.score() != b->sheet.score()) return a->sheet.score() > b->sheet.score();
        if (a->rec.rating != b->rec.rating) return a->rec.rating > b->rec.rating;
        return a->rec.account < b->rec.account;
    });
    return out;
}

void ArenaRoom::advance(std::int64_t now) {
    if (rec_.status == "created" && now >= rec_.starts_at) save_status("started");
    if (rec_.status == "started" && now >= ends_at()) save_status("finished");
    if (rec_.status == "started") pair(now);
}

bool ArenaRoom::playing_elsewhere(const Player& p) const {
    for (const std::string& gid : hub_.turns().games_of_account(p.rec.account)) {
        if (gid == p.game) continue;
        if (const GameRoom* room = hub_.find_room(gid)) {
            if (room->game().live() && room->game().record().time.kind == TimeControl::Realtime) return true;
        } else if (const TurnIndex::RemoteTurn* r = hub_.turns().remote(gid)) {  // run by another node
            if (r->entry && r->entry->time_kind == time_kind_name(TimeControl::Realtime)) return true;
        }
    }
    return false;
}

// Free: not paused, not playing (here or in another real-time game), and
// here (a socket open with the seat's browser token), so that nobody is
// paired to lose on time while away or busy.
void ArenaRoom::pair(std::int64_t now) {
    std::vector<tournament::FreePlayer> free;
    int rank = 0;
    for (const Player* p : ranked()) {
        ++rank;
        if (p->rec.paused || !p->game.empty() || hub_.peers_of(p->rec.token).empty() || playing_elsewhere(*p)) continue;
        free.push_back({p->rec.account, rank, p->last_opponent});
    }
    if (free.size() < 2) return;
    for (const auto& [a, b] : tournament::pair_free_players(std::move(free))) {
        Player& pa = players_.at(a);
        Player& pb = players_.at(b);
        // White to the one who had it less, else drawn.
        const bool a_white = pa.white_minus_black != pb.white_minus_black ? pa.white_minus_black < pb.white_minus_black
                                                                          : (hub_.rng()() & 1) != 0;
        start_game(a_white ? pa : pb, a_white ? pb : pa, now);
    }
}

void ArenaRoom::start_game(Player& white, Player& black, std::int64_t now) {
    GameRecord meta = open_game(white.rec, black.rec, now);
    const std::string gid = meta.id;
    white.game = black.game = gid;
    live_[gid] = {white.rec.account, black.rec.account};
    changed_ = true;
    const std::string tid = rec_.id, wt = white.rec.token, bt = black.rec.token;
    const std::int64_t wa = white.rec.account, ba = black.rec.account;
    hub_.commit(
        {gid}, {SaveGame{std::move(meta)}},
        [&hub = hub_, tid, gid, wt, bt] {
            for (const auto& [token, color] : {std::pair{wt, "white"}, std::pair{bt, "black"}}) {
                const std::string text = out::to_text(out::TournamentPaired{tid, gid, color});
                for (const PeerPtr& p : hub.peers_of(token)) p->send(text);
            }
        },
        [this, gid, wa, ba](const std::string& err) {
            hub_.log("tournament " + rec_.id + ": game " + gid + " not stored: " + err);
            live_.erase(gid);
            for (std::int64_t a : {wa, ba})
                if (auto it = players_.find(a); it != players_.end() && it->second.game == gid) it->second.game.clear();
            changed_ = true;
        });
}

void ArenaRoom::join(const accounts::SeatAccount& a, const std::string& token,
                     std::function<void(bool, std::string)> done) {
    if (finished()) throw ApiError(Reason::tournament_finished, "the tournament is over");
    auto it = players_.find(a.account_id);
    if (it == players_.end() && players_.size() >= MAX_PLAYERS)
        throw ApiError(Reason::tournament_full, "the tournament is full", "", {{"max", MAX_PLAYERS}});
    const TournamentPlayerRecord p = entry(it == players_.end() ? nullptr : &it->second.rec, a, token);
    players_[a.account_id].rec = p;
    changed_ = true;
    hub_.storage().write({SaveTournamentPlayer{p}}, std::move(done));
}

void ArenaRoom::withdraw(std::int64_t account, std::function<void(bool, std::string)> done) {
    auto it = players_.find(account);
    if (it == players_.end()) throw ApiError(Reason::tournament_not_joined, "you have not joined this tournament");
    it->second.rec.paused = true;
    changed_ = true;
    hub_.storage().write({SaveTournamentPlayer{it->second.rec}}, std::move(done));
}

json ArenaRoom::summary() const {
    return {{"id", rec_.id},
            {"kind", rec_.kind},
            {"name", rec_.name},
            {"daily", rec_.created_by == 0},
            {"variant", variant_name(rec_.variant)},
            {"time", time_json(rec_.time)},
            {"rated", rec_.rated},
            {"status", rec_.status},
            {"starts_at", rec_.starts_at},
            {"ends_at", ends_at()},
            {"players", players_.size()}};
}

json ArenaRoom::view() const {
    json j = summary();
    json standings = json::array();
    int rank = 0;
    for (const Player* p : ranked()) {
        standings.push_back({{"rank", ++rank},
                             {"name", p->rec.name},
                             {"rating", p->rec.rating},
                             {"provisional", p->rec.provisional},
                             {"score", p->sheet.score()},
                             {"points", p->sheet.points()},
                             {"results", p->results},
                             {"fire", p->sheet.on_fire()},
                             {"paused", p->rec.paused},
                             {"game", p->game.empty() ? json(nullptr) : json(p->game)}});
    }
    json games = json::array();
    for (const auto& [gid, seats] : live_) {
        auto w = players_.find(seats.first), b = players_.find(seats.second);
        games.push_back({{"id", gid},
                         {"white", w == players_.end() ? "" : w->second.rec.name},
                         {"black", b == players_.end() ? "" : b->second.rec.name}});
    }
    j["standings"] = std::move(standings);
    j["games"] = std::move(games);
    return j;
}

json ArenaRoom::me(const std::string& token) const {
    if (!token.empty()) {
        int rank = 0;
        for (const Player* p : ranked()) {
            ++rank;
            if (p->rec.token != token) continue;
            return {{"joined", true},
                    {"name", p->rec.name},
                    {"paused", p->rec.paused},
                    {"rank", rank},
                    {"game", p->game.empty() ? json(nullptr) : json(p->game)}};
        }
    }
    return {{"joined", false}};
}

json ArenaRoom::standing_of(const std::string& name) const {
    const std::string wanted = lower(name);
    int rank = 0;
    for (const Player* p : ranked()) {
        ++rank;
        if (lower(p->rec.name) == wanted) return {{"rank", rank}, {"score", p->sheet.score()}, {"results", p->results}};
    }
    return nullptr;
}

}  // namespace echecs::server

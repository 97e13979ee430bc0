#include "server/play/swiss_room.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <memory>
#include <numeric>

#include "server/app/util.h"
#include "server/play/hub.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;
using tournament::Colour;
using tournament::Float;
using tournament::RoundKind;

SwissRoom::SwissRoom(Hub& hub, TournamentRecord rec, const std::vector<TournamentPlayerRecord>& players,
                     const std::vector<GameRecord>& games, const std::vector<SwissPairingRecord>& pairings)
    : TournamentRoom(hub, std::move(rec)) {
    for (const TournamentPlayerRecord& p : players) players_[p.account] = p;
    for (const GameRecord& g : games) {
        results_[g.id] = result_of(g);
        // The withdrawal a forfeit caused is stored already (or was lost: not done twice).
        if (results_[g.id].forfeit) forfeits_counted_.insert(g.id);
        if (g.status != "live") ended_at_ = std::max(ended_at_, g.ended_at);
    }
    for (const SwissPairingRecord& p : pairings) {
        if (p.round < 1 || p.round > MAX_ROUNDS) continue;
        if (std::size_t(p.round) > rounds_.size()) rounds_.resize(std::size_t(p.round));
        rounds_[std::size_t(p.round - 1)].push_back(p);
    }
    if (!finished()) ended_at_ = 0;
}

// A game that ends normally scores 1, 1/2, 0. One the game room aborted
// because a side never made its first move (no result) is lost by forfeit by
// the side to move then, which never moved: White at ply 0, Black at ply 1.
SwissRoom::Result SwissRoom::result_of(const GameRecord& g) {
    Result r;
    if (g.status == "live") return r;
    r.over = true;
    r.ended_at = g.ended_at;
    if (g.result == "1-0") {
        r.white2 = 2;
    } else if (g.result == "0-1") {
        r.black2 = 2;
    } else if (g.result == "1/2-1/2") {
        r.white2 = r.black2 = 1;
    } else {
        r.forfeit = true;
        (g.ply % 2 == 0 ? r.black2 : r.white2) = 2;
    }
    return r;
}

void SwissRoom::game_ended(const GameRecord& g) {
    if (g.tournament != rec_.id) return;
    const Result r = result_of(g);
    results_[g.id] = r;
    changed_ = true;
    if (!r.forfeit || !forfeits_counted_.insert(g.id).second) return;
    // The forfeiting side is withdrawn, so that an absent player does not
    // keep losing; joining again brings them back.
    auto it = players_.find(r.white2 == 0 ? g.white.account : g.black.account);
    if (it == players_.end() || it->second.paused) return;
    it->second.paused = true;
    hub_.storage().write({SaveTournamentPlayer{it->second}}, [&hub = hub_, id = rec_.id](bool ok, std::string err) {
        if (!ok) hub.log("tournament " + id + ": a forfeit's withdrawal not stored: " + err);
    });
}

bool SwissRoom::round_over(std::int64_t* end_ms) const {
    std::int64_t end = 0;
    if (!rounds_.empty())
        for (const SwissPairingRecord& b : rounds_.back()) {
            if (b.game.empty()) continue;
            auto it = results_.find(b.game);
            if (it == results_.end() || !it->second.over) return false;
            end = std::max(end, it->second.ended_at);
        }
    if (end_ms) *end_ms = end;
    return true;
}

void SwissRoom::advance(std::int64_t now) {
    if (finished() || writing_ || now < rec_.starts_at) return;
    std::int64_t end = 0;
    if (!round_over(&end)) return;
    if (round() >= rec_.rounds) return finish(end);
    if (round() > 0 && now < end + rec_.round_interval_ms) return;
    pair_next(now);
}

void SwissRoom::finish(std::int64_t at) {
    ended_at_ = std::max(at, rec_.starts_at);
    save_status("finished");
}

std::map<std::int64_t, std::vector<SwissRoom::Entry>> SwissRoom::entries() const {
    std::map<std::int64_t, std::vector<Entry>> out;
    Entry absent;
    absent.tie.kind = RoundKind::Absent;
    for (const auto& [a, p] : players_) out[a].assign(rounds_.size(), absent);
    for (std::size_t k = 0; k < rounds_.size(); ++k)
        for (const SwissPairingRecord& b : rounds_[k]) {
            auto w = out.find(b.white), bl = out.find(b.black);
            if (b.game.empty()) {  // the bye
                if (w != out.end()) w->second[k].tie = {RoundKind::PairingBye, 0, 2};
                continue;
            }
            auto r = results_.find(b.game);
            const bool over = r != results_.end() && r->second.over;
            for (auto [it, white] : {std::pair{w, true}, std::pair{bl, false}}) {
                if (it == out.end()) continue;
                Entry& e = it->second[k];
                e.game = b.game;
                e.opponent = white ? b.black : b.white;
                e.live = !over;
                const int mine = over ? (white ? r->second.white2 : r->second.black2) : 0;
                if (over && r->second.forfeit) {
                    e.tie = {mine == 2 ? RoundKind::ForfeitWin : RoundKind::ForfeitLoss, 0, mine};
                } else {
                    e.tie = {RoundKind::Played, e.opponent, mine};
                    e.colour = white ? Colour::White : Colour::Black;
                }
            }
        }
    return out;
}

std::vector<tournament::SwissPlayer> SwissRoom::pairing_input() const {
    const auto all = entries();
    // Points before each round: a float is a game against a player of
    // another score (or the bye: down), as pair_dutch itself returns them.
    std::map<std::int64_t, std::vector<int>> before;
    for (const auto& [a, es] : all) {
        int sum = 0;
        for (const Entry& e : es) before[a].push_back(sum), sum += e.tie.points2;
    }
    std::vector<tournament::SwissPlayer> out;
    for (const auto& [a, es] : all) {
        const TournamentPlayerRecord& p = players_.at(a);
        if (p.paused) continue;
        tournament::SwissPlayer s;
        s.id = a;
        s.rating = p.rating;
        for (std::size_t k = 0; k < es.size(); ++k) {
            const Entry& e = es[k];
            s.points2 += e.tie.points2;
            s.colours.push_back(e.colour);
            Float f = Float::None;
            if (e.tie.kind == RoundKind::PairingBye) {
                f = Float::Down;
            } else if (e.opponent && before.count(e.opponent)) {
                const int mine = before.at(a)[k], theirs = before.at(e.opponent)[k];
                f = mine > theirs ? Float::Down : mine < theirs ? Float::Up : Float::None;
            }
            s.floats.push_back(f);
            if (e.tie.kind == RoundKind::Played) s.opponents.push_back(e.opponent);
            if (e.tie.kind == RoundKind::PairingBye || e.tie.kind == RoundKind::ForfeitWin) s.bye_received = true;
        }
        out.push_back(std::move(s));
    }
    return out;
}

void SwissRoom::pair_next(std::int64_t now) {
    std::vector<tournament::SwissPlayer> in = pairing_input();
    // Fewer than two players to pair: nothing more can be played.
    if (in.size() < 2) return finish(now);
    tournament::DutchOptions o;
    o.round = round() + 1;
    o.total_rounds = rec_.rounds;
    // The colour drawn for pairing number 1, fixed by the id so that a
    // restart draws the same.
    const unsigned sum = std::accumulate(rec_.id.begin(), rec_.id.end(), 0u,
                                         [](unsigned s, char c) { return s + static_cast<unsigned char>(c); });
    o.initial_colour = sum % 2 ? Colour::Black : Colour::White;
    // pair_dutch takes tens of milliseconds for hundreds of players (42 ms
    // for 301 in a release build, seconds under the sanitizers): on the
    // engine's threads, as an analysis of this tournament's own, never on the
    // I/O thread. Nothing else is paired until the round is stored.
    writing_ = true;
    auto job = [this, &hub = hub_, in = std::move(in), o, now](const std::atomic<bool>&) {
        auto pairing = std::make_shared<std::optional<tournament::DutchPairing>>(tournament::pair_dutch(in, o));
        boost::asio::post(hub.ioc(), [this, pairing, o, now] { store_round(*pairing, o, now); });
    };
    if (hub_.work().submit_analysis("tournament " + rec_.id, std::move(job)) != work::Scheduler::Refusal::None)
        writing_ = false;  // the engine's queue is full: the next tick tries again
}

void SwissRoom::store_round(const std::optional<tournament::DutchPairing>& pairing, const tournament::DutchOptions& o,
                            std::int64_t now) {
    if (!pairing) {
        writing_ = false;
        hub_.log("tournament " + rec_.id + ": no legal pairing for round " + std::to_string(o.round) + ": finished");
        return finish(now);
    }
    // A player who withdrew while the pairing ran: the next tick pairs
    // again, without them.
    const auto gone = [this](std::int64_t a) {
        auto it = players_.find(a);
        return a && (it == players_.end() || it->second.paused);
    };
    bool stale = gone(pairing->bye);
    for (const auto& [w, b] : pairing->games) stale = stale || gone(w) || gone(b);
    if (stale) {
        writing_ = false;
        return;
    }
    std::vector<SwissPairingRecord> boards;
    std::vector<std::string> ids;
    std::vector<WriteOp> ops;
    for (const auto& [w, b] : pairing->games) {
        GameRecord meta = open_game(players_.at(w), players_.at(b), now);
        boards.push_back({rec_.id, o.round, int(boards.size()) + 1, w, b, meta.id});
        ids.push_back(meta.id);
        ops.emplace_back(SaveGame{std::move(meta)});
    }
    if (pairing->bye) boards.push_back({rec_.id, o.round, int(boards.size()) + 1, pairing->bye, 0, ""});
    for (const SwissPairingRecord& b : boards) ops.emplace_back(AddSwissPairing{b});
    if (o.round == 1) {
        TournamentRecord started = rec_;
        started.status = "started";
        ops.emplace_back(SaveTournament{started});
    }
    // Announced (the round, then each player's game) only once stored.
    hub_.commit(
        ids, std::move(ops),
        [this, boards] {
            writing_ = false;
            rec_.status = "started";
            rounds_.push_back(boards);
            changed_ = true;
            for (const SwissPairingRecord& b : boards) {
                if (b.game.empty()) continue;
                for (const auto& [account, color] : {std::pair{b.white, "white"}, std::pair{b.black, "black"}}) {
                    auto it = players_.find(account);
                    if (it == players_.end()) continue;
                    const std::string text = out::to_text(out::TournamentPaired{rec_.id, b.game, color, b.round});
                    for (const PeerPtr& p : hub_.peers_of(it->second.token)) p->send(text);
                }
            }
        },
        [this](const std::string& err) {
            // Nothing stored: the next tick pairs the round again.
            writing_ = false;
            hub_.log("tournament " + rec_.id + ": round not stored: " + err);
        });
}

std::vector<tournament::Standing> SwissRoom::standings() const {
    std::vector<tournament::CrossRow> rows;
    for (auto& [a, es] : entries()) {
        tournament::CrossRow row{a, players_.at(a).rating, {}};
        for (const Entry& e : es) row.rounds.push_back(e.tie);
        rows.push_back(std::move(row));
    }
    return tournament::swiss_standings(rows);
}

std::string SwissRoom::name_of(std::int64_t account) const {
    auto it = players_.find(account);
    return it == players_.end() ? "" : it->second.name;
}

json SwissRoom::round_json(const Entry& e) const {
    static const char* const KINDS[] = {"played", "bye", "forfeit_win", "forfeit_loss", "absent"};
    json j{{"kind", e.live ? "live" : KINDS[int(e.tie.kind)]}};
    if (e.opponent) j["opponent"] = name_of(e.opponent);
    if (e.colour != Colour::None) j["color"] = e.colour == Colour::White ? "white" : "black";
    if (!e.live) j["points"] = e.tie.points2 / 2.0;
    if (!e.game.empty()) j["game"] = e.game;
    return j;
}

std::int64_t SwissRoom::next_round_at() const {
    std::int64_t end = 0;
    if (rec_.status != "started" || writing_ || round() >= rec_.rounds || !round_over(&end)) return 0;
    return end + rec_.round_interval_ms;
}

json SwissRoom::summary() const {
    const std::int64_t next = next_round_at();
    return {{"id", rec_.id},
            {"kind", rec_.kind},
            {"name", rec_.name},
            {"daily", false},
            {"variant", variant_name(rec_.variant)},
            {"time", time_json(rec_.time)},
            {"rated", rec_.rated},
            {"status", rec_.status},
            {"starts_at", rec_.starts_at},
            {"ends_at", ended_at_ ? json(ended_at_) : json(nullptr)},
            {"rounds", rec_.rounds},
            {"round", round()},
            {"round_interval", rec_.round_interval_ms / 1000},
            {"next_round_at", next ? json(next) : json(nullptr)},
            {"players", players_.size()}};
}

json SwissRoom::view() const {
    json j = summary();
    const auto all = entries();
    json standings = json::array();
    int rank = 0;
    for (const tournament::Standing& s : this->standings()) {
        const TournamentPlayerRecord& p = players_.at(s.id);
        json rounds = json::array();
        for (const Entry& e : all.at(s.id)) rounds.push_back(round_json(e));
        standings.push_back({{"rank", ++rank},
                             {"name", p.name},
                             {"rating", p.rating},
                             {"provisional", p.provisional},
                             {"points", s.points2 / 2.0},
                             {"buchholz", s.buchholz},
                             {"buchholz_cut1", s.buchholz_cut1},
                             {"sonneborn_berger", s.sonneborn_berger},
                             {"withdrawn", p.paused},
                             {"rounds", std::move(rounds)}});
    }
    json games = json::array();
    json bye = nullptr;
    if (!rounds_.empty())
        for (const SwissPairingRecord& b : rounds_.back()) {
            if (b.game.empty()) {
                bye = name_of(b.white);
                continue;
            }
            auto r = results_.find(b.game);
            if (r != results_.end() && r->second.over) continue;
            games.push_back(
                {{"id", b.game}, {"board", b.board}, {"white", name_of(b.white)}, {"black", name_of(b.black)}});
        }
    j["standings"] = std::move(standings);
    j["games"] = std::move(games);
    j["bye"] = std::move(bye);
    return j;
}

json SwissRoom::me(const std::string& token) const {
    if (token.empty()) return {{"joined", false}};
    auto it = std::find_if(players_.begin(), players_.end(), [&](const auto& p) { return p.second.token == token; });
    if (it == players_.end()) return {{"joined", false}};
    const std::int64_t account = it->first;
    const auto ranked = standings();
    const auto pos = std::find_if(ranked.begin(), ranked.end(), [&](const auto& s) { return s.id == account; });
    json j{{"joined", true},
           {"name", it->second.name},
           {"paused", it->second.paused},
           {"rank", int(pos - ranked.begin()) + 1},
           {"points", pos == ranked.end() ? 0.0 : pos->points2 / 2.0},
           {"pairing", nullptr}};
    if (!rounds_.empty()) {
        const Entry e = entries().at(account).back();
        if (e.tie.kind != RoundKind::Absent) {
            json p = round_json(e);
            p["round"] = round();
            j["pairing"] = std::move(p);
        }
    }
    return j;
}

json SwissRoom::standing_of(const std::string& name) const {
    const std::string wanted = lower(name);
    const auto all = entries();
    int rank = 0;
    for (const tournament::Standing& s : standings()) {
        ++rank;
        if (lower(players_.at(s.id).name) != wanted) continue;
        // W, D, L over the board; + and - by forfeit; B the bye; . absent.
        std::string results;
        for (const Entry& e : all.at(s.id)) {
            if (e.live) continue;
            switch (e.tie.kind) {
                case RoundKind::Played: results += e.tie.points2 == 2 ? 'W' : e.tie.points2 == 1 ? 'D' : 'L'; break;
                case RoundKind::PairingBye: results += 'B'; break;
                case RoundKind::ForfeitWin: results += '+'; break;
                case RoundKind::ForfeitLoss: results += '-'; break;
                case RoundKind::Absent: results += '.'; break;
            }
        }
        return {{"rank", rank}, {"score", s.points2 / 2.0}, {"results", results}};
    }
    return nullptr;
}

void SwissRoom::join(const accounts::SeatAccount& a, const std::string& token,
                     std::function<void(bool, std::string)> done) {
    if (finished()) throw ApiError(Reason::tournament_finished, "the tournament is over");
    auto it = players_.find(a.account_id);
    const bool playing = it != players_.end() && !it->second.paused;
    // Late entries until the last round is paired (a player still in moves their seat).
    if (!playing && round() >= rec_.rounds)
        throw ApiError(Reason::tournament_entries_closed, "the last round is paired: no more entries");
    if (it == players_.end() && players_.size() >= MAX_PLAYERS)
        throw ApiError(Reason::tournament_full, "the tournament is full", "", {{"max", MAX_PLAYERS}});
    const TournamentPlayerRecord p = entry(it == players_.end() ? nullptr : &it->second, a, token);
    players_[a.account_id] = p;
    changed_ = true;
    hub_.storage().write({SaveTournamentPlayer{p}}, std::move(done));
}

void SwissRoom::withdraw(std::int64_t account, std::function<void(bool, std::string)> done) {
    auto it = players_.find(account);
    if (it == players_.end()) throw ApiError(Reason::tournament_not_joined, "you have not joined this tournament");
    changed_ = true;
    if (rounds_.empty() && !writing_) {  // not started: no trace left
        players_.erase(it);
        hub_.storage().write({RemoveTournamentPlayer{rec_.id, account}}, std::move(done));
        return;
    }
    it->second.paused = true;
    hub_.storage().write({SaveTournamentPlayer{it->second}}, std::move(done));
}

}  // namespace echecs::server

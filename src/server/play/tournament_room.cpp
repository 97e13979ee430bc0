#include "server/play/tournament_room.h"

#include <cctype>

#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"
#include "server/protocol/server_messages.h"

namespace echecs::server {

void TournamentRoom::tick(std::int64_t now) {
    advance(now);
    if (!changed_ || watchers_.empty()) return;
    changed_ = false;
    auto text = std::make_shared<const std::string>(out::to_text(out::TournamentView{view()}));
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        if (PeerPtr p = it->second.lock()) {
            p->send(text);
            ++it;
        } else {
            it = watchers_.erase(it);
        }
    }
}

void TournamentRoom::save_status(std::string status) {
    rec_.status = std::move(status);
    changed_ = true;
    // The clock (an arena) or the stored rounds (a Swiss) decide the status
    // again after a restart: a lost write only delays what the list shows.
    hub_.storage().write({SaveTournament{rec_}}, [&hub = hub_, id = rec_.id](bool ok, std::string err) {
        if (!ok) hub.log("tournament " + id + ": status not stored: " + err);
    });
}

TournamentPlayerRecord TournamentRoom::entry(const TournamentPlayerRecord* before, const accounts::SeatAccount& a,
                                             const std::string& token) const {
    TournamentPlayerRecord p;
    if (before) {
        p = *before;
    } else {
        p.rating = a.rating;
        p.provisional = a.provisional;
        p.joined_at = now_ms();
    }
    p.tournament = rec_.id;
    p.account = a.account_id;
    p.name = a.username;
    p.token = token;
    p.paused = false;
    return p;
}

GameRecord TournamentRoom::open_game(const TournamentPlayerRecord& white, const TournamentPlayerRecord& black,
                                     std::int64_t now) {
    auto seat = [](const TournamentPlayerRecord& p) {
        Seat s{p.name, p.token, 0};
        s.account = p.account;
        s.rating = p.rating;
        s.provisional = p.provisional;
        return s;
    };
    GameRecord rec = LiveGame::new_record(hub_.new_game_id(), rec_.variant, rec_.time, seat(white), seat(black), now);
    rec.rated = rec_.rated;
    rec.tournament = rec_.id;
    const GameSettings settings{hub_.options().first_move_ms, hub_.options().draw_offer_interval};
    GameRoom& room = hub_.add_room(std::make_unique<LiveGame>(std::move(rec), settings));
    hub_.place(room.id());
    return room.game().meta();
}

std::string TournamentRoom::lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

void TournamentRoom::watch(const PeerPtr& p) {
    watchers_[p->id()] = p;
    p->send(out::to_text(out::TournamentView{view()}));
}

void TournamentRoom::unwatch(std::uint64_t peer) { watchers_.erase(peer); }

}  // namespace echecs::server

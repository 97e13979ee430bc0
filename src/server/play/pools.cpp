#include "server/play/pools.h"

#include "server/accounts/account_service.h"
#include "server/api/api_accounts.h"
#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {
constexpr std::int64_t PAIR_EVERY_MS = 1000;
}

Pools::Pools(Hub& hub) : hub_(hub), timer_(hub.ioc()) {}

void Pools::join(const PeerPtr& p, const std::string& pool, const std::string& nickname, const std::string& id_json) {
    const PoolSpec* spec = PoolBook::find_spec(pool);
    if (!spec) throw ApiError(Reason::pool_unknown, "no pool '" + ascii_excerpt(pool, 32) + "'", "pool");
    if (p->token.empty())
        throw ApiError(Reason::pool_hello_first, "say hello with your token before joining a pool", "pool");
    const std::uint64_t ticket = ++next_ticket_;
    pending_[p->id()] = ticket;
    hub_.accounts().seat_account(
        "", p->token_secret, std::string(variant_name(spec->variant)), speed_of(spec->time),
        [this, weak = std::weak_ptr<Peer>(p), pool, nickname, id_json, ticket](std::optional<accounts::SeatAccount> a) {
            PeerPtr peer = weak.lock();
            if (!peer) return;
            auto it = pending_.find(peer->id());
            if (it == pending_.end() || it->second != ticket) return;  // left, or joined again, meanwhile
            pending_.erase(it);
            PoolEntry e;
            e.peer = peer->id();
            e.token = peer->token;
            e.name = a ? a->username : nickname;
            e.account = a ? a->account_id : 0;
            e.rating = a ? a->rating : 1500;
            e.provisional = a ? a->provisional : true;
            e.joined_at = now_ms();
            book_.join(pool, e);
            out::PoolWaiting msg{pool, e.account != 0, std::nullopt, book_.range_at(e.joined_at, e.joined_at), id_json};
            if (a) msg.rating = a->rating;
            peer->send(out::to_text(msg));
            pair_now();
        });
}

void Pools::leave(Peer& p, bool tell) {
    const bool pending = pending_.erase(p.id()) > 0;
    const std::optional<std::string> pool = book_.pool_of(p.id());
    book_.leave(p.id());
    if (tell && (pool || pending)) p.send(out::to_text(out::PoolLeft{pool}));
}

json Pools::view() const {
    json pools = json::array();
    for (const PoolSpec& s : PoolBook::presets())
        pools.push_back({{"id", s.id},
                         {"variant", variant_name(s.variant)},
                         {"time", time_json(s.time)},
                         {"speed", speed_of(s.time)},
                         {"waiting", book_.waiting(s.id)}});
    return {{"pools", pools}, {"range", {{"initial", 100}, {"widen_by", 50}, {"every_ms", 5000}}}};
}

void Pools::pair_now() {
    for (const PoolPairing& pairing : book_.pair(now_ms())) start_game(pairing);
    arm();
}

void Pools::arm() {
    if (armed_ || book_.size() < 2) return;
    armed_ = true;
    timer_.expires_after(std::chrono::milliseconds(PAIR_EVERY_MS));
    timer_.async_wait([this](boost::system::error_code ec) {
        armed_ = false;
        if (!ec) pair_now();
    });
}

void Pools::start_game(const PoolPairing& pairing) {
    const PoolSpec& spec = *PoolBook::find_spec(pairing.pool);
    auto seat = [](const PoolEntry& e) {
        Seat s{e.name, e.token, 0};
        s.account = e.account;
        s.rating = e.account ? e.rating : 0;
        s.provisional = e.account ? e.provisional : false;
        return s;
    };
    const bool a_white = hub_.rng()() & 1;
    const PoolEntry& white = a_white ? pairing.a : pairing.b;
    const PoolEntry& black = a_white ? pairing.b : pairing.a;
    const std::string gid = hub_.new_game_id();
    GameRecord rec = LiveGame::new_record(gid, spec.variant, spec.time, seat(white), seat(black), now_ms());
    rec.rated = white.account && black.account && white.account != black.account;
    const GameSettings settings{hub_.options().first_move_ms, hub_.options().draw_offer_interval};
    GameRoom& room = hub_.add_room(std::make_unique<LiveGame>(std::move(rec), settings));
    hub_.place(gid);
    const std::string pool = pairing.pool;
    const std::string wt = white.token, bt = black.token;
    hub_.commit(
        {gid}, {SaveGame{room.game().meta()}},
        [this, gid, pool, wt, bt] {
            for (const auto& [token, color] : {std::pair{wt, "white"}, std::pair{bt, "black"}}) {
                const std::string text = out::to_text(out::PoolPaired{pool, gid, color});
                for (const PeerPtr& p : hub_.peers_of(token)) p->send(text);
            }
        },
        [this, pool, wt, bt](const std::string& err) {
            const std::string text =
                ws_error_text(ApiError(Reason::storage_failed, "storage failed: " + to_valid_utf8(err)), "", "");
            for (const std::string& token : {wt, bt})
                for (const PeerPtr& p : hub_.peers_of(token)) p->send(text);
        });
}

}  // namespace echecs::server

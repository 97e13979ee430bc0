// (About 400 lines: every action of a game and what follows it, in one place.)
#include "server/play/game_room.h"

#include <algorithm>
#include <boost/asio/post.hpp>

#include "engine/engine.h"
#include "server/app/util.h"
#include "server/play/game_results.h"
#include "server/play/hub.h"
#include "server/play/tournaments.h"
#include "server/play/your_turn.h"
#include "server/protocol/text.h"

namespace echecs::server {

namespace {
constexpr std::int64_t ENGINE_WAIT_CHARGED_MS = 500;
constexpr std::int64_t COMPUTER_MOVE_MS = 1500;  // a computer move's longest think (full strength)

// Engine epochs never repeat, not even across the room objects of one game
// (a room dropped after a failed write is read back anew): a search asked
// for before a takeback can never pass for a current one.
std::uint64_t fresh_epoch() {
    static std::atomic<std::uint64_t> next{0};
    return ++next;
}
}  // namespace

namespace {
ApiError not_your_seat(const std::string& id) {
    return ApiError(Reason::not_your_seat, "this token holds no seat in game " + id);
}
}  // namespace

GameRoom::GameRoom(Hub& hub, std::unique_ptr<LiveGame> game, std::string creator_ip)
    : hub_(hub),
      id_(game->id()),
      game_(std::move(game)),
      creator_ip_(std::move(creator_ip)),
      timer_(hub.ioc()),
      engine_cancel_(std::make_shared<std::atomic<bool>>(false)),
      engine_epoch_(fresh_epoch()),
      chat_(hub.options().chat_history) {
    const std::int64_t now = now_ms();
    for (Color c : {WHITE, BLACK}) hub_.turns().add(game_->seat(c), id_);
    gone_since_[WHITE] = gone_since_[BLACK] = now;
    last_used_ = now;
    if (game_->live() && game_->against_computer() && !creator_ip_.empty()) {
        hub_.limits().add_engine_game(creator_ip_, +1);
        counts_engine_game_ = true;
    }
}

GameRoom::~GameRoom() {
    engine_cancel_->store(true);
    if (indexed_) hub_.unindex_position(id_, indexed_key_);
    if (counts_engine_game_) hub_.limits().add_engine_game(creator_ip_, -1);
    if (announced_) hub_.lobby().game_ended(id_);
    for (Color c : {WHITE, BLACK}) hub_.turns().remove(game_->seat(c), id_);
}

bool GameRoom::enqueue(std::function<void()> action) {
    if (waiting_.size() >= MAX_WAITING) return false;
    waiting_.push_back(std::move(action));
    return true;
}

std::function<void()> GameRoom::next_waiting() {
    if (busy_ || waiting_.empty()) return nullptr;
    auto f = std::move(waiting_.front());
    waiting_.pop_front();
    return f;
}

std::optional<Color> GameRoom::seat_of(const std::string& token) const { return game_->seat_for(token); }

bool GameRoom::count_seats(const std::string& token, int delta, std::int64_t now) {
    bool changed = false;
    for (Color c : game_->seats_of(token)) {
        const int before = seat_peers_[c];
        seat_peers_[c] = std::max(0, before + delta);
        if ((before == 0) != (seat_peers_[c] == 0)) changed = true;
        if (seat_peers_[c] == 0 && before > 0) gone_since_[c] = now;
    }
    return changed;
}

Presence GameRoom::presence(std::int64_t now) const {
    (void)now;
    Presence p;
    for (Color c : {WHITE, BLACK}) p.connected[c] = seat_peers_[c] > 0;
    if (game_->live() && game_->ply() >= 2 && !game_->against_computer()) {
        const std::int64_t grace = game_->record().time.kind == TimeControl::Realtime ? hub_.options().claim_realtime_ms
                                                                                      : hub_.options().claim_slow_ms;
        for (Color c : {WHITE, BLACK})
            if (p.connected[c] && !p.connected[~c]) p.claim = Presence::Claim{c, gone_since_[~c] + grace};
    }
    return p;
}

void GameRoom::send_state(Peer& p) const {
    const std::int64_t now = now_ms();
    p.send(game_->state_text(game_->state_base(now, presence(now)), seat_of(p.token)));
}

std::string GameRoom::state_for(const std::string& token) const {
    const std::int64_t now = now_ms();
    return game_->state_text(game_->state_base(now, presence(now)), seat_of(token));
}

void GameRoom::tell_watchers(const std::shared_ptr<const std::string>& text) const {
    for (const auto& [id, w] : watchers_)
        if (PeerPtr p = w.peer.lock()) p->send(text);
}

void GameRoom::broadcast() {
    owes_broadcast_ = false;
    const std::int64_t now = now_ms();
    std::shared_ptr<const std::string> texts[3];
    std::string base;
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        PeerPtr p = it->second.peer.lock();
        if (!p) {  // a socket gone without saying so
            count_seats(it->second.token, -1, now);
            it = watchers_.erase(it);
            continue;
        }
        std::optional<Color> you = seat_of(p->token);
        const int k = you ? int(*you) : 2;
        if (!texts[k]) {
            if (base.empty()) base = game_->state_base(now, presence(now));
            texts[k] = std::make_shared<const std::string>(game_->state_text(base, you));
        }
        p->send(texts[k]);  // never re-enters: the map stays valid
        ++it;
    }
}

void GameRoom::join(const PeerPtr& p) {
    const std::int64_t now = now_ms();
    touch(now);
    const bool first = watchers_.emplace(p->id(), Watcher{p, p->token}).second;
    p->watching.insert(id_);
    if (first && count_seats(p->token, +1, now))
        broadcast();  // a player arrived: everybody sees it
    else
        send_state(*p);
    send_chat_history(*p);
}

void GameRoom::leave(const Peer& p) {
    auto it = watchers_.find(p.id());
    if (it == watchers_.end()) return;
    const std::string token = it->second.token;
    watchers_.erase(it);
    if (count_seats(token, -1, now_ms())) {
        if (busy_)
            owes_broadcast_ = true;
        else
            broadcast();
    }
}

void GameRoom::peer_hello(const PeerPtr& p) {
    auto it = watchers_.find(p->id());
    if (it == watchers_.end()) return;
    const std::int64_t now = now_ms();
    bool changed = false;
    if (it->second.token != p->token) {
        changed = count_seats(it->second.token, -1, now);
        it->second.token = p->token;
        changed = count_seats(p->token, +1, now) || changed;
    }
    if (changed)
        broadcast();
    else
        send_state(*p);     // its `you` may have changed: to this socket only
    send_chat_history(*p);  // and with it its chat room
}

void GameRoom::reply_error(const PeerPtr& p, const ApiError& e, const std::string& id_json) const {
    p->send(ws_error_text(e, id_, id_json));
}

std::vector<WriteOp> GameRoom::move_ops() {
    std::vector<WriteOp> ops;
    ops.reserve(2);
    ops.emplace_back(AddMove{id_, game_->record().moves.back()});
    if (game_->live()) {
        const GameRecord& r = game_->record();
        ops.emplace_back(SaveProgress{id_, r.ply, r.fen, r.white_ms, r.black_ms, r.clock_at, r.draw_offer});
    } else {
        ops.emplace_back(SaveGame{game_->meta()});
    }
    return ops;
}

void GameRoom::store_end_if_over(bool was_live) {
    if (was_live && !game_->live()) hub_.commit({id_}, {SaveGame{game_->meta()}}, nullptr);
}

void GameRoom::handle(const PeerPtr& p, const msg::Move& m, const std::string& id_json) {
    const std::int64_t now = now_ms();
    touch(now);
    std::optional<Color> seat = seat_of(p->token);
    if (!seat) return reply_error(p, not_your_seat(id_), id_json);
    const bool was_live = game_->live();
    const std::int64_t credit = std::min(p->lag_ms, hub_.options().lag_comp_max_ms);
    if (ActionResult err = game_->move(*seat, m.uci, m.ply, now, credit)) {
        store_end_if_over(was_live);
        return reply_error(p, *err, id_json);
    }
    const int ply = game_->ply();
    hub_.commit({id_}, move_ops(), [this, ply] {
        // The opponent's time starts when the move is stored and sent.
        if (game_->ply() == ply) game_->start_clock(now_ms());
    });
}

void GameRoom::handle(const PeerPtr& p, const msg::GameCommand& c, const std::string& id_json) {
    using msg::Command;
    const std::int64_t now = now_ms();
    touch(now);
    std::optional<Color> seat = seat_of(p->token);
    if (!seat) return reply_error(p, not_your_seat(id_), id_json);
    const bool was_live = game_->live();
    ActionResult err;
    bool agreed = false;
    int taken = 0;  // plies taken back by this command
    switch (c.command) {
        case Command::DrawOffer: err = game_->draw_offer(*seat, now); break;
        case Command::DrawAccept: err = game_->draw_accept(*seat, now); break;
        case Command::DrawDecline: err = game_->draw_decline(*seat); break;
        case Command::Resign: err = game_->resign(*seat, now); break;
        // A Swiss game is never aborted: a side that does not move loses it
        // by forfeit (SwissRoom); berserk is the arena's.
        case Command::Abort:
            if (swiss())
                err = ApiError(Reason::abort_swiss, "a Swiss game cannot be aborted: a side that does not move loses");
            else
                err = game_->abort(*seat, now);
            break;
        case Command::RematchOffer: err = game_->rematch_offer(*seat, agreed); break;
        case Command::RematchAccept:
            err = game_->rematch_accept(*seat);
            agreed = !err;
            break;
        case Command::RematchDecline: err = game_->rematch_decline(*seat); break;
        case Command::TakebackOffer: err = game_->takeback_offer(*seat, now, taken); break;
        case Command::TakebackAccept: err = game_->takeback_accept(*seat, now, taken); break;
        case Command::TakebackDecline: err = game_->takeback_decline(*seat); break;
        case Command::Berserk:
            if (swiss())
                err = ApiError(Reason::berserk_not_tournament, "berserk is for arena games");
            else
                err = game_->berserk(*seat);
            break;
        case Command::ClaimVictory:
        case Command::ClaimDraw: {
            if (!game_->live()) {
                err = game_->claim(*seat, true, now);  // game_over
                break;
            }
            Presence pr = presence(now);
            if (!pr.claim || pr.claim->by != *seat)
                err =
                    ApiError(Reason::claim_not_available, "the opponent is connected (or the game cannot be claimed)");
            else if (now < pr.claim->available_at)
                err = ApiError(Reason::claim_too_early,
                               "the game can be claimed " +
                                   std::to_string((pr.claim->available_at - now + 999) / 1000) + " s from now",
                               "", {{"available_at", pr.claim->available_at}});
            else
                err = game_->claim(*seat, c.command == Command::ClaimVictory, now);
            break;
        }
    }
    if (err) {
        store_end_if_over(was_live);  // the action came after a flag fell: store the end
        return reply_error(p, *err, id_json);
    }
    if (agreed) return rematch(p, id_json);
    if (taken) return took_back();
    hub_.commit({id_}, {SaveGame{game_->meta()}}, nullptr);
}

void GameRoom::took_back() {
    // A search for the position taken back must not be played: its answer
    // arrives with an old epoch and is dropped.
    engine_cancel_->store(true);
    engine_cancel_ = std::make_shared<std::atomic<bool>>(false);
    engine_pending_ = false;
    engine_epoch_ = fresh_epoch();
    // Stored (the moves deleted with the position they leave) before anybody
    // is told; after_change then sends the shorter game.
    hub_.commit({id_}, {TakeBackMoves{id_, game_->ply()}, SaveGame{game_->meta()}}, nullptr);
}

void GameRoom::rematch(const PeerPtr& /*p*/, const std::string& /*id_json*/) {
    const GameRecord& r = game_->record();
    const std::string nid = hub_.new_game_id();
    // The seats' ratings as the last game left them.
    Seat white = r.black, black = r.white;
    if (r.black_rating_diff && white.rating) white.rating += *r.black_rating_diff;
    if (r.white_rating_diff && black.rating) black.rating += *r.white_rating_diff;
    GameRecord rec = LiveGame::new_record(nid, r.variant, r.time, white, black, now_ms());
    rec.initial_fen = rec.fen = r.initial_fen;
    rec.is_private = r.is_private;
    rec.rated = r.rated;
    GameSettings settings{hub_.options().first_move_ms, hub_.options().draw_offer_interval};
    GameRoom& next = hub_.add_room(std::make_unique<LiveGame>(std::move(rec), settings), creator_ip_);
    game_->set_rematch_game(nid);
    hub_.commit({id_, nid}, {SaveGame{game_->meta()}, SaveGame{next.game().meta()}}, nullptr);
}

void GameRoom::start() { after_change(); }

bool GameRoom::swiss() const {
    const std::string& t = game_->record().tournament;
    const TournamentRoom* room = t.empty() ? nullptr : hub_.tournaments().find(t);
    return room && room->record().kind == "swiss";
}

void GameRoom::after_change() {
    LiveGame& g = *game_;
    const bool live = g.live();
    if (live && !announced_ && !g.record().is_private) {
        hub_.lobby().game_started(g.record());
        announced_ = true;
        told_ply_ = g.ply();
    } else if (announced_ && !live) {
        hub_.lobby().game_ended(id_);
        announced_ = false;
    } else if (announced_ && g.ply() != told_ply_) {
        hub_.lobby().game_moved(id_, g.ply(), g.record().fen);
        told_ply_ = g.ply();
    }
    if (live) {
        const std::uint64_t key = g.position_key();
        if (!indexed_ || key != indexed_key_) {
            if (indexed_) hub_.unindex_position(id_, indexed_key_);
            hub_.index_position(id_, 0, key);
            indexed_key_ = key;
            indexed_ = true;
        }
    } else if (indexed_) {
        hub_.unindex_position(id_, indexed_key_);
        indexed_ = false;
    }
    if (live) {
        seen_live_ = true;
    } else if (seen_live_) {
        seen_live_ = false;
        record_game_result(hub_, g.record());
        if (!g.record().tournament.empty()) hub_.tournament_game_ended(g.record());
    }
    if (!live && counts_engine_game_) {
        hub_.limits().add_engine_game(creator_ip_, -1);
        counts_engine_game_ = false;
    }
    broadcast();
    your_turn_changed(hub_, g);
    schedule_timer();
    if (live)
        maybe_engine();
    else
        engine_cancel_->store(true);
}

void GameRoom::storage_failed(const std::string& error) {
    const std::string text =
        ws_error_text(ApiError(Reason::storage_failed, "storage failed: " + to_valid_utf8(error)), id_, "");
    auto shared = std::make_shared<const std::string>(text);
    for (auto& [pid, w] : watchers_)
        if (PeerPtr p = w.peer.lock()) p->send(shared);
    engine_cancel_->store(true);
}

void GameRoom::stop() {
    engine_cancel_->store(true);
    timer_.cancel();
}

bool GameRoom::settled() const { return !busy_ && waiting_.empty() && !engine_pending_ && !game_->live(); }

bool GameRoom::players_here() const { return seat_peers_[WHITE] > 0 || seat_peers_[BLACK] > 0; }

bool GameRoom::unloadable() const { return settled() && !players_here(); }

bool GameRoom::evictable(std::int64_t now) const {
    if (!settled()) return false;
    const std::int64_t idle = now - last_used_;
    return idle >= (players_here() ? hub_.options().finished_player_ttl_ms : hub_.options().finished_ttl_ms);
}

void GameRoom::archive(std::int64_t now) {
    if (!game_->live() || busy_) return;
    game_->archive(now);
    hub_.commit({id_}, {SaveGame{game_->meta()}}, nullptr);
}

void GameRoom::schedule_timer() {
    std::optional<std::int64_t> deadline = game_->next_deadline();
    if (!deadline) {
        timer_.cancel();
        return;
    }
    // The flag falls after the lag credit a last move could still claim (and
    // the computer's queue wait that will not be charged).
    const std::int64_t now = now_ms();
    std::int64_t delay = std::max<std::int64_t>(0, *deadline + flag_grace(now) - now) + 1;
    if (engine_pending_ && engine_started_ && engine_started_->load() == 0)
        delay = std::max<std::int64_t>(delay, 100);  // the grace grows while it waits
    timer_.expires_after(std::chrono::milliseconds(delay));
    timer_.async_wait([&hub = hub_, id = id_](boost::system::error_code ec) {
        if (ec) return;
        hub.with_room(id, [](GameRoom* room) {
            if (room) room->on_timer();
        });
    });
}

// The computer is charged at most ENGINE_WAIT_CHARGED_MS of its move's wait
// in the engine queue (docs/API.md): other games' searches are not its time.
std::int64_t GameRoom::uncharged_wait(std::int64_t now) const {
    if (!engine_pending_ || !engine_started_) return 0;
    const std::int64_t started = engine_started_->load();
    return std::max<std::int64_t>(0, (started ? started : now) - engine_queued_at_ - ENGINE_WAIT_CHARGED_MS);
}

std::int64_t GameRoom::flag_grace(std::int64_t now) const {
    const bool computer = game_->live() && game_->seat(game_->turn()).computer();
    return hub_.options().lag_comp_max_ms + (computer ? uncharged_wait(now) : 0);
}

void GameRoom::on_timer() {
    const std::int64_t now = now_ms();
    if (game_->check_time(now, flag_grace(now)))
        hub_.commit({id_}, {SaveGame{game_->meta()}}, nullptr);
    else
        schedule_timer();
}

void GameRoom::maybe_engine() {
    LiveGame& g = *game_;
    if (!g.live() || engine_pending_) return;
    const Seat& seat = g.seat(g.turn());
    if (!seat.computer()) return;
    // The weakened levels stop at their node or depth caps (engine.cpp caps
    // them at 2 s for a very slow machine); full strength thinks 1.5 s, less
    // when the clock is short.
    std::int64_t budget = COMPUTER_MOVE_MS;
    const std::int64_t now = now_ms();
    if (g.record().time.kind == TimeControl::Realtime) {
        const std::int64_t left = g.remaining(g.turn(), now);
        budget = std::min(budget, left / 30 + g.record().time.increment_ms / 2);
        budget = std::max<std::int64_t>(budget, 10);
    }
    std::vector<std::string> moves;
    moves.reserve(g.record().moves.size());
    for (const MoveRecord& m : g.record().moves) moves.push_back(m.uci);
    const int ply = g.ply();
    const std::uint64_t epoch = engine_epoch_;
    engine_queued_at_ = now;
    engine_started_ = std::make_shared<std::atomic<std::int64_t>>(0);
    auto job = [&hub = hub_, id = id_, ply, epoch, cancel = engine_cancel_, v = g.variant(),
                fen = g.record().initial_fen, moves = std::move(moves), level = seat.level, budget,
                started = engine_started_](const std::atomic<bool>& stopping) {
        started->store(now_ms());
        std::string move;
        if (!stopping && !*cancel) {
            try {
                // The scheduler's flag: the slice's end or the pool's stop. A game
                // that ends meanwhile lets its search run out (within a slice
                // when others wait): on_engine_move drops the move.
                move = engine::choose_move(v, fen, moves, level, budget, &stopping);
            } catch (const std::exception& ex) {
                hub.log(std::string("engine: ") + ex.what());
            }
        }
        boost::asio::post(hub.ioc(), [&hub, id, ply, epoch, move = std::move(move)]() mutable {
            hub.with_room(id, [ply, epoch, move = std::move(move)](GameRoom* room) mutable {
                if (room) room->on_engine_move(epoch, ply, std::move(move));
            });
        });
    };
    // Fair between addresses: one address's many games do not queue ahead of
    // another player's (a game resumed after a restart is its own client).
    const std::string client = creator_ip_.empty() ? "game " + id_ : creator_ip_;
    if (hub_.work().submit_game(client, std::move(job))) engine_pending_ = true;
}

void GameRoom::on_engine_move(std::uint64_t epoch, int ply, std::string uci) {
    if (epoch != engine_epoch_) return;  // searched before a takeback
    const std::int64_t credit = uncharged_wait(now_ms());
    engine_pending_ = false;
    LiveGame& g = *game_;
    if (!g.live() || g.ply() != ply || !g.seat(g.turn()).computer()) return;
    const auto& legal = g.legal_moves();
    if (std::find(legal.begin(), legal.end(), uci) == legal.end()) {
        if (legal.empty()) return;
        if (!uci.empty()) hub_.log("engine returned an illegal move '" + uci + "' in game " + id_);
        uci = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(hub_.rng())];
    }
    const bool was_live = g.live();
    if (ActionResult err = g.move(g.turn(), uci, ply, now_ms(), credit)) {
        if (g.live())
            maybe_engine();
        else
            store_end_if_over(was_live);
        return;
    }
    hub_.commit({id_}, move_ops(), [this, ply = g.ply()] {
        if (game_->ply() == ply) game_->start_clock(now_ms());
    });
}

}  // namespace echecs::server

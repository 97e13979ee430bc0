#include "server/play/review_service.h"

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
// clang-format on

#include "core/game.h"
#include "core/notation.h"
#include "server/api/input.h"
#include "server/app/util.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"

namespace echecs::server {

using nlohmann::json;

namespace {

ApiError game_not_found() { return ApiError(Reason::game_not_found, "no such game"); }

// The game's review is its players' for a private game, anyone's for a public one.
ReviewService::GameInfo readable(const LiveGame* g, const std::string& token) {
    if (!g) throw game_not_found();
    const GameRecord& r = g->record();
    if (r.is_private && (token.empty() || g->seats_of(token).empty()))
        throw ApiError(Reason::review_private, "only the players of a private game may see its review");
    ReviewService::GameInfo info{r.id, r.variant, r.initial_fen, {}};
    for (const MoveRecord& m : r.moves) info.moves.push_back(m.uci);
    if (g->live()) throw ApiError(Reason::game_not_over, "a game is reviewed once it is over", "", {{"game", r.id}});
    return info;
}

// An engine job refused for a moment (the queue is full) is tried again this
// often, for at most this many times, before the review is given up.
constexpr int RETRY_MS = 250;
constexpr int MAX_RETRIES = 240;

}  // namespace

ReviewService::ReviewService(Hub& hub, ReviewLimits limits) : hub_(hub), limits_(limits) {}

json ReviewService::running_json(const Running& run) const {
    return {{"status", run.req.known.empty() ? "queued" : "running"},
            {"done", int(run.req.known.size())},
            {"total", run.total}};
}

json ReviewService::record_json(const ReviewRecord& rec, bool summary_only) {
    if (rec.status == "done") {
        json r = json::parse(rec.result, nullptr, false);
        if (r.is_discarded()) return {{"status", "failed"}, {"error", "the stored review is unreadable"}};
        const int total = int(r["positions"].size());
        if (summary_only) return {{"status", "done"}, {"done", total}, {"total", total}, {"summary", r["summary"]}};
        return {{"status", "done"}, {"done", total}, {"total", total}, {"review", std::move(r)}};
    }
    if (rec.status == "failed") return {{"status", "failed"}, {"error", rec.result}};
    // Stored `queued` with nothing running: the server stopped meanwhile.
    return {{"status", "interrupted"}};
}

void ReviewService::remember(const ReviewRecord& rec) {
    if (!cache_.count(rec.game_id)) cache_order_.push_back(rec.game_id);
    cache_[rec.game_id] = rec;
    while (cache_order_.size() > limits_.cache) {
        cache_.erase(cache_order_.front());
        cache_order_.pop_front();
    }
}

void ReviewService::lookup(const std::string& game, std::function<void(const Stored&)> fn) {
    if (auto it = cache_.find(game); it != cache_.end()) return fn(it->second);
    auto self = shared_from_this();
    const bool queued = hub_.storage().read([self, game, fn](Storage& s) {
        Stored rec;
        std::string error;
        try {
            rec = s.load_review(game);
        } catch (const std::exception& e) {
            error = e.what();
        }
        boost::asio::post(self->hub_.ioc(), [self, rec, error, fn] {
            if (!error.empty()) self->hub_.log("load review: " + error);
            if (rec && rec->status == "done") self->remember(*rec);
            fn(rec);
        });
    });
    if (!queued) throw ApiError(Reason::storage_busy, "the server is busy; try again");
}

void ReviewService::request(const HttpContextPtr& ctx) {
    auto self = shared_from_this();
    hub_.read_game(ctx->param("id"), [self, ctx](const LiveGame* g, GameRoom*) {
        ctx->run_guarded([&] {
            GameInfo info = readable(g, ctx->token());
            if (auto it = self->running_.find(info.id); it != self->running_.end())
                return ctx->json(202, self->running_json(*it->second));
            const std::string id = info.id;  // not info.id: the lambda below takes info first
            self->lookup(id, [self, ctx, info = std::move(info)](const Stored& s) {
                ctx->run_guarded([&] {
                    if (auto it = self->running_.find(info.id); it != self->running_.end())
                        return ctx->json(202, self->running_json(*it->second));  // requested meanwhile
                    if (s && s->status == "done") return ctx->json(200, record_json(*s, false));
                    self->start(ctx, info);
                });
            });
        });
    });
}

void ReviewService::get(const HttpContextPtr& ctx) {
    auto self = shared_from_this();
    hub_.read_game(ctx->param("id"), [self, ctx](const LiveGame* g, GameRoom*) {
        ctx->run_guarded([&] {
            GameInfo info = readable(g, ctx->token());
            if (auto it = self->running_.find(info.id); it != self->running_.end())
                return ctx->json(200, self->running_json(*it->second));
            self->lookup(info.id, [ctx](const Stored& s) {
                ctx->run_guarded([&] {
                    if (!s) throw ApiError(Reason::review_not_found, "this game has not been reviewed");
                    ctx->json(200, record_json(*s, false));
                });
            });
        });
    });
}

void ReviewService::summary(const std::string& game, std::function<void(json)> fn) {
    if (auto it = running_.find(game); it != running_.end()) return fn(running_json(*it->second));
    lookup(game, [fn](const Stored& s) { fn(s ? record_json(*s, true) : json(nullptr)); });
}

namespace {
review::Evaluation evaluation_of(const json& p) {
    review::Evaluation e;
    if (p.value("cp", json()).is_number_integer()) e.cp = p["cp"].get<int>();
    if (p.value("mate", json()).is_number_integer()) e.mate = p["mate"].get<int>();
    e.white_expected = p.value("white_expected", 0.5);
    if (p.contains("best") && p["best"].is_array())
        for (const json& m : p["best"])
            if (m.is_string()) e.best_line.push_back(m.get<std::string>());
    return e;
}
}  // namespace

// "Learn from your mistakes": the move tried in the position before ply
// `ply`, searched with the review's budget and judged against the review's
// evaluation of that position (review::judge_try).
void ReviewService::try_move(const HttpContextPtr& ctx) {
    auto self = shared_from_this();
    const json& body = ctx->body();
    hub_.read_game(ctx->param("id"), [self, ctx, body](const LiveGame* g, GameRoom*) {
        ctx->run_guarded([&] {
            GameInfo info = readable(g, ctx->token());
            const int ply = int(number_field(body, "ply", 1, std::max<double>(1, double(info.moves.size()))));
            if (ply > int(info.moves.size()))
                throw ApiError(Reason::number_range, "ply must be a move of the game", "ply",
                               {{"min", 1}, {"max", int(info.moves.size())}});
            const std::string written = string_field(body, "move", true);
            // The move as a coordinate string, SAN accepted too.
            std::vector<std::string> before(info.moves.begin(), info.moves.begin() + (ply - 1));
            Game game(info.variant, info.initial_fen.empty() ? Position::START_FEN : info.initial_fen, before);
            const Color mover = game.position().side_to_move();
            std::string uci, san;
            try {
                Move m;
                try {
                    m = parse_uci(game.position(), written);
                } catch (const std::exception&) {
                    m = parse_san(game.position(), written);
                }
                if (!game.is_legal(m)) throw std::runtime_error("illegal");
                uci = to_uci(m);
                san = to_san(game.position(), m);
            } catch (const std::exception& e) {
                throw ApiError(Code::illegal_move, Reason::move_illegal, "illegal move " + written + ": " + e.what(),
                               "move", {{"move", written}});
            }
            const std::string ip = ctx->request().ip;
            if (!self->hub_.limits().take_eval(ip, now_ms()))
                throw ApiError(Reason::eval_rate, "too many evaluations from this address: slow down", "",
                               {{"per_second", self->hub_.options().eval_rate_per_second}});
            self->lookup(info.id, [self, ctx, info, ply, mover, before, uci, san, ip](const Stored& s) mutable {
                ctx->run_guarded([&] {
                    if (!s || s->status != "done")
                        throw ApiError(Reason::review_not_found, "this game has not been reviewed");
                    const json r = json::parse(s->result, nullptr, false);
                    if (r.is_discarded() || !r.contains("positions") || int(r["positions"].size()) < ply)
                        throw ApiError(Reason::review_not_found, "this game's review is incomplete");
                    const review::Evaluation was = evaluation_of(r["positions"][std::size_t(ply - 1)]);
                    before.push_back(uci);
                    auto job = [self, ctx, info, mover, was, moves = std::move(before), uci, san,
                                nodes = self->limits_.nodes_per_position](const std::atomic<bool>& stop) {
                        json answer;
                        try {
                            const review::Evaluation after =
                                review::evaluate_position(info.variant, info.initial_fen, moves, nodes, 16, &stop);
                            const review::TryVerdict v = review::judge_try(info.variant, mover, was, uci, after);
                            answer = {{"move", uci}, {"san", san}, {"verdict", v.verdict}, {"loss", v.loss}};
                        } catch (const std::exception& e) {
                            self->hub_.log(std::string("review try: ") + e.what());
                        }
                        boost::asio::post(self->hub_.ioc(), ctx->guard([ctx, answer] {
                            if (answer.is_null())
                                ctx->error(ApiError(Reason::engine_busy, "the engine could not judge the move"));
                            else
                                ctx->json(200, answer);
                        }));
                    };
                    if (self->hub_.work().submit_analysis(ip, std::move(job)) != work::Scheduler::Refusal::None)
                        throw ApiError(Reason::engine_busy, "the engine is busy; try again");
                });
            });
        });
    });
}

void ReviewService::start(const HttpContextPtr& ctx, const GameInfo& g) {
    const std::string& client = ctx->request().ip;
    if (auto it = by_client_.find(client); it != by_client_.end())
        throw ApiError(Reason::review_pending, "this address already has a game being reviewed", "",
                       {{"game", it->second}});
    if (running_.size() >= limits_.max_running)
        throw ApiError(Reason::engine_busy, "too many games are being reviewed; try again");
    auto run = std::make_shared<Running>();
    run->game = g.id;
    run->client = client;
    run->req.variant = g.variant;
    run->req.initial_fen = g.initial_fen;
    run->req.moves = g.moves;
    run->req.nodes_per_position = limits_.nodes_per_position;
    run->req.max_new = 1;
    run->total = int(g.moves.size()) + 1;
    run->requested_at = now_ms();
    running_[g.id] = run;
    by_client_[client] = g.id;
    auto self = shared_from_this();
    hub_.storage().write({SaveReview{{g.id, "queued", "", run->requested_at, 0}}},
                         [self, ctx, run](bool ok, const std::string& err) {
                             if (!ok) {
                                 self->running_.erase(run->game);
                                 self->by_client_.erase(run->client);
                                 return ctx->error(ApiError(Reason::storage_failed, "storage failed: " + err));
                             }
                             self->submit(run);
                             ctx->json(202, self->running_json(*run));
                         });
}

void ReviewService::submit(const std::shared_ptr<Running>& run, int retries) {
    auto self = shared_from_this();
    auto job = [self, run, req = run->req](const std::atomic<bool>& stop) {
        review::Review r;
        std::string error;
        try {
            if (!stop)
                r = review::review_game(req, &stop);
            else
                r.positions = req.known;
        } catch (const std::exception& e) {
            error = e.what();
        }
        boost::asio::post(self->hub_.ioc(), [self, run, r = std::move(r), error]() mutable {
            if (!error.empty()) return self->failed(run, error);
            self->step_done(run, std::move(r));
        });
    };
    // Its own queue in the scheduler: a review takes turns with the
    // address's other analyses instead of using up their quota.
    switch (hub_.work().submit_analysis("review " + run->client, std::move(job))) {
        case work::Scheduler::Refusal::None: return;
        case work::Scheduler::Refusal::Stopping: return;  // stored `queued`: interrupted
        default: break;
    }
    if (retries >= MAX_RETRIES) return failed(run, "the engine stayed busy");
    auto timer = std::make_shared<boost::asio::steady_timer>(hub_.ioc(), std::chrono::milliseconds(RETRY_MS));
    timer->async_wait([self, run, retries, timer](const boost::system::error_code& ec) {
        if (!ec) self->submit(run, retries + 1);
    });
}

void ReviewService::step_done(const std::shared_ptr<Running>& run, review::Review r) {
    run->nodes += r.nodes;
    run->seconds += r.seconds;
    if (r.complete) {
        r.nodes = run->nodes;  // of every step, not the last one's
        r.seconds = run->seconds;
        json j = review::to_json(r);
        j["game"] = run->game;
        return finish(run, {run->game, "done", j.dump(), run->requested_at, now_ms()});
    }
    // Preempted by a live game, the position is searched again.
    const bool progressed = r.positions.size() > run->req.known.size();
    run->req.known = std::move(r.positions);
    if (progressed) {
        tell(run->game, out::Review{run->game, running_json(*run)});
    }
    submit(run);
}

void ReviewService::failed(const std::shared_ptr<Running>& run, const std::string& why) {
    hub_.log("review of " + run->game + ": " + why);
    finish(run, {run->game, "failed", why, run->requested_at, now_ms()});
}

void ReviewService::finish(const std::shared_ptr<Running>& run, ReviewRecord rec) {
    auto self = shared_from_this();
    hub_.storage().write({SaveReview{rec}}, [self, run, rec](bool ok, const std::string& err) {
        self->running_.erase(run->game);
        self->by_client_.erase(run->client);
        ReviewRecord told = rec;
        if (!ok) {
            self->hub_.log("store review of " + run->game + ": " + err);
            told = {rec.game_id, "failed", "storage failed: " + err, rec.requested_at, rec.finished_at};
        } else if (rec.status == "done") {
            self->remember(rec);
        }
        self->tell(run->game, out::Review{run->game, record_json(told, false)});
    });
}

void ReviewService::tell(const std::string& game, const out::Review& message) {
    if (GameRoom* room = hub_.find_room(game))
        room->tell_watchers(std::make_shared<const std::string>(out::to_text(message)));
}

}  // namespace echecs::server

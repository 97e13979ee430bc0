// HTTP API: the analysis board (legal moves of any position) and the
// engine's evaluation, with the fair-play rule: no evaluation of a live
// game's position for a player of that game.
#include <boost/asio/post.hpp>

#include "core/notation.h"
#include "engine/engine.h"
#include "server/api/input.h"
#include "server/app/util.h"
#include "server/play/hub.h"
#include "server/play/live_game.h"

namespace echecs::server {

using nlohmann::json;

namespace {

void analysis(const HttpContextPtr& ctx) {
    Analysis a = replay_analysis(ctx->body());
    Position& pos = a.game->position();
    GameResult res = a.game->result();
    json legal = json::array(), legal_san = json::array();
    if (!res.over()) {
        auto list = std::make_unique<MoveList>();
        a.game->legal_moves(*list);
        for (Move m : *list) legal.push_back(to_uci(m));
        for (std::string& s : to_san_all(pos, *list)) legal_san.push_back(std::move(s));
    }
    json winner = res.outcome == Outcome::WhiteWins   ? json(color_name(WHITE))
                  : res.outcome == Outcome::BlackWins ? json(color_name(BLACK))
                                                      : json(nullptr);
    ctx->json(200, {{"variant", variant_name(a.game->variant())},
                    {"fen", pos.fen()},
                    {"turn", color_name(pos.side_to_move())},
                    {"check", pos.in_check()},
                    {"legal_moves", std::move(legal)},
                    {"legal_san", std::move(legal_san)},
                    {"uci", a.uci},
                    {"san", a.san},
                    {"status", res.over() ? "over" : "live"},
                    {"result", std::string(pgn_result(res.outcome))},
                    {"termination", res.over() ? json(termination_name(res.termination)) : json(nullptr)},
                    {"winner", winner}});
}

json evaluation_json(const engine::Analysis& an) {
    const bool found = !an.best_move.empty();
    return {{"best_move", found ? json(an.best_move) : json(nullptr)},
            {"score_cp", an.score_cp ? json(*an.score_cp) : json(nullptr)},
            {"mate", an.mate ? json(*an.mate) : json(nullptr)},
            {"pv", an.pv},
            {"depth", found ? json(an.depth) : json(nullptr)}};
}

void evaluate(Hub& hub, const HttpContextPtr& ctx) {
    const ServerOptions& opt = hub.options();
    const json& b = ctx->body();
    Analysis a = replay_analysis(b);
    std::int64_t ms = 1000;
    if (b.contains("movetime_ms")) ms = std::int64_t(number_field(b, "movetime_ms", 1, 1e9));
    ms = std::clamp<std::int64_t>(ms, opt.eval_min_ms, opt.eval_max_ms);
    const Variant v = a.game->variant();
    if (hub.plays_position(ctx->token(), v, a.game->position().key()))
        throw ApiError(Reason::live_game_analysis, "no engine analysis of the position of a live game you play in");
    if (a.game->result().over()) return ctx->json(200, evaluation_json({}));
    const std::string& ip = ctx->request().ip;
    if (!hub.limits().take_eval(ip, now_ms()))
        throw ApiError(Reason::eval_rate, "too many evaluations from this address: slow down", "",
                       {{"per_second", opt.eval_rate_per_second}});
    auto job = [&hub, ctx, v, fen = a.fen, moves = a.uci, ms](const std::atomic<bool>& stop) {
        engine::Analysis an;
        try {
            if (!stop) an = engine::analyse(v, fen, moves, ms, &stop);
        } catch (const std::exception& e) {
            hub.log(std::string("engine: ") + e.what());
        }
        boost::asio::post(hub.ioc(), ctx->guard([ctx, an] { ctx->json(200, evaluation_json(an)); }));
    };
    switch (hub.work().submit_analysis(ip, std::move(job))) {
        case work::Scheduler::Refusal::None: return;
        case work::Scheduler::Refusal::ClientFull:
            throw ApiError(
                Reason::eval_pending,
                "this address already has " + std::to_string(opt.engine_queue_per_client) + " evaluations waiting", "",
                {{"max", opt.engine_queue_per_client}});
        default: throw ApiError(Reason::engine_busy, "the engine is busy; try again");
    }
}

}  // namespace

void add_analysis_routes(Router& r, Hub& hub) {
    r.add("POST", "/api/analysis", [](const HttpContextPtr& ctx) { analysis(ctx); });
    r.add("POST", "/api/analysis/eval", [&hub](const HttpContextPtr& ctx) { evaluate(hub, ctx); });
}

}  // namespace echecs::server

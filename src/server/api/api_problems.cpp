// HTTP API: the problems page — a solve is a job on the engine pool (an
// analysis, so below the games in progress and within the client's quota),
// polled by its id and cancelled by its owner; Popeye export and import —
// and PGN import for the analysis board (the imports off the I/O thread).
#include "server/api/off_io.h"
#include "server/play/hub.h"
#include "server/problems/problem_jobs.h"
#include "server/problems/problem_request.h"
#include "server/study/pgn_import.h"

namespace echecs::server {

using nlohmann::json;

namespace {

void solve(Hub& hub, problems::ProblemJobs& jobs, const HttpContextPtr& ctx) {
    const std::string& owner = ctx->token_required();
    problems::SolveRequest req = problems::read_solve_request(ctx->body());
    const std::string& ip = ctx->request().ip;
    work::Scheduler::Refusal refusal = work::Scheduler::Refusal::None;
    auto run = [&](problems::ProblemJobs::Work w) {
        refusal = hub.work().submit_analysis(ip, std::move(w));
        return refusal == work::Scheduler::Refusal::None;
    };
    const auto s = jobs.submit(std::move(req), ip, owner, run);
    switch (s.refusal) {
        case problems::ProblemJobs::Refusal::None: return ctx->json(202, {{"id", s.id}});
        case problems::ProblemJobs::Refusal::ClientBusy:
            throw ApiError(Reason::solve_pending, "this address already has a problem being solved");
        case problems::ProblemJobs::Refusal::TooMany:
            throw ApiError(Reason::engine_busy, "too many problems are being solved; try again");
        case problems::ProblemJobs::Refusal::PoolFull:
            if (refusal == work::Scheduler::Refusal::ClientFull)
                throw ApiError(Reason::eval_pending, "this address already has engine work waiting");
            throw ApiError(Reason::engine_busy, "the engine is busy; try again");
    }
}

void status(problems::ProblemJobs& jobs, const HttpContextPtr& ctx) {
    auto s = jobs.status(ctx->param("id"));
    if (!s) throw ApiError(Reason::problem_not_found, "no such problem being solved (they are kept 10 minutes)");
    ctx->json(200, *s);
}

void cancel(problems::ProblemJobs& jobs, const HttpContextPtr& ctx) {
    switch (jobs.cancel(ctx->param("id"), ctx->token_required())) {
        case problems::ProblemJobs::Cancel::Done: return ctx->json(200, {{"ok", true}});
        case problems::ProblemJobs::Cancel::NotOwner:
            throw ApiError(Reason::not_your_problem, "only who asked for this solve may stop it");
        case problems::ProblemJobs::Cancel::NotFound:
            throw ApiError(Reason::problem_not_found, "no such problem being solved");
    }
}

}  // namespace

void add_problem_routes(Router& r, Hub& hub) {
    auto jobs = std::make_shared<problems::ProblemJobs>();
    r.add("POST", "/api/problems/solve", [&hub, jobs](const HttpContextPtr& ctx) { solve(hub, *jobs, ctx); });
    r.add("GET", "/api/problems/solve/:id", [jobs](const HttpContextPtr& ctx) { status(*jobs, ctx); });
    r.add("DELETE", "/api/problems/solve/:id", [jobs](const HttpContextPtr& ctx) { cancel(*jobs, ctx); });
    r.add("POST", "/api/problems/popeye",
          [](const HttpContextPtr& ctx) { ctx->json(200, problems::popeye_export(ctx->body())); });
    // The uploads (up to 1 MiB) are parsed and read off the I/O thread.
    r.add("POST", "/api/problems/popeye/read", [&hub](const HttpContextPtr& ctx) {
        answer_off_io(hub, ctx, [](const nlohmann::json& body) { return problems::popeye_import(body); });
    });
    r.add("POST", "/api/pgn/read", [&hub](const HttpContextPtr& ctx) {
        answer_off_io(hub, ctx, [](const nlohmann::json& body) { return study::import_pgn(body); });
    });
}

}  // namespace echecs::server

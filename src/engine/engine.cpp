// choose_move: the engine as a library call for the game server.
#include "engine.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "search.h"

namespace echecs::engine {

namespace {

// A weakened level's search ends at its node cap, long before this; the cap
// only bounds a move's time if the machine is very slow.
constexpr std::int64_t WEAK_LEVEL_MAX_MS = 2000;

// One table and searcher per calling thread, reused across calls (the
// variant is part of the hash key, so games cannot mix up entries).
struct ThreadContext {
    TranspositionTable tt{16};
    Searcher searcher{tt};
};

}  // namespace

class AnalysisTable {
public:
    explicit AnalysisTable(int hash_mb) : tt(std::size_t(std::clamp(hash_mb, 1, 4096))) {}
    TranspositionTable tt;
};

std::shared_ptr<AnalysisTable> make_analysis_table(int hash_mb) { return std::make_shared<AnalysisTable>(hash_mb); }

std::string choose_move(Variant v, const std::string& fen, const std::vector<std::string>& moves, int level,
                        std::int64_t max_ms, const std::atomic<bool>* cancel) {
    thread_local std::unique_ptr<ThreadContext> ctx;
    if (!ctx) ctx = std::make_unique<ThreadContext>();
    std::unique_ptr<Game> game = std::make_unique<Game>(v, fen.empty() ? Position::START_FEN : fen, moves);
    level = std::clamp(level, 1, level_count(v));
    SearchOptions opt;
    opt.strength = level_strength(v, level);
    Limits limits;
    limits.movetime = std::max<std::int64_t>(1, max_ms > 0 ? max_ms : 1000);
    if (level < level_count(v)) limits.movetime = std::min(limits.movetime, WEAK_LEVEL_MAX_MS);
    opt.seed = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^ game->position().key();
    const SearchResult r = ctx->searcher.run(game->position(), limits, opt, cancel, nullptr);
    return r.best ? to_uci(r.best) : std::string();
}

Analysis analyse(Variant v, const std::string& fen, const std::vector<std::string>& moves, std::int64_t max_ms,
                 const std::atomic<bool>* cancel) {
    thread_local std::unique_ptr<ThreadContext> ctx;
    if (!ctx) ctx = std::make_unique<ThreadContext>();
    std::unique_ptr<Game> game = std::make_unique<Game>(v, fen.empty() ? Position::START_FEN : fen, moves);
    Limits limits;
    limits.movetime = std::max<std::int64_t>(1, max_ms > 0 ? max_ms : 1000);
    SearchOptions opt;  // full strength
    SearchInfo last;
    const SearchResult r = ctx->searcher.run(game->position(), limits, opt, cancel, [&](const SearchInfo& info) {
        if (info.kind == SearchInfo::Kind::Line && info.multipv == 1) last = info;
    });
    Analysis a;
    if (!r.best) return a;
    a.best_move = to_uci(r.best);
    a.depth = r.depth;
    if (is_mate_score(r.score))
        a.mate = mate_moves(r.score);
    else
        a.score_cp = r.score;
    for (Move m : last.pv) a.pv.push_back(to_uci(m));
    if (a.pv.empty() || a.pv.front() != a.best_move) a.pv = {a.best_move};
    return a;
}

AnalysisUpdate analyse(const AnalysisRequest& req, const std::atomic<bool>* cancel,
                       const AnalysisCallback& on_iteration) {
    if (!cancel && req.max_ms <= 0 && req.depth <= 0 && req.nodes == 0)
        throw std::invalid_argument("analyse: no limit and no cancel flag: the search would never end");
    std::unique_ptr<Game> game =
        std::make_unique<Game>(req.variant, req.fen.empty() ? Position::START_FEN : req.fen, req.moves);
    MoveList legal;
    generate_legal(game->position(), legal);
    AnalysisUpdate last;
    last.final = true;
    if (legal.empty()) return last;
    std::optional<TranspositionTable> own;
    if (!req.table) own.emplace(std::size_t(std::clamp(req.hash_mb, 1, 4096)));
    Searcher searcher(req.table ? req.table->tt : *own);
    searcher.set_threads(req.threads);
    Limits limits;
    limits.movetime = std::max<std::int64_t>(0, req.max_ms);
    limits.depth = std::clamp(req.depth, 0, SEARCH_MAX_PLY - 1);
    limits.nodes = req.nodes;
    limits.infinite = limits.movetime == 0 && limits.depth == 0 && limits.nodes == 0;
    SearchOptions opt;
    opt.multipv = std::clamp(req.multipv, 1, MAX_MULTIPV);
    opt.analyse = true;
    const int expected = std::min(opt.multipv, legal.count);
    AnalysisUpdate building;
    searcher.run(game->position(), limits, opt, cancel, [&](const SearchInfo& i) {
        if (i.kind != SearchInfo::Kind::Line) return;
        if (i.multipv == 1) building = AnalysisUpdate{};
        AnalysisLine l;
        l.multipv = i.multipv;
        for (Move m : i.pv) l.pv.push_back(to_uci(m));
        if (is_mate_score(i.score))
            l.mate = mate_moves(i.score);
        else
            l.score_cp = i.score;
        l.win = i.wdl.win, l.draw = i.wdl.draw, l.loss = i.wdl.loss;
        l.depth = i.depth, l.seldepth = i.seldepth;
        building.lines.push_back(std::move(l));
        building.depth = i.depth;
        building.nodes = i.nodes;
        building.time_ms = i.time_ms;
        building.nps = i.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, i.time_ms));
        if (i.multipv == expected) {
            last = building;
            if (on_iteration) on_iteration(last);
        }
    });
    last.final = true;
    return last;
}

}  // namespace echecs::engine

// choose_move: the engine as a library call for the game server.
#include "engine.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/notation.h"
#include "game_state.h"
#include "search.h"

namespace echecs::engine {

namespace {

struct LevelSetting {
    int skill;            // Skill Level
    std::int64_t max_ms;  // time cap of the level
};
// Level 1 is the 2-ply material-only player; 8 is full strength.
constexpr LevelSetting LEVELS[9] = {{0, 0},     {0, 200},   {3, 300},   {6, 500},     {9, 800},
                                    {12, 1200}, {15, 2000}, {18, 4000}, {20, 1 << 30}};

// One table and searcher per calling thread, reused across calls (the
// variant is part of the hash key, so games cannot mix up entries).
struct ThreadContext {
    TranspositionTable tt{16};
    Searcher searcher{tt};
};

}  // namespace

std::string choose_move(Variant v, const std::string& fen, const std::vector<std::string>& moves, int level,
                        std::int64_t max_ms, const std::atomic<bool>* cancel) {
    thread_local std::unique_ptr<ThreadContext> ctx;
    if (!ctx) ctx = std::make_unique<ThreadContext>();
    std::unique_ptr<GameState> game = GameState::make(v, fen.empty() ? Position::START_FEN : fen, moves);
    const LevelSetting& s = LEVELS[std::clamp(level, 1, 8)];
    Limits limits;
    limits.movetime = std::max<std::int64_t>(1, std::min(max_ms > 0 ? max_ms : 1000, s.max_ms));
    SearchOptions opt;
    opt.skill = s.skill;
    opt.seed = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^ game->pos().key();
    const SearchResult r = ctx->searcher.run(game->pos(), limits, opt, cancel, nullptr);
    return r.best ? to_uci(r.best) : std::string();
}

Analysis analyse(Variant v, const std::string& fen, const std::vector<std::string>& moves, std::int64_t max_ms,
                 const std::atomic<bool>* cancel) {
    thread_local std::unique_ptr<ThreadContext> ctx;
    if (!ctx) ctx = std::make_unique<ThreadContext>();
    std::unique_ptr<GameState> game = GameState::make(v, fen.empty() ? Position::START_FEN : fen, moves);
    Limits limits;
    limits.movetime = std::max<std::int64_t>(1, max_ms > 0 ? max_ms : 1000);
    SearchOptions opt;  // full strength
    SearchInfo last;
    const SearchResult r =
        ctx->searcher.run(game->pos(), limits, opt, cancel, [&](const SearchInfo& info) { last = info; });
    Analysis a;
    if (!r.best) return a;
    a.best_move = to_uci(r.best);
    a.depth = r.depth;
    if (r.score >= VALUE_MATE_IN_MAX_PLY)
        a.mate = (VALUE_MATE - r.score + 1) / 2;
    else if (r.score <= -VALUE_MATE_IN_MAX_PLY)
        a.mate = -(VALUE_MATE + r.score) / 2;
    else
        a.score_cp = r.score;
    for (Move m : last.pv) a.pv.push_back(to_uci(m));
    if (a.pv.empty() || a.pv.front() != a.best_move) a.pv = {a.best_move};
    return a;
}

}  // namespace echecs::engine

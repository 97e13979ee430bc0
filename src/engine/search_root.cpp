// The root of the search: iterative deepening, MultiPV, Lazy SMP helper
// threads, limits (time, nodes, mate, ponder) and the reports.
//
// MultiPV: each iteration searches line 1 over all root moves, then line 2
// over the moves not yet taken, and so on; every line gets its own full-window
// search, score and PV. The root's table entry is written only by line 1
// over all moves, so that it always describes the position.
//
// Threads (Lazy SMP): the helpers search the same root with their own move
// lists, killers and history, half of them one ply ahead, and share only the
// transposition table; what they store steers the main thread. The main
// thread alone reports and decides when to stop. The answer is the main
// thread's unless a helper completed a deeper iteration with a better score.
// With one thread nothing of this runs and the search is deterministic.
#include <algorithm>
#include <cstring>
#include <thread>

#include "core/movegen.h"
#include "search_worker.h"

namespace echecs::engine {

std::string uci_score(Value v) {
    if (is_mate_score(v)) return "mate " + std::to_string(mate_moves(v));
    return "cp " + std::to_string(v);
}

int mate_moves(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return (VALUE_MATE - v + 1) / 2;
    return -(VALUE_MATE + v) / 2;
}

namespace {

constexpr std::int64_t PROGRESS_EVERY_US = 1000000;  // a report inside a long iteration
constexpr std::int64_t CURRMOVE_AFTER_US = 1000000;  // root moves are named once the search is this old
// The games whose soft budget follows the search (soft_scale), as measured
// in self-play at 1s+0.02s (docs/STRENGTH.md): chess +28, Alice +44;
// Avalanche -21 +/- 44 over 200 games, so it keeps the fixed budget.
constexpr bool TIME_SCALED[VARIANT_NB] = {true, true, false};

}  // namespace

bool Worker::root_allowed(Move m) const {
    if (!restricted_) return true;
    if (!limits_.searchmoves.empty() &&
        std::find(limits_.searchmoves.begin(), limits_.searchmoves.end(), m) == limits_.searchmoves.end())
        return false;
    return std::find(excluded_.begin(), excluded_.end(), m) == excluded_.end();
}

void Worker::root_move(Move m, int number) {
    if (index_ != 0) return;
    currmove_ = m;
    currmovenumber_ = number;
    if (on_info_ && *on_info_ && elapsed_us(sh_.start) >= CURRMOVE_AFTER_US) {
        SearchInfo info;
        info.kind = SearchInfo::Kind::CurrMove;
        info.depth = root_depth_;
        info.currmove = m;
        info.currmovenumber = number;
        (*on_info_)(info);
    }
}

std::uint64_t Worker::total_nodes() const {
    std::uint64_t n = nodes_;
    for (const Worker* w : sh_.workers)
        if (w != this) n += w->published_nodes.load(std::memory_order_relaxed);
    return n;
}

void Worker::poll() {
    published_nodes.store(nodes_, std::memory_order_relaxed);
    if (index_ != 0) {
        if (sh_.abort.load(std::memory_order_relaxed)) stopped_ = true;
        return;
    }
    if (sh_.stop && sh_.stop->load(std::memory_order_relaxed)) stopped_ = true;
    // The node limit counts from the second iteration, as a weakened level's
    // cap does: the first one always completes, so that every search has a
    // scored line (an Avalanche position in check needs ~4,000 nodes at depth 1).
    if ((nodes_ & 1023) == 0 && limits_.nodes && root_depth_ > 1 && total_nodes() >= limits_.nodes) stopped_ = true;
    const std::int64_t now = elapsed_us(sh_.start);
    const bool ponder = pondering();
    if (was_pondering_ && !ponder) {
        // ponderhit: the clock runs from now; time already spent counts
        // towards the soft limit (the search is that much further on).
        was_pondering_ = false;
        hard_from_us_ = now;
        if (sh_.budget.soft && !sh_.budget.exact && now >= sh_.budget.soft * 1000) stopped_ = true;
    }
    if (!ponder && sh_.budget.hard && now - hard_from_us_ >= sh_.budget.hard * 1000) stopped_ = true;
    if (now >= next_progress_us_) report_progress(now);
}

void Worker::report_progress(std::int64_t now_us) {
    next_progress_us_ = now_us + PROGRESS_EVERY_US;
    if (!on_info_ || !*on_info_) return;
    SearchInfo info;
    info.kind = SearchInfo::Kind::Progress;
    info.depth = root_depth_;
    info.seldepth = std::max(seldepth_, root_depth_);
    info.nodes = total_nodes();
    info.time_ms = now_us / 1000;
    info.hashfull = tt_.hashfull();
    info.currmove = currmove_;
    info.currmovenumber = currmovenumber_;
    (*on_info_)(info);
}

SearchInfo Worker::line_info(int multipv, Value score, const std::vector<Move>& pv) const {
    SearchInfo info;
    info.multipv = multipv;
    info.depth = root_depth_;
    info.seldepth = std::max(seldepth_, root_depth_);
    info.score = score;
    info.wdl = wdl_from_score(score, pos_);
    info.nodes = total_nodes();
    info.time_ms = elapsed_ms(sh_.start);
    info.hashfull = tt_.hashfull();
    info.pv = pv;
    return info;
}

void Worker::iterate_helper() {
    MoveList root_moves;
    generate_legal(pos_, root_moves);
    if (root_moves.empty()) return;
    restricted_ = !limits_.searchmoves.empty();
    const int max_depth = limits_.depth > 0 ? std::min(limits_.depth, SEARCH_MAX_PLY - 1) : SEARCH_MAX_PLY - 1;
    for (int depth = 1 + (index_ & 1); depth <= max_depth; ++depth) {
        root_depth_ = depth;
        seldepth_ = 0;
        const Value v = search(-VALUE_INFINITE, VALUE_INFINITE, depth, 0, true, false);
        if (stopped_) break;
        std::vector<Move> pv(d_.pv[0], d_.pv[0] + d_.pv_len[0]);
        if (pv.empty() || pv[0] != root_best_) pv.assign(1, root_best_);
        std::lock_guard<std::mutex> lock(completed_mutex);
        completed_depth = depth;
        completed_score = v;
        completed_pv = std::move(pv);
    }
    published_nodes.store(nodes_, std::memory_order_relaxed);
}

SearchResult Worker::iterate(const InfoCallback& on_info) {
    on_info_ = &on_info;
    was_pondering_ = pondering();
    SearchResult res;
    MoveList root_moves;
    generate_legal(pos_, root_moves);
    if (root_moves.empty()) {
        res.score = terminal(0);
        return res;
    }
    // The root moves this search may play (searchmoves, else all).
    int allowed = 0;
    restricted_ = !limits_.searchmoves.empty();
    for (Move m : root_moves) allowed += root_allowed(m);
    res.best = root_moves.moves[0];
    for (Move m : root_moves)
        if (root_allowed(m)) {
            res.best = m;
            break;
        }
    const int lines = std::clamp(opt_.multipv, 1, std::max(1, allowed));
    restricted_ = restricted_ || lines > 1;
    int max_depth = limits_.depth > 0 ? std::min(limits_.depth, SEARCH_MAX_PLY - 1) : SEARCH_MAX_PLY - 1;
    if (opt_.player == Player::Material2)
        max_depth = std::min(max_depth, 2);
    else if (opt_.player == Player::Greedy1)
        max_depth = 1;
    else if (opt_.strength.depth > 0)
        max_depth = std::min(max_depth, opt_.strength.depth);

    struct Line {
        Move move;
        Value score;
        std::vector<Move> pv;
        int seldepth;
    };
    std::vector<Line> best_lines, found;
    SearchTrend trend;
    Move trend_best = Move::none();
    Value trend_score = VALUE_NONE;
    for (int depth = 1; depth <= max_depth; ++depth) {
        root_depth_ = depth;
        excluded_.clear();
        found.clear();
        for (int k = 0; k < lines; ++k) {
            seldepth_ = 0;
            // Line k starts from its move of the last iteration when it is
            // still free (with one line: the last best move, as always).
            if (k < int(best_lines.size()) && root_allowed(best_lines[size_t(k)].move))
                root_best_ = best_lines[size_t(k)].move;
            else if (k > 0)
                root_best_ = Move::none();
            // Aspiration window around the line's last score, widened on
            // each failure until the score falls inside. Its width is one of
            // the margins: on the network's scale in chess (GAME_SEARCH).
            Value v = VALUE_ZERO;
            int delta = margin(18);
            Value lo = -VALUE_INFINITE, hi = VALUE_INFINITE;
            if (on(FEATURE_ASPIRATION) && depth >= 5 && k < int(best_lines.size()) &&
                !is_mate_score(best_lines[size_t(k)].score)) {
                const Value prev = best_lines[size_t(k)].score;
                lo = std::max<Value>(prev - delta, -VALUE_INFINITE);
                hi = std::min<Value>(prev + delta, VALUE_INFINITE);
            }
            for (;;) {
                v = search(lo, hi, depth, 0, true, false);
                if (stopped_) break;
                if (v <= lo && lo > -VALUE_INFINITE) {
                    hi = Value((lo + hi) / 2);
                    lo = std::max<Value>(v - delta, -VALUE_INFINITE);
                } else if (v >= hi && hi < VALUE_INFINITE)
                    hi = std::min<Value>(v + delta, VALUE_INFINITE);
                else
                    break;
                delta += delta / 2;
                if (delta > 800) lo = -VALUE_INFINITE, hi = VALUE_INFINITE;
            }
            // An interrupted iteration still gives a move: its first move is the
            // previous best, so any move it preferred was searched fully.
            if (k == 0 && root_best_) res.best = root_best_;
            if (stopped_) break;
            Line l{root_best_, v, std::vector<Move>(d_.pv[0], d_.pv[0] + d_.pv_len[0]), std::max(seldepth_, depth)};
            if (l.pv.empty() || l.pv[0] != l.move) l.pv.assign(1, l.move);
            excluded_.push_back(l.move);
            found.push_back(std::move(l));
        }
        if (stopped_) {
            if (!found.empty() && found.size() < size_t(lines)) res.best = found[0].move;
            break;
        }
        std::stable_sort(found.begin(), found.end(), [](const Line& a, const Line& b) { return a.score > b.score; });
        best_lines = found;
        res.best = best_lines[0].move;
        res.score = best_lines[0].score;
        res.depth = depth;
        completed_depth = depth;
        completed_score = res.score;
        completed_pv = best_lines[0].pv;
        if (on_info)
            for (size_t k = 0; k < best_lines.size(); ++k) {
                seldepth_ = best_lines[k].seldepth;
                on_info(line_info(int(k) + 1, best_lines[k].score, best_lines[k].pv));
            }
        const Value v = res.score;
        if (trend_best) {
            const bool changed = res.best != trend_best;
            trend.best_changes = trend.best_changes / 2 + changed;
            trend.stable = changed ? 0 : trend.stable + 1;
            trend.score_drop = is_mate_score(v) || is_mate_score(trend_score) ? 0 : trend_score - v;
        }
        trend_best = res.best;
        trend_score = v;
        if (limits_.mate > 0 && v >= mate_in(2 * limits_.mate - 1)) break;  // go mate N: found
        if (opt_.analyse && !limits_.use_clock()) continue;
        if (std::abs(v) >= VALUE_MATE_IN_MAX_PLY && !limits_.infinite && !limits_.depth && !limits_.mate &&
            VALUE_MATE - std::abs(v) <= depth)
            break;                  // a forced mate found at full width
        if (pondering()) continue;  // the clock is not ours yet
        if (root_moves.count == 1 && limits_.use_clock() && depth >= 4 && !opt_.analyse) break;
        if (sh_.budget.soft && !sh_.budget.exact &&
            elapsed_us(sh_.start) >= std::int64_t(double(sh_.budget.soft) * 600 *
                                                  (TIME_SCALED[int(pos_.variant())] ? soft_scale(trend) : 1.0)))
            break;
    }
    // No answer while pondering (until ponderhit or stop), nor before stop in
    // an infinite search, even when the search itself has ended.
    while (sh_.stop && !sh_.stop->load() && (pondering() || (limits_.infinite && !stopped_)))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    published_nodes.store(nodes_, std::memory_order_relaxed);
    const std::vector<Move>& pv = completed_pv;
    if (pv.size() > 1 && pv[0] == res.best) res.ponder = pv[1];
    res.nodes = nodes_;
    res.time_ms = elapsed_ms(sh_.start);
    return res;
}

struct Searcher::Running {
    std::unique_ptr<SearchShared> shared;
    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<std::thread> helpers;
};

Searcher::Searcher(TranspositionTable& tt) : tt_(tt) {
    set_threads(1);
    clear();
}
Searcher::~Searcher() { join_helpers(); }

void Searcher::join_helpers() {
    if (!running_) return;
    if (running_->shared) running_->shared->abort = true;
    for (auto& t : running_->helpers) t.join();
    running_.reset();
}

void Searcher::set_threads(int n) {
    join_helpers();
    n = std::clamp(n, 1, MAX_SEARCH_THREADS);
    while (int(d_.size()) > n) d_.pop_back();
    while (int(d_.size()) < n) {
        d_.push_back(std::make_unique<Data>());
        d_.back()->stats.clear();
    }
}

void Searcher::clear() {
    join_helpers();
    for (auto& d : d_) d->stats.clear();
}

namespace {

// A helper's copy of the position with the game's last reversible plies.
Position& helper_position(const Position& pos, Searcher::Data& d) {
    pos.copy_to(d.pos, d.root_state);
    const StateInfo* chain[Searcher::Data::HISTORY];
    int n = 0;
    const int wanted = std::min(pos.state()->rule50, pos.state()->plies_from_null) + 1;
    for (const StateInfo* p = pos.state()->previous; p && n < wanted && n < Searcher::Data::HISTORY; p = p->previous)
        chain[n++] = p;
    for (int i = 0; i < n; ++i) {
        d.history[i] = *chain[i];
        d.history[i].previous = i + 1 < n ? &d.history[i + 1] : nullptr;
    }
    d.root_state.previous = n ? &d.history[0] : nullptr;
    return d.pos;
}

}  // namespace

SearchResult Searcher::run(Position& pos, const Limits& limits, const SearchOptions& options,
                           const std::atomic<bool>* stop, const InfoCallback& on_info) {
    join_helpers();
    tt_.new_search();
    SearchOptions opt = options;
    if (options.analyse) opt.strength = Strength{}, opt.player = Player::Engine;
    running_ = std::make_unique<Running>();
    running_->shared = std::make_unique<SearchShared>(tt_, limits, opt, stop);
    SearchShared& sh = *running_->shared;
    sh.start = Clock::now();
    sh.budget = allocate_time(limits, pos.side_to_move());
    // The weakened levels play on one thread, as they were measured.
    const int threads = opt.weakened() ? 1 : int(d_.size());
    auto& workers = running_->workers;
    for (int i = 0; i < threads; ++i) {
        Data& d = *d_[size_t(i)];
        std::memset(static_cast<void*>(d.stats.killers), 0, sizeof(d.stats.killers));
        std::memset(static_cast<void*>(d.zero_row), 0, sizeof(d.zero_row));
        for (auto& f : d.frames) f = {Move::none(), NO_PIECE, &d.zero_row};
        for (auto& e : d.excluded) e = Move::none();
        d.double_ext[0] = 0;
        Position& p = i == 0 ? pos : helper_position(pos, d);
        workers.push_back(std::make_unique<Worker>(d, sh, p, i));
        sh.workers.push_back(workers.back().get());
    }
    for (int i = 1; i < threads; ++i)
        running_->helpers.emplace_back([w = workers[size_t(i)].get()] { w->iterate_helper(); });
    SearchResult r = workers[0]->iterate(on_info);
    sh.abort = true;  // the helpers end by themselves; join_helpers() waits for them
    // A helper that completed a deeper iteration with a better score answers.
    Worker& main = *workers[0];
    int best_depth = main.completed_depth;
    Value best_score = main.completed_score;
    for (size_t i = 1; i < workers.size() && opt.multipv <= 1; ++i) {
        Worker& w = *workers[i];
        std::lock_guard<std::mutex> lock(w.completed_mutex);
        if (w.completed_depth > best_depth && w.completed_score > best_score && !w.completed_pv.empty()) {
            best_depth = w.completed_depth;
            best_score = w.completed_score;
            r.best = w.completed_pv[0];
            r.ponder = w.completed_pv.size() > 1 ? w.completed_pv[1] : Move::none();
            r.score = w.completed_score;
            r.depth = w.completed_depth;
        }
    }
    r.nodes = 0;
    for (const auto& w : workers) r.nodes += w->published_nodes.load();
    if (threads == 1) join_helpers();  // nothing to wait for: free the state now
    return r;
}

}  // namespace echecs::engine

// Internal to the search (search.cpp: the node-level search; search_root.cpp:
// iterative deepening, MultiPV, threads, limits and reporting). One Worker
// per search thread; the threads of one search share a SearchShared.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "movepick.h"
#include "search.h"

namespace echecs::engine {

struct Searcher::Data {
    MoveList lists[SEARCH_MAX_PLY + 2];
    int scores[SEARCH_MAX_PLY + 2][MAX_MOVES];
    StateInfo states[SEARCH_MAX_PLY + 2];
    Move pv[SEARCH_MAX_PLY + 2][SEARCH_MAX_PLY + 2];
    int pv_len[SEARCH_MAX_PLY + 2];
    Value static_eval[SEARCH_MAX_PLY + 2];
    Move excluded[SEARCH_MAX_PLY + 2];   // singular extension: the move left out at this ply
    int double_ext[SEARCH_MAX_PLY + 2];  // double extensions on the path to this ply
    // The move made at each ply (index ply + 4, so that the plies before the
    // root read as "no move"), and its continuation-history row.
    struct Frame {
        Move move = Move::none();
        Piece piece = NO_PIECE;
        PieceToHistory* cont = nullptr;
    };
    Frame frames[SEARCH_MAX_PLY + 8];
    PieceToHistory zero_row;  // the row of no move (and of the null move): never written
    OrderingStats stats;
    // A helper thread's own copy of the root position, with a copy of the
    // game's last reversible moves (for repetitions): a helper may still be
    // ending after run() returned, when the caller's history has changed.
    static constexpr int HISTORY = 128;
    Position pos;
    StateInfo root_state;
    StateInfo history[HISTORY];
};

class Worker;

// What the threads of one search share. Owned by the Searcher, so that it
// outlives run() while the helpers end.
struct SearchShared {
    SearchShared(TranspositionTable& t, const Limits& l, const SearchOptions& o, const std::atomic<bool>* s)
        : tt(t), limits(l), opt(o), stop(s) {}
    TranspositionTable& tt;
    const Limits limits;
    const SearchOptions opt;
    const std::atomic<bool>* stop;   // the caller's
    std::atomic<bool> abort{false};  // the main thread ends the helpers
    Clock::time_point start;
    TimeBudget budget;
    std::vector<Worker*> workers;  // [0] is the main thread
};

class Worker {
public:
    Worker(Searcher::Data& d, SearchShared& sh, Position& pos, int index);

    // The main thread: iterative deepening with MultiPV, reporting, limits.
    SearchResult iterate(const InfoCallback& on_info);
    // A helper: iterative deepening until aborted, filling the shared table.
    void iterate_helper();

    // Published every few hundred nodes for the node limit and reports.
    std::atomic<std::uint64_t> published_nodes{0};
    // The last completed iteration (a helper's is read by the main thread
    // while the helper may still run: under completed_mutex).
    std::mutex completed_mutex;
    int completed_depth = 0;
    Value completed_score = -VALUE_INFINITE;
    std::vector<Move> completed_pv;

private:
    Value search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node);
    Searcher::Data::Frame& frame(int ply) { return d_.frames[ply + 4]; }
    void update_quiet_stats(int ply, Move m, Piece pc, int bonus);
    void update_cont(int ply, Piece pc, Square to, int bonus);
    Value qsearch(Value alpha, Value beta, int ply, int qply, bool pv_node);
    Value eval() {
        Value v = material_ ? evaluate_material(pos_) : evaluate(pos_, *weights_);
        if (noise_) v += int(mix(pos_.key() ^ opt_.seed) % std::uint64_t(2 * noise_ + 1)) - noise_;
        return v;
    }
    static std::uint64_t mix(std::uint64_t x) {
        x ^= x >> 33, x *= 0xff51afd7ed558ccdULL, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ULL, x ^= x >> 33;
        return x;
    }
    bool is_draw() const;
    bool null_move_ok() const;
    Value terminal(int ply);
    void check_limits() {
        // A weakened level's node cap counts from the second iteration, so
        // that a move has always been chosen by a complete search.
        if (node_cap_ && nodes_ >= node_cap_ && root_depth_ > 1) stopped_ = true;
        if ((nodes_ & 127) != 0 || stopped_) return;
        poll();
    }
    // A weakened level does not see this capture or promotion here.
    bool blind_to(Move m) const {
        return blind_ &&
               int(mix(pos_.key() ^ (std::uint64_t(m.raw()) * 0x9E3779B97F4A7C15ULL) ^ opt_.seed) % 1000) < blind_;
    }
    bool on(SearchFeature f) const { return !(opt_.off & f); }
    void poll();  // limits, stop, ponderhit, once-a-second report
    void update_pv(int ply, Move m) {
        d_.pv[ply][ply] = m;
        for (int i = ply + 1; i < d_.pv_len[ply + 1]; ++i) d_.pv[ply][i] = d_.pv[ply + 1][i];
        d_.pv_len[ply] = std::max(d_.pv_len[ply + 1], ply + 1);
    }

    // Root hooks of the node-level search.
    bool root_allowed(Move m) const;     // searchmoves, and not an earlier MultiPV line's move
    void root_move(Move m, int number);  // currmove reporting
    bool root_restricted() const { return restricted_; }

    std::uint64_t total_nodes() const;
    bool pondering() const { return sh_.limits.ponder && sh_.limits.ponder->load(std::memory_order_relaxed); }
    void report_progress(std::int64_t now_us);
    SearchInfo line_info(int multipv, Value score, const std::vector<Move>& pv) const;

    Searcher::Data& d_;
    SearchShared& sh_;
    TranspositionTable& tt_;
    Position& pos_;
    const Limits& limits_;
    const SearchOptions& opt_;
    const int index_;  // 0: the main thread
    const InfoCallback* on_info_ = nullptr;
    Key salt_ = 0;
    bool avalanche_ = false;
    bool two_boards_ = false;  // Alice: a check is seen only after the move
    int margin_pct_ = 100;     // the pruning margins' scale (GAME_SEARCH in search.cpp)
    bool checks_deep_only_ = false;
    bool checks_before_move_ = false;  // Position::checks_known_before_move, asked once
    Value margin(int v) const { return Value(v * margin_pct_ / 100); }
    int noise_ = 0;
    int blind_ = 0;               // per mille (Strength::blind)
    std::uint64_t node_cap_ = 0;  // Strength::nodes
    bool material_ = false;       // the anchor players: material only, no quiescence
    bool full_ = true;            // pruning and extensions (off for the anchor players)
    const EvalWeights* weights_ = nullptr;
    bool stopped_ = false;
    std::uint64_t nodes_ = 0;
    int seldepth_ = 0;
    int root_depth_ = 0;
    Move root_best_ = Move::none();
    Value root_best_value_ = -VALUE_INFINITE;
    // Root move filter: searchmoves, and the moves of the lines found earlier
    // in this iteration (MultiPV).
    std::vector<Move> excluded_;
    bool restricted_ = false;
    // Reporting and limits (main thread).
    bool was_pondering_ = false;
    std::int64_t hard_from_us_ = 0;  // the hard limit counts from here (ponderhit)
    std::int64_t next_progress_us_ = 1000000;
    Move currmove_ = Move::none();
    int currmovenumber_ = 0;
};

}  // namespace echecs::engine

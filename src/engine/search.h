// The search: iterative deepening principal-variation alpha-beta with a
// transposition table, quiescence, check extensions, null move and late-move
// reductions (with the reasons they are sound per game in search.cpp);
// MultiPV, and Lazy SMP threads sharing the table (search_root.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"
#include "evaluate.h"
#include "strength.h"
#include "timeman.h"
#include "tt.h"
#include "wdl.h"

namespace echecs::engine {

constexpr int MAX_SEARCH_THREADS = 64;
constexpr int MAX_MULTIPV = 5;

// Search features that can be switched off one at a time, to measure each
// (UCI option "Search Off"); none is off in play.
enum SearchFeature : std::uint32_t {
    FEATURE_LMR_ADJUST = 1,    // late-move reductions adjusted by history, improving, node type
    FEATURE_FUTILITY = 2,      // futility pruning of quiet moves
    FEATURE_LMP = 4,           // move-count pruning
    FEATURE_SEE_PRUNE = 8,     // SEE pruning of captures and quiet moves at low depth
    FEATURE_SINGULAR = 16,     // singular extensions
    FEATURE_CONT_HIST = 32,    // continuation history in ordering and reductions
    FEATURE_ASPIRATION = 64,   // aspiration windows at the root
    FEATURE_IIR = 128,         // internal iterative reduction
    FEATURE_HIST_PRUNE = 256,  // history pruning of quiet moves
};
// "singular,aspiration" -> the bits; unknown names are returned in `unknown`.
std::uint32_t parse_search_features(const std::string& names, std::string& unknown);

struct SearchOptions {
    Strength strength;               // full strength unless weakened (strength.h)
    Player player = Player::Engine;  // or one of the fixed anchor players
    std::uint64_t seed = 1;          // randomness of the weakened levels
    std::uint32_t off = 0;           // SearchFeature bits switched off (measurements)
    // Evaluation weights; null: the committed weights of the position's game
    // (a weakened strength: its hand-written evaluation, without the network).
    std::shared_ptr<const EvalWeights> weights;
    int multipv = 1;  // lines to search (distinct root moves), 1..MAX_MULTIPV
    // Analysis (UCI_AnalyseMode): never stop early on a single legal move or
    // a found mate while time is left; the weakened levels do not apply.
    bool analyse = false;
    bool weakened() const { return player != Player::Engine || !strength.full(); }
};

struct SearchInfo {
    // Line: a completed line of an iteration (one per MultiPV line, best
    // first). CurrMove: the root move being searched. Progress: a report
    // inside a long iteration (at least once a second).
    enum class Kind : std::uint8_t { Line, CurrMove, Progress };
    Kind kind = Kind::Line;
    int multipv = 1;
    int depth = 0, seldepth = 0;
    Value score = 0;
    Wdl wdl;                  // of `score`, from the side to move's view
    std::uint64_t nodes = 0;  // all threads
    std::int64_t time_ms = 0;
    int hashfull = 0;
    std::vector<Move> pv;
    Move currmove = Move::none();  // CurrMove and Progress
    int currmovenumber = 0;
};

struct SearchResult {
    Move best = Move::none();  // none: no legal move
    Move ponder = Move::none();
    Value score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;  // all threads
    std::int64_t time_ms = 0;
};

using InfoCallback = std::function<void(const SearchInfo&)>;

// "mate N" / "cp N" of UCI.
std::string uci_score(Value v);
inline bool is_mate_score(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= -VALUE_MATE_IN_MAX_PLY; }
// Moves to mate of a mate score (positive: the side to move mates; 0: mated now).
int mate_moves(Value v);

class Searcher {
public:
    explicit Searcher(TranspositionTable& tt);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Searches the position (left as it was). `stop` may be null; the search
    // also ends at the limits. Always returns a legal move when one exists.
    // With one thread the search is deterministic (the bench signature).
    SearchResult run(Position& pos, const Limits& limits, const SearchOptions& options, const std::atomic<bool>* stop,
                     const InfoCallback& on_info);
    void clear();  // new game: forget the ordering statistics
    // Search threads (1..MAX_SEARCH_THREADS), sharing the table; not during run().
    void set_threads(int n);
    int threads() const { return int(d_.size()); }

    // Waits for the helper threads of the last search: run() answers as soon
    // as the main thread is done and the helpers end in the background (a
    // descheduled helper must not delay the move). Called by run(),
    // set_threads(), clear() and the destructor; call it before changing the
    // table (resize, clear).
    void join_helpers();

    struct Data;     // the large per-thread arrays (search_worker.h)
    struct Running;  // the last search's shared state, workers and helper threads

private:
    std::vector<std::unique_ptr<Data>> d_;
    TranspositionTable& tt_;
    std::unique_ptr<Running> running_;
};

}  // namespace echecs::engine

// The search: iterative deepening principal-variation alpha-beta with a
// transposition table, quiescence, check extensions, null move and late-move
// reductions (with the reasons they are sound per game in search.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/position.h"
#include "evaluate.h"
#include "timeman.h"
#include "tt.h"

namespace echecs::engine {

struct SearchOptions {
    int skill = 20;          // 0..20; 0 is the 2-ply material-only player
    std::uint64_t seed = 1;  // randomness of the weakened levels
    // Evaluation weights; null: the committed weights of the position's game.
    std::shared_ptr<const EvalWeights> weights;
};

struct SearchInfo {
    int depth = 0, seldepth = 0;
    Value score = 0;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

struct SearchResult {
    Move best = Move::none();  // none: no legal move
    Move ponder = Move::none();
    Value score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
};

using InfoCallback = std::function<void(const SearchInfo&)>;

// "mate N" / "cp N" of UCI.
std::string uci_score(Value v);

class Searcher {
public:
    explicit Searcher(TranspositionTable& tt);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Searches the position (left as it was). `stop` may be null; the search
    // also ends at the limits. Always returns a legal move when one exists.
    SearchResult run(Position& pos, const Limits& limits, const SearchOptions& options, const std::atomic<bool>* stop,
                     const InfoCallback& on_info);
    void clear();  // new game: forget the ordering statistics

    struct Data;  // the large per-ply arrays (search.cpp)

private:
    std::unique_ptr<Data> d_;
    TranspositionTable& tt_;
};

}  // namespace echecs::engine

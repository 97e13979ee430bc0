// Transposition table: clusters of four 16-byte entries, replaced by depth
// and age. Not shared between threads: each searcher owns one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/types.h"
#include "evaluate.h"

namespace echecs::engine {

enum Bound : std::uint8_t { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = BOUND_UPPER | BOUND_LOWER };

struct TTEntry {
    Key key;
    std::uint32_t move;
    std::int16_t value;
    std::int8_t depth;
    std::uint8_t gen_bound;  // generation << 2 | bound

    Move best_move() const { return Move(move); }
    Bound bound() const { return Bound(gen_bound & 3); }
};
static_assert(sizeof(TTEntry) == 16);

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t mb = 16) { resize(mb); }
    void resize(std::size_t mb);  // clears; at least 1 MB
    void clear();
    void new_search() { generation_ = std::uint8_t((generation_ + 1) & 63); }

    // The entry for `key`, or nullptr.
    const TTEntry* probe(Key key) const;
    void store(Key key, Value v, Bound b, int depth, Move m);
    int hashfull() const;  // per mille of entries written in this search
    std::size_t size_mb() const { return mb_; }

private:
    static constexpr int CLUSTER = 4;
    struct Cluster {
        TTEntry e[CLUSTER];
    };
    Cluster* cluster(Key key) const { return &table_[(unsigned __int128)key * count_ >> 64]; }

    std::unique_ptr<Cluster[]> table_;
    std::size_t count_ = 0;
    std::size_t mb_ = 0;
    std::uint8_t generation_ = 0;
};

// Mate scores are stored relative to the node, not the root.
inline Value value_to_tt(Value v, int ply) {
    return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= -VALUE_MATE_IN_MAX_PLY ? v - ply : v;
}
inline Value value_from_tt(Value v, int ply) {
    return v >= VALUE_MATE_IN_MAX_PLY ? v - ply : v <= -VALUE_MATE_IN_MAX_PLY ? v + ply : v;
}

}  // namespace echecs::engine

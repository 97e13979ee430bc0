// Transposition table: clusters of four 16-byte entries, replaced by depth
// and age, shared by all search threads without locks. Each entry is two
// 64-bit words, the data and the key xor the data, written and read with
// relaxed atomics: a torn entry (one word from another store) fails the key
// check and reads as a miss, so threads never see a mixed entry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/types.h"
#include "evaluate.h"
#include "platform/huge_pages.h"

namespace echecs::engine {

enum Bound : std::uint8_t { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = BOUND_UPPER | BOUND_LOWER };

// One entry as the search reads it (a copy: the table may change under it).
struct TTEntry {
    Key key = 0;
    std::uint32_t move = 0;
    std::int16_t value = 0;
    std::int8_t depth = 0;
    std::uint8_t gen_bound = 0;  // generation << 2 | bound

    Move best_move() const { return Move(move); }
    Bound bound() const { return Bound(gen_bound & 3); }
};

class TranspositionTable {
public:
    explicit TranspositionTable(std::size_t mb = 16) { resize(mb); }
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // A new, empty table of `mb` MB (at least 1), mapped but not yet touched:
    // a table kept across searches (the protocols') is then clear()ed, so
    // that the first search does not pay the page faults; a table for one
    // search (choose_move, bench) faults in only what it uses. Throws
    // std::bad_alloc when the memory cannot be had (the table is then 1 MB).
    void resize(std::size_t mb);
    // Writes zeros over the whole table, split over `threads` threads (as
    // Stockfish's TT::clear): every page is faulted in now and kept, so a
    // new game's first moves search at full speed. Not during a search.
    void clear(int threads = 1);
    void new_search() { generation_ = std::uint8_t((generation_ + 1) & 63); }

    // Copies the entry for `key` into `out`; false when there is none.
    bool probe(Key key, TTEntry& out) const;
    // Starts loading the cluster of `key` (the search asks right after a
    // move, so the child's probe finds it in cache).
    void prefetch(Key key) const { __builtin_prefetch(cluster(key)); }
    void store(Key key, Value v, Bound b, int depth, Move m);
    int hashfull() const;  // per mille of entries written in this search
    std::size_t size_mb() const { return mb_; }

private:
    static constexpr int CLUSTER = 4;
    struct Slot {
        std::uint64_t check;  // key ^ data
        std::uint64_t data;   // move | value << 32 | depth << 48 | gen_bound << 56
    };
    struct alignas(64) Cluster {
        Slot e[CLUSTER];
    };
    static_assert(sizeof(Cluster) == 64);
    Cluster* cluster(Key key) const { return &table_[(unsigned __int128)key * count_ >> 64]; }
    void map(std::size_t bytes);
    void unmap();

    platform::HugePages memory_;  // zeroed, in huge pages where the system allows them
    Cluster* table_ = nullptr;
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

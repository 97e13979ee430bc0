// The solver's table of proven results. Entries are found by the core's
// Zobrist key but compared on the whole position (placement, Alice boards,
// side to move, castling rights, a capturable en-passant square), so that a
// key collision can never turn into a wrong answer: the solver stays exact.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/position.h"
#include "platform/huge_pages.h"

namespace echecs::solver {

// The position, exactly, in 32 bytes.
struct PositionCode {
    std::uint64_t w[4] = {};
    bool operator==(const PositionCode&) const = default;
};

// False when the position has more than 32 pieces (such positions are not stored).
bool encode(const Position& pos, PositionCode& code);

// What is known of one position. Battle play (#n, s#n): "the attacker wins
// within k more attacker moves" is monotone in k, so two bounds say all of it.
// Help play: one bit per number of half-moves left proven to have no solution.
struct Proven {
    std::uint8_t win_from = 255;  // wins for every k >= win_from
    std::uint8_t fail_below = 0;  // fails for every k < fail_below
    std::uint64_t help_fail = 0;  // bit p: no help solution in exactly p half-moves
};

class ProofTable {
public:
    explicit ProofTable(std::size_t megabytes);
    ProofTable(const ProofTable&) = delete;
    ProofTable& operator=(const ProofTable&) = delete;

    // True and `out` filled when the position is stored.
    bool probe(Key key, const PositionCode& code, Proven& out) const;
    // Merges what is now proven into the stored entry (or a replaced one).
    void store_win(Key key, const PositionCode& code, int k);
    void store_fail(Key key, const PositionCode& code, int k);
    void store_help_fail(Key key, const PositionCode& code, int plies);

    // Asks the memory for the key's bucket ahead of its probe: a table larger
    // than the cache costs a memory access per probe, which fetching the
    // children's buckets together overlaps (Search::prefetch_children).
    void prefetch(Key key) const {
        const char* b = reinterpret_cast<const char*>(&table_[bucket_of(key) * WAYS]);
        for (std::size_t at = 0; at < sizeof(Entry) * WAYS; at += 64) __builtin_prefetch(b + at);
    }
    std::size_t entries() const { return buckets_ * WAYS; }
    std::uint64_t stored() const { return stored_.load(std::memory_order_relaxed); }

private:
    static constexpr int WAYS = 4;
    static constexpr std::size_t LOCKS = 4096;
    // 48 bytes: a bucket is three cache lines (with a Proven inside, 56).
    struct Entry {
        PositionCode code;
        std::uint64_t help_fail;
        std::uint8_t win_from, fail_below;
        bool used;
        Proven proven() const { return {win_from, fail_below, help_fail}; }
        void set(const Proven& p) {
            help_fail = p.help_fail;
            win_from = p.win_from;
            fail_below = p.fail_below;
        }
    };
    static_assert(sizeof(Entry) * WAYS == 192);
    template <class F>
    void update(Key key, const PositionCode& code, F&& merge);
    // The buckets in use: the first START_BUCKETS (3/4 MiB), 16 times as
    // many each time they are half full (12 MiB), then the whole table. A
    // small problem so touches a megabyte, not the 64 MiB (a page fault per
    // 4 KiB, or the zeroing of a 2 MiB huge page, each: h#2s took twice their
    // time, a #4 three times). While they are a power of two, a key's bucket
    // is its low bits, and a sixteenth of the entries are still where their
    // probes look after a growth; the whole table's is the key scaled to its
    // size. The others are lost to their probes: only speed, and they are
    // few beside a search that fills a table. (Doubling lost more in all:
    // BEISPIEL/intell.inp 39, h#3 plain, 3.8 M nodes against 2.9 M.)
    static constexpr std::size_t START_BUCKETS = 4096;
    static constexpr std::size_t GROW = 16;
    std::size_t bucket_in(Key key, std::size_t active) const {
        if (active & (active - 1)) return std::size_t((static_cast<unsigned __int128>(key) * active) >> 64);
        return std::size_t(key) & (active - 1);
    }
    std::size_t bucket_of(Key key) const { return bucket_in(key, active_.load(std::memory_order_relaxed)); }

    // Zero pages from the system as they are first used (all-zero is
    // "unused"), in huge pages where it allows them: a small problem touches
    // few of them.
    std::size_t buckets_;
    std::atomic<std::size_t> active_;
    platform::HugePages block_;
    Entry* table_;
    mutable std::unique_ptr<std::atomic<bool>[]> locks_;
    std::atomic<std::uint64_t> stored_{0};
};

}  // namespace echecs::solver

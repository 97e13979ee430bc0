#include "tt.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

namespace echecs::engine {

namespace {

std::uint64_t load(const std::uint64_t& w) {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(w)).load(std::memory_order_relaxed);
}
void save(std::uint64_t& w, std::uint64_t v) { std::atomic_ref<std::uint64_t>(w).store(v, std::memory_order_relaxed); }

TTEntry decode(Key key, std::uint64_t d) {
    TTEntry e;
    e.key = key;
    e.move = std::uint32_t(d);
    e.value = std::int16_t(std::uint16_t(d >> 32));
    e.depth = std::int8_t(std::uint8_t(d >> 48));
    e.gen_bound = std::uint8_t(d >> 56);
    return e;
}
std::uint64_t encode(const TTEntry& e) {
    return std::uint64_t(e.move) | std::uint64_t(std::uint16_t(e.value)) << 32 |
           std::uint64_t(std::uint8_t(e.depth)) << 48 | std::uint64_t(e.gen_bound) << 56;
}

}  // namespace

void TranspositionTable::map(std::size_t bytes) {
    memory_ = platform::HugePages(bytes);
    table_ = static_cast<Cluster*>(memory_.data());
}

void TranspositionTable::unmap() {
    memory_ = platform::HugePages();
    table_ = nullptr;
    count_ = mb_ = 0;
}

void TranspositionTable::resize(std::size_t mb) {
    mb = std::clamp<std::size_t>(mb, 1, 65536);
    // The old table goes first, so that a large resize never holds both.
    unmap();
    try {
        map(mb * 1024 * 1024);
    } catch (const std::bad_alloc&) {
        map(1024 * 1024);
        mb_ = 1;
        count_ = memory_.size() / sizeof(Cluster);
        generation_ = 0;
        throw;
    }
    mb_ = mb;
    count_ = memory_.size() / sizeof(Cluster);
    generation_ = 0;
}

void TranspositionTable::clear(int threads) {
    // Each thread writes its own slice; the kernel zeroes (and, on a machine
    // with several memory nodes, places) the pages of a slice for its thread.
    const std::size_t n = std::size_t(std::clamp(threads, 1, 64));
    const std::size_t slice = (count_ + n - 1) / n;
    auto zero = [this, slice](std::size_t i) {
        const std::size_t begin = std::min(count_, i * slice), end = std::min(count_, begin + slice);
        std::memset(static_cast<void*>(table_ + begin), 0, (end - begin) * sizeof(Cluster));
    };
    std::vector<std::jthread> helpers;
    for (std::size_t i = 1; i < n; ++i) helpers.emplace_back(zero, i);
    zero(0);
    helpers.clear();  // joins
    generation_ = 0;
}

bool TranspositionTable::probe(Key key, TTEntry& out) const {
    const Cluster* c = cluster(key);
    for (const Slot& s : c->e) {
        const std::uint64_t d = load(s.data), k = load(s.check) ^ d;
        if (k == key && (d >> 56) != 0) {
            out = decode(key, d);
            return true;
        }
    }
    return false;
}

void TranspositionTable::store(Key key, Value v, Bound b, int depth, Move m) {
    Cluster* c = cluster(key);
    TTEntry entries[CLUSTER];
    for (int i = 0; i < CLUSTER; ++i) {
        const std::uint64_t d = load(c->e[i].data);
        entries[i] = decode(load(c->e[i].check) ^ d, d);
    }
    int replace = 0;
    for (int i = 0; i < CLUSTER; ++i) {
        const TTEntry& e = entries[i];
        if (e.key == key || !e.gen_bound) {
            replace = i;
            break;
        }
        // Prefer replacing old and shallow entries.
        auto worth = [this](const TTEntry& x) { return x.depth - 8 * ((generation_ - (x.gen_bound >> 2)) & 63); };
        if (worth(e) < worth(entries[replace])) replace = i;
    }
    TTEntry& r = entries[replace];
    // Keep the old move when the new store has none for this position.
    if (!m && r.key == key) m = r.best_move();
    // Do not overwrite a deeper exact result of this search with a shallower
    // bound.
    if (r.key == key && b != BOUND_EXACT && r.depth > depth + 2 && (r.gen_bound >> 2) == generation_) return;
    r.key = key;
    r.move = m.raw();
    r.value = std::int16_t(v);
    r.depth = std::int8_t(std::clamp(depth, -1, 127));
    r.gen_bound = std::uint8_t(generation_ << 2 | b);
    const std::uint64_t d = encode(r);
    save(c->e[replace].data, d);
    save(c->e[replace].check, key ^ d);
}

int TranspositionTable::hashfull() const {
    int n = 0;
    const std::size_t clusters = std::min<std::size_t>(count_, 250);
    for (std::size_t i = 0; i < clusters; ++i)
        for (const Slot& s : table_[i].e) {
            const std::uint64_t g = load(s.data) >> 56;
            if (g && (g >> 2) == generation_) ++n;
        }
    return int(n * 1000 / (clusters * CLUSTER));
}

}  // namespace echecs::engine

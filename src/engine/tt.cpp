#include "tt.h"

#include <algorithm>
#include <cstring>

namespace echecs::engine {

void TranspositionTable::resize(std::size_t mb) {
    mb = std::clamp<std::size_t>(mb, 1, 65536);
    mb_ = mb;
    count_ = mb * 1024 * 1024 / sizeof(Cluster);
    table_ = std::make_unique<Cluster[]>(count_);
    clear();
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(table_.get()), 0, count_ * sizeof(Cluster));
    generation_ = 0;
}

const TTEntry* TranspositionTable::probe(Key key) const {
    const Cluster* c = cluster(key);
    for (const TTEntry& e : c->e)
        if (e.key == key && e.gen_bound) return &e;
    return nullptr;
}

void TranspositionTable::store(Key key, Value v, Bound b, int depth, Move m) {
    Cluster* c = cluster(key);
    TTEntry* replace = &c->e[0];
    for (TTEntry& e : c->e) {
        if (e.key == key || !e.gen_bound) {
            replace = &e;
            break;
        }
        // Prefer replacing old and shallow entries.
        auto worth = [this](const TTEntry& x) { return x.depth - 8 * ((generation_ - (x.gen_bound >> 2)) & 63); };
        if (worth(e) < worth(*replace)) replace = &e;
    }
    // Keep the old move when the new store has none for this position.
    if (!m && replace->key == key) m = replace->best_move();
    // Do not overwrite a deeper exact result of this search with a shallower
    // bound.
    if (replace->key == key && b != BOUND_EXACT && replace->depth > depth + 2 &&
        (replace->gen_bound >> 2) == generation_)
        return;
    replace->key = key;
    replace->move = m.raw();
    replace->value = std::int16_t(v);
    replace->depth = std::int8_t(std::clamp(depth, -1, 127));
    replace->gen_bound = std::uint8_t(generation_ << 2 | b);
}

int TranspositionTable::hashfull() const {
    int n = 0;
    const std::size_t clusters = std::min<std::size_t>(count_, 250);
    for (std::size_t i = 0; i < clusters; ++i)
        for (const TTEntry& e : table_[i].e)
            if (e.gen_bound && (e.gen_bound >> 2) == generation_) ++n;
    return int(n * 1000 / (clusters * CLUSTER));
}

}  // namespace echecs::engine

#include "server/play/pool_book.h"

#include <algorithm>
#include <cstdlib>

namespace echecs::server {

const std::vector<PoolSpec>& PoolBook::presets() {
    static const std::vector<PoolSpec> specs = [] {
        std::vector<PoolSpec> out;
        const struct { int minutes, increment; } realtime[] = {{1, 0}, {3, 2}, {5, 3}, {10, 0}, {15, 10}};
        for (const VariantInfo& info : VARIANTS) {
            const Variant v = info.variant;
            const std::string name(info.name);
            for (const auto& t : realtime) {
                TimeControl tc;
                tc.kind = TimeControl::Realtime;
                tc.initial_ms = std::int64_t(t.minutes) * 60'000;
                tc.increment_ms = std::int64_t(t.increment) * 1'000;
                out.push_back({name + "-" + std::to_string(t.minutes) + "+" + std::to_string(t.increment), v, tc});
            }
            TimeControl corr;
            corr.kind = TimeControl::Correspondence;
            corr.days = 3;
            out.push_back({name + "-corr3", v, corr});
        }
        return out;
    }();
    return specs;
}

const PoolSpec* PoolBook::find_spec(const std::string& id) {
    for (const PoolSpec& s : presets())
        if (s.id == id) return &s;
    return nullptr;
}

int PoolBook::range_at(std::int64_t joined_at, std::int64_t now) const {
    const std::int64_t waited = std::max<std::int64_t>(0, now - joined_at);
    const std::int64_t steps = range_.every_ms > 0 ? waited / range_.every_ms : 0;
    return int(std::min<std::int64_t>(range_.initial + steps * range_.widen_by, 10'000));
}

bool PoolBook::compatible(const PoolEntry& a, const PoolEntry& b, std::int64_t now) const {
    if (a.token == b.token) return false;
    if ((a.account == 0) != (b.account == 0)) return false;  // rated among accounts, casual among anonymous
    if (a.account && a.account == b.account) return false;
    if (!a.account) return true;  // anonymous players have no rating to compare
    const int diff = std::abs(a.rating - b.rating);
    return diff <= range_at(a.joined_at, now) && diff <= range_at(b.joined_at, now);
}

bool PoolBook::join(const std::string& pool, PoolEntry e) {
    if (!find_spec(pool)) return false;
    leave(e.peer);
    // A browser waits in one pool at a time, whichever socket joined.
    for (Pool& p : pools_) std::erase_if(p.waiting, [&](const PoolEntry& w) { return w.token == e.token; });
    auto it = std::find_if(pools_.begin(), pools_.end(), [&](const Pool& p) { return p.id == pool; });
    if (it == pools_.end()) it = pools_.insert(pools_.end(), Pool{pool, {}});
    it->waiting.push_back(std::move(e));
    return true;
}

bool PoolBook::leave(std::uint64_t peer) {
    for (Pool& p : pools_) {
        auto it = std::find_if(p.waiting.begin(), p.waiting.end(), [&](const PoolEntry& e) { return e.peer == peer; });
        if (it != p.waiting.end()) {
            p.waiting.erase(it);
            return true;
        }
    }
    return false;
}

std::optional<std::string> PoolBook::pool_of(std::uint64_t peer) const {
    for (const Pool& p : pools_)
        for (const PoolEntry& e : p.waiting)
            if (e.peer == peer) return p.id;
    return std::nullopt;
}

std::vector<PoolPairing> PoolBook::pair(std::int64_t now) {
    std::vector<PoolPairing> out;
    for (Pool& p : pools_) {
        std::vector<PoolEntry>& w = p.waiting;
        for (std::size_t i = 0; i < w.size();) {
            std::optional<std::size_t> best;
            for (std::size_t j = i + 1; j < w.size(); ++j) {
                if (!compatible(w[i], w[j], now)) continue;
                if (!best || std::abs(w[j].rating - w[i].rating) < std::abs(w[*best].rating - w[i].rating)) best = j;
            }
            if (!best) {
                ++i;
                continue;
            }
            out.push_back({p.id, w[i], w[*best]});
            w.erase(w.begin() + std::ptrdiff_t(*best));
            w.erase(w.begin() + std::ptrdiff_t(i));
        }
    }
    return out;
}

std::size_t PoolBook::waiting(const std::string& pool) const {
    for (const Pool& p : pools_)
        if (p.id == pool) return p.waiting.size();
    return 0;
}

std::size_t PoolBook::size() const {
    std::size_t n = 0;
    for (const Pool& p : pools_) n += p.waiting.size();
    return n;
}

}  // namespace echecs::server

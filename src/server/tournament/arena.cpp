#include "server/tournament/arena.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <limits>

namespace echecs::server::tournament {

int ArenaSheet::add(Outcome o, bool berserk, int own_moves) {
    int p = o == Outcome::Win ? 2 : o == Outcome::Draw ? 1 : 0;
    if (on_fire()) p *= 2;
    if (o == Outcome::Win && berserk && own_moves >= BERSERK_MIN_MOVES) p += 1;
    wins_in_a_row_ = o == Outcome::Win ? wins_in_a_row_ + 1 : 0;
    score_ += p;
    points_.push_back(p);
    return p;
}

namespace {

bool rematch(const FreePlayer& a, const FreePlayer& b) { return a.last_opponent == b.id || b.last_opponent == a.id; }

// Neighbours in the standings; a pair of last opponents is broken by taking
// the next player instead, when there is one.
std::vector<std::pair<std::int64_t, std::int64_t>> greedy(std::vector<FreePlayer>& f) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (std::size_t i = 0; i + 1 < f.size(); i += 2) {
        if (rematch(f[i], f[i + 1]))
            for (std::size_t j = i + 2; j < f.size(); ++j)
                if (!rematch(f[i], f[j])) {
                    std::rotate(f.begin() + std::ptrdiff_t(i) + 1, f.begin() + std::ptrdiff_t(j),
                                f.begin() + std::ptrdiff_t(j) + 1);
                    break;
                }
        out.emplace_back(f[i].id, f[i + 1].id);
    }
    return out;
}

// The cheapest matching by dynamic programming over the sets of players
// already paired (2^n sets, each extended by pairing its first free player):
// exact, and a few milliseconds at EXACT_LIMIT. (Boost 1.74's
// maximum_weighted_matching was tried first: it loops for ever on some
// six-player cases.) With an odd number a ghost is added: the player paired
// with it waits. A repeated opponent costs more than any sum of squared
// rank differences, so that one is taken only when nothing else pairs
// everyone.
std::vector<std::pair<std::int64_t, std::int64_t>> exact(const std::vector<FreePlayer>& f) {
    const int n = int(f.size());
    if (n < 2) return {};
    const int m = n + n % 2;
    const std::int64_t repeat = std::int64_t(n) * n * n + 1;
    auto cost = [&](int a, int b) -> std::int64_t {
        if (b >= n) return 0;  // the ghost
        const std::int64_t d = std::min(std::abs(f[a].rank - f[b].rank), n);
        return d * d + (rematch(f[a], f[b]) ? repeat : 0);
    };
    const std::uint32_t full = (1u << m) - 1;
    std::vector<std::int64_t> best(full + 1, std::numeric_limits<std::int64_t>::max());
    std::vector<std::pair<std::uint8_t, std::uint8_t>> last(full + 1);
    best[0] = 0;
    for (std::uint32_t mask = 0; mask < full; ++mask) {
        if (best[mask] == std::numeric_limits<std::int64_t>::max()) continue;
        const int i = std::countr_one(mask);
        for (int j = i + 1; j < m; ++j) {
            if (mask >> j & 1) continue;
            const std::uint32_t next = mask | 1u << i | 1u << j;
            const std::int64_t c = best[mask] + cost(i, j);
            if (c < best[next]) best[next] = c, last[next] = {std::uint8_t(i), std::uint8_t(j)};
        }
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (std::uint32_t mask = full; mask;) {
        const auto [i, j] = last[mask];
        if (j < n) out.emplace_back(f[i].id, f[j].id);
        mask &= ~(1u << i | 1u << j);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

}  // namespace

std::vector<std::pair<std::int64_t, std::int64_t>> pair_free_players(std::vector<FreePlayer> free) {
    std::sort(free.begin(), free.end(), [](const FreePlayer& a, const FreePlayer& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.id < b.id;
    });
    return free.size() <= EXACT_LIMIT ? exact(free) : greedy(free);
}

}  // namespace echecs::server::tournament

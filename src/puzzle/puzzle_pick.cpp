#include "puzzle_pick.h"

#include <algorithm>
#include <cstdlib>

namespace echecs::puzzle {

std::vector<std::size_t> nearest_puzzles(const std::vector<Puzzle>& sorted, int rating, std::size_t near,
                                         const std::function<bool(const Puzzle&)>& done) {
    // Outward from where `rating` would go, the nearer side first each step.
    const auto at =
        std::lower_bound(sorted.begin(), sorted.end(), rating, [](const Puzzle& p, int r) { return p.rating < r; });
    std::size_t below = std::size_t(at - sorted.begin()), above = below;  // [below, above) seen
    std::vector<std::size_t> out, all;
    while (out.size() < near && (below > 0 || above < sorted.size())) {
        const bool take_above =
            below == 0 || (above < sorted.size() &&
                           std::abs(sorted[above].rating - rating) <= std::abs(sorted[below - 1].rating - rating));
        const std::size_t k = take_above ? above++ : --below;
        if (all.size() < near) all.push_back(k);
        if (!done || !done(sorted[k])) out.push_back(k);
    }
    return out.empty() ? all : out;
}

}  // namespace echecs::puzzle

#include "solver/assignment.h"

#include <algorithm>

namespace echecs::solver {

// Shortest augmenting paths with row and column potentials, one row added at
// a time (O(n^2 m)); 1-based arrays, column 0 is the virtual start.
int min_assignment(const CostMatrix& c) {
    const int n = c.rows, m = c.cols;
    if (n == 0) return 0;
    if (n > m) return ASSIGN_INF;
    constexpr int BIG = 1 << 28;
    int u[ASSIGN_MAX + 1] = {}, v[ASSIGN_MAX + 1] = {}, match[ASSIGN_MAX + 1] = {}, way[ASSIGN_MAX + 1] = {};
    for (int i = 1; i <= n; ++i) {
        match[0] = i;
        int j0 = 0;
        int minv[ASSIGN_MAX + 1];
        bool used[ASSIGN_MAX + 1];
        std::fill(minv, minv + m + 1, BIG);
        std::fill(used, used + m + 1, false);
        do {
            used[j0] = true;
            const int i0 = match[j0];
            int delta = BIG, j1 = 0;
            for (int j = 1; j <= m; ++j) {
                if (used[j]) continue;
                const int cur = c.cost[i0 - 1][j - 1] - u[i0] - v[j];
                if (cur < minv[j]) minv[j] = cur, way[j] = j0;
                if (minv[j] < delta) delta = minv[j], j1 = j;
            }
            for (int j = 0; j <= m; ++j) {
                if (used[j])
                    u[match[j]] += delta, v[j] -= delta;
                else
                    minv[j] -= delta;
            }
            j0 = j1;
        } while (match[j0] != 0);
        do {
            const int j1 = way[j0];
            match[j0] = match[j1];
            j0 = j1;
        } while (j0);
    }
    int total = 0;
    for (int j = 1; j <= m; ++j)
        if (match[j]) total += c.cost[match[j] - 1][j - 1];
    return std::min(total, ASSIGN_INF);
}

}  // namespace echecs::solver

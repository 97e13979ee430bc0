// The least total cost of giving each of n rows its own column (n <= m <=
// 16): the Hungarian method, on fixed arrays (no allocation; the proof-game
// bound calls it at every node). Used to match the diagram's men with the
// men on the board that can become them.
#pragma once

namespace echecs::solver {

constexpr int ASSIGN_MAX = 16;
constexpr int ASSIGN_INF = 1000;  // "cannot": a total at or above it means no assignment

struct CostMatrix {
    int rows = 0, cols = 0;
    int cost[ASSIGN_MAX][ASSIGN_MAX];
};

// The minimum over assignments of rows to distinct columns of the summed
// costs; at least ASSIGN_INF when every assignment uses a forbidden pair, or
// when there are more rows than columns.
int min_assignment(const CostMatrix& c);

}  // namespace echecs::solver

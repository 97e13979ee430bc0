// Maximum cardinality matching in a general graph (Edmonds' blossoms), the
// oracle behind the Dutch pairing's completability: can the players not yet
// paired still all be paired (one of them taking the bye)?
#pragma once

#include <vector>

namespace echecs::server::tournament {

// The size of a maximum matching of the graph given by adjacency lists.
int maximum_matching(const std::vector<std::vector<int>>& adjacency);

}  // namespace echecs::server::tournament

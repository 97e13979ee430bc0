#include "server/tournament/dutch_matching.h"

#include <cstddef>

namespace echecs::server::tournament {

namespace {

// Edmonds' algorithm, O(V^3): a breadth-first search for an augmenting path
// from each unmatched vertex, shrinking odd cycles (blossoms) to their base.
class Blossom {
public:
    explicit Blossom(const std::vector<std::vector<int>>& g)
        : g_(g), n_(static_cast<int>(g.size())), match_(n_, -1), parent_(n_), base_(n_) {}

    int solve() {
        int size = 0;
        // A greedy start leaves few vertices to search from.
        for (int v = 0; v < n_; ++v)
            if (match_[v] == -1)
                for (int to : g_[v])
                    if (match_[to] == -1) {
                        match_[v] = to;
                        match_[to] = v;
                        ++size;
                        break;
                    }
        for (int v = 0; v < n_; ++v) {
            if (match_[v] != -1) continue;
            int u = find_path(v);
            if (u == -1) continue;
            ++size;
            while (u != -1) {
                int pv = parent_[u], ppv = match_[pv];
                match_[u] = pv;
                match_[pv] = u;
                u = ppv;
            }
        }
        return size;
    }

private:
    int lca(int a, int b) {
        std::vector<char> seen(n_, 0);
        for (;;) {
            a = base_[a];
            seen[a] = 1;
            if (match_[a] == -1) break;
            a = parent_[match_[a]];
        }
        for (;;) {
            b = base_[b];
            if (seen[b]) return b;
            b = parent_[match_[b]];
        }
    }

    void mark_path(int v, int b, int child) {
        while (base_[v] != b) {
            in_blossom_[base_[v]] = in_blossom_[base_[match_[v]]] = 1;
            parent_[v] = child;
            child = match_[v];
            v = parent_[match_[v]];
        }
    }

    int find_path(int root) {
        used_.assign(n_, 0);
        parent_.assign(n_, -1);
        for (int i = 0; i < n_; ++i) base_[i] = i;
        used_[root] = 1;
        std::vector<int> queue{root};
        for (std::size_t head = 0; head < queue.size(); ++head) {
            int v = queue[head];
            for (int to : g_[v]) {
                if (base_[v] == base_[to] || match_[v] == to) continue;
                if (to == root || (match_[to] != -1 && parent_[match_[to]] != -1)) {
                    int b = lca(v, to);
                    in_blossom_.assign(n_, 0);
                    mark_path(v, b, to);
                    mark_path(to, b, v);
                    for (int i = 0; i < n_; ++i)
                        if (in_blossom_[base_[i]]) {
                            base_[i] = b;
                            if (!used_[i]) {
                                used_[i] = 1;
                                queue.push_back(i);
                            }
                        }
                } else if (parent_[to] == -1) {
                    parent_[to] = v;
                    if (match_[to] == -1) return to;
                    used_[match_[to]] = 1;
                    queue.push_back(match_[to]);
                }
            }
        }
        return -1;
    }

    const std::vector<std::vector<int>>& g_;
    int n_;
    std::vector<int> match_, parent_, base_;
    std::vector<char> used_, in_blossom_;
};

}  // namespace

int maximum_matching(const std::vector<std::vector<int>>& adjacency) { return Blossom(adjacency).solve(); }

}  // namespace echecs::server::tournament

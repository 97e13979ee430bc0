// The search of one bracket of the Dutch system: the S1/S2 candidates in the
// rule's order (transpositions of S2, then exchanges), bounded; every
// matching of the bracket when that structure gives nothing good enough;
// last, a greedy pairing that still leaves the rest pairable.
#include "server/tournament/dutch_search.h"

#include <algorithm>

namespace echecs::server::tournament::dutch {

void Dutch::consider(const Candidate& c) {
    if (++leaves_ > LEAF_BUDGET) {
        stop_ = true;
        return;
    }
    Quality q = evaluate(c);
    if (greedy_) {  // the first candidate that leaves the rest pairable sets the target
        if (!completable(c.floaters)) return;
        target_ = {c, q};
        stop_ = true;
        return;
    }
    if (best_ && !(q < best_q_)) return;  // the first of equals stays
    if (!completable(c.floaters)) return;
    best_ = c;
    best_q_ = q;
    // In the S1/S2 structure every candidate has the same pairs and PSD
    // (C.5, C.6): one at the lower bounds of the other criteria cannot be beaten.
    if (structured_ && q.soft == ideal_) stop_ = true;
}

// S1 players in order take the first unused compatible S2 player: the depth
// first order is exactly the lexicographic order of S2's transpositions (D.1).
// Branch and bound: every S1/S2 candidate has the same pairs and PSD, so a
// partial one is dropped when its C.8-C.15 so far, plus a lower bound for
// the players left (with colours counted: so many wanting white cannot all
// meet one wanting black), cannot beat the best found. Only strictly better
// candidates replace the best, so the first best in the rule's order stays.
void Dutch::transpose(const std::vector<int>& s1, const std::vector<int>& s2, std::size_t i, std::vector<char>& used,
                      Candidate& c, const std::function<void(Candidate&)>& leaf, Bound* bound) {
    if (stop_ || ++nodes_ > NODE_BUDGET) {
        stop_ = true;
        return;
    }
    if (i == s1.size()) {
        std::size_t before = c.floaters.size();
        for (std::size_t j = 0; j < s2.size(); ++j)
            if (!used[j]) c.floaters.push_back(s2[j]);
        leaf(c);
        c.floaters.resize(before);
        return;
    }
    std::vector<std::size_t> order;
    for (std::size_t j = 0; j < s2.size(); ++j)
        if (!used[j] && ok(s1[i], s2[j])) order.push_back(j);
    if (greedy_) {  // the cheapest partner first, to find a good target fast
        std::vector<std::array<int, 8>> cost(s2.size());
        for (std::size_t j : order) pair_soft(s1[i], s2[j], cost[j], 1);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return cost[x] < cost[y]; });
    }
    for (std::size_t j : order) {
        if (stop_) break;
        pair_soft(s1[i], s2[j], partial_, 1);
        if (bound) --bound->s2_free[wants(s2[j])];
        std::array<int, 8> v = partial_;
        if (bound) {
            const auto &r1 = bound->s1_rest[i + 1], &r2 = bound->s2_free;
            v[2] += std::max(0, r1[0] - r2[1] - r2[2]) + std::max(0, r1[1] - r2[0] - r2[2]);
        }
        // Hopeless: not better than the best found, or worse than the target.
        bool hopeless = !greedy_ && (best_ ? !(v < best_q_.soft) : target_ && target_->second.soft < v);
        if (!hopeless) {
            used[j] = 1;
            c.pairs.emplace_back(s1[i], s2[j]);
            transpose(s1, s2, i + 1, used, c, leaf, bound);
            c.pairs.pop_back();
            used[j] = 0;
        }
        if (bound) ++bound->s2_free[wants(s2[j])];
        pair_soft(s1[i], s2[j], partial_, -1);
    }
}

// A homogeneous bracket (or remainder): S1 the upper half, S2 the rest; the
// transpositions of S2, then the exchanges of one and of two players between
// S1 and S2, ordered by D.2: the fewest players exchanged, the smallest
// difference of the sums of their bracket sequence numbers, the highest
// player of S1 moved down, the lowest of S2 moved up.
const std::vector<Exchange>& Dutch::exchanges(std::size_t n) {
    auto [it, fresh] = exchanges_.try_emplace(n);
    std::vector<Exchange>& ex = it->second;
    if (!fresh) return ex;
    std::size_t p = n / 2, n2 = n - p;
    ex.push_back({});
    for (std::size_t a = 0; a < p; ++a)
        for (std::size_t b = p; b < n; ++b) ex.push_back({{a}, {b}});
    if (p * (p - 1) / 2 * n2 * (n2 - 1) / 2 <= 3000)
        for (std::size_t a1 = 0; a1 < p; ++a1)
            for (std::size_t a2 = a1 + 1; a2 < p; ++a2)
                for (std::size_t b1 = p; b1 < n; ++b1)
                    for (std::size_t b2 = b1 + 1; b2 < n; ++b2) ex.push_back({{a2, a1}, {b1, b2}});
    std::stable_sort(ex.begin(), ex.end(), [](const Exchange& x, const Exchange& y) {
        if (x.from_s1.size() != y.from_s1.size()) return x.from_s1.size() < y.from_s1.size();
        if (x.diff() != y.diff()) return x.diff() < y.diff();
        if (x.from_s1 != y.from_s1) return x.from_s1 > y.from_s1;
        return x.from_s2 < y.from_s2;
    });
    return ex;
}

void Dutch::homogeneous(const std::vector<int>& players, Candidate prefix) {
    std::size_t p = players.size() / 2;
    const std::vector<Exchange>& ex = exchanges(players.size());
    auto leaf = [&](Candidate& c) { consider(c); };
    for (const Exchange& e : ex) {
        if (stop_) return;
        std::vector<char> in_s1(players.size(), 0);
        for (std::size_t i = 0; i < p; ++i) in_s1[i] = 1;
        for (auto x : e.from_s1) in_s1[x] = 0;
        for (auto x : e.from_s2) in_s1[x] = 1;
        std::vector<int> s1, s2;
        for (std::size_t i = 0; i < players.size(); ++i) (in_s1[i] ? s1 : s2).push_back(players[i]);
        std::vector<char> used(s2.size(), 0);
        Bound bound;
        bound.s1_rest.assign(s1.size() + 1, {});
        for (std::size_t i = s1.size(); i-- > 0;) {
            bound.s1_rest[i] = bound.s1_rest[i + 1];
            ++bound.s1_rest[i][wants(s1[i])];
        }
        for (int x : s2) ++bound.s2_free[wants(x)];
        transpose(s1, s2, 0, used, prefix, leaf, &bound);
    }
}

// Every matching of the bracket, the upper players first: used when the
// S1/S2 structure cannot give a pairing that leaves the rest pairable.
void Dutch::any_matching(const std::vector<int>& bracket, std::vector<char>& done, std::size_t pos, Candidate& c) {
    if (stop_ || ++nodes_ > NODE_BUDGET) {
        stop_ = true;
        return;
    }
    while (pos < bracket.size() && done[pos]) ++pos;
    if (pos == bracket.size()) {
        consider(c);
        return;
    }
    if (best_ && static_cast<int>(c.floaters.size()) > best_q_.floaters) return;
    done[pos] = 1;
    for (std::size_t j = pos + 1; j < bracket.size() && !stop_; ++j) {
        if (done[j] || !ok(bracket[pos], bracket[j])) continue;
        done[j] = 1;
        c.pairs.emplace_back(bracket[pos], bracket[j]);
        any_matching(bracket, done, pos + 1, c);
        c.pairs.pop_back();
        done[j] = 0;
    }
    c.floaters.push_back(bracket[pos]);
    any_matching(bracket, done, pos + 1, c);
    c.floaters.pop_back();
    done[pos] = 0;
}

Candidate Dutch::pair_bracket(const std::vector<int>& bracket) {
    best_.reset();
    structured_ = true;
    std::vector<int> mdps, residents;
    for (int x : bracket) (ps_[x].score > score_ ? mdps : residents).push_back(x);
    // With P pairs, at most P players get white and P black: those wanting
    // a colour beyond that (less the floaters) cannot all have it (C.10, C.11).
    std::size_t m1 = std::min(mdps.size(), residents.size());
    int pairs = static_cast<int>(mdps.empty() ? residents.size() / 2 : m1 + (residents.size() - m1) / 2);
    int floaters = static_cast<int>(bracket.size()) - 2 * pairs;
    std::array<int, 4> want{};  // white, black, strong white, strong black
    for (int x : bracket) {
        const ColourPreference& pr = ps_[x].pref;
        if (pr.colour == Colour::None) continue;
        int k = pr.colour == Colour::White ? 0 : 1;
        ++want[k];
        if (pr.strength >= Strength::Strong) ++want[2 + k];
    }
    auto beyond = [&](int w) { return std::max(0, w - floaters - pairs); };
    ideal_ = {0, 0, beyond(want[0]) + beyond(want[1]), beyond(want[2]) + beyond(want[3]), 0, 0, 0, 0};
    auto structured = [&] {
        stop_ = false;
        leaves_ = 0;
        nodes_ = 0;
        partial_ = {};
        if (mdps.empty()) {
            homogeneous(residents, {});
            return;
        }
        // Heterogeneous: the MDPs that can be (S1) against the residents (S2),
        // then the remainder as a homogeneous bracket; the other MDPs (limbo) float.
        std::vector<int> s1(mdps.begin(), mdps.begin() + static_cast<long>(m1));
        Candidate c;
        c.floaters.assign(mdps.begin() + static_cast<long>(m1), mdps.end());
        std::vector<char> used(residents.size(), 0);
        auto leaf = [&](Candidate& after_mdps) {
            std::vector<int> remainder(after_mdps.floaters.begin() + static_cast<long>(mdps.size() - m1),
                                       after_mdps.floaters.end());
            Candidate prefix = after_mdps;
            prefix.floaters.resize(mdps.size() - m1);
            homogeneous(remainder, prefix);
        };
        transpose(s1, residents, 0, used, c, leaf, nullptr);
    };
    // First a quick descent taking the cheapest partners, whose quality is
    // the target; then the rule's order, pruned by the target, keeps the
    // first candidate at least as good (and any strictly better after it).
    target_.reset();
    greedy_ = true;
    structured();
    greedy_ = false;
    structured();
    if (!best_ && target_) {
        best_ = target_->first;
        best_q_ = target_->second;
    }
    // More pairs may need another structure (MDPs paired together, fewer MDPs paired).
    int least = static_cast<int>(bracket.size() % 2);
    if (!best_ || best_q_.floaters > least) {
        stop_ = false;
        structured_ = false;
        leaves_ = 0;
        nodes_ = 0;
        std::vector<char> done(bracket.size(), 0);
        Candidate c;
        any_matching(bracket, done, 0, c);
    }
    if (best_) return *best_;
    // Beyond the budgets: pair greedily, each pair kept only when the rest stays pairable.
    Candidate c;
    std::vector<char> done(bracket.size(), 0);
    for (std::size_t i = 0; i < bracket.size(); ++i) {
        if (done[i]) continue;
        for (std::size_t j = i + 1; j < bracket.size(); ++j) {
            if (done[j] || !ok(bracket[i], bracket[j])) continue;
            std::vector<int> rest;
            for (std::size_t k = 0; k < bracket.size(); ++k)
                if (!done[k] && k != i && k != j) rest.push_back(bracket[k]);
            if (!completable(rest)) continue;
            done[i] = done[j] = 1;
            c.pairs.emplace_back(bracket[i], bracket[j]);
            break;
        }
    }
    for (std::size_t i = 0; i < bracket.size(); ++i)
        if (!done[i]) c.floaters.push_back(bracket[i]);
    return c;
}

}  // namespace echecs::server::tournament::dutch

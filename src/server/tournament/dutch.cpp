// The FIDE (Dutch) system, C.04.3 (2016/2017), for one round. The brackets
// are paired top down; each bracket's candidates are generated in the rule's
// order (S1 against S2, transpositions of S2, then exchanges between S1 and
// S2) and the first best by the quality criteria is kept, among those that
// leave the rest of the players pairable (C.4: checked by a maximum matching
// over the players not yet paired, so a legal pairing is always found when
// one exists). docs/TOURNAMENTS.md says which criteria are simplified.
#include <algorithm>
#include <array>
#include <compare>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "server/tournament/dutch_matching.h"
#include "server/tournament/swiss.h"

namespace echecs::server::tournament {

ColourPreference colour_preference(const std::vector<Colour>& history) {
    std::vector<Colour> played;
    for (Colour c : history)
        if (c != Colour::None) played.push_back(c);
    if (played.empty()) return {};
    int cd = 0;
    for (Colour c : played) cd += c == Colour::White ? 1 : -1;
    Colour last = played.back();
    Colour other = last == Colour::White ? Colour::Black : Colour::White;
    if (cd > 1) return {Colour::Black, Strength::Absolute};
    if (cd < -1) return {Colour::White, Strength::Absolute};
    if (played.size() >= 2 && played[played.size() - 2] == last) return {other, Strength::Absolute};
    if (cd == 1) return {Colour::Black, Strength::Strong};
    if (cd == -1) return {Colour::White, Strength::Strong};
    return {other, Strength::Mild};
}

namespace {

struct Pl {
    std::int64_t id = 0;
    int tpn = 0;  // pairing number, from 1
    int score = 0;
    const SwissPlayer* src = nullptr;
    ColourPreference pref;
    int cd = 0;
    Colour last = Colour::None, before_last = Colour::None;  // the two latest colours played
    bool top = false;                                        // topscorer (A.7): only when pairing the last round
    Float float1 = Float::None, float2 = Float::None;        // the previous round's float, and the one before
};

// Compared lexicographically, smaller is better, in the order of C.5-C.15.
struct Quality {
    int floaters = 0;           // C.5: as many pairs as possible
    std::vector<int> psd;       // C.6: the pairing score difference, sorted descending
    std::array<int, 8> soft{};  // C.8-C.15: colours, then repeated floats
    auto operator<=>(const Quality&) const = default;
};

struct Candidate {
    std::vector<std::pair<int, int>> pairs;
    std::vector<int> floaters;
};

// An exchange between S1 and S2 (D.2), by positions (BSN - 1) in the bracket.
struct Exchange {
    std::vector<std::size_t> from_s1, from_s2;
    int diff() const {
        int d = 0;
        for (auto x : from_s2) d += static_cast<int>(x);
        for (auto x : from_s1) d -= static_cast<int>(x);
        return d;
    }
};

// Budgets per bracket: brackets of a few dozen players are searched far
// enough; beyond them the best found so far is kept.
constexpr int LEAF_BUDGET = 4000;
constexpr long NODE_BUDGET = 100000;

class Dutch {
public:
    Dutch(const std::vector<SwissPlayer>& players, const DutchOptions& o) : opt_(o) {
        std::vector<const SwissPlayer*> by_rating;
        for (const auto& p : players) by_rating.push_back(&p);
        std::sort(by_rating.begin(), by_rating.end(),
                  [](auto* a, auto* b) { return a->rating != b->rating ? a->rating > b->rating : a->id < b->id; });
        for (std::size_t i = 0; i < by_rating.size(); ++i) {
            const SwissPlayer& s = *by_rating[i];
            Pl p;
            p.id = s.id;
            p.tpn = static_cast<int>(i) + 1;
            p.score = s.points2;
            p.src = &s;
            p.pref = colour_preference(s.colours);
            for (Colour c : s.colours) {
                if (c == Colour::None) continue;
                p.cd += c == Colour::White ? 1 : -1;
                p.before_last = p.last;
                p.last = c;
            }
            // A topscorer has more than half the points possible so far, when the last round is paired.
            p.top = o.round >= o.total_rounds && s.points2 > o.round - 1;
            std::size_t r = s.floats.size();
            if (r >= 1) p.float1 = s.floats[r - 1];
            if (r >= 2) p.float2 = s.floats[r - 2];
            ps_.push_back(p);
        }
        // Index = the order of A.2: score, then pairing number.
        std::sort(ps_.begin(), ps_.end(),
                  [](const Pl& a, const Pl& b) { return a.score != b.score ? a.score > b.score : a.tpn < b.tpn; });
        n_ = static_cast<int>(ps_.size());
        ok_.assign(static_cast<std::size_t>(n_) * n_, 0);
        for (int a = 0; a < n_; ++a) {
            std::set<std::int64_t> met(ps_[a].src->opponents.begin(), ps_[a].src->opponents.end());
            for (int b = 0; b < n_; ++b) {
                if (a == b || met.count(ps_[b].id) ||
                    std::count(ps_[b].src->opponents.begin(), ps_[b].src->opponents.end(), ps_[a].id))
                    continue;
                const auto &pa = ps_[a].pref, &pb = ps_[b].pref;
                bool same_absolute =
                    pa.strength == Strength::Absolute && pb.strength == Strength::Absolute && pa.colour == pb.colour;
                if (same_absolute && !ps_[a].top && !ps_[b].top) continue;  // C.3
                ok_[a * n_ + b] = 1;
            }
        }
    }

    std::optional<DutchPairing> run();

private:
    bool ok(int a, int b) const { return ok_[a * n_ + b]; }
    bool bye_ok(int a) const { return !ps_[a].src->bye_received; }
    bool completable(std::vector<int> floaters);
    bool white_first(int a, int b) const;
    Quality evaluate(const Candidate& c) const;
    Candidate pair_bracket(const std::vector<int>& bracket);

    // The bracket search.
    void consider(const Candidate& c);
    void homogeneous(const std::vector<int>& players, Candidate prefix);
    const std::vector<Exchange>& exchanges(std::size_t n);  // in D.2's order, for a bracket of n
    struct Bound {
        std::vector<std::array<int, 3>> s1_rest;  // from each S1 position on: wanting white, black, nothing
        std::array<int, 3> s2_free{};             // the S2 players not yet taken, likewise
    };
    int wants(int x) const {
        return ps_[x].pref.colour == Colour::White ? 0 : ps_[x].pref.colour == Colour::Black ? 1 : 2;
    }
    void transpose(const std::vector<int>& s1, const std::vector<int>& s2, std::size_t i, std::vector<char>& used,
                   Candidate& c, const std::function<void(Candidate&)>& leaf, Bound* bound);
    void pair_soft(int a, int b, std::array<int, 8>& s, int sign) const;
    void float_soft(int x, Float f, std::array<int, 8>& s, int sign) const;
    void any_matching(const std::vector<int>& bracket, std::vector<char>& done, std::size_t pos, Candidate& c);

    DutchOptions opt_;
    std::vector<Pl> ps_;
    int n_ = 0;
    std::vector<char> ok_;
    // The bracket being paired.
    int score_ = 0;
    std::vector<int> lower_;
    std::map<std::vector<int>, bool> cache_;
    std::optional<Candidate> best_;
    Quality best_q_;
    int leaves_ = 0;
    long nodes_ = 0;
    bool stop_ = false;
    bool structured_ = false;  // searching the S1/S2 candidates, not any matching
    std::array<int, 8> ideal_{};
    std::array<int, 8> partial_{};
    bool greedy_ = false;  // the quick descent for a target
    std::optional<std::pair<Candidate, Quality>>
        target_;  // what it found  // C.8-C.15 of the pairs taken so far in the S1/S2 search  // lower bounds of
                  // C.8-C.15 for the S1/S2 candidates
    std::map<std::size_t, std::vector<Exchange>> exchanges_;
};

// Can the given floaters and every lower player all be paired, one of them
// taking the bye when their number is odd?
bool Dutch::completable(std::vector<int> floaters) {
    std::sort(floaters.begin(), floaters.end());
    if (auto it = cache_.find(floaters); it != cache_.end()) return it->second;
    std::vector<int> set = floaters;
    set.insert(set.end(), lower_.begin(), lower_.end());
    int m = static_cast<int>(set.size());
    bool odd = m % 2 == 1;
    std::vector<std::vector<int>> g(m + (odd ? 1 : 0));
    for (int i = 0; i < m; ++i)
        for (int j = i + 1; j < m; ++j)
            if (ok(set[i], set[j])) {
                g[i].push_back(j);
                g[j].push_back(i);
            }
    if (odd)
        for (int i = 0; i < m; ++i)
            if (bye_ok(set[i])) {
                g[i].push_back(m);
                g[m].push_back(i);
            }
    bool yes = 2 * maximum_matching(g) == static_cast<int>(g.size());
    cache_[floaters] = yes;
    return yes;
}

// The colour allocation rules E.1-E.5: true when a gets white.
bool Dutch::white_first(int a, int b) const {
    const Pl &A = ps_[a], &B = ps_[b];
    const ColourPreference &pa = A.pref, &pb = B.pref;
    int hi = std::min(a, b);  // the higher ranked
    if (pa.colour != Colour::None || pb.colour != Colour::None) {
        if (pb.colour == Colour::None || (pa.colour != Colour::None && pa.colour != pb.colour))
            return pa.colour == Colour::White;                             // E.1
        if (pa.colour == Colour::None) return pb.colour == Colour::Black;  // E.1
        // The same colour wanted. E.2: the stronger preference, or the wider colour difference of two absolute.
        if (pa.strength != pb.strength) return (pa.strength > pb.strength) == (pa.colour == Colour::White);
        if (pa.strength == Strength::Absolute && std::abs(A.cd) != std::abs(B.cd))
            return (std::abs(A.cd) > std::abs(B.cd)) == (pa.colour == Colour::White);
        // E.3: alternate from the latest round in which they had different colours.
        const auto &ca = A.src->colours, &cb = B.src->colours;
        for (std::size_t r = std::min(ca.size(), cb.size()); r-- > 0;)
            if (ca[r] != Colour::None && cb[r] != Colour::None && ca[r] != cb[r]) return ca[r] == Colour::Black;
        // E.4: the higher ranked player's preference.
        return (hi == a) == (pa.colour == Colour::White);
    }
    // E.5: the higher ranked player takes the initial colour with an odd pairing number.
    bool hi_white = (ps_[hi].tpn % 2 == 1) == (opt_.initial_colour == Colour::White);
    return hi_white == (hi == a);
}

// C.12-C.15: a float repeated from the previous round, or from the one before.
void Dutch::float_soft(int x, Float f, std::array<int, 8>& s, int sign) const {
    if (f == Float::None) return;
    int k = f == Float::Down ? 0 : 1;
    if (ps_[x].float1 == f) s[4 + k] += sign;
    if (ps_[x].float2 == f) s[6 + k] += sign;
}

// One pair's part of C.8-C.15: the criteria add up over the pairs, which
// lets the search bound a partial candidate.
void Dutch::pair_soft(int a, int b, std::array<int, 8>& s, int sign) const {
    bool aw = white_first(a, b);
    for (int side = 0; side < 2; ++side) {
        const Pl& p = ps_[side == 0 ? a : b];
        Colour got = (side == 0) == aw ? Colour::White : Colour::Black;
        if (std::abs(p.cd + (got == Colour::White ? 1 : -1)) > 2) s[0] += sign;  // C.8
        if (p.last == got && p.before_last == got) s[1] += sign;                 // C.9
        if (p.pref.colour != Colour::None && p.pref.colour != got) {
            s[2] += sign;                                           // C.10
            if (p.pref.strength >= Strength::Strong) s[3] += sign;  // C.11
        }
    }
    if (ps_[a].score != ps_[b].score) {
        int hi = ps_[a].score > ps_[b].score ? a : b;
        float_soft(hi, Float::Down, s, sign);
        float_soft(hi == a ? b : a, Float::Up, s, sign);
    }
}

Quality Dutch::evaluate(const Candidate& c) const {
    Quality q;
    q.floaters = static_cast<int>(c.floaters.size());
    for (auto [a, b] : c.pairs) {
        q.psd.push_back(std::abs(ps_[a].score - ps_[b].score));
        pair_soft(a, b, q.soft, 1);
    }
    // A downfloater's difference is to one point less than the bracket's residents.
    for (int f : c.floaters) {
        q.psd.push_back(ps_[f].score - (score_ - 2));
        float_soft(f, Float::Down, q.soft, 1);
    }
    std::sort(q.psd.rbegin(), q.psd.rend());
    return q;
}

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

std::optional<DutchPairing> Dutch::run() {
    DutchPairing out;
    if (n_ == 0) return out;
    std::vector<int> all(n_);
    for (int i = 0; i < n_; ++i) all[i] = i;
    lower_ = all;
    if (!completable({})) return std::nullopt;
    std::vector<std::pair<int, int>> pairs;
    std::vector<int> mdps;
    for (int start = 0; start < n_;) {
        int end = start;
        while (end < n_ && ps_[end].score == ps_[start].score) ++end;
        score_ = ps_[start].score;
        std::vector<int> bracket = mdps;
        for (int i = start; i < end; ++i) bracket.push_back(i);
        lower_.assign(all.begin() + end, all.end());
        cache_.clear();
        Candidate c = pair_bracket(bracket);
        pairs.insert(pairs.end(), c.pairs.begin(), c.pairs.end());
        mdps = c.floaters;
        start = end;
    }
    if (mdps.size() > 1) return std::nullopt;  // cannot happen: every bracket left the rest pairable
    for (auto& [a, b] : pairs)
        if (a > b) std::swap(a, b);
    std::sort(pairs.begin(), pairs.end());
    for (auto [a, b] : pairs) {
        out.games.emplace_back(white_first(a, b) ? std::pair{ps_[a].id, ps_[b].id} : std::pair{ps_[b].id, ps_[a].id});
        Float fa = Float::None, fb = Float::None;
        if (ps_[a].score != ps_[b].score) {
            fa = ps_[a].score > ps_[b].score ? Float::Down : Float::Up;
            fb = fa == Float::Down ? Float::Up : Float::Down;
        }
        out.floats.emplace_back(ps_[a].id, fa);
        out.floats.emplace_back(ps_[b].id, fb);
    }
    if (!mdps.empty()) {
        out.bye = ps_[mdps[0]].id;
        out.floats.emplace_back(out.bye, Float::Down);  // A.4: not playing is a downfloat
    }
    return out;
}

}  // namespace

std::optional<DutchPairing> pair_dutch(const std::vector<SwissPlayer>& players, const DutchOptions& options) {
    return Dutch(players, options).run();
}

}  // namespace echecs::server::tournament

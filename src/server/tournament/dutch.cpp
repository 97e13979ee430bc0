// The FIDE (Dutch) system, C.04.3 (2016/2017), for one round. The brackets
// are paired top down; each bracket's candidates are generated in the rule's
// order (S1 against S2, transpositions of S2, then exchanges between S1 and
// S2) and the first best by the quality criteria is kept, among those that
// leave the rest of the players pairable (C.4: checked by a maximum matching
// over the players not yet paired, so a legal pairing is always found when
// one exists). docs/TOURNAMENTS.md says which criteria are simplified.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "server/tournament/dutch_matching.h"
#include "server/tournament/dutch_search.h"
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

namespace dutch {

Dutch::Dutch(const std::vector<SwissPlayer>& players, const DutchOptions& o) : opt_(o) {
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

}  // namespace dutch

std::optional<DutchPairing> pair_dutch(const std::vector<SwissPlayer>& players, const DutchOptions& options) {
    return dutch::Dutch(players, options).run();
}

}  // namespace echecs::server::tournament

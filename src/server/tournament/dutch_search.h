// The Dutch pairing's internals, shared by dutch.cpp (the players, the
// colour rules, the criteria, the round) and dutch_search.cpp (the search of
// one bracket). Not part of the interface: swiss.h is.
#pragma once

#include <array>
#include <compare>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "server/tournament/swiss.h"

namespace echecs::server::tournament::dutch {

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
    Dutch(const std::vector<SwissPlayer>& players, const DutchOptions& o);
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

}  // namespace echecs::server::tournament::dutch

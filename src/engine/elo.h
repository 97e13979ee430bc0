// Match statistics: score, Elo difference and its 95% error bar from
// win/draw/loss counts (normal approximation over per-game scores).
#pragma once

#include <algorithm>
#include <cmath>

namespace echecs::engine {

struct MatchScore {
    int wins = 0, draws = 0, losses = 0;

    int games() const { return wins + draws + losses; }
    double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }

    static double elo_of(double p) {
        p = std::clamp(p, 1e-3, 1 - 1e-3);
        return -400.0 * std::log10(1.0 / p - 1.0);
    }
    double elo() const { return elo_of(score()); }
    // All games won (or all lost): the Elo estimate is unbounded; this is the
    // one-sided 95% bound (the win probability p with p^n = 0.05).
    bool perfect() const { return games() >= 1 && (wins == games() || losses == games()); }
    double elo_bound95() const {
        const int n = games();
        const double p = std::pow(0.05, 1.0 / std::max(n, 1));
        return wins == n ? elo_of(p) : -elo_of(p);
    }
    // Half-width of the 95% interval in Elo.
    double elo_error95() const {
        const int n = games();
        if (n < 2) return 0;
        const double mu = score();
        const double var = (wins * (1 - mu) * (1 - mu) + draws * (0.5 - mu) * (0.5 - mu) + losses * mu * mu) / n;
        const double se = std::sqrt(var / n);
        return (elo_of(mu + 1.96 * se) - elo_of(mu - 1.96 * se)) / 2;
    }
};

}  // namespace echecs::engine

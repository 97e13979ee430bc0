// Match statistics: score, Elo difference and its 95% error bar from
// win/draw/loss counts (normal approximation over per-game scores), and a
// sequential probability ratio test over game pairs (pentanomial).
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

// SPRT of H0 "Elo = elo0" against H1 "Elo = elo1" (logistic Elo), as the
// generalised SPRT of fishtest: the log-likelihood ratio of the normal
// approximation, LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var), over the
// average scores of game pairs (one opening, colours swapped: 0, 1/4, 1/2,
// 3/4 or 1), whose variance is smaller than that of single games because
// an opening's bias cancels within its pair.
struct Sprt {
    double elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05;
    int pairs[5] = {0, 0, 0, 0, 0};  // pairs scoring 0, 1/2, 1, 3/2, 2 points
    // The first bound crossed, kept: games still in flight when a match
    // stops add pairs after it, and may take the LLR back inside.
    int decided = 0;

    static double expected(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }
    void add_pair(double points) {
        ++pairs[std::clamp(int(points * 2 + 0.5), 0, 4)];
        if (decided == 0) {
            const double l = llr();
            decided = l >= upper() ? 1 : l <= lower() ? -1 : 0;
        }
    }
    int pair_count() const { return pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4]; }
    double llr() const {
        const int n = pair_count();
        if (n < 2) return 0;
        double mean = 0, var = 0;
        for (int k = 0; k < 5; ++k) mean += pairs[k] * (k / 4.0);
        mean /= n;
        for (int k = 0; k < 5; ++k) var += pairs[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
        var /= n;
        if (var <= 0) var = 1.0 / (16.0 * n);  // every pair alike: the smallest step of a score
        const double s0 = expected(elo0), s1 = expected(elo1);
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
    }
    double lower() const { return std::log(beta / (1 - alpha)); }  // accept H0 below
    double upper() const { return std::log((1 - beta) / alpha); }  // accept H1 above
    // +1: H1 accepted, -1: H0 accepted, 0: go on.
    int decision() const { return decided; }
};

}  // namespace echecs::engine

#include "server/accounts/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace echecs::server::accounts {

namespace {

// Glicko-2 works on its own scale: mu = (r - 1500) / 173.7178.
constexpr double SCALE = 173.7178;
constexpr double EPSILON = 0.000001;  // convergence of the volatility iteration

double g_of(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi)); }
double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + std::exp(-g_of(phi_j) * (mu - mu_j))); }

// Step 5 of the paper: the new volatility, by the Illinois algorithm.
double new_volatility(double phi, double sigma, double v, double delta, double tau) {
    const double a = std::log(sigma * sigma);
    auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double A = a, B;
    if (delta * delta > phi * phi + v) {
        B = std::log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0 && k < 1000) ++k;
        B = a - k * tau;
    }
    double fA = f(A), fB = f(B);
    for (int iter = 0; std::abs(B - A) > EPSILON && iter < 1000; ++iter) {
        const double C = A + (A - B) * fA / (fB - fA);
        const double fC = f(C);
        if (fC * fB <= 0) {
            A = B, fA = fB;
        } else {
            fA /= 2;
        }
        B = C, fB = fC;
    }
    return std::exp(A / 2);
}

}  // namespace

Glicko new_rating(const GlickoParams& p) { return {p.default_rating, p.default_deviation, p.default_volatility}; }

bool provisional(const Glicko& g, const GlickoParams& p) { return g.deviation > p.provisional_deviation; }

Glicko rate_period(const Glicko& player, std::span<const GlickoGame> games, double tau, double periods) {
    const double mu = (player.rating - 1500) / SCALE;
    const double phi = player.deviation / SCALE;
    const double sigma = player.volatility;
    periods = std::max(0.0, periods);
    if (games.empty()) return {player.rating, std::sqrt(phi * phi + periods * sigma * sigma) * SCALE, sigma};

    double inv_v = 0, sum = 0;
    for (const GlickoGame& game : games) {
        const double mu_j = (game.opponent.rating - 1500) / SCALE;
        const double phi_j = game.opponent.deviation / SCALE;
        const double e = expected(mu, mu_j, phi_j);
        const double g = g_of(phi_j);
        inv_v += g * g * e * (1 - e);
        sum += g * (game.score - e);
    }
    const double v = 1.0 / inv_v;
    const double delta = v * sum;
    const double sigma2 = new_volatility(phi, sigma, v, delta, tau);
    const double phi_star = std::sqrt(phi * phi + periods * sigma2 * sigma2);
    const double phi2 = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu2 = mu + phi2 * phi2 * sum;
    return {mu2 * SCALE + 1500, phi2 * SCALE, sigma2};
}

Glicko rate_game(const Glicko& player, double days_since_last, const Glicko& opponent, double score,
                 const GlickoParams& p) {
    const GlickoGame game{opponent, score};
    Glicko out = rate_period(player, std::span(&game, 1), p.tau, days_since_last * p.rating_periods_per_day);
    out.deviation = std::clamp(out.deviation, p.min_deviation, p.max_deviation);
    out.volatility = std::min(out.volatility, p.max_volatility);
    return out;
}

}  // namespace echecs::server::accounts

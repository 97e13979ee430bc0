#include "server/review/accuracy.h"

#include <algorithm>
#include <cmath>

namespace echecs::review {

namespace {
constexpr int CP_CEILING = 1000;  // lichess's: beyond it the win% barely moves

double stddev(std::vector<double>::const_iterator first, std::vector<double>::const_iterator last) {
    const double n = double(last - first);
    double mean = 0;
    for (auto it = first; it != last; ++it) mean += *it;
    mean /= n;
    double var = 0;
    for (auto it = first; it != last; ++it) var += (*it - mean) * (*it - mean);
    return std::sqrt(var / n);
}
}  // namespace

double win_percent(std::optional<int> cp, std::optional<int> mate, double white_expected) {
    int c = 0;
    if (mate)
        c = *mate > 0 ? CP_CEILING : -CP_CEILING;
    else if (cp)
        c = std::clamp(*cp, -CP_CEILING, CP_CEILING);
    else
        return 100 * white_expected;
    return 50 + 50 * (2 / (1 + std::exp(-0.00368208 * c)) - 1);
}

double move_accuracy(double before, double after) {
    if (after >= before) return 100;
    const double raw = 103.1668100711649 * std::exp(-0.04354415386753951 * (before - after)) - 3.166924740191411;
    return std::clamp(raw + 1, 0.0, 100.0);  // +1: lichess's allowance for an imperfect analysis
}

GameAccuracy game_accuracy(const std::vector<double>& white_win, Color first) {
    GameAccuracy out;
    const int n = int(white_win.size());
    if (n < 2) return out;
    const int window = std::clamp(n / 10, 2, 8);
    // One window per move: the first window repeated for the first moves,
    // then the sliding ones (as lichess does).
    std::vector<double> weights;
    for (int i = 0; i < std::min(window, n) - 2; ++i)
        weights.push_back(stddev(white_win.begin(), white_win.begin() + window));
    for (int i = 0; i + window <= n; ++i)
        weights.push_back(stddev(white_win.begin() + i, white_win.begin() + i + window));
    double sum[2] = {0, 0}, wsum[2] = {0, 0}, inv[2] = {0, 0};
    int count[2] = {0, 0};
    for (int i = 0; i + 1 < n; ++i) {
        const Color mover = i % 2 == 0 ? first : ~first;
        const double before = mover == WHITE ? white_win[i] : 100 - white_win[i];
        const double after = mover == WHITE ? white_win[i + 1] : 100 - white_win[i + 1];
        const double acc = move_accuracy(before, after);
        const double w = std::clamp(i < int(weights.size()) ? weights[std::size_t(i)] : 0.5, 0.5, 12.0);
        sum[mover] += acc * w;
        wsum[mover] += w;
        inv[mover] += 1 / std::max(1.0, acc);
        ++count[mover];
    }
    for (Color c : {WHITE, BLACK}) {
        if (!count[c]) continue;
        const double weighted = sum[c] / wsum[c], harmonic = count[c] / inv[c];
        (c == WHITE ? out.white : out.black) = (weighted + harmonic) / 2;
    }
    return out;
}

}  // namespace echecs::review

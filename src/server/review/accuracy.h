// Accuracy, as lichess computes it (docs/ANALYSIS.md "Accuracy"): each
// position's win% from its evaluation, each move's accuracy from the
// mover's win% lost, and a player's game accuracy as the mean of a
// volatility-weighted mean and the harmonic mean of their moves' accuracies.
// The one place these rules live: the client shows what the server sends.
#pragma once

#include <optional>
#include <vector>

#include "core/types.h"

namespace echecs::review {

// White's win% (0..100) of a position: 50 + 50 (2 / (1 + e^(-0.00368208 cp)) - 1),
// cp clamped to ±1000 and a mate counted as ±1000; a position with neither
// (the game is over there) takes `white_expected` (1, 0.5 or 0) × 100.
double win_percent(std::optional<int> cp, std::optional<int> mate, double white_expected);

// A move's accuracy (0..100) from the mover's win% before and after it:
// 103.1668 e^(-0.04354 (before - after)) - 3.1669 + 1, within 0..100; 100
// when the move lost nothing.
double move_accuracy(double before, double after);

struct GameAccuracy {
    std::optional<double> white, black;  // none for a side without a move
};

// `white_win`: White's win% of every position of the game, the start
// included (moves + 1 values); `first`: the side that made the first move.
// Each move is weighted by the standard deviation (within 0.5..12) of the
// win% in a window of positions around it (window = positions / 10, within
// 2..8); a side's accuracy is (weighted mean + harmonic mean) / 2 of its
// moves' accuracies.
GameAccuracy game_accuracy(const std::vector<double>& white_win, Color first);

}  // namespace echecs::review

// Texel tuning of the evaluation weights on positions from self-play games
// (`echecs selfplay`): minimise the squared error between a sigmoid of the
// static evaluation and the game results. Method and data: docs/ENGINE.md.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

#include "core/types.h"

namespace echecs::engine {

struct TuneOptions {
    Variant variant = Variant::Chess;
    std::string data;       // selfplay lines: FEN <tab> result (1, 0.5, 0 for White) <tab> score
    int passes = 12;        // passes of the local search over every weight
    double lambda = 0.0;    // target = (1 - lambda) * result + lambda * sigmoid(search score)
    std::string only;       // comma-separated name prefixes to tune (empty: every weight of the game)
    std::size_t limit = 0;  // use at most this many positions (0: all)
    int validation = 10;    // every n-th position is held out to check for overfitting (0: none)
};

// Tunes from the committed weights of the game and writes to `out` the
// weights that changed as one `Eval Weights` override string; progress and
// errors go to `log`. Returns a process exit code (2: bad data or options).
int tune(const TuneOptions& options, std::ostream& out, std::ostream& log);

}  // namespace echecs::engine

// `echecs nnue-train`: trains a game's network (nnue.h) on selfplay
// positions (FEN, result, search score), in floating point on one thread
// (deterministic for a seed), then quantises it to the engine's format.
// Method and figures: docs/ENGINE.md "NNUE".
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "nnue.h"

namespace echecs::engine::nnue {

struct TrainOptions {
    Variant variant = Variant::Chess;
    std::string data;      // selfplay lines: FEN <tab> result (White) <tab> score (cp, White)
    std::string out;       // the network file to write
    int hidden = 128;      // accumulator size per perspective
    int king_buckets = 2;  // 1, 2 or 4 (KingBuckets)
    int output_buckets = 4;
    int epochs = 20;              // the one with the lowest held-out loss is written
    int batch = 256;
    double lr = 0.001;      // Adam step; a tenth of it for the last 30% of the epochs
    double lambda = 0.75;   // target = lambda * sigmoid(score) + (1 - lambda) * result
    int validation = 10;    // one block of 1,000 positions in this many is held out (games stay whole)
    std::size_t limit = 0;  // at most this many positions (0: all)
    std::uint64_t seed = 1;
};

// Returns a process exit code: 0, 2 for bad options or data (message on
// `log`); progress and the losses per epoch go to `log`.
int train(const TrainOptions& o, std::ostream& log);

// The command line of `echecs nnue-train` (--help lists the options).
int train_main(const std::vector<std::string>& args, std::ostream& log);

}  // namespace echecs::engine::nnue

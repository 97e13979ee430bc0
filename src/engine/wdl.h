// Win/draw/loss from a search score (UCI_ShowWDL): a model fitted to the
// engine's own self-play results, one per game (docs/ENGINE.md "WDL model").
//
//   win  = 1 / (1 + exp((a - s) / b)),  loss = 1 / (1 + exp((a + s) / b))
//   a = a0 + a1 * m,  b = b0 + b1 * m,  draw = 1 - win - loss
//
// with s the score in centipawns from the side to move's view and m the
// material on the board (pawn 1, knight and bishop 3, rook 5, queen 9, both
// sides). `a` is the score that wins half the games; `b` how fast the curve
// rises. The coefficients are committed data (wdl_params.h), refitted by
// `echecs wdl --data FILE.tsv --variant V` on `echecs selfplay` output.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/position.h"
#include "evaluate.h"

namespace echecs::engine {

struct WdlParams {
    double a0, a1, b0, b1;
};

// Per mille, summing to 1000.
struct Wdl {
    int win = 0, draw = 1000, loss = 0;
};

int wdl_material(const Position& pos);
// Mate scores give 1000/0/0 or 0/0/1000.
Wdl wdl_from_score(Value score, int material, const WdlParams& p);
Wdl wdl_from_score(Value score, const Position& pos);  // the committed model of pos's game
const WdlParams& wdl_params(Variant v);

// One fitting sample: the side to move's score and result (1, 0.5, 0).
struct WdlSample {
    double score, result;
    int material;
};
// Maximum-likelihood fit of the four coefficients on the samples.
WdlParams fit_wdl(const std::vector<WdlSample>& samples, const WdlParams& start);
// Mean negative log-likelihood per sample (the fit's criterion).
double wdl_log_loss(const std::vector<WdlSample>& samples, const WdlParams& p);

// `echecs wdl --variant V --data FILE [--data FILE ...]`: fits and prints the
// coefficients and a table of predicted against observed results.
int wdl_main(const std::vector<std::string>& args, std::ostream& out);

}  // namespace echecs::engine

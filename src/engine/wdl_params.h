// The WDL model's coefficients per game (wdl.h), fitted by `echecs wdl` on
// self-play games of the engine at 5,000 nodes a move (docs/ENGINE.md
// "WDL model" has the runs, the data sizes and the fit tables).
#pragma once

#include "wdl.h"

namespace echecs::engine::wdl_fit {

// a0, a1 (per unit of material), b0, b1: see wdl.h.
constexpr WdlParams CHESS{296.88, -3.26, 141.44, -0.58};     // 1,000 games with the second network, 86,710 positions
constexpr WdlParams ALICE{268.50, -2.87, 156.50, 0.40};      // 1,000 games with the network, 47,067 positions
constexpr WdlParams AVALANCHE{783.25, -9.55, 180.88, 1.80};  // 1,000 games with the network, 30,961 positions

}  // namespace echecs::engine::wdl_fit

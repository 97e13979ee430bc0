// The WDL model's coefficients per game (wdl.h), fitted by `echecs wdl` on
// self-play games of the engine at 5,000 nodes a move (docs/ENGINE.md
// "WDL model" has the runs, the data sizes and the fit tables).
#pragma once

#include "wdl.h"

namespace echecs::engine::wdl_fit {

// a0, a1 (per unit of material), b0, b1: see wdl.h.
constexpr WdlParams CHESS{306.82, -3.36, 136.22, -0.46};     // 1,000 games with the third network, 86,995 positions
constexpr WdlParams ALICE{268.50, -2.87, 156.50, 0.40};      // 1,000 games with the network, 47,067 positions
constexpr WdlParams AVALANCHE{783.25, -9.55, 180.88, 1.80};  // 1,000 games with the network, 30,961 positions

}  // namespace echecs::engine::wdl_fit

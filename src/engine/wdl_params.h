// The WDL model's coefficients per game (wdl.h), fitted by `echecs wdl` on
// self-play games of the engine (docs/ENGINE.md "WDL model" has the runs).
#pragma once

#include "wdl.h"

namespace echecs::engine::wdl_fit {

// Provisional until fitted.
constexpr WdlParams CHESS{150, 0, 80, 0};
constexpr WdlParams ALICE{150, 0, 80, 0};
constexpr WdlParams AVALANCHE{150, 0, 80, 0};

}  // namespace echecs::engine::wdl_fit

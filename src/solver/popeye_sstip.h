// Popeye's structured stipulations ("sstipulation white 5s[#]"): a tree of
// branches, leaves, forks, operators and constraints (py-engl.txt). The forms
// that are synonyms of a traditional stipulation are read as it; the others
// are refused with the reason.
#pragma once

#include <string_view>

#include "core/types.h"
#include "solver/stipulation.h"

namespace echecs::solver {

// `first`: the side that moves first (the named side, or the other one after
// Popeye's "-"); `tree`: the structure, blanks removed. The result's colours'
// parts are exchanged when `first` is not its usual first mover. Throws
// StipulationError for any other form.
Stipulation parse_sstipulation(Color first, std::string_view tree);

}  // namespace echecs::solver

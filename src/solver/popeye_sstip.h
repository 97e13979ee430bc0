// Popeye's structured stipulations ("sstipulation white 5s[#]"): a tree of
// branches, leaves, forks, operators and constraints (py-engl.txt). The forms
// that are synonyms of a traditional stipulation are read as it, Popeye's
// parry construct "?+?" as the parry series, and its capture-zugzwang
// "[/1d[x]a{!+}]" as Goal::Zugzwang; the others are refused with the reason.
#pragma once

#include <string_view>

#include "core/types.h"
#include "solver/stipulation.h"

namespace echecs::solver {

// `named`: the side the sstipulation names; `first`: the side that moves
// first (`named`, or the other one after Popeye's "-"); `tree`: the
// structure, blanks removed. The result's colours' parts are exchanged when
// `first` is not its usual first mover; a help play numbers `named`'s moves.
// Throws StipulationError for any other form.
Stipulation parse_sstipulation(Color named, Color first, std::string_view tree);

// The sstipulation that reads back as `st` ("white - 5h[/1d[x]a{!+}]h"), or
// empty when a stipulation says it (Stipulation::sstip_tree).
std::string sstipulation_text(const Stipulation& st);

}  // namespace echecs::solver

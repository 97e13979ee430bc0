// The three output formats of a solution: composers' text, one line per
// key or solution for programs (uci), and the whole tree as JSON.
#pragma once

#include <string>

#include "solver/solver.h"

namespace echecs::solver {

// Problem notation, the variations indented; ends with a summary line.
std::string to_text(const Result& r);
// "key <uci>" per key (battle) or "solution <uci> ..." per help solution;
// "try <uci> refutation <uci>", "set <uci> ..." when asked; an
// "incomplete: <why>" line when the search stopped early; last "solutions: N".
std::string to_uci_lines(const Result& r);
// One key with its play, or one help or series solution, as to_text writes
// it (for printing each as it is found).
std::string key_text(const AttackLine& key);
std::string solution_text(const HelpLine& line, const Stipulation& st);
// Everything, as one JSON object (docs/SOLVER.md shows its fields).
std::string to_json(const Result& r, int indent = -1);

}  // namespace echecs::solver

// `echecs solve`: the problem solver on the command line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace echecs::cli {

// Exit code: 0 solved (every first move examined, or --max-solutions
// reached), 2 bad arguments or input, 3 stopped early (timeout, node limit).
int solve_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace echecs::cli

// Entry points of the engine's command-line modes, called by src/cli.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace echecs {

// UCI loop (the default mode of `echecs`). If the first command is
// "xboard", hands over to the CECP loop.
int uci_loop(std::istream& in, std::ostream& out);
int xboard_loop(std::istream& in, std::ostream& out);
// `echecs bench [args]` (search bench; `echecs bench perft` is handled by the CLI).
int bench_main(const std::vector<std::string>& args, std::ostream& out);
// `echecs match [args]`.
int match_main(const std::vector<std::string>& args, std::ostream& out);

}  // namespace echecs

// Entry point of `echecs serve`, called by src/cli.
#pragma once

#include <string>
#include <vector>

namespace echecs {

int serve_main(const std::vector<std::string>& args);

}  // namespace echecs

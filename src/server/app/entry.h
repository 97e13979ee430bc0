// Entry point of `echecs serve`, called by src/cli, and the reading of its
// options (a configuration file and command-line flags), exposed for tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "server/app/server.h"

namespace echecs {

int serve_main(const std::vector<std::string>& args);

namespace serve {

struct Settings {
    server::ServerOptions options;
    std::string config;         // the --config file, if any
    std::string web_root_from;  // who set options.web_root: "--web-root" or "FILE:LINE"; empty: not set
    bool help = false;          // --help: print usage() and exit
};

// Applies the lines of a configuration file (`key = value`; `#` or `;` starts
// a comment line). `name` is the file's name in error messages. Returns "" or
// the first error, "NAME:LINE: KEY: what is wrong".
std::string apply_config(std::string_view text, const std::string& name, Settings& s);

// Reads the command line: --config FILE first (its values are the defaults),
// then every other flag in order. Returns "" or the error.
std::string parse_args(const std::vector<std::string>& args, Settings& s);

// Every option with its flag, value and help, from the option table.
std::string usage();

// The keys of the option table (the flag of each is --KEY), for tests that
// check the documentation lists each.
std::vector<std::string> option_keys();

}  // namespace serve
}  // namespace echecs

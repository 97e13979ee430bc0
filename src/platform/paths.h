// Where the `echecs` command finds its files at run time: the web client and
// the opening sets, under share/echecs of the prefix it is installed in
// (<prefix>/bin/echecs, <prefix>/share/echecs/...), or of the build tree it
// was built in (CMake mirrors share/echecs there with links to the sources).
// Nothing is looked up relative to the current directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace echecs::paths {

// The running executable (/proc/self/exe); empty if that cannot be read.
std::filesystem::path executable();

struct Found {
    std::filesystem::path path;
    bool build_tree = false;  // found in a build tree, not an installed prefix
};

// The first existing <dir>/share/echecs/<relative>/<probe> over the ancestors
// <dir> of the executable's directory, nearest first: an installed
// <prefix>/bin/echecs finds <prefix>/share/echecs first, a build tree's
// build/src/cli/echecs finds build/share/echecs. Returns the path of
// <relative> (not of the probe). `tried` (if given) receives every
// share/echecs/<relative> looked at.
std::optional<Found> find_share(const std::string& relative, const std::string& probe,
                                std::vector<std::filesystem::path>* tried = nullptr);

}  // namespace echecs::paths

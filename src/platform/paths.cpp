#include "platform/paths.h"

#include <system_error>

namespace echecs::paths {

namespace fs = std::filesystem;

fs::path executable() {
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : p;
}

std::optional<Found> find_share(const std::string& relative, const std::string& probe, std::vector<fs::path>* tried) {
    const fs::path exe = executable();
    if (exe.empty()) return std::nullopt;
    // Start at the executable's directory's parent: <prefix> of <prefix>/bin.
    for (fs::path dir = exe.parent_path().parent_path();; dir = dir.parent_path()) {
        const fs::path candidate = dir / "share" / "echecs" / relative;
        if (tried) tried->push_back(candidate);
        std::error_code ec;
        if (fs::exists(probe.empty() ? candidate : candidate / probe, ec))
            return Found{candidate, fs::exists(dir / "CMakeCache.txt", ec)};
        if (dir == dir.root_path() || dir.empty()) break;
    }
    return std::nullopt;
}

}  // namespace echecs::paths

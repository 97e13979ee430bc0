// A file or program the tests use, found from the test program's own
// directory. CMake gives the path relative to that directory
// (echecs_test_path in tests/CMakeLists.txt), so that no compile command
// names the clone's absolute directory: a compiler cache then serves a build
// from any clone, and the tests run from any working directory.
#pragma once

#include <filesystem>
#include <string>

namespace echecs::test {

inline std::string test_path(const char* relative_to_the_program) {
    static const std::filesystem::path dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();
    return (dir / relative_to_the_program).lexically_normal().string();
}

}  // namespace echecs::test

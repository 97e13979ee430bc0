// Where the command finds its files: a test program in the build tree finds
// the build tree's share/echecs (CMake links it to the sources), never the
// current directory.
#include "platform/paths.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace echecs::test {
namespace {

namespace fs = std::filesystem;

TEST(Paths, ExecutableIsThisProgram) {
    const fs::path exe = paths::executable();
    ASSERT_FALSE(exe.empty());
    EXPECT_EQ(exe.filename(), "cli_tests");
    EXPECT_TRUE(fs::exists(exe));
}

TEST(Paths, TheBuildTreeShareIsFoundFromAnyDirectory) {
    const fs::path before = fs::current_path();
    fs::current_path(fs::temp_directory_path());
    std::vector<fs::path> tried;
    const auto found = paths::find_share("openings", "chess.txt", &tried);
    fs::current_path(before);
    ASSERT_TRUE(found) << "no share/echecs/openings above " << paths::executable();
    EXPECT_TRUE(found->build_tree);
    EXPECT_TRUE(fs::exists(found->path / "alice.txt"));
    EXPECT_TRUE(fs::exists(found->path / "avalanche.txt"));
    // The executable's prefix (its directory's parent) is looked at first.
    ASSERT_FALSE(tried.empty());
    EXPECT_EQ(tried.front(), paths::executable().parent_path().parent_path() / "share/echecs/openings");
}

TEST(Paths, WhatIsNotThereIsNotFound) {
    std::vector<fs::path> tried;
    EXPECT_FALSE(paths::find_share("openings", "no-such-file.txt", &tried));
    // Every ancestor up to the root was tried, and nothing else.
    EXPECT_EQ(tried.back(), fs::path("/share/echecs/openings"));
}

}  // namespace
}  // namespace echecs::test

// The version of this build. Declarations only: the values are in
// echecs_version.cpp, written by cmake/version.cmake at every build, so that
// a new commit compiles that one small file again, not every file that
// prints the version (the command's unity batch took 130 s at -O3).
#pragma once

namespace echecs::version {
// project(echecs VERSION ...) in CMakeLists.txt
extern const char* const NUMBER;
// the git commit built (-dirty: with changes to tracked files); empty outside a checkout
extern const char* const GIT_COMMIT;
// `echecs --version`
extern const char* const STRING;
// UCI `id name`, xboard `myname`
extern const char* const ENGINE_NAME;
}  // namespace echecs::version

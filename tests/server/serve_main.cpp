// `echecs serve` as its own small program, for the tests that kill the server
// process (SIGKILL) and start it again.
#include <string>
#include <vector>

#include "server/entry.h"

int main(int argc, char** argv) { return echecs::serve_main(std::vector<std::string>(argv + 1, argv + argc)); }

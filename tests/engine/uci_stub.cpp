// The UCI engine as a stand-alone program, for the match tests.
#include <iostream>

#include "engine/entry.h"

int main() { return echecs::uci_loop(std::cin, std::cout); }

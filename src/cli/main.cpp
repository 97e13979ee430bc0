#include <iostream>
#include "engine/entry.h"
int main() { return echecs::uci_loop(std::cin, std::cout); }

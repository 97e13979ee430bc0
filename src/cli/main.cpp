#include <chrono>
#include <iostream>
#include "core/movegen.h"
using namespace echecs;
int main(int argc, char** argv) {
    Variant v = Variant::Chess;
    std::string vs = argv[1];
    if (vs == "alice") v = Variant::Alice; else if (vs == "avalanche") v = Variant::Avalanche;
    StateInfo st; Position pos; pos.set(v, argv[2], st);
    int d = std::atoi(argv[3]);
    auto t0 = std::chrono::steady_clock::now();
    auto n = perft(pos, d);
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    std::cout << n << " " << s << "s " << n / s / 1e6 << " Mnps\n";
}

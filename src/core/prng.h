// xorshift64* pseudo-random numbers: deterministic tables (magics, Zobrist keys).
#pragma once

#include <cstdint>

namespace echecs {

struct Prng {
    std::uint64_t s;
    std::uint64_t rand64() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    // Few bits set: good magic candidates.
    std::uint64_t sparse_rand() { return rand64() & rand64() & rand64(); }
};

}  // namespace echecs

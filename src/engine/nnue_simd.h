// The NNUE kernels, in three versions (scalar, SSE2, AVX2) that give exactly
// the same integers: int16 sums wrap the same way in each, and the output's
// int32 sums cannot overflow for a network that passed load().
#pragma once

#include <cstdint>

#include "nnue.h"

namespace echecs::engine::nnue::simd {

struct Kernels {
    // dst = src + the rows `add` - the rows `sub` of `weights` (hidden
    // int16 per row). dst may be src. hidden is a multiple of 64.
    void (*update)(std::int16_t* dst, const std::int16_t* src, const std::int16_t* weights, int hidden,
                   const std::uint16_t* add, int n_add, const std::uint16_t* sub, int n_sub);
    // sum of clamp(us[i], 0, QA) * w[i] + clamp(them[i], 0, QA) * w[hidden + i].
    std::int32_t (*output)(const std::int16_t* us, const std::int16_t* them, const std::int16_t* w, int hidden);
};

const Kernels& kernels();            // the active set
const Kernels* kernels_for(Simd s);  // null when the processor lacks it

}  // namespace echecs::engine::nnue::simd

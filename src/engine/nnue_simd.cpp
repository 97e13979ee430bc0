// NNUE kernels: scalar, SSE2 (every x86-64) and AVX2 (chosen at run time,
// compiled with a target attribute so that the portable build keeps it).
#include "nnue_simd.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#define ECHECS_NNUE_X86 1
#include <immintrin.h>
#endif

namespace echecs::engine::nnue {

namespace simd {

namespace {

constexpr int BLOCK = 64;  // int16 per pass: the registers a pass keeps

void update_scalar(std::int16_t* dst, const std::int16_t* src, const std::int16_t* w, int hidden,
                   const std::uint16_t* add, int n_add, const std::uint16_t* sub, int n_sub) {
    for (int b = 0; b < hidden; b += BLOCK) {
        std::int16_t acc[BLOCK];
        std::memcpy(acc, src + b, sizeof acc);
        for (int i = 0; i < n_add; ++i) {
            const std::int16_t* row = w + std::size_t(add[i]) * std::size_t(hidden) + b;
            for (int j = 0; j < BLOCK; ++j) acc[j] = std::int16_t(acc[j] + row[j]);  // wraps like the SIMD adds
        }
        for (int i = 0; i < n_sub; ++i) {
            const std::int16_t* row = w + std::size_t(sub[i]) * std::size_t(hidden) + b;
            for (int j = 0; j < BLOCK; ++j) acc[j] = std::int16_t(acc[j] - row[j]);
        }
        std::memcpy(dst + b, acc, sizeof acc);
    }
}

std::int32_t output_scalar(const std::int16_t* us, const std::int16_t* them, const std::int16_t* w, int hidden) {
    std::int32_t sum = 0;
    for (int i = 0; i < hidden; ++i) {
        sum += std::clamp<std::int32_t>(us[i], 0, QA) * w[i];
        sum += std::clamp<std::int32_t>(them[i], 0, QA) * w[hidden + i];
    }
    return sum;
}

#ifdef ECHECS_NNUE_X86

void update_sse2(std::int16_t* dst, const std::int16_t* src, const std::int16_t* w, int hidden,
                 const std::uint16_t* add, int n_add, const std::uint16_t* sub, int n_sub) {
    constexpr int R = BLOCK / 8;
    for (int b = 0; b < hidden; b += BLOCK) {
        __m128i acc[R];
        for (int r = 0; r < R; ++r) acc[r] = _mm_load_si128(reinterpret_cast<const __m128i*>(src + b) + r);
        for (int i = 0; i < n_add; ++i) {
            const auto* row = reinterpret_cast<const __m128i*>(w + std::size_t(add[i]) * std::size_t(hidden) + b);
            for (int r = 0; r < R; ++r) acc[r] = _mm_add_epi16(acc[r], _mm_load_si128(row + r));
        }
        for (int i = 0; i < n_sub; ++i) {
            const auto* row = reinterpret_cast<const __m128i*>(w + std::size_t(sub[i]) * std::size_t(hidden) + b);
            for (int r = 0; r < R; ++r) acc[r] = _mm_sub_epi16(acc[r], _mm_load_si128(row + r));
        }
        for (int r = 0; r < R; ++r) _mm_store_si128(reinterpret_cast<__m128i*>(dst + b) + r, acc[r]);
    }
}

std::int32_t output_sse2(const std::int16_t* us, const std::int16_t* them, const std::int16_t* w, int hidden) {
    const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(QA);
    __m128i sum = _mm_setzero_si128();
    for (int half = 0; half < 2; ++half) {
        const auto* a = reinterpret_cast<const __m128i*>(half ? them : us);
        const auto* ws = reinterpret_cast<const __m128i*>(w + half * hidden);
        for (int i = 0; i < hidden / 8; ++i) {
            const __m128i x = _mm_min_epi16(_mm_max_epi16(_mm_load_si128(a + i), zero), top);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(x, _mm_load_si128(ws + i)));
        }
    }
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    return _mm_cvtsi128_si32(sum);
}

__attribute__((target("avx2"))) void update_avx2(std::int16_t* dst, const std::int16_t* src, const std::int16_t* w,
                                                 int hidden, const std::uint16_t* add, int n_add,
                                                 const std::uint16_t* sub, int n_sub) {
    constexpr int R = BLOCK / 16;
    for (int b = 0; b < hidden; b += BLOCK) {
        __m256i acc[R];
        for (int r = 0; r < R; ++r) acc[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(src + b) + r);
        for (int i = 0; i < n_add; ++i) {
            const auto* row = reinterpret_cast<const __m256i*>(w + std::size_t(add[i]) * std::size_t(hidden) + b);
            for (int r = 0; r < R; ++r) acc[r] = _mm256_add_epi16(acc[r], _mm256_load_si256(row + r));
        }
        for (int i = 0; i < n_sub; ++i) {
            const auto* row = reinterpret_cast<const __m256i*>(w + std::size_t(sub[i]) * std::size_t(hidden) + b);
            for (int r = 0; r < R; ++r) acc[r] = _mm256_sub_epi16(acc[r], _mm256_load_si256(row + r));
        }
        for (int r = 0; r < R; ++r) _mm256_store_si256(reinterpret_cast<__m256i*>(dst + b) + r, acc[r]);
    }
}

__attribute__((target("avx2"))) std::int32_t output_avx2(const std::int16_t* us, const std::int16_t* them,
                                                         const std::int16_t* w, int hidden) {
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(QA);
    __m256i sum = _mm256_setzero_si256();
    for (int half = 0; half < 2; ++half) {
        const auto* a = reinterpret_cast<const __m256i*>(half ? them : us);
        const auto* ws = reinterpret_cast<const __m256i*>(w + half * hidden);
        for (int i = 0; i < hidden / 16; ++i) {
            const __m256i x = _mm256_min_epi16(_mm256_max_epi16(_mm256_load_si256(a + i), zero), top);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, _mm256_load_si256(ws + i)));
        }
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

#endif

constexpr Kernels SCALAR{update_scalar, output_scalar};
#ifdef ECHECS_NNUE_X86
constexpr Kernels SSE2{update_sse2, output_sse2};
constexpr Kernels AVX2{update_avx2, output_avx2};
#endif

Simd best() { return simd_available(Simd::Avx2) ? Simd::Avx2 : simd_available(Simd::Sse2) ? Simd::Sse2 : Simd::Scalar; }

Simd from_environment() {
    const char* e = std::getenv("ECHECS_NNUE_SIMD");
    if (!e) return Simd::Auto;
    const std::string_view s(e);
    for (Simd c : {Simd::Scalar, Simd::Sse2, Simd::Avx2})
        if (s == simd_name(c) && simd_available(c)) return c;
    return Simd::Auto;  // unknown or unavailable: the best there is
}

std::atomic<const Kernels*>& active() {
    static std::atomic<const Kernels*> k{nullptr};
    return k;
}

}  // namespace

const Kernels* kernels_for(Simd s) {
    if (s == Simd::Auto) s = best();
    if (!simd_available(s)) return nullptr;
#ifdef ECHECS_NNUE_X86
    if (s == Simd::Avx2) return &AVX2;
    if (s == Simd::Sse2) return &SSE2;
#endif
    return &SCALAR;
}

const Kernels& kernels() {
    const Kernels* k = active().load(std::memory_order_relaxed);
    if (!k) {
        k = kernels_for(from_environment());
        active().store(k, std::memory_order_relaxed);
    }
    return *k;
}

}  // namespace simd

bool simd_available(Simd s) {
    switch (s) {
        case Simd::Auto:
        case Simd::Scalar: return true;
#ifdef ECHECS_NNUE_X86
        case Simd::Sse2: return true;  // part of x86-64
        case Simd::Avx2: return __builtin_cpu_supports("avx2");
#else
        default: return false;
#endif
    }
    return false;
}

void set_simd(Simd s) {
    if (const simd::Kernels* k = simd::kernels_for(s)) simd::active().store(k, std::memory_order_relaxed);
}

Simd active_simd() {
    const simd::Kernels* k = &simd::kernels();
#ifdef ECHECS_NNUE_X86
    if (k == &simd::AVX2) return Simd::Avx2;
    if (k == &simd::SSE2) return Simd::Sse2;
#endif
    (void)k;
    return Simd::Scalar;
}

std::string_view simd_name(Simd s) {
    switch (s) {
        case Simd::Scalar: return "scalar";
        case Simd::Sse2: return "sse2";
        case Simd::Avx2: return "avx2";
        default: return "auto";
    }
}

}  // namespace echecs::engine::nnue

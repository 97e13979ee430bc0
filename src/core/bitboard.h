// Bitboards and attack tables (magic or PEXT sliding attacks).
//
// A slider's attacks are read from one table per square at an index computed
// from the occupancy: PEXT where the processor has a fast one, else a magic
// multiply. A build for a processor with BMI2 (-march=native, ECHECS_NATIVE)
// uses PEXT at compile time. A portable build chooses at start-up: PEXT is
// missing on older x86-64 processors and microcoded (slow) on AMD before Zen 3.
#pragma once

#include <bit>
#include <cstdint>

#include "types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#define ECHECS_PEXT_AT_BUILD 1
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ECHECS_PEXT_AT_RUN_TIME 1
#endif

namespace echecs {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_2_BB = RANK_1_BB << 8;
constexpr Bitboard RANK_3_BB = RANK_1_BB << 16;
constexpr Bitboard RANK_4_BB = RANK_1_BB << 24;
constexpr Bitboard RANK_5_BB = RANK_1_BB << 32;
constexpr Bitboard RANK_6_BB = RANK_1_BB << 40;
constexpr Bitboard RANK_7_BB = RANK_1_BB << 48;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard rank_bb(int r) { return RANK_1_BB << (8 * r); }
constexpr Bitboard file_bb(int f) { return FILE_A_BB << f; }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH)
        return b << 8;
    else if constexpr (D == SOUTH)
        return b >> 8;
    else if constexpr (D == EAST)
        return (b & ~FILE_H_BB) << 1;
    else if constexpr (D == WEST)
        return (b & ~FILE_A_BB) >> 1;
    else if constexpr (D == NORTH_EAST)
        return (b & ~FILE_H_BB) << 9;
    else if constexpr (D == NORTH_WEST)
        return (b & ~FILE_A_BB) << 7;
    else if constexpr (D == SOUTH_EAST)
        return (b & ~FILE_H_BB) >> 7;
    else
        return (b & ~FILE_A_BB) >> 9;
}

template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
    return C == WHITE ? shift<NORTH_WEST>(b) | shift<NORTH_EAST>(b) : shift<SOUTH_WEST>(b) | shift<SOUTH_EAST>(b);
}

// How slider tables are indexed.
enum class SliderIndex { Magic, Pext };

inline std::uint64_t pext(std::uint64_t value, std::uint64_t mask) {
#if defined(ECHECS_PEXT_AT_BUILD)
    return _pext_u64(value, mask);
#elif defined(ECHECS_PEXT_AT_RUN_TIME)
    // Inline assembly, not the intrinsic: the intrinsic needs the whole
    // function compiled for BMI2. Only run when the processor has it.
    std::uint64_t r;
    asm("pextq %2, %1, %0" : "=r"(r) : "r"(value), "rm"(mask));
    return r;
#else
    (void)value, (void)mask;
    return 0;  // never called: no PEXT on this target
#endif
}

namespace tables {
// Chosen once by init_bitboards (or set_slider_index); read by every lookup.
extern bool slider_pext;
}  // namespace tables

struct Magic {
    Bitboard mask;
    Bitboard magic;
    const Bitboard* attacks;
    unsigned shift;

    unsigned magic_index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
    unsigned index(Bitboard occupied) const {
#if defined(ECHECS_PEXT_AT_BUILD)
        return unsigned(_pext_u64(occupied, mask));
#elif defined(ECHECS_PEXT_AT_RUN_TIME)
        return tables::slider_pext ? unsigned(pext(occupied, mask)) : magic_index(occupied);
#else
        return magic_index(occupied);
#endif
    }
};

namespace tables {
extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
extern Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];  // on an empty board
extern Bitboard line[SQUARE_NB][SQUARE_NB];                // whole line through both squares, or 0
extern Bitboard between[SQUARE_NB][SQUARE_NB];             // squares strictly between, plus the second square
extern Magic rook_magics[SQUARE_NB];
extern Magic bishop_magics[SQUARE_NB];
}  // namespace tables

// Fills the tables; safe to call more than once. Called by Position::init().
// Slider tables use PEXT when the build or the processor allows it (see above).
void init_bitboards();

// The indexing in use, and whether this build and processor can use the other
// one. set_slider_index refills the slider tables (a few milliseconds) for
// benchmarks and tests that compare both; it must not run while another thread
// reads the tables. Returns false, changing nothing, if `index` is unavailable.
SliderIndex slider_index();
bool slider_index_available(SliderIndex index);
bool set_slider_index(SliderIndex index);
const char* slider_index_name(SliderIndex index);

inline Bitboard pawn_attacks(Color c, Square s) { return tables::pawn_attacks[c][s]; }
inline Bitboard knight_attacks(Square s) { return tables::pseudo_attacks[KNIGHT][s]; }
inline Bitboard king_attacks(Square s) { return tables::pseudo_attacks[KING][s]; }
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
    const Magic& m = tables::bishop_magics[s];
    return m.attacks[m.index(occ)];
}
inline Bitboard rook_attacks(Square s, Bitboard occ) {
    const Magic& m = tables::rook_magics[s];
    return m.attacks[m.index(occ)];
}
inline Bitboard queen_attacks(Square s, Bitboard occ) { return bishop_attacks(s, occ) | rook_attacks(s, occ); }

inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occ) {
    switch (pt) {
        case BISHOP: return bishop_attacks(s, occ);
        case ROOK: return rook_attacks(s, occ);
        case QUEEN: return queen_attacks(s, occ);
        default: return tables::pseudo_attacks[pt][s];
    }
}

inline Bitboard line_bb(Square a, Square b) { return tables::line[a][b]; }
inline Bitboard between_bb(Square a, Square b) { return tables::between[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

}  // namespace echecs

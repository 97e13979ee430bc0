#include "bitboard.h"

#include <array>
#include <mutex>
#if defined(ECHECS_PEXT_AT_RUN_TIME)
#include <cpuid.h>
#endif

#include "prng.h"

namespace echecs {

namespace tables {
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
bool slider_pext = false;
}  // namespace tables

namespace {

Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

int distance(Square a, Square b) {
    int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
    return std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr);
}

// One step from s in direction d, or 0 when it would leave the board.
Bitboard safe_step(Square s, int d) {
    int t = int(s) + d;
    if (t < 0 || t > 63) return 0;
    return distance(s, Square(t)) <= 2 ? square_bb(Square(t)) : 0;
}

Bitboard sliding_attack(PieceType pt, Square sq, Bitboard occ) {
    static constexpr int rook_dirs[4] = {NORTH, SOUTH, EAST, WEST};
    static constexpr int bishop_dirs[4] = {NORTH_EAST, SOUTH_EAST, SOUTH_WEST, NORTH_WEST};
    Bitboard attacks = 0;
    for (int d : pt == ROOK ? rook_dirs : bishop_dirs) {
        Square s = sq;
        while (safe_step(s, d)) {
            s = s + d;
            attacks |= square_bb(s);
            if (occ & square_bb(s)) break;
        }
    }
    return attacks;
}

bool cpu_has_pext() {
#if defined(ECHECS_PEXT_AT_BUILD)
    return true;
#elif defined(ECHECS_PEXT_AT_RUN_TIME)
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2");
#else
    return false;
#endif
}

// PEXT is microcoded, slower than a magic multiply, on AMD processors before
// Zen 3 (family 19h) and on Hygon's (Zen 1).
bool pext_is_fast() {
#if defined(ECHECS_PEXT_AT_RUN_TIME)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return false;
    const bool amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163;    // "AuthenticAMD"
    const bool hygon = ebx == 0x6f677948 && edx == 0x6e65476e && ecx == 0x656e6975;  // "HygonGenuine"
    if (hygon) return false;
    if (!amd) return true;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    const unsigned base = (eax >> 8) & 0xf;
    return base + (base == 0xf ? (eax >> 20) & 0xff : 0) >= 0x19;
#else
    return true;  // a build for this processor was asked to use it
#endif
}

// Seeded per rank as Stockfish does, so that the magic search is quick and deterministic.
void init_sliders(PieceType pt, Bitboard table[], Magic magics[], bool use_pext) {
    static constexpr std::uint64_t seeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
    static Bitboard occupancy[4096], reference[4096];
    static int epoch[4096];
    int cnt = 0, size = 0;

    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Bitboard edges =
            ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
        Magic& m = magics[s];
        m.mask = sliding_attack(pt, s, 0) & ~edges;
        m.shift = 64 - unsigned(popcount(m.mask));
        m.attacks = s == SQ_A1 ? table : magics[s - 1].attacks + size;
        Bitboard* att = const_cast<Bitboard*>(m.attacks);

        // Carry-Rippler enumeration of all subsets of the mask.
        Bitboard b = 0;
        size = 0;
        do {
            occupancy[size] = b;
            reference[size] = sliding_attack(pt, s, b);
            size++;
            b = (b - m.mask) & m.mask;
        } while (b);

        if (use_pext) {
            m.magic = 0;
            for (int i = 0; i < size; ++i) att[pext(occupancy[i], m.mask)] = reference[i];
            continue;
        }
        Prng rng{seeds[rank_of(s)]};
        for (int i = 0; i < size;) {
            for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse_rand();
            for (++cnt, i = 0; i < size; ++i) {
                unsigned idx = m.magic_index(occupancy[i]);
                if (epoch[idx] < cnt) {
                    epoch[idx] = cnt;
                    att[idx] = reference[i];
                } else if (att[idx] != reference[i])
                    break;
            }
        }
    }
}

void fill_sliders(SliderIndex index) {
    tables::slider_pext = index == SliderIndex::Pext;
    init_sliders(ROOK, rook_table, tables::rook_magics, tables::slider_pext);
    init_sliders(BISHOP, bishop_table, tables::bishop_magics, tables::slider_pext);
}

void init_once() {
    using namespace tables;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Bitboard b = square_bb(s);
        tables::pawn_attacks[WHITE][s] = pawn_attacks_bb<WHITE>(b);
        tables::pawn_attacks[BLACK][s] = pawn_attacks_bb<BLACK>(b);
        for (int d : {-17, -15, -10, -6, 6, 10, 15, 17}) pseudo_attacks[KNIGHT][s] |= safe_step(s, d);
        for (int d : {-9, -8, -7, -1, 1, 7, 8, 9}) pseudo_attacks[KING][s] |= safe_step(s, d);
    }
    fill_sliders(cpu_has_pext() && pext_is_fast() ? SliderIndex::Pext : SliderIndex::Magic);

    for (Square a = SQ_A1; a <= SQ_H8; ++a) {
        pseudo_attacks[BISHOP][a] = bishop_attacks(a, 0);
        pseudo_attacks[ROOK][a] = rook_attacks(a, 0);
        pseudo_attacks[QUEEN][a] = pseudo_attacks[BISHOP][a] | pseudo_attacks[ROOK][a];
    }
    for (Square a = SQ_A1; a <= SQ_H8; ++a) {
        for (PieceType pt : {BISHOP, ROOK})
            for (Square b = SQ_A1; b <= SQ_H8; ++b) {
                if (pseudo_attacks[pt][a] & square_bb(b)) {
                    line[a][b] = (attacks_bb(pt, a, 0) & attacks_bb(pt, b, 0)) | square_bb(a) | square_bb(b);
                    between[a][b] = attacks_bb(pt, a, square_bb(b)) & attacks_bb(pt, b, square_bb(a));
                }
            }
        for (Square b = SQ_A1; b <= SQ_H8; ++b) between[a][b] |= square_bb(b);
    }
}

}  // namespace

void init_bitboards() {
    static std::once_flag flag;
    std::call_once(flag, init_once);
}

SliderIndex slider_index() { return tables::slider_pext ? SliderIndex::Pext : SliderIndex::Magic; }

bool slider_index_available(SliderIndex index) {
#if defined(ECHECS_PEXT_AT_BUILD)
    return index == SliderIndex::Pext;  // every lookup is compiled as PEXT
#else
    return index == SliderIndex::Magic || cpu_has_pext();
#endif
}

bool set_slider_index(SliderIndex index) {
    init_bitboards();
    if (!slider_index_available(index)) return false;
    if (index != slider_index()) fill_sliders(index);
    return true;
}

const char* slider_index_name(SliderIndex index) { return index == SliderIndex::Pext ? "pext" : "magic"; }

}  // namespace echecs

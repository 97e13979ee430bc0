#include "bitboard.h"

#include <array>
#include <mutex>

#include "prng.h"

namespace echecs {

namespace tables {
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
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

// Seeded per rank as Stockfish does, so that the magic search is quick and deterministic.
void init_magics(PieceType pt, Bitboard table[], Magic magics[]) {
    [[maybe_unused]] static constexpr std::uint64_t seeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
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

        // Carry-Rippler enumeration of all subsets of the mask.
        Bitboard b = 0;
        size = 0;
        do {
            occupancy[size] = b;
            reference[size] = sliding_attack(pt, s, b);
#ifdef ECHECS_USE_PEXT
            const_cast<Bitboard*>(m.attacks)[_pext_u64(b, m.mask)] = reference[size];
#endif
            size++;
            b = (b - m.mask) & m.mask;
        } while (b);

#ifndef ECHECS_USE_PEXT
        Prng rng{seeds[rank_of(s)]};
        Bitboard* att = const_cast<Bitboard*>(m.attacks);
        for (int i = 0; i < size;) {
            for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse_rand();
            for (++cnt, i = 0; i < size; ++i) {
                unsigned idx = m.index(occupancy[i]);
                if (epoch[idx] < cnt) {
                    epoch[idx] = cnt;
                    att[idx] = reference[i];
                } else if (att[idx] != reference[i])
                    break;
            }
        }
#else
        (void)cnt;
        (void)epoch;
        (void)occupancy;
#endif
    }
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
    init_magics(ROOK, rook_table, rook_magics);
    init_magics(BISHOP, bishop_table, bishop_magics);

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

}  // namespace echecs

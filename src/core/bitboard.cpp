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

// Each square's ray in each direction, to the edge: the first four
// directions go up the square numbers, the last four down (filled once,
// before the slider tables are built from them).
constexpr int RAY_DIRS[8] = {NORTH, EAST, NORTH_EAST, NORTH_WEST, SOUTH, WEST, SOUTH_WEST, SOUTH_EAST};
Bitboard rays[8][64];

void fill_rays() {
    for (int i = 0; i < 8; ++i)
        for (Square sq = SQ_A1; sq <= SQ_H8; ++sq)
            for (Square s = sq; safe_step(s, RAY_DIRS[i]); s = s + RAY_DIRS[i])
                rays[i][sq] |= safe_step(s, RAY_DIRS[i]);
}

// A rook's or a bishop's attacks from sq among the men of occ: each ray up to
// its first man. Computed for every subset of every mask at start-up, which
// a step-by-step walk made a fifth of a short problem's time.
Bitboard sliding_attack(PieceType pt, Square sq, Bitboard occ) {
    static constexpr int rook_rays[4] = {0, 1, 4, 5};
    static constexpr int bishop_rays[4] = {2, 3, 6, 7};
    Bitboard attacks = 0;
    for (int i : pt == ROOK ? rook_rays : bishop_rays) {
        Bitboard ray = rays[i][sq];
        if (const Bitboard men = ray & occ) ray &= ~rays[i][i < 4 ? lsb(men) : Square(63 - std::countl_zero(men))];
        attacks |= ray;
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

// The magics the search below finds (its seeds, per rank as Stockfish seeds
// it), kept so that a start-up does not search again: the search took most of
// a problem solver's start (50 ms where the processor has no POPCNT in the
// build). Each is checked as the table is filled; one that failed would be
// searched again.
constexpr std::uint64_t ROOK_MAGICS[64] = {
    0x0a80004000801220ULL, 0x8040004010002008ULL, 0x2080200010008008ULL, 0x1100100008210004ULL, 0xc200209084020008ULL,
    0x2100010004000208ULL, 0x0400081000822421ULL, 0x0200010422048844ULL, 0x0800800080400024ULL, 0x0001402000401000ULL,
    0x3000801000802001ULL, 0x4400800800100083ULL, 0x0904802402480080ULL, 0x4040800400020080ULL, 0x0018808042000100ULL,
    0x4040800080004100ULL, 0x0040048001458024ULL, 0x00a0004000205000ULL, 0x3100808010002000ULL, 0x4825010010000820ULL,
    0x5004808008000401ULL, 0x2024818004000a00ULL, 0x0005808002000100ULL, 0x2100060004806104ULL, 0x0080400880008421ULL,
    0x4062220600410280ULL, 0x010a004a00108022ULL, 0x0000100080080080ULL, 0x0021000500080010ULL, 0x0044000202001008ULL,
    0x0000100400080102ULL, 0xc020128200040545ULL, 0x0080002000400040ULL, 0x0000804000802004ULL, 0x0000120022004080ULL,
    0x010a386103001001ULL, 0x9010080080800400ULL, 0x8440020080800400ULL, 0x0004228824001001ULL, 0x000000490a000084ULL,
    0x0080002000504000ULL, 0x200020005000c000ULL, 0x0012088020420010ULL, 0x0010010080080800ULL, 0x0085001008010004ULL,
    0x0002000204008080ULL, 0x0040413002040008ULL, 0x0000304081020004ULL, 0x0080204000800080ULL, 0x3008804000290100ULL,
    0x1010100080200080ULL, 0x2008100208028080ULL, 0x5000850800910100ULL, 0x8402019004680200ULL, 0x0120911028020400ULL,
    0x0000008044010200ULL, 0x0020850200244012ULL, 0x0020850200244012ULL, 0x0000102001040841ULL, 0x140900040a100021ULL,
    0x000200282410a102ULL, 0x000200282410a102ULL, 0x000200282410a102ULL, 0x4048240043802106ULL,
};
constexpr std::uint64_t BISHOP_MAGICS[64] = {
    0x9060124418008010ULL, 0x0020010250810120ULL, 0x2010010220280081ULL, 0x002806004050c040ULL, 0x0002021018000000ULL,
    0x2001112010000400ULL, 0x0881010120218080ULL, 0x1030820110010500ULL, 0x0000120222042400ULL, 0x2000020404040044ULL,
    0x8000480094208000ULL, 0x0003422a02000001ULL, 0x000a220210100040ULL, 0x8004820202226000ULL, 0x0018234854100800ULL,
    0x0100004042101040ULL, 0x0004001004082820ULL, 0x0010000810010048ULL, 0x1014004208081300ULL, 0x2080818802044202ULL,
    0x0040880c00a00100ULL, 0x0080400200522010ULL, 0x0001000188180b04ULL, 0x0080249202020204ULL, 0x1004400004100410ULL,
    0x00013100a0022206ULL, 0x2148500001040080ULL, 0x4241080011004300ULL, 0x4020848004002000ULL, 0x10101380d1004100ULL,
    0x0008004422020284ULL, 0x01010a1041008080ULL, 0x0808080400082121ULL, 0x0808080400082121ULL, 0x0091128200100c00ULL,
    0x0202200802010104ULL, 0x8c0a020200440085ULL, 0x01a0008080b10040ULL, 0x0889520080122800ULL, 0x100902022202010aULL,
    0x04081a0816002000ULL, 0x0000681208005000ULL, 0x8170840041008802ULL, 0x0a00004200810805ULL, 0x0830404408210100ULL,
    0x2602208106006102ULL, 0x1048300680802628ULL, 0x2602208106006102ULL, 0x0602010120110040ULL, 0x0941010801043000ULL,
    0x000040440a210428ULL, 0x0008240020880021ULL, 0x0400002012048200ULL, 0x00ac102001210220ULL, 0x0220021002009900ULL,
    0x84440c080a013080ULL, 0x0001008044200440ULL, 0x0004c04410841000ULL, 0x2000500104011130ULL, 0x1a0c010011c20229ULL,
    0x0044800112202200ULL, 0x0434804908100424ULL, 0x0300404822c08200ULL, 0x48081010008a2a80ULL,
};

// Fills m.attacks for this magic: false at the first collision of two
// occupancies with different attacks.
bool try_magic(Magic& m, Bitboard* att, const Bitboard occupancy[], const Bitboard reference[], int size, int epoch[],
               int& cnt) {
    ++cnt;
    for (int i = 0; i < size; ++i) {
        const unsigned idx = m.magic_index(occupancy[i]);
        if (epoch[idx] < cnt) {
            epoch[idx] = cnt;
            att[idx] = reference[i];
        } else if (att[idx] != reference[i])
            return false;
    }
    return true;
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
        m.magic = (pt == ROOK ? ROOK_MAGICS : BISHOP_MAGICS)[s];
        if (try_magic(m, att, occupancy, reference, size, epoch, cnt)) continue;
        Prng rng{seeds[rank_of(s)]};
        do {
            for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse_rand();
        } while (!try_magic(m, att, occupancy, reference, size, epoch, cnt));
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
    fill_rays();
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

#include "kpk.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/bitboard.h"

namespace echecs::engine::kpk {

namespace {

// White has the king and the pawn. Index: side to move, Black's king,
// White's king, the pawn (files a-d, ranks 2-7: 24 squares).
constexpr int PAWN_SQUARES = 24;
constexpr int SIZE = 2 * 64 * 64 * PAWN_SQUARES;

enum Result : std::uint8_t { INVALID, UNKNOWN, DRAW, WIN };

int index(bool white_to_move, int bk, int wk, int p) {
    const int pawn = (p >> 3) - 1 + 6 * (p & 7);  // rank 2-7, file a-d
    return int(white_to_move) + 2 * (bk + 64 * (wk + 64 * pawn));
}

int distance(int a, int b) { return std::max(std::abs((a & 7) - (b & 7)), std::abs((a >> 3) - (b >> 3))); }

Bitboard bit(int s) { return Bitboard(1) << s; }

// Squares the black king may step to (the pawn's square included when
// White's king does not guard it).
Bitboard black_steps(int bk, int wk, int p) {
    return king_attacks(Square(bk)) & ~king_attacks(Square(wk)) & ~pawn_attacks(WHITE, Square(p));
}

// The pawn promotes to a queen or a rook on q, Black to move: a won game
// unless Black takes the new piece or has no move without being in check.
bool promotion_wins(int bk, int wk, int q) {
    if (distance(bk, q) == 1 && distance(wk, q) > 1) return false;
    for (Bitboard attacks : {queen_attacks(Square(q), bit(wk)), rook_attacks(Square(q), bit(wk))}) {
        const Bitboard steps = king_attacks(Square(bk)) & ~king_attacks(Square(wk)) & ~attacks & ~bit(q);
        if (steps || (attacks & bit(bk))) return true;
    }
    return false;
}

Result initial(int i) {
    const bool wtm = i & 1;
    const int bk = (i >> 1) & 63, wk = (i >> 7) & 63, pawn = i >> 13;
    const int p = make_square(pawn / 6, pawn % 6 + 1);
    if (bk == wk || bk == p || wk == p || distance(bk, wk) <= 1) return INVALID;
    const bool black_in_check = pawn_attacks(WHITE, Square(p)) & bit(bk);
    if (wtm) {
        if (black_in_check) return INVALID;
        const int q = p + 8;
        if (rank_of(Square(p)) == 6 && q != wk && q != bk && promotion_wins(bk, wk, q)) return WIN;
        return UNKNOWN;
    }
    const Bitboard steps = black_steps(bk, wk, p);
    if (!steps) return black_in_check ? WIN : DRAW;  // mate, or stalemate
    if (steps & bit(p)) return DRAW;                 // the pawn falls
    return UNKNOWN;
}

// From the successors' results: White needs one win, Black one draw.
Result classify(const std::vector<Result>& t, int i) {
    const bool wtm = i & 1;
    const int bk = (i >> 1) & 63, wk = (i >> 7) & 63, pawn = i >> 13;
    const int p = make_square(pawn / 6, pawn % 6 + 1);
    const Result good = wtm ? WIN : DRAW, bad = wtm ? DRAW : WIN;
    bool unknown = false;
    auto see = [&](Result r) {
        if (r == UNKNOWN) unknown = true;
        return r == good;
    };
    if (wtm) {
        for (Bitboard b = king_attacks(Square(wk)) & ~king_attacks(Square(bk)) & ~bit(p); b;)
            if (see(t[index(false, bk, pop_lsb(b), p)])) return WIN;
        const int one = p + 8;
        if (rank_of(Square(p)) < 6 && one != wk && one != bk) {
            if (see(t[index(false, bk, wk, one)])) return WIN;
            const int two = one + 8;
            if (rank_of(Square(p)) == 1 && two != wk && two != bk && see(t[index(false, bk, wk, two)])) return WIN;
        }
        // A promotion that does not win (initial()) counts as a draw.
    } else {
        for (Bitboard b = black_steps(bk, wk, p); b;)
            if (see(t[index(true, pop_lsb(b), wk, p)])) return DRAW;
    }
    return unknown ? UNKNOWN : bad;
}

struct Table {
    std::array<std::uint64_t, SIZE / 64> win{};

    Table() {
        std::vector<Result> t(SIZE);  // 192 KiB while it is built
        std::vector<int> open;        // the positions not yet decided
        for (int i = 0; i < SIZE; ++i)
            if ((t[i] = initial(i)) == UNKNOWN) open.push_back(i);
        for (std::size_t before = 0; before != open.size();) {
            before = open.size();
            std::erase_if(open, [&](int i) { return (t[i] = classify(t, i)) != UNKNOWN; });
        }
        // What no line decides is a draw: White cannot force the promotion.
        for (int i = 0; i < SIZE; ++i)
            if (t[i] == WIN) win[i / 64] |= std::uint64_t(1) << (i % 64);
    }
};

const Table& table() {
    static const Table t;
    return t;
}

}  // namespace

void init() { table(); }

bool probe(Color strong, Square strong_king, Square pawn, Square weak_king, bool strong_to_move) {
    // The pawn's side as White, the pawn on files a-d.
    int wk = strong_king, p = pawn, bk = weak_king;
    if (strong == BLACK) wk ^= 56, p ^= 56, bk ^= 56;
    if ((p & 7) > 3) wk ^= 7, p ^= 7, bk ^= 7;
    const int i = index(strong_to_move, bk, wk, p);
    return table().win[i / 64] >> (i % 64) & 1;
}

}  // namespace echecs::engine::kpk

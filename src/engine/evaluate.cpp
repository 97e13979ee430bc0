// Hand-written evaluation: tapered material and piece-square terms, mobility,
// king safety and pawn structure, with the terms each variant adds:
//  - Alice: everything is judged per board (a piece only attacks and blocks
//    on its own board, and lands on the other one), checks that arrive by a
//    transfer, and the king's escape squares counted on both boards.
//  - Avalanche: passed pawns are worth more (the opponent must push a pawn
//    every turn), a pending promotion counts as the queen its owner will
//    choose, and enemy pawns in front of the king (pushes that would check
//    the pusher are forbidden, which can leave only bad pushes) cost safety.
#include "evaluate.h"

#include <algorithm>
#include <cstdlib>

namespace echecs::engine {

namespace {

struct Score {
    int mg = 0, eg = 0;
    Score& operator+=(Score o) {
        mg += o.mg, eg += o.eg;
        return *this;
    }
    Score& operator-=(Score o) {
        mg -= o.mg, eg -= o.eg;
        return *this;
    }
};
constexpr Score S(int mg, int eg) { return Score{mg, eg}; }
Score operator*(Score s, int k) { return S(s.mg * k, s.eg * k); }

constexpr Score MATERIAL[PIECE_TYPE_NB] = {S(0, 0),     S(82, 94),    S(337, 281), S(365, 297),
                                           S(477, 512), S(1025, 936), S(0, 0)};
constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
constexpr int PHASE_MAX = 24;

// Mobility: bonus per reachable square above a typical count.
constexpr Score MOBILITY[PIECE_TYPE_NB] = {S(0, 0), S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)};
constexpr int MOBILITY_BASE[PIECE_TYPE_NB] = {0, 0, 4, 6, 7, 13, 0};
constexpr int KING_ATTACK_WEIGHT[PIECE_TYPE_NB] = {0, 0, 2, 2, 3, 5, 0};

constexpr Score BISHOP_PAIR = S(30, 50);
constexpr Score ROOK_OPEN = S(20, 10), ROOK_SEMI_OPEN = S(10, 5);
constexpr Score DOUBLED = S(10, 20), ISOLATED = S(12, 15);
constexpr Score PASSED[8] = {S(0, 0), S(5, 10), S(10, 15), S(15, 25), S(25, 45), S(45, 75), S(70, 120), S(0, 0)};
constexpr int TEMPO = 15;

// Alice terms.
constexpr Score TRANSFER_CHECK_THREAT = S(25, 12);
constexpr Score ESCAPE_SQUARE = S(6, 4);
constexpr Score NO_ESCAPE = S(25, 15);
// Avalanche terms.
constexpr Score PAWN_IN_FRONT_OF_KING = S(8, 0);

int center_distance(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return std::max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
}

// Piece-square values for White; Black reads the rank-mirrored square.
struct Tables {
    Score psq[PIECE_TYPE_NB][SQUARE_NB];
    Bitboard forward_files[COLOR_NB][SQUARE_NB];  // own and adjacent files, strictly ahead
    Bitboard adjacent_files[8];

    Tables() {
        constexpr int knight_mg[4] = {15, 5, -10, -30}, knight_eg[4] = {10, 5, -10, -25};
        constexpr int bishop_mg[4] = {10, 5, 0, -10}, bishop_eg[4] = {5, 3, 0, -8};
        constexpr int queen_mg[4] = {2, 2, 0, -5}, queen_eg[4] = {10, 5, 0, -10};
        constexpr int king_eg[4] = {30, 15, 0, -25};
        constexpr int king_file_mg[8] = {20, 30, 10, 0, 0, 10, 30, 20};
        constexpr int pawn_rank_mg[8] = {0, 0, 3, 6, 12, 20, 30, 0}, pawn_rank_eg[8] = {0, 0, 5, 10, 20, 35, 55, 0};
        for (Square s = SQ_A1; s <= SQ_H8; ++s) {
            const int cd = center_distance(s), r = rank_of(s), f = file_of(s);
            const int pawn_center = (f == 3 || f == 4) && (r == 3 || r == 4) ? 15 : (f >= 2 && f <= 5 ? 3 : 0);
            psq[PAWN][s] = S(pawn_rank_mg[r] + pawn_center, pawn_rank_eg[r]);
            psq[KNIGHT][s] = S(knight_mg[cd], knight_eg[cd]);
            psq[BISHOP][s] = S(bishop_mg[cd], bishop_eg[cd]);
            psq[ROOK][s] = S((r == 6 ? 15 : 0) + (f == 3 || f == 4 ? 5 : 0), r == 6 ? 20 : 0);
            psq[QUEEN][s] = S(queen_mg[cd], queen_eg[cd]);
            psq[KING][s] = S(r == 0 ? king_file_mg[f] : r == 1 ? -10 : -30 - 10 * r, king_eg[cd]);
        }
        for (int f = 0; f < 8; ++f) adjacent_files[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
        for (Square s = SQ_A1; s <= SQ_H8; ++s) {
            Bitboard files = adjacent_files[file_of(s)] | file_bb(file_of(s));
            Bitboard ahead_w = 0, ahead_b = 0;
            for (int r = rank_of(s) + 1; r < 8; ++r) ahead_w |= rank_bb(r);
            for (int r = rank_of(s) - 1; r >= 0; --r) ahead_b |= rank_bb(r);
            forward_files[WHITE][s] = files & ahead_w;
            forward_files[BLACK][s] = files & ahead_b;
        }
    }
};

const Tables& tables() {
    static const Tables t;
    return t;
}

Square relative_square(Color c, Square s) { return c == WHITE ? s : Square(int(s) ^ 56); }

Bitboard pawn_attacks_of(Color c, Bitboard pawns) {
    return c == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns);
}

// Squares from which a piece of type pt (colour c for pawns) attacks s, with
// blockers occ.
Bitboard attackers_from(PieceType pt, Color c, Square s, Bitboard occ) {
    if (pt == PAWN) return pawn_attacks(~c, s);
    return attacks_bb(pt, s, occ);
}

template <Variant V>
class Evaluator {
public:
    Evaluator(const Position& p, bool variant_terms) : pos(p), t(tables()), terms(variant_terms) {}

    Value value() {
        for (Board b : {BOARD_A, BOARD_B}) {
            occ[b] = pos.pieces() & pos.board_mask(b);
            for (Color c : {WHITE, BLACK}) pawn_att[c][b] = pawn_attacks_of(c, pos.pieces(c, PAWN) & occ[b]);
        }
        Score sc[COLOR_NB];
        int phase = 0;
        for (Color c : {WHITE, BLACK}) {
            sc[c] = pieces(c, phase);
            sc[c] += pawns(c);
        }
        for (Color c : {WHITE, BLACK}) sc[c] += king(c);
        Score total = sc[WHITE];
        total -= sc[BLACK];
        phase = std::min(phase, PHASE_MAX);
        int v = (total.mg * phase + total.eg * (PHASE_MAX - phase)) / PHASE_MAX;
        if (pos.side_to_move() == BLACK) v = -v;
        return v + TEMPO;
    }

private:
    static constexpr bool Alice = V == Variant::Alice;
    static constexpr Board other(Board b) { return Board(b ^ 1); }
    Board board_of(Square s) const { return Alice ? pos.board_of(s) : BOARD_A; }

    // Material, piece-square, mobility and the attack maps used by king safety.
    Score pieces(Color c, int& phase) {
        Score s;
        const Color them = ~c;
        Bitboard bb = pos.pieces(c) & ~pos.pieces(KING);
        while (bb) {
            const Square sq = pop_lsb(bb);
            PieceType pt = type_of(pos.piece_on(sq));
            if (V == Variant::Avalanche && pt == PAWN && relative_rank(c, sq) == 7) pt = QUEEN;  // pending choice
            s += MATERIAL[pt];
            s += t.psq[pt][relative_square(c, sq)];
            phase += PHASE_WEIGHT[pt];
            const Board b = board_of(sq);
            const Bitboard att = pt == PAWN ? pawn_attacks(c, sq) : attacks_bb(pt, sq, occ[b]);
            attacks[c][b] |= att;
            if (pt == PAWN) continue;
            // A move lands on the other board in Alice: its square must be empty
            // there and is only threatened by that board's pawns.
            const Board land = Alice ? other(b) : b;
            const Bitboard area =
                ~(pos.pieces(c) & occ[b]) & (Alice ? ~occ[land] : ~Bitboard(0)) & ~pawn_att[them][land];
            s += MOBILITY[pt] * (popcount(att & area) - MOBILITY_BASE[pt]);
            if (pt == ROOK) {
                const Bitboard file = file_bb(file_of(sq));
                if (!(file & pos.pieces(PAWN)))
                    s += ROOK_OPEN;
                else if (!(file & pos.pieces(c, PAWN)))
                    s += ROOK_SEMI_OPEN;
            }
            // Attacks on the enemy king's surroundings (same board), and in
            // Alice the checks this piece could give by a transfer.
            const Square ek = pos.king_square(them);
            const Board kb = board_of(ek);
            if (b == kb) {
                const Bitboard zone = king_attacks(ek) | square_bb(ek);
                if (att & zone) {
                    ++king_attackers[them];
                    king_attack_units[them] += KING_ATTACK_WEIGHT[pt] * popcount(att & zone);
                }
            } else if (Alice) {
                const Bitboard reach = att & ~(pos.pieces(c) & occ[b]) & ~occ[kb];
                transfer_checks[them] += popcount(reach & attackers_from(pt, c, ek, occ[kb]));
            }
        }
        if (popcount(pos.pieces(c, BISHOP)) >= 2) s += BISHOP_PAIR;
        return s;
    }

    Score pawns(Color c) {
        Score s;
        const Color them = ~c;
        const Bitboard ours = pos.pieces(c, PAWN), theirs = pos.pieces(them, PAWN);
        Bitboard bb = ours;
        while (bb) {
            const Square sq = pop_lsb(bb);
            const int f = file_of(sq);
            if (V == Variant::Avalanche && relative_rank(c, sq) == 7) continue;  // counted as a queen
            if (!(ours & t.adjacent_files[f])) s -= ISOLATED;
            if (more_than_one(ours & file_bb(f)) && (t.forward_files[c][sq] & file_bb(f) & ours)) s -= DOUBLED;
            if (!(t.forward_files[c][sq] & theirs)) {
                Score p = PASSED[relative_rank(c, sq)];
                if (V == Variant::Avalanche && terms) p = S(p.mg * 3 / 2, p.eg * 3 / 2);
                s += p;
            }
        }
        return s;
    }

    Score king(Color c) {
        Score s;
        const Color them = ~c;
        const Square k = pos.king_square(c);
        s += t.psq[KING][relative_square(c, k)];

        // Attack units from enemy pieces around the king, quadratic.
        if (king_attackers[c] >= 2 && pos.pieces(them, QUEEN)) {
            const int u = king_attack_units[c];
            s.mg -= std::min(u * u * 2, 600);
        }
        // Pawn shield (orthodox and Avalanche, king on its first two ranks).
        if (!Alice && relative_rank(c, k) <= 1) {
            const int kf = std::clamp(file_of(k), 1, 6);
            for (int f = kf - 1; f <= kf + 1; ++f) {
                const Bitboard shield = pos.pieces(c, PAWN) & file_bb(f);
                const Square s1 = k + pawn_push(c);
                if (shield & rank_bb(rank_of(s1)))
                    s.mg += 12;
                else if (shield & rank_bb(rank_of(s1 + pawn_push(c))))
                    s.mg += 6;
                else
                    s.mg -= 15;
            }
        }
        if (V == Variant::Avalanche && terms) {
            const Square ahead = k + pawn_push(c);  // off the board for a king on its last rank
            const Bitboard near = king_attacks(k) | (is_ok(ahead) ? king_attacks(ahead) : 0);
            const Bitboard front = t.forward_files[c][k] & near;
            s -= PAWN_IN_FRONT_OF_KING * popcount(front & pos.pieces(them, PAWN));
        }
        if (Alice && terms) {
            s -= TRANSFER_CHECK_THREAT * transfer_checks[c];
            // Escape squares: free on the king's board, empty on the other one,
            // and attacked on neither (the step is judged on both boards).
            const Board kb = board_of(k), ob = other(kb);
            const Bitboard esc =
                king_attacks(k) & ~(pos.pieces(c) & occ[kb]) & ~occ[ob] & ~attacks[them][kb] & ~attacks[them][ob];
            const int n = popcount(esc);
            s += ESCAPE_SQUARE * n;
            if (!n) s -= NO_ESCAPE;
        }
        return s;
    }

    const Position& pos;
    const Tables& t;
    const bool terms;  // the variant-specific terms (off only to measure them)
    Bitboard occ[2] = {};
    Bitboard pawn_att[COLOR_NB][2] = {};
    Bitboard attacks[COLOR_NB][2] = {};
    int king_attackers[COLOR_NB] = {};
    int king_attack_units[COLOR_NB] = {};
    int transfer_checks[COLOR_NB] = {};
};

}  // namespace

Value evaluate(const Position& pos, bool variant_terms) {
    switch (pos.variant()) {
        case Variant::Alice:
            return Evaluator<Variant::Alice>(pos, variant_terms).value();
        case Variant::Avalanche:
            return Evaluator<Variant::Avalanche>(pos, variant_terms).value();
        default:
            return Evaluator<Variant::Chess>(pos, variant_terms).value();
    }
}

Value evaluate_material(const Position& pos) {
    constexpr int value[PIECE_TYPE_NB] = {0, 100, 300, 300, 500, 900, 0};
    int v = 0;
    for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN})
        v += value[pt] * (pos.count(WHITE, pt) - pos.count(BLACK, pt));
    const Square pending = pos.pending_promotion();  // Avalanche: its owner will choose a queen
    if (pending != SQ_NONE) v += (pos.side_to_move() == WHITE ? 1 : -1) * (value[QUEEN] - value[PAWN]);
    return pos.side_to_move() == WHITE ? v : -v;
}

}  // namespace echecs::engine

// Static exchange evaluation in the three games.
//
// - Chess: the orthodox swap: the two sides capture on the square in turn
//   with their least valuable attacker, sliders behind a capturer join in
//   (x-rays), a king captures only when nothing can take it back; pins are
//   ignored.
// - Alice: a capture happens only on the board the capturing piece stands
//   on, and the capturer then passes to the other board, where it stands on
//   the same square. So the exchange alternates boards: the first capture
//   is made on the mover's board, the reply by a piece of the *other* board
//   (the capturer now stands there), the next on the first board again, and
//   so on; each board keeps its own blockers, and a piece that takes part
//   leaves its board's occupancy. A quiet move is judged the same way: its
//   piece lands on the other board and is attacked by that board's pieces.
// - Avalanche: a move is a first part and a push of an enemy pawn. The
//   push is made before any reply, so the exchange is played out on the
//   position after both: the pushed pawn stands on its new square (it may
//   now attack the destination, block a line, or have left one open). The
//   pushes of the later moves of the exchange are not played out: each is
//   the capturer's own choice, and it can nearly always pick a harmless one.
//   A pending choice (part 0) moves as the piece chosen.
#include "see.h"

#include <algorithm>

#include "evaluate.h"

namespace echecs::engine {

namespace {

struct Sides {
    Bitboard pieces[COLOR_NB][PIECE_TYPE_NB];  // may change with the Avalanche push
};

// The least valuable piece of `c` on `mask` attacking `to` with blockers `occ`.
Square least_attacker(const Sides& s, Color c, Square to, Bitboard occ, Bitboard mask, PieceType& pt) {
    const Bitboard* p = s.pieces[c];
    Bitboard b;
    if ((b = p[PAWN] & mask & pawn_attacks(~c, to))) return pt = PAWN, lsb(b);
    if ((b = p[KNIGHT] & mask & knight_attacks(to))) return pt = KNIGHT, lsb(b);
    const Bitboard diag = bishop_attacks(to, occ), orth = rook_attacks(to, occ);
    if ((b = p[BISHOP] & mask & diag)) return pt = BISHOP, lsb(b);
    if ((b = p[ROOK] & mask & orth)) return pt = ROOK, lsb(b);
    if ((b = p[QUEEN] & mask & (diag | orth))) return pt = QUEEN, lsb(b);
    if ((b = p[KING] & mask & king_attacks(to))) return pt = KING, lsb(b);
    return pt = NO_PIECE_TYPE, SQ_NONE;
}

constexpr int KING_SEE_VALUE = 20000;

}  // namespace

int see(const Position& pos, Move m) {
    if (m.kind() == CASTLING) return 0;
    const Variant v = pos.variant();
    const bool alice = variant_info(v).boards == 2;
    const Color us = pos.side_to_move();
    const Square from = m.from(), to = m.to();

    Sides s;
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= KING; ++pt) s.pieces[c][pt] = pos.pieces(c, PieceType(pt));
    PieceType mover = type_of(pos.moved_piece(m));
    int gain0 = 0;
    if (m.kind() == EN_PASSANT)
        gain0 = PIECE_VALUE[PAWN];
    else if (!pos.empty(to))
        gain0 = PIECE_VALUE[type_of(pos.piece_on(to))];
    if (m.kind() == PROMOTION) {
        gain0 += PIECE_VALUE[m.promotion()] - PIECE_VALUE[PAWN];
        mover = m.promotion();
    }

    // Occupancy of each board (chess and Avalanche: board A holds everything).
    Bitboard occ[2] = {alice ? pos.pieces() & pos.board_mask(BOARD_A) : pos.pieces(),
                       alice ? pos.pieces() & pos.board_mask(BOARD_B) : 0};
    Bitboard mask[2] = {alice ? pos.board_mask(BOARD_A) : ~Bitboard(0), alice ? pos.board_mask(BOARD_B) : 0};
    const Board from_board = alice ? pos.board_of(from) : BOARD_A;
    // The first part leaves `from`, takes what stands on `to`.
    occ[from_board] &= ~square_bb(from);
    Bitboard used = square_bb(from);
    if (!pos.empty(to)) used |= square_bb(to);  // the victim no longer takes part
    if (m.kind() == EN_PASSANT) {
        const Square cap = to - pawn_push(us);
        used |= square_bb(cap);
        occ[alice ? pos.board_of(cap) : BOARD_A] &= ~square_bb(cap);
    }
    if (m.choice() && pos.pending_promotion() != SQ_NONE) {  // the pending pawn is the piece chosen
        const Bitboard p = square_bb(pos.pending_promotion());
        s.pieces[us][PAWN] &= ~p;
        s.pieces[us][m.choice()] |= p;
    }
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= KING; ++pt) s.pieces[c][pt] &= ~used;
    if (m.has_push()) {
        // After the first part (the pawn may step onto the square it left).
        const Square a = m.push_from(), b = m.push_to();
        s.pieces[~us][PAWN] ^= square_bb(a) | square_bb(b);
        occ[BOARD_A] ^= square_bb(a) | square_bb(b);
    }

    // The swap list.
    int gain[40];
    int d = 0;
    gain[0] = gain0;
    int on_square = mover == KING ? KING_SEE_VALUE : PIECE_VALUE[mover];  // what the next capture takes
    Board board = alice ? other(from_board) : BOARD_A;                    // where the piece on `to` now stands
    Color side = ~us;
    while (d < 38) {
        PieceType pt;
        const Square sq = least_attacker(s, side, to, occ[board], mask[board], pt);
        if (sq == SQ_NONE) break;
        ++d;
        gain[d] = on_square - gain[d - 1];
        if (pt == KING) {
            // The king may capture only if nothing takes it back where it lands.
            const Board next = alice ? other(board) : board;
            Bitboard occ_next = occ[next];
            if (!alice) occ_next &= ~square_bb(sq);
            PieceType dummy;
            Sides rest = s;
            rest.pieces[side][KING] &= ~square_bb(sq);
            if (least_attacker(rest, ~side, to, occ_next, mask[next], dummy) != SQ_NONE) {
                --d;
                break;
            }
        }
        on_square = pt == KING ? KING_SEE_VALUE : PIECE_VALUE[pt];
        occ[board] &= ~square_bb(sq);
        s.pieces[side][pt] &= ~square_bb(sq);
        if (alice) board = other(board);
        side = ~side;
    }
    while (d > 0) {
        gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
        --d;
    }
    return gain[0];
}

bool see_ge(const Position& pos, Move m, int threshold) {
    // Each side may stop capturing, so the exchange is worth at most the
    // first victim (the opponent does not take back) and at least that minus
    // the capturer (they take back, we stop). Castling and a pending
    // choice are left to see().
    if (m.kind() != CASTLING && !m.choice()) {
        int gain = m.kind() == EN_PASSANT ? PIECE_VALUE[PAWN]
                   : pos.empty(m.to())    ? 0
                                          : PIECE_VALUE[type_of(pos.piece_on(m.to()))];
        PieceType mover = type_of(pos.moved_piece(m));
        if (m.kind() == PROMOTION) gain += PIECE_VALUE[m.promotion()] - PIECE_VALUE[PAWN], mover = m.promotion();
        if (gain < threshold) return false;
        if (gain - (mover == KING ? KING_SEE_VALUE : PIECE_VALUE[mover]) >= threshold) return true;
    }
    return see(pos, m) >= threshold;
}

}  // namespace echecs::engine

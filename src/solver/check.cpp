#include "solver/check.h"

namespace echecs::solver {

// Every enemy attacker of the defending king after the move, computed from
// the placement the move leaves: direct, discovered, by promotion, by the
// castling rook, or through the square an en-passant capture empties.
bool gives_check(const Position& pos, Move m) {
    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(~us);
    const Square from = m.from(), to = m.to();
    PieceType pt = type_of(pos.piece_on(from));
    Bitboard occ = pos.pieces() ^ square_bb(from);
    Bitboard mine = pos.pieces(us) ^ square_bb(from);
    Bitboard removed = 0;  // our pieces no longer where they were
    Square placed = to;
    switch (m.kind()) {
        case PROMOTION: pt = m.promotion(); break;
        case EN_PASSANT: occ ^= square_bb(to - pawn_push(us)); break;
        case CASTLING: {
            const bool king_side = to > from;
            const Square rfrom = king_side ? from + 3 : from - 4, rto = king_side ? from + 1 : from - 1;
            occ ^= square_bb(rfrom) | square_bb(rto);
            mine ^= square_bb(rfrom) | square_bb(rto);
            removed = square_bb(rfrom);
            if (rook_attacks(rto, occ | square_bb(to)) & square_bb(ksq)) return true;
            placed = to;
            break;
        }
        default: break;
    }
    occ |= square_bb(to);
    mine |= square_bb(to);
    // Direct check by the piece on its new square.
    if (pt == PAWN ? pawn_attacks(us, placed) & square_bb(ksq)
                   : pt != KING && (attacks_bb(pt, placed, occ) & square_bb(ksq)))
        return true;
    // Discovered: our sliders (the moved one excluded: handled above) seeing the king.
    const Bitboard others = mine & ~square_bb(to) & ~removed;
    const Bitboard diag = pos.pieces(us, BISHOP, QUEEN) & others, orth = pos.pieces(us, ROOK, QUEEN) & others;
    return (bishop_attacks(ksq, occ) & diag) || (rook_attacks(ksq, occ) & orth);
}

}  // namespace echecs::solver

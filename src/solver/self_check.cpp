#include "solver/self_check.h"

#include "solver/notation.h"

namespace echecs::solver {

namespace {

template <Color Us>
void generate(const Position& pos, MoveList& list) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Bitboard Rank2 = Us == WHITE ? RANK_2_BB : RANK_7_BB;
    constexpr Bitboard Rank8 = Us == WHITE ? RANK_8_BB : RANK_1_BB;
    const bool alice = variant_info(pos.variant()).boards == 2;
    const Bitboard all = pos.pieces();
    const Bitboard their_king = pos.pieces(Them, KING);
    // Every pseudo-legal move; those the core finds legal are dropped below.
    MoveList pseudo;
    for (Board b : {BOARD_A, BOARD_B}) {
        const Bitboard mask = alice ? pos.board_mask(b) : ~Bitboard(0);
        const Bitboard occ = all & mask;
        const Bitboard them = pos.pieces(Them) & mask & ~their_king;
        // Not onto a man of one's own on this board, nor onto any man of the other one.
        const Bitboard dest = ~(pos.pieces(Us) & mask) & ~(all & ~mask) & ~their_king;
        for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING}) {
            Bitboard bb = pos.pieces(Us, pt) & mask;
            while (bb) {
                const Square from = pop_lsb(bb);
                Bitboard to = (pt == KING ? king_attacks(from) : attacks_bb(pt, from, occ)) & dest;
                while (to) {
                    const Square t = pop_lsb(to);
                    // Alice: a king's move must be legal on its departure board (Popeye's
                    // alice_self_check_guard_solve, which a ## goal keeps).
                    if (pt == KING && alice) {
                        const Bitboard occ_after = (occ ^ square_bb(from)) & ~square_bb(t);
                        if (pos.attackers_to(t, occ_after) & pos.pieces(Them) & mask & ~square_bb(t)) continue;
                    }
                    pseudo.push(Move(from, t));
                }
            }
        }
        Bitboard pawns = pos.pieces(Us, PAWN) & mask;
        while (pawns) {
            const Square from = pop_lsb(pawns);
            Bitboard to = pawn_attacks(Us, from) & them;
            // A step: its square empty on both boards; a double step: the square
            // passed empty on the pawn's own board (RULES.md §2, as the core has it).
            const Square one = from + Up;
            if (!(all & square_bb(one))) to |= square_bb(one);
            if ((square_bb(from) & Rank2) && !(occ & square_bb(one)) && !(all & square_bb(one + Up)))
                to |= square_bb(one + Up);
            while (to) {
                const Square t = pop_lsb(to);
                if (square_bb(t) & Rank8)
                    for (PieceType p : {QUEEN, ROOK, BISHOP, KNIGHT}) pseudo.push(Move::make(PROMOTION, from, t, p));
                else
                    pseudo.push(Move(from, t));
            }
        }
        if (!alice) {
            // Castling (chess): the king not in check, the squares between empty and the one
            // it passes unattacked, as Popeye generates it; its arrival may be attacked.
            const Square ksq = pos.king_square(Us);
            constexpr std::uint8_t OurRights = Us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
            if (!pos.in_check() && (pos.castling_rights() & OurRights))
                for (bool king_side : {true, false}) {
                    const CastlingRights cr =
                        CastlingRights((king_side ? WHITE_OO : WHITE_OOO) << (Us == WHITE ? 0 : 2));
                    if (!pos.can_castle(cr)) continue;
                    const Square rfrom = king_side ? ksq + 3 : ksq - 4;
                    const Square kto = king_side ? ksq + 2 : ksq - 2, passed = king_side ? ksq + 1 : ksq - 1;
                    if ((between_bb(ksq, rfrom) ^ square_bb(rfrom)) & all) continue;
                    if (pos.attackers_to(passed, all) & pos.pieces(Them)) continue;
                    pseudo.push(Move::make(CASTLING, ksq, kto));
                }
            const Square ep = pos.ep_square();
            if (ep != SQ_NONE && pos.empty(ep)) {
                Bitboard cands = pawn_attacks(Them, ep) & pos.pieces(Us, PAWN);
                while (cands) pseudo.push(Move::make(EN_PASSANT, pop_lsb(cands), ep));
            }
            break;
        }
    }
    MoveList legal;
    Position& p = const_cast<Position&>(pos);  // generate_legal restores it (chess and Alice make no move)
    generate_legal(p, legal);
    for (Move m : pseudo)
        if (!legal.contains(m)) list.push(m);
}

}  // namespace

void generate_self_checks(const Position& pos, MoveList& list) {
    if (pos.side_to_move() == WHITE)
        generate<WHITE>(pos, list);
    else
        generate<BLACK>(pos, list);
}

void add_goal_self_checks(Position& pos, Goal goal, MoveList& list) {
    if (!self_check_goal(goal)) return;
    const bool can_move = !no_legal_move(pos);
    if (goal == Goal::CounterMate ? can_move || !pos.in_check() : !can_move) return;
    generate_self_checks(pos, list);
}

}  // namespace echecs::solver

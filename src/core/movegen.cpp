#include "movegen.h"

namespace echecs {

namespace {

// The orthodox generator, with Alice's two boards as a hook: each board is
// generated with that board's blockers, destinations must be empty on the
// other board, and legality is judged on the king's board (RULES.md §2).
// Without a king (a problem's nowk/nobk) every pseudo-legal move is legal.
template <Variant V, Color Us, bool King>
Move* generate(const Position& pos, Move* list) {
    constexpr Color Them = Us == WHITE ? BLACK : WHITE;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_WEST;
    constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_EAST;
    constexpr Bitboard Rank3 = Us == WHITE ? RANK_3_BB : RANK_6_BB;
    constexpr Bitboard Rank7 = Us == WHITE ? RANK_7_BB : RANK_2_BB;
    constexpr bool Alice = V == Variant::Alice;
    constexpr bool EnPassant = variant_info(V).has_en_passant;

    const Square ksq = pos.king_square(Us);  // SQ_NONE without a king
    const Bitboard all = pos.pieces();
    const Bitboard checkers = pos.checkers();
    const Board kb = Alice && King ? pos.board_of(ksq) : BOARD_A;

    // King steps: judged on the departure board and, in Alice, on the arrival board.
    if constexpr (King) {
        const Bitboard mask = Alice ? pos.board_mask(kb) : ~Bitboard(0);
        const Bitboard other_occ = all & ~mask;
        const Bitboard them = pos.pieces(Them) & mask;
        const Bitboard occ_no_king = (all & mask) ^ square_bb(ksq);
        Bitboard targets = king_attacks(ksq) & ~(pos.pieces(Us) & mask) & ~other_occ;
        while (targets) {
            const Square to = pop_lsb(targets);
            if (pos.attackers_to(to, occ_no_king) & them & ~square_bb(to)) continue;
            if constexpr (Alice)
                if (pos.attackers_to(to, other_occ | square_bb(to)) & pos.pieces(Them) & other_occ) continue;
            *list++ = Move(ksq, to);
        }
    }
    if (more_than_one(checkers)) return list;  // only the king can answer a double check

    // Castling (Alice: from board A only, both pieces pass to board B).
    constexpr std::uint8_t OurRights = Us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    if (King && !checkers && (pos.castling_rights() & OurRights)) {
        const Bitboard mask_a = Alice ? pos.board_mask(BOARD_A) : ~Bitboard(0);
        const Bitboard occ_a = all & mask_a, them_a = pos.pieces(Them) & mask_a;
        for (bool king_side : {true, false}) {
            const CastlingRights cr = CastlingRights((king_side ? WHITE_OO : WHITE_OOO) << (Us == WHITE ? 0 : 2));
            if (!pos.can_castle(cr)) continue;
            const Square rfrom = king_side ? ksq + 3 : ksq - 4;
            const Square kto = king_side ? ksq + 2 : ksq - 2;
            const Square rto = king_side ? ksq + 1 : ksq - 1;
            if ((between_bb(ksq, rfrom) ^ square_bb(rfrom)) & occ_a) continue;
            if ((pos.attackers_to(rto, occ_a) & them_a) || (pos.attackers_to(kto, occ_a) & them_a)) continue;
            if constexpr (Alice) {
                const Bitboard occ_b = all & ~mask_a;
                const Bitboard dest = square_bb(kto) | square_bb(rto);
                if (dest & occ_b) continue;
                if (pos.attackers_to(kto, occ_b | dest) & pos.pieces(Them) & occ_b) continue;
            }
            *list++ = Move::make(CASTLING, ksq, kto);
        }
    }

    // Orthodox pins; in Alice a piece on the king's board that moves leaves
    // that board, so such moves are checked one by one instead.
    Bitboard pinned = 0;
    if constexpr (!Alice && King) {
        Bitboard snipers = (tables::pseudo_attacks[ROOK][ksq] & pos.pieces(Them, ROOK, QUEEN)) |
                           (tables::pseudo_attacks[BISHOP][ksq] & pos.pieces(Them, BISHOP, QUEEN));
        while (snipers) {
            const Square s = pop_lsb(snipers);
            const Bitboard b = between_bb(ksq, s) & all & ~square_bb(s);
            if (b && !more_than_one(b)) pinned |= b & pos.pieces(Us);
        }
    }
    const Bitboard king_rays = King ? tables::pseudo_attacks[QUEEN][ksq] : 0;

    for (Board b : {kb, other(kb)}) {
        const Bitboard mask = Alice ? pos.board_mask(b) : ~Bitboard(0);
        const Bitboard occ = all & mask;
        const Bitboard us = pos.pieces(Us) & mask;
        const Bitboard them = pos.pieces(Them) & mask;
        const bool king_board = !Alice || (King && b == kb);

        // Destinations allowed by a check, and whether each move must be tested.
        Bitboard legal_mask = ~Bitboard(0);
        if (checkers) {
            if (!Alice)
                legal_mask = between_bb(ksq, lsb(checkers));
            else if (king_board)
                legal_mask = checkers;  // capture the checker, then test
            else {
                // Landing on the king's board can only block a slider's check.
                const Square c = lsb(checkers);
                legal_mask = between_bb(ksq, c) & ~square_bb(c);
            }
        }
        auto needs_test = [&](Square from, Square to) {
            if constexpr (!Alice)
                return false;
            else
                return king_board && (checkers || (king_rays & square_bb(from)) ||
                                      ((king_rays & square_bb(to)) && (them & square_bb(to))));
        };
        auto accept = [&](Square from, Square to) {
            if (!(legal_mask & square_bb(to))) return false;
            if constexpr (Alice) {
                if (needs_test(from, to)) return pos.alice_king_safe_after(Move(from, to));
                return true;
            } else
                return !(pinned & square_bb(from)) || (line_bb(ksq, from) & square_bb(to));
        };

        // Pieces
        const Bitboard dest_mask = ~us & ~(all & ~mask) & legal_mask;
        for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
            Bitboard bb = pos.pieces(Us, pt) & mask;
            while (bb) {
                const Square from = pop_lsb(bb);
                Bitboard dests = attacks_bb(pt, from, occ) & dest_mask;
                if constexpr (!Alice) {
                    if (pinned & square_bb(from)) dests &= line_bb(ksq, from);
                    while (dests) *list++ = Move(from, pop_lsb(dests));
                } else {
                    if (king_board && (checkers || (king_rays & square_bb(from)))) {
                        while (dests) {
                            const Square to = pop_lsb(dests);
                            if (pos.alice_king_safe_after(Move(from, to))) *list++ = Move(from, to);
                        }
                    } else {
                        Bitboard risky = king_board ? dests & them & king_rays : 0;
                        Bitboard safe = dests & ~risky;
                        while (safe) *list++ = Move(from, pop_lsb(safe));
                        while (risky) {
                            const Square to = pop_lsb(risky);
                            if (pos.alice_king_safe_after(Move(from, to))) *list++ = Move(from, to);
                        }
                    }
                }
            }
        }

        // Pawns
        const Bitboard pawns = pos.pieces(Us, PAWN) & mask;
        const Bitboard empty_all = ~all;
        const Bitboard promo_pawns = pawns & Rank7, other_pawns = pawns & ~Rank7;
        {
            Bitboard step = shift<Up>(other_pawns) & ~occ;  // empty on the pawn's own board
            Bitboard single = step & empty_all;             // and on the other board
            Bitboard dbl = shift<Up>(step & Rank3) & empty_all;
            while (single) {
                const Square to = pop_lsb(single);
                if (accept(to - Up, to)) *list++ = Move(to - Up, to);
            }
            while (dbl) {
                const Square to = pop_lsb(dbl);
                if (accept(to - Up - Up, to)) *list++ = Move(to - Up - Up, to);
            }
            Bitboard cap_r = shift<UpRight>(other_pawns) & them, cap_l = shift<UpLeft>(other_pawns) & them;
            while (cap_r) {
                const Square to = pop_lsb(cap_r);
                if (accept(to - UpRight, to)) *list++ = Move(to - UpRight, to);
            }
            while (cap_l) {
                const Square to = pop_lsb(cap_l);
                if (accept(to - UpLeft, to)) *list++ = Move(to - UpLeft, to);
            }
        }
        if (promo_pawns) {
            auto add_promotions = [&](Square from, Square to) {
                if (!accept(from, to)) return;
                for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT}) *list++ = Move::make(PROMOTION, from, to, pt);
            };
            Bitboard push = shift<Up>(promo_pawns) & empty_all;
            Bitboard cap_r = shift<UpRight>(promo_pawns) & them, cap_l = shift<UpLeft>(promo_pawns) & them;
            while (push) {
                const Square to = pop_lsb(push);
                add_promotions(to - Up, to);
            }
            while (cap_r) {
                const Square to = pop_lsb(cap_r);
                add_promotions(to - UpRight, to);
            }
            while (cap_l) {
                const Square to = pop_lsb(cap_l);
                add_promotions(to - UpLeft, to);
            }
        }
        if constexpr (EnPassant) {
            const Square ep = pos.ep_square();
            if (ep != SQ_NONE && pos.empty(ep)) {
                Bitboard cands = pawn_attacks(Them, ep) & pawns;
                const Square capsq = ep - Up;
                while (cands) {
                    const Square from = pop_lsb(cands);
                    const Move m = Move::make(EN_PASSANT, from, ep);
                    bool ok;
                    if constexpr (Alice)
                        ok = pos.alice_king_safe_after(m);
                    else if constexpr (!King)
                        ok = true;
                    else {
                        const Bitboard o = (all ^ square_bb(from) ^ square_bb(capsq)) | square_bb(ep);
                        ok = !(pos.attackers_to(ksq, o) & pos.pieces(Them) & ~square_bb(capsq));
                    }
                    if (ok) *list++ = m;
                }
            }
        }
        if constexpr (!Alice) break;  // one board
    }
    return list;
}

template <Variant V>
Move* generate(const Position& pos, Move* list) {
    const Color us = pos.side_to_move();
    if (!pos.has_king(us)) [[unlikely]]
        return us == WHITE ? generate<V, WHITE, false>(pos, list) : generate<V, BLACK, false>(pos, list);
    return us == WHITE ? generate<V, WHITE, true>(pos, list) : generate<V, BLACK, true>(pos, list);
}

// Avalanche part 2: after the first part has been made (the pusher's
// opponent O is now to move), append `m` with every push that does not leave
// the pusher's king attacked, or `m` alone if no O pawn can step.
void add_pushes(const Position& pos, Move m, MoveList& list) {
    const Color o = pos.side_to_move(), s = ~o;
    const Bitboard all = pos.pieces();
    const Bitboard pawns = pos.pieces(o, PAWN);
    Bitboard targets = (o == WHITE ? pawns << 8 : pawns >> 8) & ~all;
    if (!targets) {
        list.push(m);
        return;
    }
    if (!pos.has_king(s)) [[unlikely]] {  // no king to expose: every push
        while (targets) {
            const Square b = pop_lsb(targets);
            list.push(m.with_push(b - pawn_push(o), o));
        }
        return;
    }
    const Square ksq = pos.king_square(s);
    const Bitboard king_rays = tables::pseudo_attacks[QUEEN][ksq];
    const Bitboard last_rank = o == WHITE ? RANK_8_BB : RANK_1_BB;
    const Bitboard kbb = square_bb(ksq);
    while (targets) {
        const Square b = pop_lsb(targets);
        const Square a = b - pawn_push(o);
        const Bitboard occ = all ^ square_bb(a) ^ square_bb(b);
        if (last_rank & square_bb(b)) {
            // O will choose the piece: every square a queen or a knight would attack counts.
            if ((queen_attacks(b, occ) | knight_attacks(b)) & kbb) continue;
        } else if (pawn_attacks(o, b) & kbb)
            continue;
        if ((king_rays & square_bb(a)) && ((bishop_attacks(ksq, occ) & pos.pieces(o, BISHOP, QUEEN)) |
                                           (rook_attacks(ksq, occ) & pos.pieces(o, ROOK, QUEEN))))
            continue;
        list.push(m.with_push(a, o));
    }
}

void expand_avalanche(Position& pos, MoveList& list, PieceType choice) {
    Move first[256];
    Move* end = generate<Variant::Avalanche>(pos, first);
    StateInfo st;
    for (Move* it = first; it != end; ++it) {
        pos.do_move(*it, st);
        add_pushes(pos, it->with_choice(choice), list);
        pos.undo_move(*it);
    }
}

constexpr PieceType CHOICES[4] = {QUEEN, ROOK, BISHOP, KNIGHT};

}  // namespace

Move* generate_first_parts(const Position& pos, Move* list) {
    switch (pos.variant()) {
        case Variant::Chess: return generate<Variant::Chess>(pos, list);
        case Variant::Alice: return generate<Variant::Alice>(pos, list);
        case Variant::Avalanche: return generate<Variant::Avalanche>(pos, list);
    }
    return list;  // not reached: every game has its case above (no default, so the compiler names a missing one)
}

void generate_legal(Position& pos, MoveList& list) {
    list.count = 0;
    if (!variant_info(pos.variant()).has_pushes) {
        list.count = int(generate_first_parts(pos, list.moves) - list.moves);
        return;
    }
    const Square pending = pos.pending_promotion();
    if (pending == SQ_NONE) {
        expand_avalanche(pos, list, NO_PIECE_TYPE);
        return;
    }
    for (PieceType c : CHOICES) {
        pos.set_piece_type_in_place(pending, c);
        expand_avalanche(pos, list, c);
        pos.set_piece_type_in_place(pending, PAWN);
    }
}

bool has_first_part(Position& pos) {
    Move first[256];
    const Square pending = pos.pending_promotion();
    if (pending == SQ_NONE) return generate_first_parts(pos, first) != first;
    bool found = false;
    for (PieceType c : CHOICES) {
        pos.set_piece_type_in_place(pending, c);
        found = found || generate_first_parts(pos, first) != first;
        pos.set_piece_type_in_place(pending, PAWN);
    }
    return found;
}

Termination no_move_verdict(Position& pos) {
    if (variant_info(pos.variant()).has_pushes && has_first_part(pos)) return Termination::AvalancheLoss;
    return pos.in_check() ? Termination::Checkmate : Termination::Stalemate;
}

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList list;
    generate_legal(pos, list);
    if (depth == 1) return std::uint64_t(list.size());
    std::uint64_t nodes = 0;
    StateInfo st;
    for (Move m : list) {
        pos.do_move(m, st);
        nodes += perft(pos, depth - 1);
        pos.undo_move(m);
    }
    return nodes;
}

}  // namespace echecs

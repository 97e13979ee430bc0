#include "position.h"

#include "prng.h"

namespace echecs {

namespace zobrist {
Key psq[PIECE_NB][SQUARE_NB][2];
Key ep_file[8];
Key castling[16];
Key side;
}  // namespace zobrist

namespace {

void init_zobrist() {
    Prng rng{1070372};
    auto rand64 = [&rng] { return rng.rand64(); };
    for (auto& piece : zobrist::psq)
        for (auto& sq : piece)
            for (auto& b : sq) b = rand64();
    for (auto& k : zobrist::ep_file) k = rand64();
    zobrist::castling[0] = 0;
    Key cr[4];
    for (auto& k : cr) k = rand64();
    for (int i = 1; i < 16; ++i) {
        zobrist::castling[i] = 0;
        for (int j = 0; j < 4; ++j)
            if (i & (1 << j)) zobrist::castling[i] ^= cr[j];
    }
    zobrist::side = rand64();
}

}  // namespace

void Position::init() {
    static bool done = [] {
        init_bitboards();
        init_zobrist();
        return true;
    }();
    (void)done;
}

// ---------------------------------------------------------------------------
// Placement primitives

void Position::put_piece(Piece p, Square s, Board b) {
    Bitboard bb = square_bb(s);
    board_[s] = p;
    by_type_[NO_PIECE_TYPE] |= bb;
    by_type_[type_of(p)] |= bb;
    by_color_[color_of(p)] |= bb;
    if (b == BOARD_B) on_b_ |= bb;
}

void Position::remove_piece(Square s) {
    Bitboard bb = square_bb(s);
    Piece p = board_[s];
    board_[s] = NO_PIECE;
    by_type_[NO_PIECE_TYPE] &= ~bb;
    by_type_[type_of(p)] &= ~bb;
    by_color_[color_of(p)] &= ~bb;
    on_b_ &= ~bb;
}

void Position::move_piece(Square from, Square to, Board to_board) {
    Piece p = board_[from];
    Bitboard fromto = square_bb(from) | square_bb(to);
    by_type_[NO_PIECE_TYPE] ^= fromto;
    by_type_[type_of(p)] ^= fromto;
    by_color_[color_of(p)] ^= fromto;
    on_b_ &= ~square_bb(from);
    if (to_board == BOARD_B) on_b_ |= square_bb(to);
    board_[from] = NO_PIECE;
    board_[to] = p;
}

void Position::set_piece_type_in_place(Square s, PieceType pt) {
    Piece old = board_[s];
    Board b = board_of(s);
    st_->key ^= zobrist::psq[old][s][b];
    remove_piece(s);
    Piece np = make_piece(color_of(old), pt);
    put_piece(np, s, b);
    st_->key ^= zobrist::psq[np][s][b];
}

// ---------------------------------------------------------------------------
// Attacks

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knight_attacks(s) & pieces(KNIGHT)) | (bishop_attacks(s, occ) & pieces(BISHOP, QUEEN)) |
           (rook_attacks(s, occ) & pieces(ROOK, QUEEN)) | (king_attacks(s) & pieces(KING));
}

Bitboard Position::attackers_on(Square s, Board b, Color by) const {
    if (variant_info(variant_).boards == 1) return attackers_to(s, pieces()) & pieces(by);
    Bitboard mask = board_mask(b);
    return attackers_to(s, pieces() & mask) & pieces(by) & mask;
}

bool Position::king_attacked(Color c) const {
    if (!has_king(c)) [[unlikely]]
        return false;
    Square k = king_square(c);
    return attackers_on(k, board_of(k), ~c) != 0;
}

Bitboard Position::compute_checkers() const {
    if (!has_king(side_)) [[unlikely]]
        return 0;
    Square k = king_square(side_);
    return attackers_on(k, board_of(k), ~side_);
}

Square Position::pending_promotion() const {
    if (!variant_info(variant_).has_pushes) return SQ_NONE;  // only a push leaves a pawn on its last rank
    Bitboard b = pieces(side_, PAWN) & (side_ == WHITE ? RANK_8_BB : RANK_1_BB);
    return b ? lsb(b) : SQ_NONE;
}

bool Position::alice_king_safe_after(Move m) const {
    const Color us = side_, them = ~us;
    if (!has_king(us)) [[unlikely]]
        return true;
    const Square ksq = king_square(us);
    const Board kb = board_of(ksq);
    const Square from = m.from(), to = m.to();
    const Board fb = board_of(from), tb = other(fb);
    const bool ep = m.kind() == EN_PASSANT;
    const Square capsq = ep ? to - pawn_push(us) : to;
    const bool capture = ep || board_[to] != NO_PIECE;

    Bitboard occ = pieces() & board_mask(kb);
    Bitboard enemies = pieces(them) & board_mask(kb);
    if (fb == kb) occ &= ~square_bb(from);
    if (capture && board_of(capsq) == kb) {
        occ &= ~square_bb(capsq);
        enemies &= ~square_bb(capsq);
    }
    if (tb == kb) occ |= square_bb(to);
    return !(attackers_to(ksq, occ) & enemies);
}

bool Position::ep_capture_available() const {
    const Square ep = st_->ep_square;
    if (ep == SQ_NONE || !variant_info(variant_).has_en_passant) return false;
    const Color us = side_, them = ~us;
    const Square capsq = ep - pawn_push(us);
    Bitboard candidates = pawn_attacks(them, ep) & pieces(us, PAWN);
    if (board_[ep] != NO_PIECE) return false;
    while (candidates) {
        Square from = pop_lsb(candidates);
        Move m = Move::make(EN_PASSANT, from, ep);
        if (variant_info(variant_).boards == 2) {
            if (alice_king_safe_after(m)) return true;
        } else {
            if (!has_king(us)) [[unlikely]]
                return true;
            Square ksq = king_square(us);
            Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(capsq)) | square_bb(ep);
            if (!(attackers_to(ksq, occ) & pieces(them) & ~square_bb(capsq))) return true;
        }
    }
    return false;
}

// Chess: every enemy attacker of the defending king after the move, computed
// from the placement the move leaves: direct, discovered, by promotion, by the
// castling rook, or through the square an en-passant capture empties.
bool Position::gives_check(Move m) {
    if (!checks_known_before_move()) {
        StateInfo st;
        do_move(m, st);
        const bool check = in_check();
        undo_move(m);
        return check;
    }
    const Position& pos = *this;
    const Color us = pos.side_to_move();
    if (!has_king(~us)) [[unlikely]]
        return false;
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

// ---------------------------------------------------------------------------
// Making moves

void Position::do_move(Move m, StateInfo& ns) {
    ns.key = st_->key;
    ns.rule50 = st_->rule50 + 1;
    ns.plies_from_null = st_->plies_from_null + 1;
    ns.castling = st_->castling;
    ns.ep_square = SQ_NONE;
    ns.ep_in_key = false;
    ns.captured = NO_PIECE;
    ns.captured_square = SQ_NONE;
    ns.choice_square = SQ_NONE;
    ns.previous = st_;
    Key k = st_->key ^ zobrist::side;
    if (st_->ep_in_key) k ^= zobrist::ep_file[file_of(st_->ep_square)];
    st_ = &ns;
    ++game_ply_;

    const Color us = side_, them = ~us;
    const bool alice = variant_ == Variant::Alice;  // the move passes through the looking glass

    if (PieceType c = m.choice()) {
        Square p = pending_promotion();
        ns.choice_square = p;
        k ^= zobrist::psq[board_[p]][p][BOARD_A];
        remove_piece(p);
        put_piece(make_piece(us, c), p, BOARD_A);
        k ^= zobrist::psq[board_[p]][p][BOARD_A];
    }

    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];
    const Board fb = board_of(from);
    const Board tb = alice ? other(fb) : BOARD_A;

    std::uint8_t excluded = 0;  // a problem's mutually exclusive castlings
    if (m.kind() == CASTLING) {
        const bool king_side = to > from;
        const Square rfrom = king_side ? from + 3 : from - 4;
        excluded = castling_exclusion_[castling_mask_[rfrom]];
        const Square rto = king_side ? from + 1 : from - 1;
        const Piece rook = board_[rfrom];
        move_piece(from, to, tb);
        move_piece(rfrom, rto, tb);
        k ^= zobrist::psq[pc][from][fb] ^ zobrist::psq[pc][to][tb];
        k ^= zobrist::psq[rook][rfrom][fb] ^ zobrist::psq[rook][rto][tb];
    } else {
        const Square capsq = m.kind() == EN_PASSANT ? to - pawn_push(us) : to;
        const Piece captured = board_[capsq];
        if (captured != NO_PIECE) {
            ns.captured = captured;
            ns.captured_square = capsq;
            ns.captured_board = board_of(capsq);
            k ^= zobrist::psq[captured][capsq][ns.captured_board];
            remove_piece(capsq);
            ns.rule50 = 0;
        }
        move_piece(from, to, tb);
        k ^= zobrist::psq[pc][from][fb] ^ zobrist::psq[pc][to][tb];
        if (type_of(pc) == PAWN) {
            ns.rule50 = 0;
            if ((int(to) ^ int(from)) == 16 && variant_info(variant_).has_en_passant)
                ns.ep_square = Square((from + to) / 2);
            if (m.kind() == PROMOTION) {
                Piece np = make_piece(us, m.promotion());
                k ^= zobrist::psq[pc][to][tb] ^ zobrist::psq[np][to][tb];
                remove_piece(to);
                put_piece(np, to, tb);
            }
        }
    }

    if (std::uint8_t lost = ns.castling & (castling_mask_[from] | castling_mask_[to] | excluded)) {
        k ^= zobrist::castling[ns.castling];
        ns.castling &= ~lost;
        k ^= zobrist::castling[ns.castling];
    }

    if (m.has_push()) {
        const Square a = m.push_from(), b = a + pawn_push(them);
        const Piece pawn = board_[a];
        move_piece(a, b, BOARD_A);
        k ^= zobrist::psq[pawn][a][BOARD_A] ^ zobrist::psq[pawn][b][BOARD_A];
        ns.rule50 = 0;
    }

    side_ = them;
    ns.key = k;
    if (ns.ep_square != SQ_NONE && ep_capture_available()) {
        ns.ep_in_key = true;
        ns.key ^= zobrist::ep_file[file_of(ns.ep_square)];
    }
    ns.checkers = compute_checkers();
}

void Position::undo_move(Move m) {
    side_ = ~side_;
    const Color us = side_, them = ~us;
    const bool alice = variant_ == Variant::Alice;

    if (m.has_push()) {
        const Square a = m.push_from();
        move_piece(a + pawn_push(them), a, BOARD_A);
    }

    const Square from = m.from(), to = m.to();
    if (m.kind() == CASTLING) {
        const bool king_side = to > from;
        const Square rfrom = king_side ? from + 3 : from - 4;
        const Square rto = king_side ? from + 1 : from - 1;
        move_piece(to, from, BOARD_A);
        move_piece(rto, rfrom, BOARD_A);
    } else {
        const Board fb = alice ? other(board_of(to)) : BOARD_A;
        if (m.kind() == PROMOTION) {
            const Board tb = board_of(to);
            remove_piece(to);
            put_piece(make_piece(us, PAWN), to, tb);
        }
        move_piece(to, from, fb);
        if (st_->captured != NO_PIECE) put_piece(st_->captured, st_->captured_square, st_->captured_board);
    }

    if (m.choice()) {
        const Square p = st_->choice_square;  // the chosen piece is back on it
        remove_piece(p);
        put_piece(make_piece(us, PAWN), p, BOARD_A);
    }

    st_ = st_->previous;
    --game_ply_;
}

void Position::do_null_move(StateInfo& ns) {
    ns = *st_;
    ns.previous = st_;
    if (st_->ep_in_key) ns.key ^= zobrist::ep_file[file_of(st_->ep_square)];
    ns.key ^= zobrist::side;
    ns.ep_square = SQ_NONE;
    ns.ep_in_key = false;
    ns.rule50 = st_->rule50 + 1;
    ns.plies_from_null = 0;
    ns.captured = NO_PIECE;
    st_ = &ns;
    side_ = ~side_;
    ns.checkers = compute_checkers();
}

void Position::undo_null_move() {
    st_ = st_->previous;
    side_ = ~side_;
}

}  // namespace echecs

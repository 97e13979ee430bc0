#include "move_legal.h"

namespace echecs {

namespace {

// Chess with both kings: the judges below look at both.
bool chess_rules(const Position& pos) {
    const VariantInfo& rules = variant_info(pos.variant());
    return rules.boards == 1 && !rules.has_pushes && pos.has_king(WHITE) && pos.has_king(BLACK);
}

// Whether a man of colour c and type pt on `from` attacks s, with blockers
// occ: its move on an empty board, then for a slider nothing in between.
bool man_attacks(Color c, PieceType pt, Square from, Square s, Bitboard occ) {
    if (pt == PAWN) return pawn_attacks(c, from) & square_bb(s);
    if (!(tables::pseudo_attacks[pt][from] & square_bb(s))) return false;
    return pt == KNIGHT || pt == KING || !(between_bb(from, s) & ~square_bb(s) & occ);
}

// Whether one of `men` (all of one colour `by`) attacks s, with blockers occ.
// The cheap leapers first, and a slider's table only when one stands on a line
// of s: most of the squares judged here are not attacked.
bool attacked(const Position& pos, Square s, Color by, Bitboard men, Bitboard occ) {
    if (((pawn_attacks(~by, s) & pos.pieces(PAWN)) | (knight_attacks(s) & pos.pieces(KNIGHT)) |
         (king_attacks(s) & pos.pieces(KING))) &
        men)
        return true;
    const Bitboard diagonal = pos.pieces(BISHOP, QUEEN) & men & tables::pseudo_attacks[BISHOP][s];
    const Bitboard straight = pos.pieces(ROOK, QUEEN) & men & tables::pseudo_attacks[ROOK][s];
    return (diagonal && (bishop_attacks(s, occ) & diagonal)) || (straight && (rook_attacks(s, occ) & straight));
}

// Whether c's man of type pt moves from-to by its own rules (no castling or
// en passant), with blockers occ; `taken`: a man stands on `to`; `promotes`:
// the move is a promotion, which a pawn's move to its last rank must be.
bool plain_pseudo_legal(Color c, PieceType pt, Square from, Square to, Bitboard occ, bool taken, bool promotes) {
    if (pt != PAWN) return !promotes && man_attacks(c, pt, from, to, occ);
    if ((relative_rank(c, to) == 7) != promotes) return false;
    if (taken) return pawn_attacks(c, from) & square_bb(to);
    const Square one = from + pawn_push(c);
    return to == one || (relative_rank(c, from) == 1 && to == one + pawn_push(c) && !(occ & square_bb(one)));
}

// The side to move's plain move a-b, `type` the man on b after it (a
// promotion's piece), `king` whether it is the king's; or none (a pass).
struct First {
    Square a = SQ_NONE, b = SQ_NONE;
    PieceType type = NO_PIECE_TYPE;
    bool king = false;
    Bitboard from() const { return a == SQ_NONE ? 0 : square_bb(a); }
    Bitboard to() const { return b == SQ_NONE ? 0 : square_bb(b); }
};

// The other side's plain move d after `first`. The placement after both is
// never built: the position's attackers are taken with the blockers after
// both, without the men involved (the two movers where they stood, a man
// taken by either), and the two movers are added on their new squares.
Reply judge(const Position& pos, const First& m, Move d) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square f = d.from(), t = d.to();
    const Piece mover = m.type == NO_PIECE_TYPE ? NO_PIECE : make_piece(us, m.type);
    // The men on f and t once `first` is played.
    const Piece pf = f == m.b ? mover : f == m.a ? NO_PIECE : pos.piece_on(f);
    const Piece pt = t == m.b ? mover : t == m.a ? NO_PIECE : pos.piece_on(t);
    if (pf == NO_PIECE || color_of(pf) != them) return Reply::Illegal;
    if (pt != NO_PIECE && (color_of(pt) == them || type_of(pt) == KING)) return Reply::Illegal;
    const PieceType dt = type_of(pf);
    const bool promotes = d.kind() == PROMOTION;
    const Bitboard occ1 = (pos.pieces() & ~m.from()) | m.to();
    if (!plain_pseudo_legal(them, dt, f, t, occ1, pt != NO_PIECE, promotes)) return Reply::Illegal;
    const Bitboard occ2 = (occ1 & ~square_bb(f)) | square_bb(t);
    // Their king not attacked after d.
    const Square their_king = dt == KING ? t : pos.king_square(them);
    const Bitboard ours = pos.pieces(us) & ~m.from() & ~square_bb(t);
    if (attacked(pos, their_king, us, ours, occ2) ||
        (mover != NO_PIECE && m.b != t && man_attacks(us, m.type, m.b, their_king, occ2)))
        return Reply::Illegal;
    // Check: their men but the one moved and one taken by `first`, and the one moved on t.
    const Square our_king = m.king ? m.b : pos.king_square(us);
    const Bitboard theirs = pos.pieces(them) & ~square_bb(f) & ~m.to();
    if (attacked(pos, our_king, them, theirs, occ2) ||
        man_attacks(them, promotes ? d.promotion() : dt, t, our_king, occ2))
        return Reply::Check;
    return Reply::Quiet;
}

// The squares where a man arriving or leaving can change what attacks s,
// with blockers occ: the lines from s up to their first man, and a knight's
// move away (beyond a line's first man, a change shows nothing to s).
Bitboard sensitive_around(Square s, Bitboard occ) { return queen_attacks(s, occ) | knight_attacks(s) | square_bb(s); }

// The men that stand alone between king k and a slider of `diagonal` or
// `straight` on its lines, with blockers occ: a move leaving such a square opens the line.
Bitboard only_men_between(Square k, Bitboard diagonal, Bitboard straight, Bitboard occ) {
    Bitboard snipers = (diagonal & tables::pseudo_attacks[BISHOP][k]) | (straight & tables::pseudo_attacks[ROOK][k]);
    Bitboard alone = 0;
    while (snipers) {
        const Square s = pop_lsb(snipers);
        const Bitboard between = between_bb(k, s) & ~square_bb(s) & occ;
        if (between && !more_than_one(between)) alone |= between;
    }
    return alone;
}

}  // namespace

bool plain_move_legal(const Position& pos, Move m) {
    if (!chess_rules(pos) || m.kind() != NORMAL) return false;
    const Color us = pos.side_to_move();
    const Square from = m.from(), to = m.to();
    const Piece pc = pos.piece_on(from), there = pos.piece_on(to);
    if (pc == NO_PIECE || color_of(pc) != us) return false;
    if (there != NO_PIECE && (color_of(there) == us || type_of(there) == KING)) return false;
    const PieceType pt = type_of(pc);
    const Bitboard occ = pos.pieces();
    if (!plain_pseudo_legal(us, pt, from, to, occ, there != NO_PIECE, false)) return false;
    // Its own king not attacked after it (the man taken on `to` attacks nothing).
    const Square king = pt == KING ? to : pos.king_square(us);
    const Bitboard after = (occ ^ square_bb(from)) | square_bb(to);
    return !attacked(pos, king, ~us, pos.pieces(~us) & ~square_bb(to), after);
}

Reply plain_reply(const Position& pos, Move m, Move d) {
    if (!chess_rules(pos) || !plain(m) || !plain(d)) return Reply::Unknown;
    const Piece mover = pos.piece_on(m.from());
    if (mover == NO_PIECE || color_of(mover) != pos.side_to_move()) return Reply::Unknown;
    const PieceType type = m.kind() == PROMOTION ? m.promotion() : type_of(mover);
    return judge(pos, First{m.from(), m.to(), type, type_of(mover) == KING}, d);
}

ReplyProbe::ReplyProbe(const Position& pos, Move d) : pos_(&pos), d_(d) {
    if (!chess_rules(pos) || !d || !plain(d)) return;
    // Judged once as if the side to move passed; then a move of ours changes
    // the verdict only through its own two squares (below).
    alone_ = judge(pos, First{}, d);
    const Color us = pos.side_to_move(), them = ~us;
    const Square f = d.from(), t = d.to();
    const PieceType dt = type_of(pos.piece_on(f)), lands = d.kind() == PROMOTION ? d.promotion() : dt;
    their_king_ = dt == KING ? t : pos.king_square(them);
    our_king_ = pos.king_square(us);
    occ_ = (pos.pieces() & ~square_bb(f)) | square_bb(t);  // after d alone
    path_ = between_bb(f, t) | square_bb(f) | square_bb(t);
    // Any verdict: a move that starts and ends off the lines from both kings
    // (up to their first man) and their knight's moves, and off d's path,
    // changes nothing (beyond a line's first man, a change shows nothing).
    sensitive_ = sensitive_around(their_king_, occ_) | sensitive_around(our_king_, occ_) | path_;
    // Quiet: nothing attacks either king after d. A move of ours can change
    // that only by attacking their king itself, by leaving a line's only man
    // between a king and a slider of the other side (`exposing_`), or by
    // changing d's path.
    const Bitboard ours_bq = pos.pieces(us, BISHOP, QUEEN) & ~square_bb(t);
    const Bitboard ours_rq = pos.pieces(us, ROOK, QUEEN) & ~square_bb(t);
    const Bitboard lands_bb = square_bb(t);
    const Bitboard theirs_bq =
        (pos.pieces(them, BISHOP, QUEEN) & ~square_bb(f)) | (lands == BISHOP || lands == QUEEN ? lands_bb : 0);
    const Bitboard theirs_rq =
        (pos.pieces(them, ROOK, QUEEN) & ~square_bb(f)) | (lands == ROOK || lands == QUEEN ? lands_bb : 0);
    exposing_ =
        only_men_between(their_king_, ours_bq, ours_rq, occ_) | only_men_between(our_king_, theirs_bq, theirs_rq, occ_);
}

Reply ReplyProbe::after(Move m) const {
    if (alone_ == Reply::Unknown) return Reply::Unknown;
    if (!plain(m) || m.from() == our_king_) return plain_reply(*pos_, m, d_);
    const Square a = m.from(), b = m.to();
    if (alone_ != Reply::Quiet) return (square_bb(a) | square_bb(b)) & sensitive_ ? plain_reply(*pos_, m, d_) : alone_;
    if ((square_bb(b) & path_) || a == d_.to() || (square_bb(a) & exposing_)) return plain_reply(*pos_, m, d_);
    const PieceType lands = m.kind() == PROMOTION ? m.promotion() : type_of(pos_->piece_on(a));
    if (man_attacks(pos_->side_to_move(), lands, b, their_king_, occ_ & ~square_bb(a))) return Reply::Illegal;
    return Reply::Quiet;
}

}  // namespace echecs

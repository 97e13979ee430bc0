#include "endgame.h"

#include <algorithm>
#include <cstdlib>

#include "kpk.h"

namespace echecs::engine {

namespace {

int distance(Square a, Square b) {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}
int manhattan(Square a, Square b) { return std::abs(file_of(a) - file_of(b)) + std::abs(rank_of(a) - rank_of(b)); }

// 0 in the four centre squares, 6 in a corner.
int from_centre(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return std::max(3 - f, f - 4) + std::max(3 - r, r - 4);
}

// Non-pawn material on the search's scale.
int npm(const Position& pos, Color c) {
    return PIECE_VALUE[KNIGHT] * pos.count(c, KNIGHT) + PIECE_VALUE[BISHOP] * pos.count(c, BISHOP) +
           PIECE_VALUE[ROOK] * pos.count(c, ROOK) + PIECE_VALUE[QUEEN] * pos.count(c, QUEEN);
}

bool only(const Position& pos, Color c, Bitboard pieces) { return pos.pieces(c) == (pos.pieces(c, KING) | pieces); }

// Material that mates a bare king by force, pawns aside (a king and pawns
// may not win: the network judges those).
bool mating_material(const Position& pos, Color c) {
    if (pos.pieces(c, QUEEN) || pos.pieces(c, ROOK)) return true;
    const Bitboard b = pos.pieces(c, BISHOP);
    return ((b & DARK_SQUARES) && (b & ~DARK_SQUARES)) || (b && pos.pieces(c, KNIGHT));
}

// How near the mate is: the kings close together and the bare king at the
// edge, or with a bishop and knight alone in a corner of the bishop's
// colour (the only corners where they mate). 0 to 700.
int mop_up(const Position& pos, Color strong) {
    const Square sk = pos.king_square(strong), wk = pos.king_square(~strong);
    int drive = 20 * from_centre(wk);
    const Bitboard b = pos.pieces(strong, BISHOP);
    if (only(pos, strong, b | pos.pieces(strong, KNIGHT)) && pos.count(strong, BISHOP) == 1 &&
        pos.count(strong, KNIGHT) == 1) {
        const bool dark = b & DARK_SQUARES;
        const int corner = std::min(manhattan(wk, dark ? SQ_A1 : SQ_A8), manhattan(wk, dark ? SQ_H8 : SQ_H1));
        drive = 40 * (14 - corner);  // the corner first: the kings follow
    }
    return drive + 20 * (7 - distance(sk, wk));
}

// What side c's winning chances are worth, out of 64, in an ending it leads.
int scale(const Position& pos, Color c) {
    const Color o = ~c;
    if (!pos.pieces(c, PAWN)) {
        // Without pawns a lead of a minor piece or less rarely wins: nothing
        // below a rook wins at all, a rook against a minor piece very rarely,
        // a rook and minor piece against a rook seldom (Stockfish's rule).
        const int mine = npm(pos, c), theirs = npm(pos, o);
        if (mine - theirs <= PIECE_VALUE[BISHOP])
            return mine < PIECE_VALUE[ROOK] ? 0 : theirs <= PIECE_VALUE[BISHOP] ? 4 : 14;
        // Two knights cannot force mate.
        if (!pos.pieces(o, PAWN) && only(pos, c, pos.pieces(c, KNIGHT)) && pos.count(c, KNIGHT) <= 2) return 0;
        return 64;
    }
    // Rook pawns alone, or with a bishop that does not cover their promotion
    // square, draw when the defending king holds that corner.
    const Bitboard pawns = pos.pieces(c, PAWN);
    const Bitboard bishops = pos.pieces(c, BISHOP);
    if (!only(pos, c, pawns | bishops) || pos.count(c, BISHOP) > 1 || !only(pos, o, pos.pieces(o, PAWN))) return 64;
    int file;
    if (!(pawns & ~FILE_A_BB))
        file = 0;
    else if (!(pawns & ~FILE_H_BB))
        file = 7;
    else
        return 64;
    // A defending pawn beside the rook pawn can block its own king in: wins exist.
    if (pos.pieces(o, PAWN) & file_bb(file == 0 ? 1 : 6)) return 64;
    const Square queening = make_square(file, c == WHITE ? 7 : 0);
    const bool queening_dark = square_bb(queening) & DARK_SQUARES;
    if (bishops && bool(bishops & DARK_SQUARES) == queening_dark) return 64;  // the right bishop
    return distance(pos.king_square(o), queening) <= 1 ? 0 : 64;
}

}  // namespace

Value endgame_correct(const Position& pos, Value v) {
    const Color us = pos.side_to_move();
    for (Color strong : {WHITE, BLACK}) {
        const Color weak = ~strong;
        const int sign = strong == us ? 1 : -1;
        // King and pawn against king: solved (kpk.h). A win is worth less
        // than the queen it becomes, more as the pawn advances.
        if (only(pos, weak, 0) && pos.count(strong, PAWN) == 1 && only(pos, strong, pos.pieces(strong, PAWN))) {
            const Square pawn = lsb(pos.pieces(strong, PAWN));
            if (!kpk::probe(strong, pos.king_square(strong), pawn, pos.king_square(weak), strong == us)) return 0;
            return sign * (VALUE_KNOWN_WIN + PIECE_VALUE[PAWN] + 20 * relative_rank(strong, pawn));
        }
        if (only(pos, weak, 0) && mating_material(pos, strong))
            return sign * (VALUE_KNOWN_WIN + npm(pos, strong) + PIECE_VALUE[PAWN] * pos.count(strong, PAWN) +
                           mop_up(pos, strong));
        // A queen against a rook wins, but only with a plan.
        if (only(pos, strong, pos.pieces(strong, QUEEN)) && pos.count(strong, QUEEN) == 1 &&
            only(pos, weak, pos.pieces(weak, ROOK)) && pos.count(weak, ROOK) == 1)
            return sign * (PIECE_VALUE[QUEEN] - PIECE_VALUE[ROOK] + 150 + mop_up(pos, strong));
    }
    return v ? v * scale(pos, v > 0 ? us : ~us) / 64 : v;
}

}  // namespace echecs::engine

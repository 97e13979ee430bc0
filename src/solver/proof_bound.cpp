#include "solver/proof_bound.h"

#include <algorithm>
#include <cstdlib>

#include "core/vocabulary.h"
#include "solver/assignment.h"
#include "solver/proof_distance.h"

namespace echecs::solver {

ProofBound::ProofBound(Variant v, const Position& target)
    : variant_(v),
      alice_(variant_info(v).boards == 2),
      avalanche_(variant_info(v).has_pushes),
      on_b_(target.on_board_b()),
      occupied_(target.pieces()) {
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        const Piece p = target.piece_on(s);
        piece_[s] = p;
        if (!p) continue;
        const Color c = color_of(p);
        if (count_[c] < 16) men_[c][count_[c]++] = Man{s, type_of(p), target.board_of(s)};
    }
}

bool ProofBound::reached(const Position& pos) const {
    if (pos.pieces() != occupied_ || pos.on_board_b() != on_b_) return false;
    Bitboard b = occupied_;
    while (b) {
        const Square s = pop_lsb(b);
        if (pos.piece_on(s) != piece_[s]) return false;
    }
    return true;
}

// Own moves of a pawn to stay a pawn from `from` to `to`: one per rank, one
// less with a double step from its first rank when the captures leave room.
int ProofBound::pawn_moves(Color c, Square from, Board fb, Square to, Board tb) const {
    const int rs = relative_rank(c, from), rt = relative_rank(c, to);
    const int steps = rt - rs, df = std::abs(file_of(to) - file_of(from));
    if (steps < 0 || df > steps) return ASSIGN_INF;
    if (steps == 0) return from == to && fb == tb ? 0 : ASSIGN_INF;
    // Avalanche: the enemy's pushes may do the advancing; the captures are its own.
    if (avalanche_) return df;
    const int single = steps;
    const int with_double = rs == 1 && df + 2 <= steps ? steps - 1 : ASSIGN_INF;
    if (!alice_) return std::min(single, with_double);
    // Alice: each move changes the pawn's board.
    const int parity = fb != tb;
    int best = ASSIGN_INF;
    if ((single & 1) == parity) best = single;
    if (with_double < ASSIGN_INF && (with_double & 1) == parity) best = std::min(best, with_double);
    return best;
}

int ProofBound::move_cost(Color c, const Man& from, const Man& to) const {
    if (from.type == to.type) {
        if (to.type == PAWN) return pawn_moves(c, from.sq, from.board, to.sq, to.board);
        if (from.sq == to.sq && from.board == to.board) return 0;
        const int d = alice_ ? piece_distance(to.type, from.board != to.board, from.sq, to.sq)
                             : piece_distance_any(to.type, from.sq, to.sq);
        return d >= UNREACHABLE ? ASSIGN_INF : d;
    }
    if (from.type != PAWN || to.type == KING || to.type == PAWN) return ASSIGN_INF;
    // A pawn that promotes: to a square of its last rank, then on as the new piece.
    const int last = c == WHITE ? 7 : 0;
    int best = ASSIGN_INF;
    for (int f = 0; f < 8; ++f) {
        const Square p = make_square(f, last);
        for (Board ab : {BOARD_A, BOARD_B}) {
            if (!alice_ && ab == BOARD_B) break;
            const int pawn = pawn_moves(c, from.sq, from.board, p, alice_ ? ab : from.board);
            if (pawn >= ASSIGN_INF) continue;
            const int d =
                alice_ ? piece_distance(to.type, ab != to.board, p, to.sq) : piece_distance_any(to.type, p, to.sq);
            if (d < UNREACHABLE) best = std::min(best, pawn + d);
        }
    }
    return best;
}

int ProofBound::side_needs(const Position& pos, Color c) const {
    const Color o = ~c;
    // Men of c now on the board.
    Man now[16];
    int n = 0;
    Bitboard b = pos.pieces(c);
    if (popcount(b) > 16) return UNREACHABLE_MOVES;
    while (b) {
        const Square s = pop_lsb(b);
        now[n++] = Man{s, type_of(pos.piece_on(s)), pos.board_of(s)};
    }
    const int rows = count_[c];
    if (rows > n) return UNREACHABLE_MOVES;
    // The enemy men that c must still capture: each is a move of c.
    const int captures = popcount(pos.pieces(o)) - count_[o];
    if (captures < 0) return UNREACHABLE_MOVES;

    CostMatrix moves;
    moves.rows = rows;
    moves.cols = n;
    CostMatrix files;  // the pawns' changes of file: captures each
    files.rows = files.cols = 0;
    int pawn_cols[16], pawn_col_count = 0;
    for (int j = 0; j < n; ++j)
        if (now[j].type == PAWN) pawn_cols[pawn_col_count++] = j;
    for (int i = 0; i < rows; ++i) {
        const Man& t = men_[c][i];
        for (int j = 0; j < n; ++j) moves.cost[i][j] = move_cost(c, now[j], t);
        if (t.type == PAWN) {
            const int r = files.rows++;
            for (int k = 0; k < pawn_col_count; ++k) {
                const Man& m = now[pawn_cols[k]];
                files.cost[r][k] =
                    moves.cost[i][pawn_cols[k]] >= ASSIGN_INF ? ASSIGN_INF : std::abs(file_of(m.sq) - file_of(t.sq));
            }
        }
    }
    files.cols = pawn_col_count;
    const int least = min_assignment(moves);
    if (least >= ASSIGN_INF) return UNREACHABLE_MOVES;
    if (files.rows > 0) {
        const int file_changes = min_assignment(files);
        if (file_changes > captures) return UNREACHABLE_MOVES;
    }
    return std::max(least, captures);
}

void ProofBound::needed(const Position& pos, int out[COLOR_NB]) const {
    out[WHITE] = side_needs(pos, WHITE);
    out[BLACK] = side_needs(pos, BLACK);
}

bool ProofBound::feasible(const Position& pos, int plies) const {
    const Color us = pos.side_to_move();
    const int ours = (plies + 1) / 2, theirs = plies / 2;
    if (side_needs(pos, us) > ours) return false;
    return side_needs(pos, ~us) <= theirs;
}

}  // namespace echecs::solver

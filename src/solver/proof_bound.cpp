#include "solver/proof_bound.h"

#include <algorithm>
#include <cstdlib>

#include "core/vocabulary.h"
#include "solver/assignment.h"
#include "solver/proof_distance.h"

namespace echecs::solver {

ProofBound::ProofBound(Variant v, const Position& target)
    : alice_(variant_info(v).boards == 2),
      avalanche_(variant_info(v).has_pushes),
      on_b_(target.on_board_b()),
      occupied_(target.pieces()) {
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        const Piece p = target.piece_on(s);
        piece_[s] = p;
        if (!p) continue;
        const Color c = color_of(p);
        if (count_[c] < 16) {
            index_[s] = std::uint8_t(count_[c]);
            men_[c][count_[c]++] = Man{s, type_of(p), target.board_of(s)};
        }
    }
    static_assert(ASSIGN_INF_COST == ASSIGN_INF);
    // A pawn of the diagram on its own first rank is there from the start to
    // the end: no man may stop on or cross its square. Not in Alice (it
    // blocks one board only) nor in Avalanche (the enemy may push it).
    Bitboard blocked = 0;
    if (!alice_ && !avalanche_)
        for (Color c : {WHITE, BLACK}) {
            Bitboard pawns = target.pieces(c, PAWN);
            while (pawns) {
                const Square s = pop_lsb(pawns);
                if (relative_rank(c, s) == 1) blocked |= square_bb(s);
            }
        }
    distances_ = std::make_unique<Distances>();
    blocked_distances(blocked, distances_->d);
    for (Color c : {WHITE, BLACK})
        for (int i = 0; i < count_[c]; ++i)
            for (Square s = SQ_A1; s <= SQ_H8; ++s)
                for (Board b : {BOARD_A, BOARD_B}) {
                    pawn_cost_[c][i][s][b] = std::uint16_t(move_cost(c, Man{s, PAWN, b}, men_[c][i]));
                    distance_[c][i][s][b] = std::uint16_t(move_cost(c, Man{s, men_[c][i].type, b}, men_[c][i]));
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
        const int d = distance(to.type, from.board != to.board, from.sq, to.sq);
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
            const int d = distance(to.type, ab != to.board, p, to.sq);
            if (d < UNREACHABLE) best = std::min(best, pawn + d);
        }
    }
    return best;
}

int ProofBound::side_needs(const Position& pos, Color c) const {
    const Color o = ~c;
    const int rows = count_[c];
    Bitboard b = pos.pieces(c);
    const int men = popcount(b);
    if (men > 16 || rows > men) return UNREACHABLE_MOVES;
    // The enemy men that c must still capture: each is a move of c.
    const int captures = popcount(pos.pieces(o)) - count_[o];
    if (captures < 0) return UNREACHABLE_MOVES;

    // A target square that holds its own man already: that man takes it in
    // some cheapest assignment (any other man could reach the target's other
    // squares through this square, as the distances obey the triangle
    // inequality), so both leave the assignment.
    Man now[16];
    int n = 0;
    unsigned fixed = 0;  // bit i: target man i stands in place
    while (b) {
        const Square s = pop_lsb(b);
        const Piece p = pos.piece_on(s);
        const Board board = pos.board_of(s);
        if (piece_[s] == p && ((on_b_ & square_bb(s)) != 0) == (board == BOARD_B)) {
            fixed |= 1u << index_[s];
            continue;
        }
        now[n++] = Man{s, type_of(p), board};
    }
    bool fixed_target[16];
    for (int i = 0; i < rows; ++i) fixed_target[i] = fixed >> i & 1;
    int col[16];
    for (int j = 0; j < n; ++j) col[j] = j;
    CostMatrix moves;
    moves.rows = 0;
    moves.cols = n;
    CostMatrix files;  // the pawns' changes of file: captures each
    files.rows = files.cols = 0;
    int pawn_col[16];
    for (int j = 0; j < n; ++j)
        if (now[j].type == PAWN) pawn_col[files.cols++] = j;
    for (int i = 0; i < rows; ++i) {
        if (fixed_target[i]) continue;
        const Man& t = men_[c][i];
        int* row = moves.cost[moves.rows++];
        for (int k = 0; k < moves.cols; ++k) row[k] = cost(c, i, now[col[k]]);
        if (t.type == PAWN) {
            int* frow = files.cost[files.rows++];
            for (int k = 0; k < files.cols; ++k) {
                const Man& m = now[pawn_col[k]];
                frow[k] = pawn_cost_[c][i][m.sq][m.board] >= ASSIGN_INF ? ASSIGN_INF
                                                                        : std::abs(file_of(m.sq) - file_of(t.sq));
            }
        }
    }
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

bool ProofBound::feasible(const Position& pos, int plies, int need[COLOR_NB], bool recount_both) const {
    const Color us = pos.side_to_move(), them = ~us;
    const int ours = (plies + 1) / 2, theirs = plies / 2;
    // The side that has just moved first: its count is the one that changed.
    need[them] = side_needs(pos, them);
    if (need[them] > theirs) return false;
    if (recount_both) need[us] = side_needs(pos, us);
    return need[us] <= ours;
}

}  // namespace echecs::solver

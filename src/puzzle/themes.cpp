// Themes are told from the position and the first move; each definition is
// the one written in docs/PUZZLES.md.
#include "themes.h"

#include <algorithm>

#include "core/movegen.h"
#include "engine/evaluate.h"

namespace echecs::puzzle {

namespace {

int value_of(PieceType pt) { return pt == KING ? 100000 : engine::PIECE_VALUE[pt]; }

}  // namespace

bool is_fork(Position& pos, Move m) {
    if (m.kind() == CASTLING) return false;
    const Color us = pos.side_to_move(), them = ~us;
    StateInfo st;
    pos.do_move(m, st);
    const Square s = m.to();
    const PieceType pt = type_of(pos.piece_on(s));
    const Board b = pos.board_of(s);
    const Bitboard mask = pos.board_mask(b);
    const Bitboard attacks = pt == PAWN ? pawn_attacks(us, s) : attacks_bb(pt, s, pos.pieces() & mask);
    Bitboard targets = attacks & pos.pieces(them) & mask;
    int worth = 0;
    while (targets) {
        const Square t = pop_lsb(targets);
        const PieceType tt = type_of(pos.piece_on(t));
        if (tt == KING || value_of(tt) > value_of(pt) || !pos.attackers_on(t, b, them)) ++worth;
    }
    pos.undo_move(m);
    return worth >= 2;
}

bool is_looking_glass(Position& pos, Move m) {
    if (pos.variant() != Variant::Alice) return false;
    if (pos.gives_check(m)) return true;
    if (!pos.is_capture(m) || m.kind() == EN_PASSANT) return false;
    const Color them = ~pos.side_to_move();
    // Defended where it is taken: an orthodox capture there would be answered.
    if (!pos.attackers_on(m.to(), pos.board_of(m.from()), them)) return false;
    StateInfo st;
    pos.do_move(m, st);
    const bool safe = !pos.attackers_on(m.to(), pos.board_of(m.to()), them);
    pos.undo_move(m);
    return safe;
}

bool push_matters(Position& pos, Move m) {
    if (!variant_info(pos.variant()).has_pushes || !m.has_push()) return false;
    MoveList legal;
    generate_legal(pos, legal);
    for (int i = 0; i < legal.count; ++i) {
        const Move o = legal.moves[i];
        if (o != m && o.first_part() == m.first_part() && o.choice() == m.choice()) return true;
    }
    return false;
}

std::vector<std::string> themes_of(Position& pos, Move m) {
    std::vector<std::string> t;
    if (pos.is_capture(m)) t.push_back("capture");
    if (m.kind() == PROMOTION || m.choice() != NO_PIECE_TYPE) t.push_back("promotion");
    if (is_fork(pos, m)) t.push_back("fork");
    if (push_matters(pos, m)) t.push_back("push");
    if (is_looking_glass(pos, m)) t.push_back("lookingGlass");
    return t;
}

int rating_seed(const Puzzle& p, int mate_in) {
    const int solver_moves = int(p.solution.size() + 1) / 2;
    int r = 1100 + 200 * (solver_moves - 1);
    if (mate_in == 1) r -= 150;
    const bool capture = std::find(p.themes.begin(), p.themes.end(), "capture") != p.themes.end();
    if (!capture) r += 150;  // a quiet first move is harder to see
    return std::clamp(r, 600, 2500);
}

}  // namespace echecs::puzzle

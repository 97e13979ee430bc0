#include "solver/notation.h"

#include "core/movegen.h"

namespace echecs::solver {

namespace {
constexpr char LETTER[PIECE_TYPE_NB] = {' ', 'P', 'S', 'B', 'R', 'Q', 'K'};

std::string square_str(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }
char board_letter(Board b) { return b == BOARD_B ? 'B' : 'A'; }
}  // namespace

bool no_legal_move(Position& pos) { return !has_first_part(pos); }

// The core's verdict (no_move_verdict), asked only when there is no first part
// at all: then no complete move either, and its precondition holds.
bool is_mated(Position& pos) { return no_legal_move(pos) && no_move_verdict(pos) == Termination::Checkmate; }
bool is_stalemated(Position& pos) { return no_legal_move(pos) && no_move_verdict(pos) == Termination::Stalemate; }

std::string problem_notation(Position& pos, Move m) {
    const bool alice = variant_info(pos.variant()).boards == 2;  // the arrival board is written
    std::string s;
    if (m.choice()) {
        const Square p = pos.pending_promotion();
        s += '(' + square_str(p) + '=' + LETTER[m.choice()] + ')';
    }
    const Piece moved = pos.moved_piece(m);
    const bool capture = pos.is_capture(m);
    if (m.kind() == CASTLING)
        s += m.to() > m.from() ? "0-0" : "0-0-0";
    else {
        if (type_of(moved) != PAWN) s += LETTER[type_of(moved)];
        s += square_str(m.from());
        s += capture ? 'x' : '-';
        s += square_str(m.to());
        if (m.kind() == PROMOTION) s += '=', s += LETTER[m.promotion()];
    }

    // ##, ##!: a move that leaves its own king attacked (only a double mate's or
    // counter-mate's last move is made so) is marked by the mover's state before it.
    const bool was_mated = pos.in_check() && no_legal_move(pos);
    StateInfo st;
    pos.do_move(m, st);
    if (alice) {
        s += board_letter(pos.board_of(m.to()));
        if (m.kind() == CASTLING) s += board_letter(pos.board_of(m.to() > m.from() ? m.to() - 1 : m.to() + 1));
    }
    if (m.kind() == EN_PASSANT) s += " e.p.";
    if (m.has_push()) s += ' ' + square_str(m.push_from()) + '-' + square_str(m.push_to());
    if (pos.king_attacked(~pos.side_to_move()))
        s += no_legal_move(pos) && pos.in_check() ? (was_mated ? "##!" : "##") : "+";
    else if (no_legal_move(pos))
        s += no_move_verdict(pos) == Termination::Checkmate ? '#' : '=';
    else if (pos.in_check())
        s += '+';
    pos.undo_move(m);
    return s;
}

std::string goal_marked(std::string text, Goal g) {
    if (terminal_goal(g) && g != Goal::MateOrStalemate) return text;
    bool check = false;
    if (!text.empty() && (text.back() == '+' || text.back() == '#' || text.back() == '=')) {
        check = text.back() != '=';
        text.pop_back();
    }
    switch (g) {
        case Goal::MateOrStalemate: return text + "#=";
        case Goal::Check: return text + "+";
        case Goal::Capture: return text + (check ? "+" : "") + " x";
        case Goal::Target: return text + (check ? "+" : "") + " z";
        default: return text + (check ? "+" : "");
    }
}

}  // namespace echecs::solver

// A brute-force reference for the solver's tests: plain minimax over the
// core's generate_legal, with the core's own game result (position_result)
// as the goal test, and no proof table, ordering or pruning. Slow, obvious,
// and independent of the solver's shortcuts.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "solver/solver.h"

namespace echecs::solver::reference {

// Help play also knows the goals of the last move (`last`, just made).
inline bool goal(Position& pos, Goal g, Move last = Move::none(), Square target = SQ_NONE) {
    switch (g) {
        case Goal::Check: return pos.in_check();
        case Goal::Capture: return pos.captured_piece() != NO_PIECE;
        case Goal::AnyMove: return true;
        case Goal::Castling: return last.kind() == CASTLING;
        case Goal::EnPassant: return last.kind() == EN_PASSANT;
        case Goal::Target: return last.to() == target;
        case Goal::MateOrStalemate: return goal(pos, Goal::Mate) || goal(pos, Goal::Stalemate);
        default: break;
    }
    const GameResult r = position_result(pos, 1);
    if (g != Goal::DoubleStalemate)
        return r.termination == (g == Goal::Mate ? Termination::Checkmate : Termination::Stalemate);
    if (r.termination != Termination::Stalemate) return false;
    StateInfo si;
    pos.do_null_move(si);
    const bool both = position_result(pos, 1).termination == Termination::Stalemate;
    pos.undo_null_move();
    return both;
}

inline bool no_move(Position& pos) {
    MoveList l;
    generate_legal(pos, l);
    return l.empty();
}

// Battle play: attacker to move, goal within n attacker moves.
bool attack(Position& pos, const Stipulation& st, int n);

// The side to move has a move after which the other side suffers the goal.
inline bool can_reach(Position& pos, Goal g) {
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    for (Move m : l) {
        pos.do_move(m, si);
        const bool ok = goal(pos, g);
        pos.undo_move(m);
        if (ok) return true;
    }
    return false;
}

// The attacker has moved; k moves left.
inline bool after_attack(Position& pos, const Stipulation& st, int k) {
    if (st.play == Play::Direct) {
        if (goal(pos, st.goal)) return true;
        if (k == 0) return false;
    }
    MoveList l;
    generate_legal(pos, l);
    if (l.empty()) return false;
    // r#, semi-r#: a defender that can reach the goal must, and the attacker has won.
    if (st.reflex() && can_reach(pos, st.goal)) return true;
    StateInfo si;
    for (Move d : l) {
        pos.do_move(d, si);
        const bool ok = (st.play != Play::Direct && goal(pos, st.goal)) || (k > 0 && attack(pos, st, k));
        pos.undo_move(d);
        if (!ok) return false;
    }
    return true;
}

inline bool attack(Position& pos, const Stipulation& st, int n) {
    // r#: an attacker that can reach the goal must, and has lost.
    if (st.play == Play::Reflex && can_reach(pos, st.goal)) return false;
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    for (Move m : l) {
        pos.do_move(m, si);
        const bool ok = after_attack(pos, st, n - 1);
        pos.undo_move(m);
        if (ok) return true;
    }
    return false;
}

inline std::set<std::string> keys(Position& pos, const Stipulation& st) {
    std::set<std::string> out;
    if (st.play == Play::Reflex && can_reach(pos, st.goal)) return out;
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    for (Move m : l) {
        pos.do_move(m, si);
        if (after_attack(pos, st, st.moves - 1)) out.insert(to_uci(m));
        pos.undo_move(m);
    }
    return out;
}

inline void help(Position& pos, Goal g, int plies, std::string line, std::set<std::string>& out,
                 Square target = SQ_NONE) {
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    for (Move m : l) {
        pos.do_move(m, si);
        const std::string next = line + (line.empty() ? "" : " ") + to_uci(m);
        if (plies == 1) {
            if (goal(pos, g, m, target)) out.insert(next);
        } else if ((plies - 1) % 2 == 0 && goal(pos, g, m, target))
            out.insert(next);  // a short solution
        else
            help(pos, g, plies - 1, next, out, target);
        pos.undo_move(m);
    }
}

// hr: with an odd number of half-moves left, Black's part to move; able to
// reach g it must, each such move ending a solution; with an even number,
// the other side able to reach g must, and the line has failed.
inline void help_reflex(Position& pos, Goal g, int plies, std::string line, std::set<std::string>& out) {
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    if (plies % 2 == 1) {
        std::set<std::string> ends;
        for (Move m : l) {
            pos.do_move(m, si);
            if (goal(pos, g)) ends.insert(line + (line.empty() ? "" : " ") + to_uci(m));
            pos.undo_move(m);
        }
        out.insert(ends.begin(), ends.end());
        if (!ends.empty() || plies == 1) return;
    } else if (can_reach(pos, g))
        return;
    for (Move m : l) {
        pos.do_move(m, si);
        help_reflex(pos, g, plies - 1, line + (line.empty() ? "" : " ") + to_uci(m), out);
        pos.undo_move(m);
    }
}

// The side to move has a move and every one reaches g: each is a solution,
// `line` followed by it (hs#'s last move, ser-s#'s answer).
inline void forced_goal(Position& pos, Goal g, const std::string& line, std::set<std::string>& out) {
    MoveList replies;
    generate_legal(pos, replies);
    std::set<std::string> lines;
    bool all = !replies.empty();
    StateInfo sd;
    for (Move d : replies) {
        pos.do_move(d, sd);
        all = all && goal(pos, g);
        pos.undo_move(d);
        lines.insert(line + " " + to_uci(d));
    }
    if (all) out.insert(lines.begin(), lines.end());
}

// Helpselfplay: both sides cooperate until the last of `plies` half-moves;
// the attacker's last move must leave the other side a move, every one of
// which reaches the goal: each is a solution. An earlier attacker's move
// (an even number of half-moves left) that does so is a short solution.
inline void help_self(Position& pos, Goal g, int plies, std::string line, std::set<std::string>& out) {
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    for (Move m : l) {
        pos.do_move(m, si);
        const std::string next = line + (line.empty() ? "" : " ") + to_uci(m);
        if (plies > 2) help_self(pos, g, plies - 1, next, out);
        if (plies % 2 == 0) forced_goal(pos, g, next, out);  // the attacker's move: the solution, or a short one
        pos.undo_move(m);
    }
}

// Series play: the side to move has `left` moves in a row, the other side
// passing; no check before the last one, and a position where the other side
// cannot move ends the game (a solution only when it is ser-='s goal). In
// ser-h#n any move of the series may be its last, the other side then
// reaching the goal at once: a short solution, as Popeye prints them; in
// ser-s#n likewise, the other side bound to reach it with every move; in
// ser-hs#n, the other side's move after which the series side is so bound.
// ser-r#n: the series side able to reach the goal before a move must, and
// has lost; after a move of the series the other side able to reach it must
// (each such move a solution) and the series stops there.
inline void series(Position& pos, const Stipulation& st, int left, std::string line, std::set<std::string>& out) {
    if (st.play == Play::SeriesReflex && can_reach(pos, st.goal)) return;
    MoveList l;
    generate_legal(pos, l);
    StateInfo si, null, reply;
    for (Move m : l) {
        pos.do_move(m, si);
        const std::string next = line + (line.empty() ? "" : " ") + to_uci(m);
        if (st.play == Play::SeriesHelp) help(pos, st.goal, 1, next, out);
        if (st.play == Play::SeriesSelf) forced_goal(pos, st.goal, next, out);
        if (st.play == Play::SeriesReflex && can_reach(pos, st.goal)) {
            help(pos, st.goal, 1, next, out);  // every reply that reaches the goal
            pos.undo_move(m);
            continue;
        }
        if (st.play == Play::SeriesHelpSelf) {
            MoveList replies;
            generate_legal(pos, replies);
            for (Move r : replies) {
                pos.do_move(r, reply);
                forced_goal(pos, st.goal, next + " " + to_uci(r), out);
                pos.undo_move(r);
            }
        }
        // Before the last move: the goal reached is a short solution (Popeye's),
        // which ends the series but for a stalemate; the series goes on unless
        // it checks, or (but in ser-#, ser-= and ser-s#) the other side cannot move.
        const bool early = left > 1 && st.play == Play::Series && goal(pos, st.goal, m, st.target);
        if (left == 1) {
            if (st.play == Play::Series && goal(pos, st.goal, m, st.target)) out.insert(next);
        } else if (early) {
            out.insert(next);
        }
        const bool ends = early && (!terminal_goal(st.goal) || pos.in_check());
        if (left > 1 && !ends && !pos.in_check() &&
            (st.play == Play::Series || st.play == Play::SeriesSelf || !no_move(pos))) {
            pos.do_null_move(null);
            series(pos, st, left - 1, next, out);
            pos.undo_null_move();
        }
        pos.undo_move(m);
    }
}

// Reciprocal helpplay: `plies` half-moves to the end of the help line.
// Wherever Black's part is to move (an even number left), its two lines may
// end: it has a move that reaches reci_goal (its own line) and a move after
// which the other side can make it suffer the goal; then both kinds of line
// are solutions (short ones before the last move, as Popeye prints them),
// and the play goes on.
inline void reci(Position& pos, const Stipulation& st, int plies, std::string line, std::set<std::string>& out) {
    MoveList l;
    generate_legal(pos, l);
    StateInfo si;
    std::set<std::string> own, helped;
    for (Move m : l) {
        pos.do_move(m, si);
        const std::string next = line + (line.empty() ? "" : " ") + to_uci(m);
        if (plies % 2 == 0) {
            if (goal(pos, st.reci_goal)) own.insert(next);
            help(pos, st.goal, 1, next, helped);
        }
        if (plies > 2) reci(pos, st, plies - 1, next, out);
        pos.undo_move(m);
    }
    if (own.empty() || helped.empty()) return;
    out.insert(own.begin(), own.end());
    out.insert(helped.begin(), helped.end());
}

// The solver's answer in the same shape: keys, or help lines in coordinates.
inline std::set<std::string> solver_answer(const Result& r) {
    std::set<std::string> out;
    for (const auto& k : r.keys) out.insert(k.move.uci);
    for (const auto& h : r.solutions) {
        std::string s;
        for (const auto& m : h.moves) s += (s.empty() ? "" : " ") + m.uci;
        out.insert(s);
    }
    return out;
}

inline std::set<std::string> answer(Variant v, const std::string& fen, const Stipulation& st,
                                    Kings kings = Kings::One) {
    StateInfo si;
    Position pos;
    pos.set(v, fen, si, kings);
    std::set<std::string> out;
    if (st.series()) {
        series(pos, st, st.moves, "", out);
        return out;
    }
    if (st.play == Play::ReciHelp) {
        reci(pos, st, st.plies(), "", out);
        return out;
    }
    if (st.play == Play::HelpReflex) {
        help_reflex(pos, st.goal, st.plies(), "", out);
        return out;
    }
    if (st.play == Play::HelpSelf) {
        help_self(pos, st.goal, st.plies(), "", out);
        return out;
    }
    if (st.play != Play::Help) return keys(pos, st);
    help(pos, st.goal, st.plies(), "", out, st.target);
    return out;
}

}  // namespace echecs::solver::reference

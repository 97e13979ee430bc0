#include "solver/search.h"

#include <algorithm>

#include "core/move_legal.h"
#include "solver/mate_bound.h"
#include "solver/notation.h"

namespace echecs::solver {

namespace {
// Tries the killer first when it is in the list.
void put_first(MoveList& list, Move killer) {
    if (!killer) return;
    for (int i = 0; i < list.count; ++i)
        if (list.moves[i] == killer) {
            std::rotate(list.moves, list.moves + i, list.moves + i + 1);
            return;
        }
}
constexpr std::uint64_t FLUSH = 1024;
}  // namespace

Search::Search(const Position& root, const Stipulation& st, Shared& shared) : st_(st), shared_(shared) {
    root.copy_to(pos_, root_state_);
    const VariantInfo& rules = variant_info(pos_.variant());
    const bool orthodox = rules.boards == 1 && !rules.has_pushes;
    self_check_ = self_check_goal(st_.goal);
    bounded_ = orthodox && (st_.goal == Goal::Mate || st_.goal == Goal::Stalemate) &&
               (st_.play == Play::Help || st_.play == Play::ReciHelp || st_.series());
    reci_bounded_ = orthodox && st_.play == Play::ReciHelp && st_.reci_goal != Goal::DoubleStalemate;
    exact_ = st_.exact && st_.battle();
}

// Selfplay's last defence: whether `m` (the killer of a sibling) is legal
// here and fails to reach the goal, which refutes the attacker's move without
// generating the defender's moves (most of an s#'s time; Popeye generates the
// killer's piece's moves first). False says nothing: the caller generates
// them all. Chess only (plain_move_legal).
bool Search::killer_refutes(Move m) {
    if (self_check_ || !plain_move_legal(pos_, m)) return false;
    if (st_.goal == Goal::Mate && !pos_.gives_check(m)) return true;  // no check, no mate: nothing to play
    make(m);
    const bool refutes = !goaled();
    unmake(m);
    return refutes;
}

void Search::flush_nodes() {
    if (!unflushed_) return;
    const std::uint64_t total = shared_.nodes.fetch_add(unflushed_, std::memory_order_relaxed) + unflushed_;
    unflushed_ = 0;
    if (shared_.max_nodes && total >= shared_.max_nodes) shared_.halt(Status::NodeLimit);
}

void Search::make(Move m) {
    if (tracker_.active()) tracker_.make(pos_, m);
    played_[ply_] = m;
    pos_.do_move(m, states_[ply_++]);
    if (++unflushed_ >= FLUSH) flush_nodes();
}
void Search::unmake(Move m) {
    pos_.undo_move(m);
    --ply_;
    if (tracker_.active()) tracker_.unmake(m);
}

void Search::set_targets(const std::vector<Target>* targets) {
    tracker_.start(pos_, targets);
    if (!targets) return;
    if (!target_table_) target_table_ = std::make_unique<TargetTable>();
    target_table_->clear();
}

bool Search::help_failed(const PositionCode& c, int plies) const {
    if (plies >= HELP_BITS) return false;
    if (tracker_.active()) return target_table_->failed(pos_, c, tracker_, plies);
    Proven p;
    return shared_.table.probe(pos_.key(), c, p) && (p.help_fail >> plies & 1);
}

void Search::store_help_fail(const PositionCode& c, int plies) {
    if (plies >= HELP_BITS) return;
    if (tracker_.active())
        target_table_->store_fail(pos_, c, tracker_, plies);
    else
        shared_.table.store_help_fail(pos_.key(), c, plies);
}
void Search::prefetch_children(const MoveList& list, bool then_pass) {
    for (Move m : list) {
        pos_.do_move(m, states_[ply_]);
        if (then_pass) {
            pos_.do_null_move(states_[ply_ + 1]);
            shared_.table.prefetch(pos_.key());
            pos_.undo_null_move();
        } else
            shared_.table.prefetch(pos_.key());
        pos_.undo_move(m);
    }
}
void Search::make_null() {
    played_[ply_] = Move::none();
    pos_.do_null_move(states_[ply_++]);
}
void Search::unmake_null() {
    pos_.undo_null_move();
    --ply_;
}

bool Search::goaled(Goal g) {
    // The goals of the last move itself (a check is the position's; the others
    // need a move: none at the root, nor after a pass).
    const Move last = ply_ > 0 ? played_[ply_ - 1] : Move::none();
    switch (g) {
        case Goal::Check: return pos_.in_check();
        case Goal::Capture: return last && pos_.captured_piece() != NO_PIECE;
        case Goal::AnyMove: return bool(last);
        case Goal::Castling: return last && last.kind() == CASTLING;
        case Goal::EnPassant: return last && last.kind() == EN_PASSANT;
        case Goal::Target: return last && last.to() == st_.target;
        case Goal::MateOrStalemate: return goaled(Goal::Mate) || goaled(Goal::Stalemate);
        case Goal::Zugzwang: return in_zugzwang();
        default: break;
    }
    // Mate needs a check, stalemate its absence: both tested before any move generation.
    if (g == Goal::Mate) return pos_.in_check() && is_mated(pos_);
    if (self_check_goal(g)) {
        // ##, ##!: both kings attacked and neither side able to move (the
        // prerequisite was the mover's, before its move: add_goal_self_checks).
        if (!pos_.in_check() || !pos_.king_attacked(~pos_.side_to_move()) || !is_mated(pos_)) return false;
        make_null();
        const bool both = is_mated(pos_);
        unmake_null();
        return both;
    }
    if (pos_.in_check() || !is_stalemated(pos_)) return false;
    if (g == Goal::Stalemate) return true;
    // Double stalemate: the side that just moved would be stalemated too.
    make_null();
    const bool both = !pos_.in_check() && is_stalemated(pos_);
    unmake_null();
    return both;
}

bool Search::in_zugzwang() {
    if (pos_.in_check()) return false;
    MoveList list;
    generate_legal(pos_, list);
    if (list.empty()) return false;  // no move, no zugzwang (Popeye 4.104: a stalemate is none)
    // Chess: a capture is seen without making the move (most positions fail at their first quiet move).
    const VariantInfo& rules = variant_info(pos_.variant());
    const bool see_captures = st_.zug_goal == Goal::Capture && rules.boards == 1 && !rules.has_pushes;
    for (Move m : list) {
        if (see_captures) {
            if (!pos_.is_capture(m)) return false;
            continue;
        }
        make(m);
        const bool ok = goaled(st_.zug_goal);
        unmake(m);
        if (!ok) return false;
    }
    return true;
}

bool Search::can_reach_goal() {
    MoveList list;
    generate_legal(pos_, list);
    add_self_checks(list);
    const bool checks_only = mating_filter();
    for (Move m : list) {
        if (checks_only && !pos_.gives_check(m)) continue;
        make(m);
        const bool ok = goaled();
        unmake(m);
        if (ok) return true;
    }
    return false;
}

void Search::goal_bound_moves(MoveList& list) {
    generate_legal(pos_, list);
    if (!self_check_) return;
    MoveList checks;
    add_self_checks(checks);
    for (Move m : checks) {
        make(m);
        if (goaled()) list.push(m);
        unmake(m);
    }
}

void Search::attacker_moves(MoveList& list) {
    generate_legal(pos_, list);
    if (direct()) add_self_checks(list);
}

void Search::defender_moves(MoveList& list) {
    if (direct())
        generate_legal(pos_, list);
    else
        goal_bound_moves(list);
    if (!st_.reflex()) return;
    MoveList goals;
    for (Move m : list) {
        make(m);
        if (goaled()) goals.push(m);
        unmake(m);
    }
    if (!goals.empty()) list = goals;
}

bool Search::after_attack(int k) {
    if (self_checked()) return direct() && goaled();
    if (direct() && k == 0) return goaled();
    if (exact_ && direct() && goaled()) return false;  // too early
    // A goal that leaves the game going (a check, a capture, ...) reached early: a short win.
    if (direct() && !terminal_goal(st_.goal) && goaled()) return true;
    // pser-=n: a stalemate before the last move is a short win too (Popeye tests the goal after every series move).
    if (st_.play == Play::ParrySeries && !pos_.in_check() && goaled()) return true;
    return defend(k);
}

bool Search::after_defence(int k) {
    // selfplay: the defender had to reach the goal (exact-: not before its last move, else it refutes)
    if (!direct() && goaled()) return k == 0 || !exact_;
    return k > 0 && !self_checked() && attack(k);
}

bool Search::attack(int n) {
    if (stopped()) return false;
    PositionCode c;
    const bool coded = !exact_ && code(c);
    Proven p;
    if (coded && shared_.table.probe(pos_.key(), c, p)) {
        if (n >= p.win_from) return true;
        if (n < p.fail_below) return false;
    }
    // r#: an attacker that can reach the goal must, which ends the play lost.
    if (st_.play == Play::Reflex && can_reach_goal()) {
        if (coded) shared_.table.store_fail(pos_.key(), c, n);
        return false;
    }
    // Iterative deepening: a shorter win is found first and cheaply, and the
    // proof table then answers the re-searches.
    if (n > 1 && !exact_ && attack(n - 1)) return true;

    MoveList list;
    generate_legal(pos_, list);
    if (n >= 2) order_by_replies(list);
    put_first(list, attack_killer_[ply_]);
    if (direct()) add_self_checks(list);  // ##, ##!: their last move
    const bool checks_only = direct() && n == 1 && mating_filter();
    // s#'s last attacking move: the defender's killer, if it stays legal and
    // gives no check after it, refutes it (most moves), known without playing it.
    const bool probe = n == 1 && last_defence_quiet_refutes();
    ReplyProbe killer(pos_, probe ? defence_killer_[ply_ + 1] : Move::none());
    ReplyProbe second(pos_, probe ? second_killer_[ply_ + 1] : Move::none());
    for (Move m : list) {
        if (checks_only && !pos_.gives_check(m)) continue;
        if (probe && (killer.after(m) == Reply::Quiet || second.after(m) == Reply::Quiet)) continue;
        make(m);
        const bool ok = after_attack(n - 1);
        unmake(m);
        // A new killer (the last one failed there): tried on the moves that follow.
        if (probe && defence_killer_[ply_ + 1] != killer.reply()) killer = ReplyProbe(pos_, defence_killer_[ply_ + 1]);
        if (probe && second_killer_[ply_ + 1] != second.reply()) second = ReplyProbe(pos_, second_killer_[ply_ + 1]);
        if (ok) {
            attack_killer_[ply_] = m;
            if (coded) shared_.table.store_win(pos_.key(), c, n);
            return true;
        }
        if (stopped()) return false;
    }
    if (coded) shared_.table.store_fail(pos_.key(), c, n);
    return false;
}

// The attacker's moves that leave the defender fewest replies first (checks,
// mostly): they are the likeliest to win, and the cheapest to refute. The
// replies are counted as first parts (in Avalanche, without the pushes, which
// would cost a move generation per reply): the order only changes the speed.
void Search::order_by_replies(MoveList& list) {
    if (list.count < 2) return;
    static thread_local std::vector<std::pair<int, Move>> scored;
    scored.clear();
    static thread_local MoveList replies;
    for (Move m : list) {
        make(m);
        const int n = int(generate_first_parts(pos_, replies.moves) - replies.moves);
        unmake(m);
        scored.emplace_back(n, m);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (int i = 0; i < list.count; ++i) list.moves[i] = scored[i].second;
}

bool Search::defend(int k) {
    if (stopped()) return false;
    PositionCode c;
    // Selfplay's last defence (every move must reach the goal) is refuted by
    // its first move that does not, mostly the killer: cheaper than the
    // table's probe and store (the position's code was a third of an s#4).
    const bool coded = !exact_ && (k > 0 || direct()) && code(c);
    Proven p;
    if (coded && shared_.table.probe(pos_.key(), c, p)) {
        if (k >= p.win_from) return true;
        if (k < p.fail_below) return false;
    }
    // r#, semi-r#: a defender that can reach the goal must (exact-: before its last move, refuting).
    if (st_.reflex() && can_reach_goal()) {
        if (exact_ && k > 0) return false;
        if (coded) shared_.table.store_win(pos_.key(), c, k);
        return true;
    }
    if (defended_outright(k)) {
        if (coded) shared_.table.store_fail(pos_.key(), c, k);
        return false;
    }
    // pser-#, pser-s#: a defender not in check passes (Popeye's dummy move),
    // the attacker moving on; in pser-s# once the defender is not bound to
    // mate at once, which Popeye tests first.
    if ((st_.play == Play::ParrySeries || (st_.play == Play::ParrySeriesSelf && k > 0)) && !pos_.in_check()) {
        bool ok = st_.play == Play::ParrySeriesSelf && defend(0);
        if (!ok) {
            make_null();
            ok = k > 0 && attack(k);
            unmake_null();
        }
        if (stopped()) return false;
        if (coded) ok ? shared_.table.store_win(pos_.key(), c, k) : shared_.table.store_fail(pos_.key(), c, k);
        return ok;
    }
    if (k == 0 && !direct() && !st_.reflex() && killer_refutes(defence_killer_[ply_])) return false;
    MoveList list;
    if (direct())
        generate_legal(pos_, list);
    else
        goal_bound_moves(list);  // selfplay to ## or ##!: the self-checking moves that reach it too
    // No move: direct play wins only if that is the goal (mate, stalemate);
    // selfplay needs a defender's move that reaches it.
    if (list.empty()) return direct() && goaled();
    put_first(list, defence_killer_[ply_]);
    // Selfplay's last defence to mate: a legal move that does not check
    // refutes, known without playing it (most defences; the checks are played).
    if (k == 0 && last_defence_quiet_refutes())
        for (Move d : list)
            if (!pos_.gives_check(d)) {
                if (d != defence_killer_[ply_]) {
                    second_killer_[ply_] = defence_killer_[ply_];
                    defence_killer_[ply_] = d;
                }
                return false;
            }
    for (Move d : list) {
        make(d);
        const bool ok = after_defence(k);
        unmake(d);
        if (!ok) {
            if (stopped()) return false;
            defence_killer_[ply_] = d;
            if (coded) shared_.table.store_fail(pos_.key(), c, k);
            return false;
        }
    }
    if (coded) shared_.table.store_win(pos_.key(), c, k);
    return true;
}

bool Search::no_threat(int k) {
    if (st_.max_threat == 0 || k < st_.max_threat || pos_.in_check()) return false;
    make_null();
    const bool threat = shortest_win(st_.max_threat) > 0;
    unmake_null();
    return !threat;
}

bool Search::too_many_flights(int k) {
    // Popeye's guard stands before the defences that leave the attacker two
    // moves or more (its "moremovers"): not before the last defence.
    if (st_.max_flights == Stipulation::NO_MAX_FLIGHTS || k < 2) return false;
    const Color us = pos_.side_to_move();
    if (!pos_.has_king(us)) return false;
    const Square ksq = pos_.king_square(us);
    MoveList list;
    generate_legal(pos_, list);
    Bitboard flights = 0;  // by destination: Avalanche's pushes make several moves of one king move
    for (Move m : list)
        if (m.from() == ksq) flights |= square_bb(m.to());
    return popcount(flights) > st_.max_flights;
}

int Search::shortest_win(int max_k) {
    if (exact_) return max_k >= 1 && attack(max_k) ? max_k : 0;  // exact-: no shorter win counts
    for (int j = 1; j <= max_k; ++j)
        if (attack(j)) return j;
    return 0;
}

// The side that plays the last of `plies` half-moves can still make the other
// suffer g (a necessary condition: mate_bound.h). The mated side moves first
// when they are even.
static bool goal_possible(const Position& pos, int plies, Goal g) {
    const Color mated = plies % 2 ? ~pos.side_to_move() : pos.side_to_move();
    return mate_possible(pos, mated, (plies + 1) / 2, plies / 2, g == Goal::Stalemate);
}

bool Search::help(int plies) {
    if (stopped()) return false;
    // hr#: Black's part able to reach the goal must (each such move a
    // solution, a short one before its last move), and ends the play; the
    // other side able to reach it must too, and has lost.
    if (st_.play == Play::HelpReflex) {
        if (plies % 2 == 1) {
            if (reflex_end()) return true;
            if (plies == 1) return false;
        } else if (can_reach_goal())
            return false;
    }
    if (st_.play == Play::ReciHelp && plies == 2) return reci_end();
    // The targets' bound first: cheaper than the table, and not worth storing.
    const Color mated = plies % 2 ? ~pos_.side_to_move() : pos_.side_to_move();
    const TargetLevel level(tracker_, pos_, mated, (plies + 1) / 2, plies / 2);
    if (level.none()) return false;
    PositionCode c;
    const bool coded = code(c);
    if (coded && help_failed(c, plies)) return false;
    // reci-h: Black's own line ends a half-move before the help line.
    if ((!tracker_.active() && bounded_ && !goal_possible(pos_, plies, st_.goal)) ||
        (reci_bounded_ && plies > 2 && !goal_possible(pos_, plies - 1, st_.reci_goal))) {
        if (coded) store_help_fail(c, plies);
        return false;
    }
    MoveList list;
    generate_legal(pos_, list);
    // reci-h: wherever Black's part is to move, its two lines may already end
    // here (a short solution, as Popeye prints them); the play goes on.
    bool found = st_.play == Play::ReciHelp && plies % 2 == 0 && reci_end();
    // ##, ##!: the goal side's self-checking moves (help play's, ser-h#'s last one)
    if ((st_.play == Play::Help || st_.play == Play::SeriesHelp) && plies % 2 == 1) add_self_checks(list);
    const bool checks_only = plies == 1 && mating_filter();
    if (plies >= 2 && !tracker_.active()) prefetch_children(list);  // each child probes the table
    for (Move m : list) {
        if (checks_only && !pos_.gives_check(m)) continue;
        make(m);
        line.push_back(m);
        const bool ok = help_step(plies);
        line.pop_back();
        unmake(m);
        found = found || ok;
        if (stopped()) return found;
    }
    if (!found && coded) store_help_fail(c, plies);
    return found;
}

bool Search::after_help_move(int plies) { return help_step(plies); }

// Inlined in help()'s loop, the hottest of help play: a call there costs 2%.
[[gnu::always_inline]] inline bool Search::help_step(int plies) {
    // ##, ##!: a self-checking move ends the line, a solution if it reached the goal.
    if (self_check_ && self_checked()) {
        const bool ok = goaled();
        if (ok && on_solution) on_solution(line);
        return ok;
    }
    // hs#: after each attacker's move (an even number of half-moves left) the
    // defender may be bound to reach the goal: the solution, or a short one
    // (Popeye lists those too); the goal then ends every line.
    if (st_.play == Play::HelpSelf) return (plies % 2 == 0 && forced_goal()) || (plies > 2 && help(plies - 1));
    if (st_.play == Play::HelpReflex) return help(plies - 1);  // its ends are help()'s
    // reci-h: its lines end where reci_end() says, short ones included.
    if (st_.play == Play::ReciHelp && plies > 1) return help(plies - 1);
    if (plies == 1) {
        const bool ok = goaled();
        if (ok && on_solution) on_solution(line);
        return ok;
    }
    if ((plies - 1) % 2 == 0 && goaled()) {
        // A short solution: the side that must reach the goal has reached it early
        // (Popeye reports these too; they are flaws a composer wants to see).
        if (on_solution) on_solution(line);
        // Popeye's capture-zugzwang is a nested branch, not a goal: without its
        // ">" the play goes on past it (py-engl.txt, "Special operators").
        if (st_.goal == Goal::Zugzwang) help(plies - 1);
        return true;
    }
    return help(plies - 1);
}

bool Search::forced_goal() {
    MoveList list;
    goal_bound_moves(list);
    if (list.empty()) return false;
    for (Move d : list) {
        make(d);
        const bool ok = goaled();
        unmake(d);
        if (!ok) return false;
    }
    if (on_solution)
        for (Move d : list) {
            line.push_back(d);
            on_solution(line);
            line.pop_back();
        }
    return true;
}

bool Search::reci_end() {
    PositionCode c;
    // Stored as a help line of two half-moves: no other search of a reci-h asks
    // for one (a ser-reci-h's series does: not stored there).
    const bool coded = st_.play == Play::ReciHelp && code(c);
    Proven p;
    if (coded && shared_.table.probe(pos_.key(), c, p) && (p.help_fail >> 2 & 1)) return false;
    MoveList list;
    generate_legal(pos_, list);
    MoveList own;  // Black's moves that reach its own goal
    for (Move m : list) {
        if (mating_filter(st_.reci_goal) && !pos_.gives_check(m)) continue;
        make(m);
        if (goaled(st_.reci_goal)) own.push(m);
        unmake(m);
    }
    bool found = false;
    std::vector<std::vector<Move>> helped;  // the help lines, reported only if `own` has moves
    if (!own.empty()) {
        auto report = std::move(on_solution);
        on_solution = [&](const std::vector<Move>& l) { helped.push_back(l); };
        for (Move m : list) {
            make(m);
            line.push_back(m);
            found = help(1) || found;
            line.pop_back();
            unmake(m);
            if (stopped()) break;
        }
        on_solution = std::move(report);
    }
    if (stopped()) return false;
    if (!found) {
        if (coded) shared_.table.store_help_fail(pos_.key(), c, 2);
        return false;
    }
    if (on_solution) {
        for (const auto& l : helped) on_solution(l);
        for (Move m : own) {
            line.push_back(m);
            on_solution(line);
            line.pop_back();
        }
    }
    return true;
}

bool Search::series(int left) {
    if (stopped()) return false;
    // ser-h# and ser-# towards targets: the series side mated after its series, or mating.
    const bool series_mated = st_.series_tail() == 1;
    const TargetLevel level(tracker_, pos_, series_mated ? pos_.side_to_move() : ~pos_.side_to_move(),
                            series_mated ? 1 : left, series_mated ? left : 0);
    if (level.none()) return false;
    PositionCode c;
    const bool coded = code(c);
    if (coded && help_failed(c, left)) return false;
    // ser-r#: a series side that can reach the goal at once must, and has lost.
    bool fail = st_.play == Play::SeriesReflex && can_reach_goal();
    if (!fail && bounded_ && !tracker_.active()) {
        // ser-#: the series side mates with its last move; ser-h#, ser-s#, ser-r#: it is mated by one
        // move after its series; ser-hs#: it mates after its series and one move of the other side.
        const int tail = st_.series_tail();
        const Color mated = tail == 1 ? pos_.side_to_move() : ~pos_.side_to_move();
        const int w = tail == 0 ? left : tail == 1 ? 1 : left + 1;
        // phser-#: the mated side's parries too.
        const int b = tail == 0 ? (st_.play == Play::HelpParrySeries ? left - 1 : 0) : tail == 1 ? left : 1;
        fail = !mate_possible(pos_, mated, w, b, st_.goal == Goal::Stalemate);
    }
    if (fail) {
        if (coded) store_help_fail(c, left);
        return false;
    }
    // ser-reci-h: the series' last move is reci-h's, both lines from here; an
    // earlier one may be too, once the series has begun (a short solution, as
    // Popeye prints them: never the diagram's, which only the last move may be).
    bool found = st_.play == Play::SeriesReciHelp && reci_end();
    if (left == 1 && st_.play == Play::SeriesReciHelp) {
        if (!found && coded && !stopped()) store_help_fail(c, left);
        return found;
    }
    MoveList list;
    generate_legal(pos_, list);
    if (left == 1 && st_.play == Play::Series) add_self_checks(list);  // ##, ##!: the series' last move
    const bool checks_only = left == 1 && series_mates() && mating_filter();
    if (left >= 2 && !tracker_.active()) prefetch_children(list, true);  // the series goes on after a pass
    for (Move m : list) {
        if (checks_only && !pos_.gives_check(m)) continue;
        make(m);
        line.push_back(m);
        found = after_series_move(left) || found;
        line.pop_back();
        unmake(m);
        if (stopped()) return found;
    }
    if (!found && coded) store_help_fail(c, left);
    return found;
}

bool Search::after_series_move(int left) {
    // ##, ##!: a self-checking move ends the series, a solution if it is its last and reaches the goal.
    if (self_checked()) {
        const bool ok = st_.play == Play::Series && left == 1 && goaled();
        if (ok && on_solution) on_solution(line);
        return ok;
    }
    // ser-r#: the other side, able to reach the goal, must: the play ends there, short or not.
    if (st_.play == Play::SeriesReflex) {
        if (reflex_end()) return true;
        if (left == 1) return false;
    }
    // ser-#n, ser-xn, ser-+n, ...: a series move that reaches the goal before
    // the series has run its length is a short solution (Popeye's: a mate is
    // the one check the series may give early). It ends the series, but for a
    // stalemate, after which Popeye's ser-=n also goes on to its longer lines.
    bool early = false;
    if (series_mates() && left > 1 && goaled()) {
        if (on_solution) on_solution(line);
        if (!terminal_goal(st_.goal) || pos_.in_check()) return true;
        early = true;
    }
    if (left == 1) {
        // ser-#n: the last move reaches the goal; ser-h#n: the other side reaches it in one move;
        // ser-s#n: the other side must (it has moves, and every one reaches it); ser-hs#n: the
        // other side has a move after which the series side must.
        if (!series_mates()) return series_end();
        const bool ok = goaled();
        if (ok && on_solution) on_solution(line);
        return ok;
    }
    // ser-h#n: the other side may reach the goal before the series has run
    // its length, this move being the series' last: a short solution (Popeye
    // prints these too).
    const bool short_found = early || (st_.play != Play::SeriesReflex && series_end());
    // ser-s#n: the other side bound to reach the goal now ends the play (Popeye
    // does not go on from there, as it does after a ser-h#n's short solution).
    if (short_found && st_.play == Play::SeriesSelf) return true;
    // Before its last move the series side may not check (the other side would
    // have to answer). In ser-#n, ser-=n and ser-s#n Popeye plays the series on
    // past a move that leaves the other side no move, the next one freeing it
    // or not (found side by side: ser-s+3, ser-#3, ser-=3); in the other series
    // such a position ends the game, without a solution.
    // phser-#n: a check is answered by the other side's move, any that helps.
    if (pos_.in_check() && st_.play == Play::HelpParrySeries) {
        MoveList parries;
        generate_legal(pos_, parries);
        bool found = false;
        for (Move d : parries) {
            make(d);
            line.push_back(d);
            found = series(left - 1) || found;
            line.pop_back();
            unmake(d);
            if (stopped()) break;
        }
        return found || short_found;
    }
    if (pos_.in_check()) return short_found;
    // The other side unchecked passes; with no move it has lost the game, but
    // in ser-#n, ser-s#n and phser-#n (Popeye's dummy move there).
    if (!series_mates() && st_.play != Play::SeriesSelf) {
        MoveList replies;  // the whole moves: in Avalanche a first part may have no legal push
        generate_legal(pos_, replies);
        if (replies.empty()) return short_found;
    }
    make_null();
    line.push_back(Move::none());
    const bool ok = series(left - 1);
    line.pop_back();
    unmake_null();
    return ok || short_found;
}

void Search::parry_lines(int k) {
    if (stopped()) return;
    if (st_.play == Play::ParrySeriesSelf) {
        if (forced_goal()) return;    // the other side bound to mate: its every move ends a line
    } else if (k == 0 || goaled()) {  // the goal reached, early (a short line) or not
        if (on_solution) on_solution(line);
        return;
    }
    MoveList parries;  // a pass when not in check
    if (pos_.in_check())
        generate_legal(pos_, parries);
    else
        parries.push(Move::none());
    for (Move d : parries) {
        d ? make(d) : make_null();
        line.push_back(d);
        // pser-s#: a parry that reaches the goal early ends its line (Popeye writes it, unlike an s#'s tree).
        if (d && st_.play == Play::ParrySeriesSelf && goaled()) {
            if (on_solution) on_solution(line);
            line.pop_back();
            unmake(d);
            continue;
        }
        // The series side's every move that wins in the fewest moves, as Popeye writes a tree's continuations.
        const int j = shortest_win(k);
        MoveList list;
        if (j > 0) attacker_moves(list);  // none when the search stopped
        for (Move m : list) {
            if (stopped()) break;
            make(m);
            if (after_attack(j - 1)) {
                line.push_back(m);
                parry_lines(j - 1);
                line.pop_back();
            }
            unmake(m);
        }
        line.pop_back();
        d ? unmake(d) : unmake_null();
        if (stopped()) return;
    }
}

bool Search::parry_series(int left) {
    if (stopped()) return false;
    PositionCode c;
    const bool coded = code(c);
    if (coded && help_failed(c, left)) return false;
    // The series side is mated (stalemated) by the other side's moves: its parries and its last.
    if (bounded_ && !mate_possible(pos_, pos_.side_to_move(), left, left, st_.goal == Goal::Stalemate)) {
        if (coded) store_help_fail(c, left);
        return false;
    }
    MoveList list;
    generate_legal(pos_, list);
    bool found = false;
    for (Move m : list) {
        make(m);
        line.push_back(m);
        found = after_parry_move(left) || found;
        line.pop_back();
        unmake(m);
        if (stopped()) return found;
    }
    if (!found && coded) store_help_fail(c, left);
    return found;
}

bool Search::after_parry_move(int left) {
    // The other side reaches the goal at once: the solution, or a short one
    // before the series has run its length, after which the play goes on (Popeye's, as in ser-h#n).
    bool found = help(1);
    if (left == 1) return found;
    // A check is answered by the other side's move, any that helps; else it passes (Popeye's dummy move).
    MoveList parries;
    if (pos_.in_check())
        generate_legal(pos_, parries);
    else
        parries.push(Move::none());
    for (Move d : parries) {
        d ? make(d) : make_null();
        line.push_back(d);
        found = parry_series(left - 1) || found;
        line.pop_back();
        d ? unmake(d) : unmake_null();
        if (stopped()) break;
    }
    return found;
}

bool Search::reflex_end() {
    MoveList list;
    generate_legal(pos_, list);
    add_self_checks(list);
    MoveList goals;
    const bool checks_only = mating_filter();
    for (Move m : list) {
        if (checks_only && !pos_.gives_check(m)) continue;
        make(m);
        if (goaled()) goals.push(m);
        unmake(m);
    }
    if (on_solution)
        for (Move m : goals) {
            line.push_back(m);
            on_solution(line);
            line.pop_back();
        }
    return !goals.empty();
}

bool Search::helpself_end() {
    MoveList list;
    generate_legal(pos_, list);
    bool found = false;
    for (Move m : list) {
        make(m);
        line.push_back(m);
        found = forced_goal() || found;
        line.pop_back();
        unmake(m);
        if (stopped()) break;
    }
    return found;
}

}  // namespace echecs::solver

// The exhaustive search behind solve(): battle play (the attacker forces the
// goal within n moves against every defence) and help play (both sides
// cooperate, exactly n half-moves). Moves come from the core's generator
// only; the proof table, killer ordering, the goal tests and the moves left
// for a mate (mate_bound.h) are the only shortcuts, and each is exact
// (docs/SOLVER.md says why, game by game).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/movegen.h"
#include "solver/hash.h"
#include "solver/intelligent.h"
#include "solver/self_check.h"
#include "solver/solver.h"

namespace echecs::solver {

// What the threads of one solve share.
struct Shared {
    explicit Shared(std::size_t megabytes) : table(megabytes) {}
    ProofTable table;
    std::atomic<bool> stop{false};
    std::atomic<int> reason{int(Status::Complete)};
    std::atomic<std::uint64_t> nodes{0};
    std::atomic<int> solutions{0};
    std::uint64_t max_nodes = 0;
    int max_solutions = 0;

    void halt(Status why) {
        int expected = int(Status::Complete);
        reason.compare_exchange_strong(expected, int(why));
        stop.store(true, std::memory_order_relaxed);
    }
    // Counts a solution and returns how many there are now.
    int count_solution() { return solutions.fetch_add(1) + 1; }
    // Stops the search once `count` solutions reach the maximum.
    void check_max_solutions(int count) {
        if (max_solutions > 0 && count >= max_solutions) halt(Status::MaxSolutions);
    }
};

class Search {
public:
    Search(const Position& root, const Stipulation& st, Shared& shared);
    ~Search() { flush_nodes(); }
    Search(const Search&) = delete;
    Search& operator=(const Search&) = delete;

    Position& pos() { return pos_; }
    const Stipulation& stipulation() const { return st_; }
    // pser-#n is played as a direct mate whose defender passes unless checked.
    bool direct() const { return st_.play == Play::Direct || st_.play == Play::ParrySeries; }
    bool stopped() const { return shared_.stop.load(std::memory_order_relaxed); }

    void make(Move m);
    void unmake(Move m);
    void make_null();
    void unmake_null();

    // The side to move has suffered the goal (is mated, or stalemated).
    bool goaled() { return goaled(st_.goal); }
    bool goaled(Goal g);
    // Goal::Zugzwang: the side to move is not in check, has a move, and every
    // one reaches the stipulation's zug_goal.
    bool in_zugzwang();
    // The side to move has a move that makes the other side suffer the goal.
    bool can_reach_goal();
    // The defender's moves: in reflexplay only those that reach the goal
    // when there are any (the defender must then play one of them).
    void defender_moves(MoveList& list);
    // The attacker's moves: the legal ones, and in direct play to a ## or ##!
    // goal the self-checking ones (solver/self_check.h), each of which ends
    // the play, reaching the goal or not (after_attack).
    void attacker_moves(MoveList& list);
    // ##, ##!: the self-checking moves of the side to move, when its goal's prerequisite holds.
    void add_self_checks(MoveList& list) {
        if (self_check_) add_goal_self_checks(pos_, st_.goal, list);
    }
    // ##, ##!: the move just made left its own king attacked (a goal's last
    // move, never followed by another).
    bool self_checked() const { return self_check_ && pos_.king_attacked(~pos_.side_to_move()); }
    // Reflexplay: the defender to move is bound to reach the goal now.
    bool defender_bound() { return st_.reflex() && can_reach_goal(); }

    // Battle play. Attacker to move: the goal is forced within n attacker moves (n >= 1).
    bool attack(int n);
    // The attacker has just moved and has k more moves.
    bool after_attack(int k);
    // The defender has just moved; the attacker has k more moves (k may be 0).
    bool after_defence(int k);
    // Attacker to move: the least j in 1..max_k with attack(j), or 0 when none.
    int shortest_win(int max_k);
    // Popeye's "threat n" (Stipulation::max_threat), the defender to move with
    // the attacker's k moves left: the attacker's last move threatens no win
    // within n, so the defender has defended without a move.
    bool no_threat(int k);
    // Popeye's "maxflightsquares n" (Stipulation::max_flights), the defender to
    // move with the attacker's k moves left: its king has more than n flights,
    // so it has defended without a move.
    bool too_many_flights(int k);
    // Either rule: the defender has defended before any of its moves is tried.
    bool defended_outright(int k) { return no_threat(k) || too_many_flights(k); }

    // Help play: `plies` half-moves left, the side to move plays the first.
    // Each solution (the moves from where `line` started) is passed to
    // on_solution, short ones too (the goal reached by the right side before
    // the last half-move).
    bool help(int plies);
    // Help play: a move has just been played with `plies` half-moves left,
    // this one included; follows the line on (help or helpself play).
    bool after_help_move(int plies);
    // Series play (ser-#n, ser-h#n, ser-s#n, ser-r#n, ser-hs#n): the side to move has `left` moves in a
    // row, the other side passing (a Move::none() in `line`); solutions go to
    // on_solution as in help play.
    bool series(int left);
    // The series side has just played the first of its `left` moves.
    bool after_series_move(int left);
    // The play after a series, the other side to move (also the set play):
    // ser-h# reaches the goal in one move, ser-s# must (forced_goal),
    // ser-r# must if it can (reflex_end), ser-hs# binds the series side
    // (helpself_end); ser-# and ser-= have none (false).
    bool series_end() {
        switch (st_.play) {
            case Play::SeriesHelp:
            case Play::ParrySeriesHelp: return help(1);  // pser-h#, pser-s#: their set play only
            case Play::SeriesSelf:
            case Play::ParrySeriesSelf: return forced_goal();
            case Play::SeriesReflex: return reflex_end();
            case Play::SeriesHelpSelf: return helpself_end();
            default: return false;
        }
    }
    // Parry series mate (pser-#n, Popeye's battle play with a "check
    // zigzag"): the series side has just moved, winning with k more moves.
    // Reports each line of its play: a parry (the other side checked) or a
    // pass, then the series side's shortest wins, as Popeye writes the tree
    // line by line.
    void parry_lines(int k);
    // Parry series helpmate (pser-h#n): the series side to move with `left`
    // moves, the other side answering a check with a move of its choice
    // (else passing) and reaching the goal at once after the series.
    bool parry_series(int left);
    // pser-h#n: the series side has just played the first of its `left` moves.
    bool after_parry_move(int left);
    std::vector<Move> line;
    std::function<void(const std::vector<Move>&)> on_solution;

    // Help and series play towards targets (intelligent.h), the position at
    // the diagram: a node is pruned when none is within reach, and the failed
    // lines go to this thread's TargetTable. nullptr: the usual search.
    void set_targets(const std::vector<Target>* targets);

private:
    static constexpr int HELP_BITS = 64;  // Proven::help_fail: longer help lines are not stored
    bool defend(int k);
    // Fetches the proof table's buckets of the positions after `list`'s moves
    // (each followed by a pass: series play), all at once, before the first is
    // searched (hash.h: ProofTable::prefetch).
    void prefetch_children(const MoveList& list, bool then_pass = false);
    // hs#: the attacker has just made its last move; the defender must have a
    // move and every one must reach the goal. Each is a solution's last move.
    bool forced_goal();

public:
    // reci-h: Black's part to move, its last move or an earlier one (a short
    // solution). It must have both a move that reaches reci_goal and one
    // after which the other side makes it suffer the goal; then every such
    // line is a solution, the help ones first.
    bool reci_end();
    // ser-r#, hr#: the side to move, bound to reach the goal if it can: its
    // moves that reach it, each a solution's last move; false when it has none.
    bool reflex_end();

private:
    bool help_step(int plies);  // after_help_move's body
    // The moves of the side bound to reach the goal (selfplay's defender, hs#'s
    // and ser-s#'s last move): the legal ones and, to a ## or ##! goal, the
    // self-checking ones that reach it.
    void goal_bound_moves(MoveList& list);

    // ser-hs#: the other side to move, after the series: its moves after which
    // the series side must reach the goal (forced_goal), each with those lines.
    bool helpself_end();
    void order_by_replies(MoveList& list);
    // ser-#n, phser-#n: the series side's own last move reaches the goal.
    bool series_mates() const { return st_.play == Play::Series || st_.play == Play::HelpParrySeries; }
    // The last move must mate: only checks can, a filter that pays where checks are seen without making the move.
    bool mating_filter(Goal g) const { return g == Goal::Mate && pos_.checks_known_before_move(); }
    bool mating_filter() const { return mating_filter(st_.goal); }
    void flush_nodes();
    bool code(PositionCode& c) const { return encode(pos_, c); }
    bool killer_refutes(Move m);
    // Selfplay to mate, not reflex: its last defence is refuted by any legal move that does not check.
    bool last_defence_quiet_refutes() const {
        return !direct() && !st_.reflex() && st_.goal == Goal::Mate && !self_check_;
    }
    // Help play: the side to move cannot reach the goal in `plies` (known), or has just been found not to.
    bool help_failed(const PositionCode& c, int plies) const;
    void store_help_fail(const PositionCode& c, int plies);

    Stipulation st_;
    Shared& shared_;
    bool self_check_ = false;    // ##, ##!: the goal's last move leaves its own king attacked
    bool bounded_ = false;       // help and series (stale)mates in orthodox chess: mate_possible() prunes
    bool reci_bounded_ = false;  // reci-h: Black's own (stale)mate too
    // exact- in battle play: the goal reached only at the last move, earlier
    // a refutation (Popeye's min_length_guard); wins are not monotone in the
    // moves, so the proof table and the iterative deepening are not used.
    bool exact_ = false;
    StateInfo root_state_;
    Position pos_;
    StateInfo states_[MAX_PLY + 2];
    int ply_ = 0;
    Move attack_killer_[MAX_PLY + 2] = {};
    Move defence_killer_[MAX_PLY + 2] = {};
    Move second_killer_[MAX_PLY + 2] = {};  // selfplay's last defence: the killer before
    Move played_[MAX_PLY + 2] = {};         // the move made at each ply (none: a pass), for the goals of the last move
    std::uint64_t unflushed_ = 0;
    TargetTracker tracker_;
    std::unique_ptr<TargetTable> target_table_;  // made at the first targets
};

}  // namespace echecs::solver

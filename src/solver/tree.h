// Writing out the play of battle problems once the search has proven it:
// threats, the variations that answer them, the attacker's shortest
// continuations, refutations; and the help solutions in notation.
#pragma once

#include "solver/search.h"
#include "solver/solver.h"

namespace echecs::solver {

class TreeBuilder {
public:
    TreeBuilder(Search& search, const Options& options) : s_(search), o_(options) {}

    PlayedMove played(Move m);
    // The attacker's move node.move has just been made; k attacker moves are left.
    void attack_node(AttackLine& node, int k);
    // The defender's move line.move has just been made: the attacker's shortest
    // wins within k. Returns that length (0: none, the defence refutes; -1: the
    // defence itself reaches the goal, selfplay).
    int defence_node(DefenceLine& line, int k, bool expand);
    // Set play: the defender moves first in the diagram (attacker to move now).
    std::vector<DefenceLine> set_play(int n);
    // Counts the defences that refute the attacker's move just made, up to `limit`.
    int count_refutations(int k, int limit);

private:
    bool threat_defeated(const std::vector<Move>& threat_moves, int threat_len);
    void drop_early_goals(std::vector<DefenceLine>& lines) const;
    Search& s_;
    const Options& o_;
};

// The notation of a help solution, replayed from the diagram; its last move
// reaches goal g (goal_marked).
HelpLine help_line(Position& pos, const std::vector<Move>& moves, Goal g = Goal::Mate);

}  // namespace echecs::solver

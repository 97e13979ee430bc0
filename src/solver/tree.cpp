#include "solver/tree.h"

#include <algorithm>

#include "core/notation.h"
#include "solver/notation.h"

namespace echecs::solver {

PlayedMove TreeBuilder::played(Move m) { return {m, problem_notation(s_.pos(), m), to_uci(m)}; }

void TreeBuilder::attack_node(AttackLine& node, int k) {
    Position& pos = s_.pos();
    node.check = pos.in_check();
    if (s_.direct() && s_.goaled()) {
        node.goal = true;
        node.move.text = goal_marked(std::move(node.move.text), s_.stipulation().goal);
        return;
    }
    if (!o_.variations || s_.stopped()) return;

    // The threat: what the attacker would do if the defender could pass. In
    // reflexplay a defender bound to reach the goal has no choice: no threat.
    int threat_len = 0;
    std::vector<Move> threat_moves;
    if (o_.threats && !node.check && k >= 1 && !s_.defender_bound()) {
        s_.make_null();
        threat_len = s_.shortest_win(k);
        if (threat_len) {
            MoveList list;
            s_.attacker_moves(list);
            for (Move t : list) {
                AttackLine child;
                child.move = played(t);
                s_.make(t);
                if (s_.after_attack(threat_len - 1)) {
                    attack_node(child, threat_len - 1);
                    node.threats.push_back(std::move(child));
                    threat_moves.push_back(t);
                }
                s_.unmake(t);
            }
        }
        s_.unmake_null();
        node.zugzwang = threat_len == 0;
    }

    MoveList list;
    s_.defender_moves(list);
    bool all_goal = true;
    for (Move d : list) {
        if (s_.stopped()) return;
        DefenceLine line;
        line.move = played(d);
        s_.make(d);
        // A variation is shown when it answers the threat: the attacker's
        // win then takes longer, or one of the threat's moves no longer works.
        const int len = defence_node(line, k, false);
        all_goal = all_goal && len < 0;
        bool shown = len != 0;
        if (shown && threat_len > 0)
            shown = len > threat_len || (len == threat_len && threat_defeated(threat_moves, threat_len));
        if (shown && len > 0) defence_node(line, k, true);
        s_.unmake(d);
        if (len == 0)
            node.refutations.push_back(std::move(line));
        else if (shown)
            node.defences.push_back(std::move(line));
    }
    if (k > 0 && !all_goal) drop_early_goals(node.defences);
}

// Selfplay: a defence that reaches the goal before the last move is shown
// only when every defence does (the defender would not choose it; Popeye
// 4.104 leaves it out: TESTS/battle_play.inp's "s#2 with complete short set
// play" shows 1...c5-c4 only after its key, and 1...b3-b2# where it is the
// only move). Reflexplay's defender must reach the goal: shown.
void TreeBuilder::drop_early_goals(std::vector<DefenceLine>& lines) const {
    if (s_.direct() || s_.stipulation().reflex()) return;
    std::erase_if(lines, [](const DefenceLine& l) { return l.goal; });
}

int TreeBuilder::defence_node(DefenceLine& line, int k, bool expand) {
    if (!s_.direct() && s_.goaled()) {
        line.goal = true;
        line.move.text = goal_marked(std::move(line.move.text), s_.stipulation().goal);
        return s_.stipulation().exact && k > 0 ? 0 : -1;  // exact-: too early, a refutation
    }
    const int len = k > 0 ? s_.shortest_win(k) : 0;
    if (!expand || len <= 0) return len;
    MoveList list;
    s_.attacker_moves(list);
    for (Move t : list) {
        AttackLine child;
        child.move = played(t);
        s_.make(t);
        if (s_.after_attack(len - 1)) {
            attack_node(child, len - 1);
            line.continuations.push_back(std::move(child));
        }
        s_.unmake(t);
    }
    return len;
}

bool TreeBuilder::threat_defeated(const std::vector<Move>& threat_moves, int threat_len) {
    MoveList list;
    s_.attacker_moves(list);
    for (Move t : threat_moves) {
        if (!list.contains(t)) return true;
        s_.make(t);
        const bool still = s_.after_attack(threat_len - 1);
        s_.unmake(t);
        if (!still) return true;
    }
    return false;
}

int TreeBuilder::count_refutations(int k, int limit) {
    // Refuted by the want of a threat (Popeye's "threat n") or by the king's
    // flights ("maxflightsquares n"), not by one defence: no try.
    if (s_.defended_outright(k)) return limit;
    MoveList list;
    s_.defender_moves(list);
    int n = 0;
    for (Move d : list) {
        s_.make(d);
        const bool ok = s_.after_defence(k);
        s_.unmake(d);
        if (s_.stopped()) return n;
        if (!ok && ++n >= limit) break;
    }
    return n;
}

std::vector<DefenceLine> TreeBuilder::set_play(int n) {
    std::vector<DefenceLine> out;
    Position& pos = s_.pos();
    if (pos.in_check()) return out;  // the defender cannot move first with the attacker in check
    s_.make_null();
    MoveList list;
    s_.defender_moves(list);
    bool all_goal = true;
    for (Move d : list) {
        if (s_.stopped()) break;
        DefenceLine line;
        line.move = played(d);
        s_.make(d);
        const int len = defence_node(line, n - 1, true);
        s_.unmake(d);
        all_goal = all_goal && len < 0;
        if (len != 0) out.push_back(std::move(line));
    }
    s_.unmake_null();
    if (n > 1 && !all_goal) drop_early_goals(out);
    return out;
}

HelpLine help_line(Position& pos, const std::vector<Move>& moves, Goal g) {
    HelpLine out;
    const Color first = pos.side_to_move();
    std::vector<StateInfo> states(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (moves[i].is_none()) {  // series play: the other side passes
            pos.do_null_move(states[i]);
            continue;
        }
        out.moves.push_back({moves[i], problem_notation(pos, moves[i]), to_uci(moves[i])});
        out.first_side.push_back(pos.side_to_move() == first);
        // A stalemate that does not end the line (ser-s: the series plays on) is not one.
        if (i + 1 < moves.size() && out.moves.back().text.ends_with('=')) out.moves.back().text.pop_back();
        pos.do_move(moves[i], states[i]);
    }
    if (!out.moves.empty()) out.moves.back().text = goal_marked(std::move(out.moves.back().text), g);
    // Series play: the series side's last move and those after it follow its last pass.
    const auto last_pass = std::find_if(moves.rbegin(), moves.rend(), [](Move m) { return m.is_none(); });
    out.series_tail = int(last_pass - moves.rbegin()) - 1;
    for (std::size_t i = moves.size(); i-- > 0;)
        if (moves[i].is_none())
            pos.undo_null_move();
        else
            pos.undo_move(moves[i]);
    return out;
}

}  // namespace echecs::solver

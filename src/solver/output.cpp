#include "solver/output.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace echecs::solver {

namespace {

std::string spaces(int n) { return std::string(std::size_t(n), ' '); }

bool all_leaves(const std::vector<AttackLine>& v) {
    for (const auto& a : v)
        if (!a.defences.empty() || !a.threats.empty()) return false;
    return true;
}

class TextWriter {
public:
    std::string out;

    void attack(const AttackLine& a, int no, const std::string& head, int indent, const char* mark) {
        play(a, head + std::to_string(no) + "." + a.move.text + mark, no, indent);
    }

    // What follows an attacker's move (its line `s` so far): the threat,
    // the variations, the refutations. postkeyplay writes it with no move.
    void play(const AttackLine& a, std::string s, int no, int indent) {
        if (a.zugzwang) s += " zugzwang";
        if (!a.threats.empty()) {
            s += " threat:";
            if (all_leaves(a.threats)) {
                for (const auto& t : a.threats) s += std::string(" ") + std::to_string(no + 1) + "." + t.move.text;
                line(s);
            } else {
                line(s);
                for (const auto& t : a.threats) attack(t, no + 1, spaces(indent + 6), indent + 6, "");
            }
        } else
            line(s);
        for (const auto& d : a.defences) defence(d, no, indent + 3);
        for (const auto& r : a.refutations)
            line(spaces(indent + 3) + "but " + std::to_string(no) + "..." + r.move.text + "!");
    }

    void defence(const DefenceLine& d, int no, int indent) {
        std::string s = spaces(indent) + std::to_string(no) + "..." + d.move.text;
        if (d.continuations.size() == 1)
            attack(d.continuations[0], no + 1, s + " ", indent, "");
        else if (all_leaves(d.continuations)) {
            for (const auto& c : d.continuations) s += std::string(" ") + std::to_string(no + 1) + "." + c.move.text;
            line(s);
        } else {
            line(s);
            for (const auto& c : d.continuations) attack(c, no + 1, spaces(indent + 3), indent + 3, "");
        }
    }

    // A number before each move of the side playing Black's part (Black,
    // or White when the colours are exchanged); a leading move of the other
    // side is "1...".
    void help(const HelpLine& h, Color first, Color black_part) {
        std::string s;
        int no = 1;
        Color side = first;
        for (std::size_t i = 0; i < h.moves.size(); ++i) {
            if (side == black_part) {
                if (i) s += "  ";
                s += std::to_string(no) + ".";
            } else if (i == 0)
                s += "1...", ++no;
            else
                s += ' ';
            s += h.moves[i].text;
            if (side != black_part && i > 0) ++no;
            side = ~side;
        }
        line(s);
    }

    // Proof games: a number before each move of the side that starts, whichever
    // it is, as Popeye prints them ("1.e2-e4 e7-e5  2.Sg1-f3 ...").
    void pairs(const HelpLine& h) {
        std::string s;
        for (std::size_t i = 0; i < h.moves.size(); ++i) {
            if (i % 2 == 0)
                s += (i ? "  " : "") + std::to_string(i / 2 + 1) + ".";
            else
                s += ' ';
            s += h.moves[i].text;
        }
        line(s);
    }

    // Series play: a number before each move of the series side; the moves
    // that close it (Stipulation::series_tail) follow the last one, as Popeye
    // prints them: ser-h#n's other side's move, and ser-hs#n's other side's
    // move, then the series side's forced last one numbered on
    // ("5.Qe8-e5 Se4-g3+  6.Qe5xg3#").
    void series(const HelpLine& h, int tail, bool parry) {
        std::string s;
        // Parry series: a number before each move of the series side, the parries following it.
        if (parry && h.first_side.size() == h.moves.size()) {
            for (std::size_t i = 0, no = 0; i < h.moves.size(); ++i) {
                s += h.first_side[i] ? (i ? "  " : "") + std::to_string(++no) + "." : std::string(" ");
                s += h.moves[i].text;
            }
            return line(s);
        }
        const std::size_t n = h.moves.size();
        const std::size_t numbered = n >= std::size_t(tail) ? n - std::size_t(tail) : 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i < numbered || (tail == 2 && i == n - 1))
                s += (i ? "  " : "") + std::to_string(i < numbered ? i + 1 : numbered + 1) + ".";
            else
                s += ' ';
            s += h.moves[i].text;
        }
        line(s);
    }

    void line(const std::string& s) { out += s + '\n'; }
};

std::string summary(const Result& r) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.2f s, %llu nodes, %d thread%s", r.seconds, (unsigned long long)r.nodes, r.threads,
                  r.threads == 1 ? "" : "s");
    const int n = r.solution_count();
    std::string s = n == 0 ? std::string("no solution") : std::to_string(n) + (n == 1 ? " solution" : " solutions");
    if (r.complete())
        s += " (complete)";
    else
        s = std::string("incomplete (") + std::string(status_name(r.status)) + ", " +
            std::to_string(r.first_moves_done) + " of " + std::to_string(r.first_moves) +
            " first moves examined): " + s + " found";
    if (r.targets)
        s += ", " + std::to_string(r.targets) + (r.stalemate_targets ? " stalemate" : " mating") +
             (r.targets == 1 ? " position" : " positions");
    return s + ", " + buf;
}

}  // namespace

std::string key_text(const AttackLine& key) {
    TextWriter w;
    w.attack(key, 1, "", 0, "!");
    return w.out;
}

std::string solution_text(const HelpLine& line, const Stipulation& st) {
    TextWriter w;
    if (st.series())
        w.series(line, st.series_tail(), st.parry());
    else if (st.proof())
        w.pairs(line);
    else
        w.help(line, st.starts(), st.numbered());
    return w.out;
}

std::string to_text(const Result& r) {
    TextWriter w;
    const Stipulation& st = r.problem.stipulation;
    if (!r.problem.title.empty()) w.line(r.problem.title);
    w.line(std::string(variant_name(r.problem.variant)) + " " + st.str() + (st.exchanged ? " halfduplex" : "") + "  " +
           r.fen);
    if (r.battle()) {
        if (!r.set_play.empty()) {
            w.line("set play:");
            for (const auto& d : r.set_play) w.defence(d, 1, 3);
        }
        for (const auto& k : r.keys) w.attack(k, 1, "", 0, "!");
        for (const auto& t : r.tries) w.attack(t, 1, "", 0, "?");
        if (r.post_key) w.play(*r.post_key, "after the key:", 1, 0);
    } else {
        if (!r.set_solutions.empty()) {
            w.line("set play:");
            for (const auto& h : r.set_solutions)
                // ser-h#, ser-s#, ser-r#: the other side's lone move, "1...d3-d2#" as Popeye writes it
                if (st.series() && st.play != Play::SeriesHelpSelf)
                    w.line("1..." + (h.moves.empty() ? std::string() : h.moves[0].text));
                else
                    w.help(h, ~st.starts(), st.numbered());
        }
        for (const auto& h : r.solutions)
            if (st.series())
                w.series(h, h.series_tail, st.parry());
            else if (st.proof())
                w.pairs(h);
            else
                w.help(h, st.starts(), st.numbered());
    }
    w.line(summary(r));
    return w.out;
}

std::string to_uci_lines(const Result& r) {
    std::string out;
    if (r.battle()) {
        for (const auto& k : r.keys) out += std::string("key ") + k.move.uci + '\n';
        for (const auto& t : r.tries) {
            out += std::string("try ") + t.move.uci;
            for (const auto& x : t.refutations) out += std::string(" refutation ") + x.move.uci;
            out += '\n';
        }
        for (const auto& d : r.set_play) {
            out += std::string("set ") + d.move.uci;
            for (const auto& c : d.continuations) out += ' ' + c.move.uci;
            out += '\n';
        }
        if (r.post_key) {  // postkeyplay: each defence with the attacker's answers, then the refutations
            for (const auto& d : r.post_key->defences) {
                out += std::string("defence ") + d.move.uci;
                for (const auto& c : d.continuations) out += ' ' + c.move.uci;
                out += '\n';
            }
            for (const auto& x : r.post_key->refutations) out += std::string("refutation ") + x.move.uci + '\n';
        }
    } else {
        for (const auto& h : r.set_solutions) {
            out += "set";
            for (const auto& m : h.moves) out += ' ' + m.uci;
            out += '\n';
        }
        for (const auto& h : r.solutions) {
            out += "solution";
            for (const auto& m : h.moves) out += ' ' + m.uci;
            out += '\n';
        }
    }
    if (!r.complete()) out += std::string("incomplete: ") + std::string(status_name(r.status)) + '\n';
    out += std::string("solutions: ") + std::to_string(r.solution_count()) + '\n';
    return out;
}

namespace {
using nlohmann::json;

json move_json(const PlayedMove& m) { return {{"move", m.text}, {"uci", m.uci}}; }

json defence_json(const DefenceLine& d);
json attack_json(const AttackLine& a) {
    json j = move_json(a.move);
    j["goal"] = a.goal;
    j["check"] = a.check;
    j["zugzwang"] = a.zugzwang;
    j["threats"] = json::array();
    for (const auto& t : a.threats) j["threats"].push_back(attack_json(t));
    j["defences"] = json::array();
    for (const auto& d : a.defences) j["defences"].push_back(defence_json(d));
    j["refutations"] = json::array();
    for (const auto& d : a.refutations) j["refutations"].push_back(defence_json(d));
    return j;
}
json defence_json(const DefenceLine& d) {
    json j = move_json(d.move);
    j["goal"] = d.goal;
    j["continuations"] = json::array();
    for (const auto& c : d.continuations) j["continuations"].push_back(attack_json(c));
    return j;
}
json help_json(const std::vector<HelpLine>& v) {
    json a = json::array();
    for (const auto& h : v) {
        json moves = json::array();
        for (const auto& m : h.moves) moves.push_back(move_json(m));
        a.push_back({{"moves", moves}});
    }
    return a;
}
}  // namespace

std::string to_json(const Result& r, int indent) {
    json j;
    j["variant"] = std::string(variant_name(r.problem.variant));
    j["stipulation"] = r.problem.stipulation.str();
    j["fen"] = r.fen;
    j["title"] = r.problem.title;
    j["note"] = r.note;
    j["status"] = std::string(status_name(r.status));
    j["complete"] = r.complete();
    j["solutions"] = r.solution_count();
    j["first_moves"] = r.first_moves;
    j["first_moves_done"] = r.first_moves_done;
    j["nodes"] = r.nodes;
    j["seconds"] = r.seconds;
    j["threads"] = r.threads;
    if (r.battle()) {
        for (const char* f : {"keys", "tries", "set_play"}) j[f] = json::array();
        for (const auto& k : r.keys) j["keys"].push_back(attack_json(k));
        for (const auto& t : r.tries) j["tries"].push_back(attack_json(t));
        for (const auto& d : r.set_play) j["set_play"].push_back(defence_json(d));
        // postkeyplay: the play after the key, as a key's without its move
        j["post_key"] = r.post_key ? attack_json(*r.post_key) : json();
    } else {
        j["help"] = help_json(r.solutions);
        j["set_help"] = help_json(r.set_solutions);
    }
    // Replace invalid UTF-8 (titles read from files) rather than throw.
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace echecs::solver

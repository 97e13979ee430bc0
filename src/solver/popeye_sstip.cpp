#include "solver/popeye_sstip.h"

#include <regex>
#include <string>

namespace echecs::solver {

namespace {

// Popeye's synonyms (py-engl.txt, "Branch types", "Fork into a branch" and
// "Conditional right to move"), checked against Popeye 4.104 side by side: N
// half-moves (series: moves), G the leaf's goal.
struct Form {
    const char* pattern;
    const char* play;  // the traditional stipulation's prefix
    int parity;        // N's parity the form needs (1 odd, 0 even, 2 any: series)
};
constexpr Form FORMS[] = {
    {R"((\d+)a\[([^\[\]{}]+)\]d)", "", 1},                                  // 3a[#]d: #2
    {R"((\d+)ad\[([^\[\]{}]+)\])", "s", 0},                                 // 4ad[#]: s#2
    {R"((\d+)a\[1a\[([^\[\]{}]+)\]d\]d)", "semi-r", 1},                     // 3a[1a[#]d]d: semi-r#2
    {R"((\d+)a\[1a\[([^\[\]{}]+)\]d\]d\{!1a\[([^\[\]{}]+)\]d\})", "r", 1},  // ...{!1a[#]d}: r#2
    {R"((\d+)hh\[([^\[\]{}]+)\])", "h", 0},                                 // 4hh[#]: h#2
    {R"((\d+)h\[([^\[\]{}]+)\]h)", "h", 1},                                 // 3h[#]h: h#1.5
    {R"((\d+)s\[([^\[\]{}]+)\])", "ser-", 2},                               // 5s[#]: ser-#5
    {R"((\d+)s\[1d\[([^\[\]{}]+)\]a\])", "ser-s", 2},                       // 6s[1d[#]a]: ser-s#6
    {R"((\d+)s\[1h\[([^\[\]{}]+)\]h\])", "ser-h", 2},                       // 2s[1h[#]h]: ser-h#2
    {R"((\d+)s\[1a\[([^\[\]{}]+)\]d\])", "ser-h", 2},                       // 2s[1a[#]d]: ser-h#2
    // ?+?: the move is granted only to a side in check (a parry); N odd.
    {R"((\d+)a\[([^\[\]{}]+)\]\?\+\?d)", "pser-", 1},           // 15a[#]?+?d: pser-#8
    {R"((\d+)a\[1d\[([^\[\]{}]+)\]a\]\?\+\?d)", "pser-s", 1},   // 15a[1d[#]a]?+?d: pser-s#8
    {R"((\d+)h\[1h\[([^\[\]{}]+)\]h\]\?\+\?h)", "pser-h", 1},   // 13h[1h[#]h]?+?h: pser-h#7
    {R"((\d+)h\[1a\[([^\[\]{}]+)\]d\]\?\+\?h)", "pser-h", 1},   // 15h[1a[#]d]?+?h: pser-h#8
    {R"((\d+)h\[([^\[\]{}]+)\]\?\+\?h)", "phser-", 1},          // 7h[#]?+?h: phser-#4
    {R"((\d+)h\[1d\[([^\[\]{}]+)\]a\]\?\+\?h)", "phser-s", 1},  // 15h[1d[#]a]?+?h: refused
};

// Popeye's capture-zugzwang, a nested branch in place of a goal: its one
// move not shown (/), every one reaching the goal (1d[G]a), the side to
// play it not in check ({!+}). Taken out of the tree as the goal "@".
const std::regex ZUGZWANG(R"(\[/1d\[([^\[\]{}]+)\]a\{!\+\}\])");
constexpr const char* ZUGZWANG_MARK = "@";

[[noreturn]] void refuse(std::string_view tree, const std::string& why) {
    throw StipulationError(
        "sstipulation '" + std::string(tree.substr(0, 60)) + "': " + why +
        " (read: the forms that are synonyms of a stipulation, Na[G]d, Nad[G], "
        "Na[1a[G]d]d and its reflex constraint {!1a[G]d}, Nhh[G], Nh[G]h, Ns[G], "
        "Ns[1d[G]a], Ns[1h[G]h], Ns[1a[G]d], each also as n:N with n = N, exact play; "
        "the parry series Na[G]?+?d, Na[1d[G]a]?+?d, Nh[1h[G]h]?+?h, Nh[G]?+?h; "
        "the capture-zugzwang [/1d[G]a{!+}] as G of Na[G]d, Nhh[G], Nh[G]h, Ns[1a[G]d], Ns[1h[G]h])");
}

// The zugzwang's goal, read as a stipulation's: the goals the search tests
// after every move of the side in zugzwang.
Stipulation zugzwang_goal(std::string_view tree, const std::string& sign) {
    Stipulation g;
    try {
        g = parse_stipulation("h" + sign + "1");
    } catch (const StipulationError&) {
        refuse(tree, "the capture-zugzwang's goal '" + sign.substr(0, 10) + "' is not a goal");
    }
    if (self_check_goal(g.goal))
        refuse(tree,
               "a capture-zugzwang to double mate or counter-mate is not supported (its moves would leave "
               "their own king in check)");
    return g;
}

// Where the capture-zugzwang may stand: the forms whose goal ends a
// direct, help or series-help play (Popeye's examples, EXAMPLES/capzug.inp).
bool zugzwang_form(const Form& f) {
    const std::string play = f.play;
    return play == "" || play == "h" || play == "ser-h";
}

std::string moves_of(const Form& f, int n) {
    if (f.play[0] == 'h' && f.play[1] == '\0') return std::to_string(n / 2) + (n % 2 ? ".5" : "");  // half-moves
    if (f.parity == 2) return std::to_string(n);  // series: the series' moves
    return std::to_string((n + 1) / 2);           // battle play, parry series: the moves of the side that starts
}

}  // namespace

Stipulation parse_sstipulation(Color named, Color first, std::string_view tree) {
    if (tree.size() > 200) refuse(tree, "too long");
    std::string text(tree);
    // m:n, a minimal length: m = n is exact play ("4:4hh[#]" is exact-h#2, Popeye's manual).
    bool exact = false;
    std::smatch mn;
    if (std::regex_match(text, mn, std::regex(R"((\d{1,3}):(\d{1,3})(.*))"))) {
        if (mn[1].str() != mn[2].str())
            refuse(tree, "a minimal length below the maximum (m:n with m < n) is not supported; m = n is exact play");
        text = mn[2].str() + mn[3].str();
        exact = true;
    }
    std::string zug_sign;  // the capture-zugzwang's goal, when there is one
    std::smatch z;
    if (std::regex_search(text, z, ZUGZWANG)) {
        zug_sign = z[1].str();
        text = z.prefix().str() + "[" + ZUGZWANG_MARK + "]" + z.suffix().str();
        if (text.find('/') != std::string::npos) refuse(tree, "only one capture-zugzwang is read");
    } else if (text.find('/') != std::string::npos)
        refuse(tree, "'/' (play not shown) is read only in the capture-zugzwang [/1d[G]a{!+}]");
    if (text.find('?') != std::string::npos && text.find("?+?") == std::string::npos)
        refuse(tree, "the conditional right to move is read only as Popeye's ?+? (the side in check)");
    for (const Form& f : FORMS) {
        std::smatch m;
        if (!std::regex_match(text, m, std::regex(f.pattern))) continue;
        if (m[1].str().size() > 3) refuse(tree, "too many half-moves");
        const int n = std::stoi(m[1].str());
        const std::string goal = m[2].str();
        if (m.size() > 3 && m[3].str() != goal) refuse(tree, "the constraint's goal differs from the fork's");
        if (n < 1 || (f.parity != 2 && n % 2 != f.parity))
            refuse(tree, std::to_string(n) + " half-moves do not fit this form");
        const bool zugzwang = !zug_sign.empty() && goal == ZUGZWANG_MARK;  // not a written "@
        if (zugzwang && !zugzwang_form(f))
            refuse(tree,
                   "a capture-zugzwang is read only as the goal of Na[G]d, Nhh[G], Nh[G]h, Ns[1a[G]d] and Ns[1h[G]h]");
        // The zugzwang is built as a mate, then given its own goal.
        Stipulation st;
        try {
            st = parse_stipulation(std::string(exact ? "exact-" : "") + f.play + (zugzwang ? "#" : goal) +
                                   moves_of(f, n));
        } catch (const StipulationError& e) {
            refuse(tree, e.what());  // the synonym's own reason, with the form's text
        }
        if (zugzwang) {
            const Stipulation g = zugzwang_goal(tree, zug_sign);
            st.goal = Goal::Zugzwang;
            st.zug_goal = g.goal;
            st.target = g.target;
        }
        st.exchanged = first != st.starts();
        if (st.play == Play::Help) st.numbered_side = named;
        return st;
    }
    refuse(tree, "this form is not supported");
}

std::string sstipulation_text(const Stipulation& st) {
    const std::string tree = st.sstip_tree();
    if (tree.empty() || (st.goal != Goal::Zugzwang && st.numbered_side == COLOR_NB)) return "";
    const Color first = st.starts();
    const Color named = st.numbered_side == COLOR_NB ? first : st.numbered_side;
    return std::string(named == WHITE ? "white" : "black") + (named != first ? " - " : " ") + tree;
}

}  // namespace echecs::solver

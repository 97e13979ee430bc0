#include "solver/popeye_sstip.h"

#include <regex>
#include <string>

namespace echecs::solver {

namespace {

// Popeye's synonyms (py-engl.txt, "Branch types" and "Fork into a branch"),
// checked against Popeye 4.104 side by side: N half-moves, G the leaf's goal.
struct Form {
    const char* pattern;
    const char* play;  // the traditional stipulation's prefix
    int parity;        // N's parity the form needs (1 odd, 0 even)
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
};

[[noreturn]] void refuse(std::string_view tree, const std::string& why) {
    throw StipulationError("sstipulation '" + std::string(tree.substr(0, 60)) + "': " + why +
                           " (read: the forms that are synonyms of a stipulation, Na[G]d, Nad[G], "
                           "Na[1a[G]d]d and its reflex constraint {!1a[G]d}, Nhh[G], Nh[G]h, Ns[G], "
                           "Ns[1d[G]a], Ns[1h[G]h], each also as n:N with n = N, exact play)");
}

}  // namespace

Stipulation parse_sstipulation(Color first, std::string_view tree) {
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
    for (const Form& f : FORMS) {
        std::smatch m;
        if (!std::regex_match(text, m, std::regex(f.pattern))) continue;
        if (m[1].str().size() > 3) refuse(tree, "too many half-moves");
        const int n = std::stoi(m[1].str());
        const std::string goal = m[2].str();
        if (m.size() > 3 && m[3].str() != goal) refuse(tree, "the constraint's goal differs from the fork's");
        if (n < 1 || (f.parity != 2 && n % 2 != f.parity))
            refuse(tree, std::to_string(n) + " half-moves do not fit this form");
        std::string moves;
        if (f.play[0] == 'h' && f.play[1] == '\0')
            moves = std::to_string(n / 2) + (n % 2 ? ".5" : "");  // help play: half-moves
        else if (f.parity == 2)
            moves = std::to_string(n);  // series: the series' moves
        else
            moves = std::to_string((n + 1) / 2);  // battle play: the attacker's moves
        Stipulation st = parse_stipulation(std::string(exact ? "exact-" : "") + f.play + goal + moves);
        st.exchanged = first != st.starts();
        return st;
    }
    refuse(tree, "this form is not supported");
}

}  // namespace echecs::solver

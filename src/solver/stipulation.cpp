#include "solver/stipulation.h"

#include <cctype>

namespace echecs::solver {

std::string Stipulation::str() const {
    std::string s = play == Play::Help ? "h" : play == Play::Self ? "s" : "";
    s += goal == Goal::Mate ? '#' : '=';
    s += std::to_string(moves);
    if (half) s += ".5";
    return s;
}

Stipulation parse_stipulation(std::string_view text) {
    std::string_view s = text;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    const std::string quoted = "stipulation '" + std::string(text.substr(0, 40)) + "'";
    const char* forms = " (expected #n, h#n, h#n.5, s#n, =n, h=n or s=n)";
    if (s.empty()) throw StipulationError("empty stipulation" + std::string(forms));

    Stipulation st;
    const char first = char(std::tolower(static_cast<unsigned char>(s.front())));
    if (first == 'h' || first == 's') {
        st.play = first == 'h' ? Play::Help : Play::Self;
        s.remove_prefix(1);
    }
    if (s.empty() || (s.front() != '#' && s.front() != '='))
        throw StipulationError(quoted + ": no goal '#' (mate) or '=' (stalemate)" + forms);
    st.goal = s.front() == '#' ? Goal::Mate : Goal::Stalemate;
    s.remove_prefix(1);

    std::string_view digits = s.substr(0, s.find('.'));
    if (digits.empty() || digits.size() > 3)
        throw StipulationError(quoted + ": the number of moves is missing or too long" + forms);
    int n = 0;
    for (char c : digits) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw StipulationError(quoted + ": '" + std::string(1, c) + "' is not a digit" + forms);
        n = n * 10 + (c - '0');
    }
    s.remove_prefix(digits.size());
    if (!s.empty()) {
        if (s != ".5") throw StipulationError(quoted + ": only '.5' may follow the number of moves" + forms);
        if (st.play != Play::Help)
            throw StipulationError(quoted + ": a half move ('.5') exists only in helpplay (h#n.5, h=n.5)");
        st.half = true;
    }
    st.moves = n;
    if (n > Stipulation::MAX_MOVES)
        throw StipulationError(quoted + ": at most " + std::to_string(Stipulation::MAX_MOVES) + " moves");
    if (n == 0 && !st.half) throw StipulationError(quoted + ": at least one move");
    return st;
}

}  // namespace echecs::solver

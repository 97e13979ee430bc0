#include "solver/stipulation.h"

#include <array>
#include <cctype>

namespace echecs::solver {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    return true;
}

// Popeye's stipulations the solver cannot play, each with its reason.
struct Refused {
    std::string_view prefix, reason;
};
constexpr std::array<Refused, 13> REFUSED = {{
    {"exact-", "exact play ('exact-') is not supported"},
    {"ser-reci-h", "series reciprocal helpplay is not supported"},
    {"ser-hs", "series helpselfplay is not supported"},
    {"ser-s", "series selfplay is not supported"},
    {"ser-r", "series reflexplay is not supported"},
    {"pser", "parry series play is not supported"},
    {"semi-r", "semi-reflexplay is not supported"},
    {"reci-h", "reciprocal helpplay is not supported"},
    {"hs", "helpselfplay (hs#) is not supported: the solver has no search for it yet"},
    {"r", "reflexplay (r#) is not supported: the solver has no search for it yet"},
    {"dia", "proof games (dia) are not supported"},
    {"a=>b", "proof games (a=>b) are not supported"},
    {"phser", "series play with a help move is not supported"},
}};

}  // namespace

std::string Stipulation::str() const {
    std::string s = play == Play::Series       ? "ser-"
                    : play == Play::SeriesHelp ? "ser-h"
                    : play == Play::Help       ? "h"
                    : play == Play::Self       ? "s"
                                               : "";
    s += goal == Goal::Mate ? "#" : goal == Goal::Stalemate ? "=" : "==";
    s += std::to_string(moves);
    if (half) s += ".5";
    return s;
}

Stipulation parse_stipulation(std::string_view text) {
    std::string_view s = text;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    const std::string quoted = "stipulation '" + std::string(text.substr(0, 40)) + "'";
    const char* forms = " (expected #n, h#n, h#n.5, s#n, ser-#n, ser-h#n; goals # = ==)";
    if (s.empty()) throw StipulationError("empty stipulation" + std::string(forms));

    for (const Refused& r : REFUSED)
        if (starts_with(s, r.prefix)) throw StipulationError(quoted + ": " + std::string(r.reason));

    Stipulation st;
    if (starts_with(s, "ser-h")) {
        st.play = Play::SeriesHelp;
        s.remove_prefix(5);
    } else if (starts_with(s, "ser-")) {
        st.play = Play::Series;
        s.remove_prefix(4);
    } else if (starts_with(s, "h") || starts_with(s, "s")) {
        st.play = starts_with(s, "h") ? Play::Help : Play::Self;
        s.remove_prefix(1);
    }
    if (s.starts_with("##")) throw StipulationError(quoted + ": double mate ('##', '##!') is not supported");
    if (s.empty() || (s.front() != '#' && s.front() != '='))
        throw StipulationError(quoted + ": no goal '#' (mate), '=' (stalemate) or '==' (double stalemate)" + forms);
    st.goal = s.front() == '#' ? Goal::Mate : Goal::Stalemate;
    s.remove_prefix(1);
    if (st.goal == Goal::Stalemate && s.starts_with("=")) {
        st.goal = Goal::DoubleStalemate;
        s.remove_prefix(1);
    }

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
    const int most = st.series() ? Stipulation::MAX_SERIES_MOVES : Stipulation::MAX_MOVES;
    if (n > most)
        throw StipulationError(
            quoted + ": at most " + std::to_string(most) + " moves" +
            (st.series() ? "" : " (series play: " + std::to_string(Stipulation::MAX_SERIES_MOVES) + ")"));
    if (n == 0 && !st.half) throw StipulationError(quoted + ": at least one move");
    return st;
}

}  // namespace echecs::solver

#include "solver/stipulation.h"

#include <array>
#include <cctype>
#include <utility>
#include <vector>

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
// Parry series: pser-#, pser-h#, pser-s# and phser-# are played, the other forms not.
constexpr std::array<Refused, 12> REFUSED = {{
    {"ser-dia", "series proof games are not supported"},
    {"ser-a=>b", "series proof games are not supported"},
    {"pser-dia", "parry series proof games are not supported"},
    {"pser-a=>b", "parry series proof games are not supported"},
    {"phser-dia", "parry series proof games are not supported"},
    {"phser-a=>b", "parry series proof games are not supported"},
    {"pser-hdia", "parry series proof games are not supported"},
    {"pser-ha=>b", "parry series proof games are not supported"},
    {"pser-hs", "parry series helpselfplay is not supported"},
    {"pser-r", "parry series reflexplay is not supported"},
    {"phser-s", "help parry series selfplay is not supported"},
    {"phser-r", "help parry series reflexplay is not supported"},
}};

const char* goal_text(Goal g) {
    switch (g) {
        case Goal::Mate: return "#";
        case Goal::Stalemate: return "=";
        case Goal::DoubleStalemate: return "==";
        case Goal::DoubleMate: return "##";
        case Goal::CounterMate: return "##!";
        case Goal::Check: return "+";
        case Goal::Capture: return "x";
        case Goal::AnyMove: return "~";
        case Goal::Castling: return "00";
        case Goal::EnPassant: return "ep";
        case Goal::Target: return "z";
        case Goal::MateOrStalemate: return "#=";
        case Goal::Zugzwang: return "/";
    }
    return "#";
}

// A goal's sign, with the square of z (zc8).
std::string goal_sign(Goal g, Square target) {
    std::string s = goal_text(g);
    if (g == Goal::Target) s += {char('a' + file_of(target)), char('1' + rank_of(target))};
    return s;
}

// A goal's sign at the front of s, taken off (zc8: the square too, into
// `target`); false when there is none. Popeye's longest signs first.
bool take_goal(std::string_view& s, Goal& g, Square& target) {
    static constexpr std::pair<std::string_view, Goal> SIGNS[] = {
        {"##!", Goal::CounterMate}, {"##", Goal::DoubleMate},      {"#=", Goal::MateOrStalemate},
        {"#", Goal::Mate},          {"==", Goal::DoubleStalemate}, {"=", Goal::Stalemate},
        {"+", Goal::Check},         {"x", Goal::Capture},          {"~", Goal::AnyMove},
        {"00", Goal::Castling},     {"ep", Goal::EnPassant},
    };
    for (const auto& [sign, goal] : SIGNS)
        if (starts_with(s, sign)) {
            g = goal;
            s.remove_prefix(sign.size());
            return true;
        }
    const auto lower = [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); };
    if (s.size() >= 3 && lower(s[0]) == 'z' && lower(s[1]) >= 'a' && lower(s[1]) <= 'h' && s[2] >= '1' && s[2] <= '8') {
        g = Goal::Target;
        target = make_square(lower(s[1]) - 'a', s[2] - '1');
        s.remove_prefix(3);
        return true;
    }
    return false;
}

// The goals reciprocal helpplay reads: those that end the game (double mate
// and counter-mate are refused below, with their own reason).
bool reci_goal_ok(Goal g) { return terminal_goal(g) && g != Goal::MateOrStalemate; }

}  // namespace

std::string Stipulation::sstip_tree() const {
    const bool zug = goal == Goal::Zugzwang;
    if (!(play == Play::Help || (zug && (play == Play::Direct || play == Play::SeriesHelp)))) return "";
    // The capture-zugzwang's nested branch: its moves not shown (/), the side in it not in check ({!+}).
    const std::string leaf = zug ? "/1d[" + goal_sign(zug_goal, target) + "]a{!+}" : goal_sign(goal, target);
    const std::string n = std::to_string(play == Play::SeriesHelp ? moves : plies());
    const std::string len = exact ? n + ":" + n : n;
    if (play == Play::Direct) return len + "a[" + leaf + "]d";
    if (play == Play::SeriesHelp) return len + "s[1a[" + leaf + "]d]";
    return plies() % 2 ? len + "h[" + leaf + "]h" : len + "hh[" + leaf + "]";
}

std::string Stipulation::str() const {
    if (goal == Goal::Zugzwang) return sstip_tree();
    if (play == Play::Proof)
        return std::string(exact ? "exact-" : "") + (atob ? "a=>b" : "dia") + std::to_string(moves) +
               (half ? ".5" : "");
    std::string s = std::string(exact ? "exact-" : "") + (play == Play::Series            ? "ser-"
                                                          : play == Play::SeriesHelp      ? "ser-h"
                                                          : play == Play::SeriesSelf      ? "ser-s"
                                                          : play == Play::SeriesReflex    ? "ser-r"
                                                          : play == Play::SeriesHelpSelf  ? "ser-hs"
                                                          : play == Play::Help            ? "h"
                                                          : play == Play::Self            ? "s"
                                                          : play == Play::Reflex          ? "r"
                                                          : play == Play::SemiReflex      ? "semi-r"
                                                          : play == Play::HelpSelf        ? "hs"
                                                          : play == Play::HelpReflex      ? "hr"
                                                          : play == Play::ReciHelp        ? "reci-h"
                                                          : play == Play::SeriesReciHelp  ? "ser-reci-h"
                                                          : play == Play::ParrySeries     ? "pser-"
                                                          : play == Play::ParrySeriesHelp ? "pser-h"
                                                          : play == Play::ParrySeriesSelf ? "pser-s"
                                                          : play == Play::HelpParrySeries ? "phser-"
                                                                                          : "");
    if ((play == Play::ReciHelp || play == Play::SeriesReciHelp) && reci_goal != goal)
        s += std::string("(") + goal_text(reci_goal) + ")";
    s += goal_sign(goal, target);
    s += std::to_string(moves);
    if (half) s += ".5";
    return s;
}

Stipulation parse_stipulation(std::string_view text) {
    std::string_view s = text;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    const std::string quoted = "stipulation '" + std::string(text.substr(0, 40)) + "'";
    const char* forms =
        " (expected #n, h#n, h#n.5, s#n, r#n, semi-r#n, hs#n, hs#n.5, hr#n, reci-h#n, ser-#n, ser-h#n, ser-s#n, "
        "ser-reci-h#n, "
        "ser-r#n, "
        "ser-hs#n, pser-#n, pser-h#n, pser-s#n, phser-#n, dian, a=>bn; goals # = == ## ##! #= + x ~ 00 ep zc8)";
    const std::string shown(text.substr(0, 40));
    // The error with its key and parameters (the stipulation as written first).
    auto error = [&](const std::string& msg, const char* key,
                     std::vector<std::pair<std::string, std::string>> params = {}) {
        params.insert(params.begin(), {"text", shown});
        return StipulationError(msg, {key, std::move(params)});
    };
    if (s.empty()) throw error("empty stipulation" + std::string(forms), "stip_empty");

    // Exact proof games: only lines of the full length.
    bool exact = false;
    if (starts_with(s, "exact-")) {
        exact = true;
        s.remove_prefix(6);
    }
    for (const Refused& r : REFUSED)
        if (starts_with(s, r.prefix))
            throw error(quoted + ": " + std::string(r.reason), "stip_unsupported", {{"form", std::string(r.prefix)}});

    Stipulation st;
    Goal reci_goal = Goal::Mate;  // reci-h(g): Black's own goal, when bracketed
    bool bracketed = false;
    if (starts_with(s, "dia") || starts_with(s, "a=>b")) {
        st.play = Play::Proof;
        st.atob = starts_with(s, "a");
        s.remove_prefix(st.atob ? 4 : 3);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    } else if (starts_with(s, "reci-h") || starts_with(s, "ser-reci-h")) {
        st.play = starts_with(s, "ser-") ? Play::SeriesReciHelp : Play::ReciHelp;
        s.remove_prefix(st.play == Play::ReciHelp ? 6 : 10);
        // reci-h(=)#n: Black's own goal in brackets, when it is not the help line's.
        if (s.starts_with("(")) {
            s.remove_prefix(1);
            Square unused = SQ_NONE;
            if (!take_goal(s, reci_goal, unused) || !reci_goal_ok(reci_goal) || !s.starts_with(")"))
                throw error(quoted + ": expected a goal '#', '=' or '==' between brackets, as in reci-h(=)#2" + forms,
                            "stip_no_goal");
            s.remove_prefix(1);
            bracketed = true;
        }
    } else if (starts_with(s, "phser-")) {
        st.play = Play::HelpParrySeries;
        s.remove_prefix(6);
    } else if (starts_with(s, "pser-")) {
        st.play = starts_with(s, "pser-h")   ? Play::ParrySeriesHelp
                  : starts_with(s, "pser-s") ? Play::ParrySeriesSelf
                                             : Play::ParrySeries;
        s.remove_prefix(st.play == Play::ParrySeries ? 5 : 6);
    } else if (starts_with(s, "ser-hs")) {
        st.play = Play::SeriesHelpSelf;
        s.remove_prefix(6);
    } else if (starts_with(s, "ser-r")) {
        st.play = Play::SeriesReflex;
        s.remove_prefix(5);
    } else if (starts_with(s, "ser-h") || starts_with(s, "ser-s")) {
        st.play = starts_with(s, "ser-h") ? Play::SeriesHelp : Play::SeriesSelf;
        s.remove_prefix(5);
    } else if (starts_with(s, "ser-")) {
        st.play = Play::Series;
        s.remove_prefix(4);
    } else if (starts_with(s, "semi-r")) {
        st.play = Play::SemiReflex;
        s.remove_prefix(6);
    } else if (starts_with(s, "hs") || starts_with(s, "hr")) {
        st.play = starts_with(s, "hs") ? Play::HelpSelf : Play::HelpReflex;
        s.remove_prefix(2);
    } else if (starts_with(s, "r")) {
        st.play = Play::Reflex;
        s.remove_prefix(1);
    } else if (starts_with(s, "h") || starts_with(s, "s")) {
        st.play = starts_with(s, "h") ? Play::Help : Play::Self;
        s.remove_prefix(1);
    }
    if (st.play != Play::Proof) {
        if (!take_goal(s, st.goal, st.target))
            throw error(quoted +
                            ": no goal '#' (mate), '=' (stalemate), '==' (double stalemate), '##' (double mate), "
                            "'##!' (counter-mate), '#=' (mate or stalemate), '+' (check), 'x' (capture), '~' (any "
                            "move), '00' (castling), 'ep' (en passant) or 'z' and a square (arrival)" +
                            forms,
                        "stip_no_goal");
        if (st.play == Play::ReciHelp || st.play == Play::SeriesReciHelp) {
            if (!reci_goal_ok(st.goal))
                throw error(quoted + ": reciprocal helpplay to a goal other than '#', '=' or '==' is not supported",
                            "stip_unsupported", {{"form", std::string("reci-h") + goal_text(st.goal)}});
            st.reci_goal = bracketed ? reci_goal : st.goal;
            if (self_check_goal(st.goal) || self_check_goal(st.reci_goal))
                throw error(quoted + ": reciprocal helpplay with double mate or counter-mate is not supported",
                            "stip_unsupported", {{"form", "reci-h##"}});
        }
        if (st.parry() && self_check_goal(st.goal))
            throw error(quoted + ": parry series with double mate or counter-mate is not supported", "stip_unsupported",
                        {{"form", "pser##"}});
        if (st.parry() && exact)
            throw error(quoted + ": exact parry series (exact-pser-) is not supported", "stip_unsupported",
                        {{"form", "exact-pser"}});
    }

    std::string_view digits = s.substr(0, s.find('.'));
    if (digits.empty() || digits.size() > 3)
        throw error(quoted + ": the number of moves is missing or too long" + forms, "stip_moves_missing");
    int n = 0;
    for (char c : digits) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw error(quoted + ": '" + std::string(1, c) + "' is not a digit" + forms, "stip_not_digit",
                        {{"char", std::string(1, c)}});
        n = n * 10 + (c - '0');
    }
    s.remove_prefix(digits.size());
    if (!s.empty()) {
        if (s != ".5") throw error(quoted + ": only '.5' may follow the number of moves" + forms, "stip_after_moves");
        if (!st.help() && st.play != Play::Proof)
            throw error(quoted +
                            ": a half move ('.5') exists only in helpplay and proof games (h#n.5, hs#n.5, "
                            "reci-h#n.5, dia n.5)",
                        "stip_half_move");
        st.half = true;
    }
    st.moves = n;
    st.exact = exact;
    const int most = st.series() ? Stipulation::MAX_SERIES_MOVES : Stipulation::MAX_MOVES;
    if (n > most)
        throw error(quoted + ": at most " + std::to_string(most) + " moves" +
                        (st.series() ? "" : " (series play: " + std::to_string(Stipulation::MAX_SERIES_MOVES) + ")"),
                    "stip_too_many", {{"max", std::to_string(most)}});
    if (n == 0 && (!st.half || st.play == Play::HelpSelf || st.play == Play::HelpReflex || st.play == Play::ReciHelp))
        throw error(quoted + ": at least one move", "stip_zero");
    return st;
}

}  // namespace echecs::solver

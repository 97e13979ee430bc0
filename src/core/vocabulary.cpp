#include "vocabulary.h"

#include "utf8.h"

namespace echecs {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::optional<Variant> variant_from_name(std::string_view s) {
    for (const VariantInfo& v : VARIANTS) {
        if (iequals(s, v.name) || iequals(s, v.xboard)) return v.variant;
        for (std::string_view a : v.aliases)
            if (!a.empty() && iequals(s, a)) return v.variant;
    }
    return std::nullopt;
}

std::string accepted_variant_names() {
    std::string out;
    for (const VariantInfo& v : VARIANTS) out += (out.empty() ? "" : ", ") + std::string(v.name);
    return out;
}

std::string unknown_variant_message(std::string_view s) {
    return "unknown variant " + quote_input(s) + " (accepted: " + accepted_variant_names() + ")";
}

std::optional<Variant> variant_from_pgn(std::string_view s) {
    s = trim(s);
    if (s.empty() || iequals(s, "from position")) return Variant::Chess;
    if (auto v = variant_from_name(s)) return v;
    constexpr std::string_view suffix = " chess";
    if (s.size() > suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix))
        return variant_from_name(trim(s.substr(0, s.size() - suffix.size())));
    return std::nullopt;
}

std::string accepted_pgn_variant_names() {
    std::string out;
    for (const VariantInfo& v : VARIANTS)
        out +=
            (out.empty() ? "" : ", ") + std::string(v.pgn.empty() ? "Standard" : v.pgn);  // chess: no tag or "Standard"
    return out;
}

std::optional<Color> color_from_name(std::string_view s) {
    for (const ColorInfo& c : COLORS)
        if (iequals(s, c.name)) return c.color;
    return std::nullopt;
}

std::optional<Outcome> outcome_from_pgn(std::string_view s) {
    for (const OutcomeInfo& o : OUTCOMES)
        if (s == o.pgn) return o.outcome;
    return std::nullopt;
}

std::optional<Termination> termination_from_name(std::string_view s) {
    s = trim(s);
    if (s.empty()) return std::nullopt;
    for (const TerminationInfo& t : TERMINATIONS)
        if (iequals(s, t.api) || iequals(s, t.reason)) return t.termination;
    return std::nullopt;
}

}  // namespace echecs

// Words of PGN move text: glyphs and their NAGs, null moves, result
// markers, comment commands, the FEN's first move.
#include "pgn_tokens.h"

#include <algorithm>
#include <charconv>

#include "utf8.h"

namespace echecs::pgn_tokens {

namespace {

// Annotation glyphs as separate tokens or glued after a move, and their NAGs.
struct Glyph {
    std::string_view text;
    int nag;
};
constexpr Glyph GLYPHS[] = {
    {"!!", 3},      {"??", 4},      {"!?", 5},        {"?!", 6},      {"!", 1},       {"?", 2},
    {"+/=", 14},    {"=/+", 15},    {"+/-", 16},      {"-/+", 17},    {"+=", 14},     {"=+", 15},
    {"+-", 18},     {"-+", 19},     {"=/\u221E", 44}, {"\u221E", 13}, {"\u2A72", 14}, {"\u2A71", 15},
    {"\u00B1", 16}, {"\u2213", 17}, {"\u25A1", 7},    {"N", 146},     {"=", 10},
};
// Glyphs that may be glued to a move ("e4!?", "Nf3+-"): not "=" or "N", which
// a move can end with.
bool glueable(const Glyph& g) { return g.text != "=" && g.text != "N"; }

}  // namespace

std::optional<int> glyph_nag(std::string_view tok) {
    for (const Glyph& g : GLYPHS)
        if (tok == g.text) return g.nag;
    return std::nullopt;
}

bool is_null_move(std::string_view tok) { return tok == "--" || tok == "Z0" || tok == "0000" || tok == "@@@@"; }
bool is_en_passant_mark(std::string_view tok) { return tok == "e.p." || tok == "e.p" || tok == "ep"; }

std::string result_marker(std::string_view tok) {
    if (tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") return std::string(tok);
    if (tok == "1/2" || tok == "\u00BD-\u00BD") return "1/2-1/2";  // as some tools write a draw
    return "";
}

// "[%clk 0:04:58] [%eval 0.25]" -> {clk, 0:04:58}, {eval, 0.25}.
void parse_commands(std::string_view c, std::vector<PgnCommand>& out) {
    for (std::size_t i = c.find("[%"); i != std::string_view::npos; i = c.find("[%", i)) {
        const std::size_t end = c.find(']', i);
        if (end == std::string_view::npos) return;
        std::string_view body = c.substr(i + 2, end - i - 2);
        const std::size_t sp = body.find_first_of(" \t\n");
        PgnCommand cmd{std::string(body.substr(0, sp)), ""};
        if (sp != std::string_view::npos) {
            std::string_view v = body.substr(sp);
            while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\n')) v.remove_prefix(1);
            while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\n')) v.remove_suffix(1);
            cmd.value = std::string(v);
        }
        if (!cmd.name.empty()) out.push_back(std::move(cmd));
        i = end + 1;
    }
}

bool is_symbol_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
           c == '#' || c == '=' || c == ':' || c == '-';
}

// Side to move and move number of the first move, from a FEN tag.
void first_move_of(const std::string& fen, int& number, Color& side) {
    number = 1;
    side = WHITE;
    std::vector<std::string_view> fields;
    std::string_view f = fen;
    while (!f.empty()) {
        const std::size_t a = f.find_first_not_of(" \t");
        if (a == std::string_view::npos) break;
        f.remove_prefix(a);
        const std::size_t b = std::min(f.find_first_of(" \t"), f.size());
        fields.push_back(f.substr(0, b));
        f.remove_prefix(b);
    }
    if (fields.size() >= 2 && fields[1] == "b") side = BLACK;
    if (fields.size() >= 6) {
        int n = 0;
        auto [p, ec] = std::from_chars(fields[5].data(), fields[5].data() + fields[5].size(), n);
        if (ec == std::errc() && p == fields[5].data() + fields[5].size() && n >= 1 && n <= 100000) number = n;
    }
}

std::vector<std::pair<std::string, std::string>> pgn_move_params(int game, int line, int number, Color side,
                                                                 std::string_view text) {
    return {{"game", std::to_string(game)},
            {"line", std::to_string(line)},
            {"move", std::to_string(number) + (side == WHITE ? "." : "...")},
            {"side", std::string(color_info(side).name)},
            {"text", quote_input(text, 40)}};
}

// Glued glyphs ("e4!?", "Nf3+-") and "e.p." ("exd6e.p.") leave the move.
void strip_move_suffixes(std::string& tok, std::vector<int>& nags) {
    for (bool again = true; again && !tok.empty();) {
        again = false;
        for (const Glyph& gl : GLYPHS) {
            if (!glueable(gl) || tok.size() <= gl.text.size() || !tok.ends_with(gl.text)) continue;
            tok.resize(tok.size() - gl.text.size());
            nags.insert(nags.begin(), gl.nag);
            again = true;
            break;
        }
        for (std::string_view ep : {"e.p.", "e.p"}) {
            if (!again && tok.size() > ep.size() && tok.ends_with(ep)) {
                tok.resize(tok.size() - ep.size());
                again = true;
            }
        }
        // "dxc6ep": no move ends with "ep" after its square.
        if (!again && tok.size() > 4 && tok.ends_with("ep") && tok[tok.size() - 3] >= '1' &&
            tok[tok.size() - 3] <= '8') {
            tok.resize(tok.size() - 2);
            again = true;
        }
        // "Kd4=": correspondence sites (SchemingMind) glue "=" to a move to
        // offer a draw; no move ends with "=" but a promotion waiting for its
        // piece ("e8=", or an Avalanche push "Nf3,d1="), which stays (and is
        // then reported as unreadable).
        if (!again && tok.size() > 1 && tok.back() == '=') {
            const std::size_t last_part = tok.rfind(',') + 1;  // the push of an Avalanche move, else 0
            const char before = tok[tok.size() - 2];
            const bool promotion = (before == '1' || before == '8') && tok[last_part] >= 'a' && tok[last_part] <= 'h';
            if (!promotion) {
                tok.pop_back();
                again = true;
            }
        }
    }
}

}  // namespace echecs::pgn_tokens

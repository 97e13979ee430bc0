// PGN text to games: tags, move text, comments and their commands, NAGs and
// glyphs; variations are read (nesting, comments inside) and skipped.
#include <algorithm>
#include <cctype>
#include <charconv>

#include "pgn.h"
#include "pgn_tokens.h"
#include "utf8.h"

namespace echecs {

using namespace pgn_tokens;

namespace {

constexpr std::string_view BOM = "\xEF\xBB\xBF";

std::string move_label(int number, Color side, std::string_view san) {
    std::string s = std::to_string(number) + (side == WHITE ? ". " : "... ");
    if (!is_valid_utf8(san) || san.size() > 40 ||
        std::any_of(san.begin(), san.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
        return s + quote_input(san, 40);
    return s + std::string(san);
}

class Reader {
public:
    explicit Reader(std::string_view text) : s_(decode(text)) {}

    std::vector<PgnGame> games() {
        std::vector<PgnGame> out;
        while (true) {
            skip_space();
            if (at_end()) break;
            PgnGame g;
            g.index = int(out.size()) + 1;
            g.line = line_;
            const std::size_t start = i_;
            read_game(g);
            if (i_ == start) get();                                               // always make progress
            if (g.tags.empty() && !g.has_move_text && g.error.empty()) continue;  // comments alone
            out.push_back(std::move(g));
        }
        return out;
    }

private:
    // A byte-order mark says UTF-8: bad bytes are replaced. Without one,
    // text that is not UTF-8 is taken for Windows-1252.
    static std::string decode(std::string_view text) {
        if (!text.starts_with(BOM)) return to_utf8_from_legacy(text);
        text.remove_prefix(BOM.size());
        return replace_invalid_utf8(text);
    }

    bool at_end() const { return i_ >= s_.size(); }
    char peek() const { return s_[i_]; }
    bool at_line_start() const { return i_ == 0 || s_[i_ - 1] == '\n' || s_[i_ - 1] == '\r'; }
    char get() {
        const char c = s_[i_++];
        // "\n", "\r\n" and a lone "\r" each end a line.
        if (c == '\n' || (c == '\r' && (at_end() || peek() != '\n'))) ++line_;
        return c;
    }
    // Skips spaces, line ends, '%' escape lines and byte-order marks; returns
    // whether an empty line was crossed.
    bool skip_space() {
        bool blank = false;
        int line_ends = 0;
        while (!at_end()) {
            const char c = peek();
            if (c == '\n' || c == '\r') {
                const int before = line_;
                get();
                if (line_ != before && ++line_ends >= 2) blank = true;
            } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
                get();
            } else if (c == '%' && at_line_start()) {
                while (!at_end() && peek() != '\n' && peek() != '\r') get();
                line_ends = 0;  // an escape line is not an empty line
            } else if (s_.compare(i_, BOM.size(), BOM) == 0) {
                i_ += BOM.size();  // at the start of the file, or of a file appended to another
            } else {
                break;
            }
        }
        return blank;
    }

    std::string where(const PgnGame& g, int line) const {
        return "game " + std::to_string(g.index) + ", line " + std::to_string(line);
    }
    using Params = std::vector<std::pair<std::string, std::string>>;
    // "game 3, line 41, after move 12... Nf6: <msg>"; reading goes on at the next game.
    // `problem` (pgn_tag_malformed, ...) and `params` say it for a program.
    void fail(PgnGame& g, const std::string& msg, const std::string& problem, Params params = {},
              bool in_tags = false) {
        if (!g.error.empty()) return;
        g.error_detail.key = "pgn_syntax";
        g.error_detail.params = {
            {"game", std::to_string(g.index)}, {"line", std::to_string(line_)}, {"problem", problem}};
        for (auto& p : params) g.error_detail.params.push_back(std::move(p));
        g.error = where(g, line_);
        if (!g.moves.empty()) {
            const PgnMove& m = g.moves.back();
            g.error += ", after move " + move_label(m.number, m.side, m.san);
        }
        g.error += ": " + msg;
        if (in_tags)
            skip_rest_of_game();
        else
            resync();
    }
    // "game 3, line 41, move 12... 'Zf3': <msg>"; `key`: pgn_move_unreadable, pgn_null_move, pgn_nag_unreadable.
    void fail_at_move(PgnGame& g, int line, int number, Color side, std::string_view tok, const std::string& msg,
                      const std::string& key) {
        if (!g.error.empty()) return;
        g.error_detail = {key, pgn_move_params(g.index, line, number, side, tok)};
        g.error = where(g, line) + ", move " + std::to_string(number) + (side == WHITE ? ". " : "... ") +
                  quote_input(tok, 40) + ": " + msg;
        resync();
    }
    // After a malformed tag: the rest of this tag section, then this game's
    // move text, up to the next line that begins with '['.
    void skip_rest_of_game() {
        while (!at_end()) {
            while (!at_end() && peek() != '\n' && peek() != '\r') get();
            const bool blank = skip_space();
            if (at_end() || (blank && peek() == '[')) return;  // the next game's tags
            if (peek() != '[') break;
        }
        resync();
    }
    // Skips to the start of the next game: the next line that begins with '['.
    void resync() {
        while (!at_end()) {
            if (peek() == '[' && at_line_start()) return;
            get();
        }
    }

    // [Name "value"]; returns false (with g.error set) when malformed.
    bool read_tag(PgnGame& g, std::string& name, std::string& value) {
        get();  // '['
        while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
        while (!at_end() && is_symbol_char(peek())) name += get();
        while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
        if (name.empty() || at_end() || peek() != '"') {
            fail(g, "malformed tag pair (expected [Name \"value\"])", "pgn_tag_malformed", {}, true);
            return false;
        }
        get();
        bool closed = false;
        while (!at_end() && peek() != '\n' && peek() != '\r') {
            char c = get();
            if (c == '\\' && !at_end() && peek() != '\n' && peek() != '\r') {
                c = get();  // a tag value never spans lines
            } else if (c == '"') {
                closed = true;
                break;
            }
            value += c;
        }
        while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
        if (!closed || at_end() || peek() != ']') {
            fail(g, "malformed tag pair [" + name + " ...] (unterminated value or missing ']')", "pgn_tag_unterminated",
                 {{"name", quote_input(name, 40)}}, true);
            return false;
        }
        get();
        return true;
    }

    // Tag pairs up to the move text. A second tag section (after an empty
    // line, or repeating a tag name) belongs to the next game.
    bool read_tags(PgnGame& g) {
        bool blank = false;
        while (true) {
            const std::size_t mark = i_;
            const int mark_line = line_;
            if (!at_end() && peek() == '[') {
                std::string name, value;
                if (!read_tag(g, name, value)) return false;
                const bool repeated =
                    std::any_of(g.tags.begin(), g.tags.end(), [&](const auto& t) { return t.first == name; });
                if (!g.tags.empty() && (blank || repeated)) {
                    i_ = mark, line_ = mark_line;  // the next game's first tag
                    return false;
                }
                g.tags.emplace_back(std::move(name), std::move(value));
            }
            blank = skip_space();
            if (at_end() || peek() != '[') return true;
        }
    }

    void variation_unclosed(PgnGame& g, int opened) {
        fail(g, "variation opened on line " + std::to_string(opened) + " is not closed", "pgn_variation_unclosed",
             {{"opened", std::to_string(opened)}});
    }

    std::string read_comment(PgnGame& g, bool& ok) {
        const int start = line_;
        get();  // '{'
        std::string c;
        while (!at_end() && peek() != '}') {
            const char d = get();  // a line break inside a comment is layout: a space
            if (d == '\n' || d == '\r')
                c += c.empty() || c.back() != ' ' ? " " : "";
            else
                c += d;
        }
        if (at_end()) {
            ok = false;
            fail(g, "comment opened on line " + std::to_string(start) + " is not closed", "pgn_comment_unclosed",
                 {{"opened", std::to_string(start)}});
            return c;
        }
        get();
        return c;
    }
    std::string read_line_comment() {
        get();  // ';'
        std::string c;
        while (!at_end() && peek() != '\n' && peek() != '\r') c += get();
        return c;
    }

    void attach_comment(PgnGame& g, std::string c) {
        std::string_view v = c;
        while (!v.empty() && std::string_view(" \t\n").find(v.front()) != std::string_view::npos) v.remove_prefix(1);
        while (!v.empty() && std::string_view(" \t\n").find(v.back()) != std::string_view::npos) v.remove_suffix(1);
        if (v.empty()) return;
        std::string& to = g.moves.empty() ? g.comment : g.moves.back().comment;
        if (!to.empty()) to += ' ';
        to += v;
        if (!g.moves.empty()) parse_commands(v, g.moves.back().commands);
    }

    void read_game(PgnGame& g) {
        if (!read_tags(g)) return;
        int number = 1;
        Color side = WHITE;
        first_move_of(g.start_fen(), number, side);
        int depth = 0, variation_line = 0;  // nesting of skipped variations
        while (true) {
            skip_space();
            if (at_end()) {
                if (depth > 0) variation_unclosed(g, variation_line);
                return;
            }
            const char c = peek();
            if (c == '[') {
                if (depth > 0) variation_unclosed(g, variation_line);
                return;  // the next game, this one without a termination marker
            }
            if (c == '{' || c == ';') {
                bool ok = true;
                std::string text = c == '{' ? read_comment(g, ok) : read_line_comment();
                if (!ok) return;
                if (depth == 0) attach_comment(g, std::move(text));
                continue;
            }
            if (c == '(') {
                if (depth == 0 && g.moves.empty())
                    return fail(g, "a variation '(' before the first move", "pgn_variation_first");
                if (depth++ == 0) variation_line = line_;
                get();
                continue;
            }
            if (c == ')') {
                if (depth == 0) return fail(g, "')' without a variation", "pgn_paren_unmatched");
                --depth;
                get();
                continue;
            }
            const int line = line_;
            std::string tok;
            while (!at_end()) {
                const char d = peek();
                if (d == ' ' || d == '\t' || d == '\n' || d == '\r' || d == '{' || d == '}' || d == '(' || d == ')' ||
                    d == ';' || d == '[' || d == ']') {
                    if (d != '(' || !take_promotion_in_parens(tok)) break;
                }
                tok += get();
            }
            if (tok.empty()) {  // a stray '}' or ']'
                const std::string what = quote_char_at(s_, i_);
                get();
                return fail(g, "unexpected " + what, "pgn_unexpected", {{"char", what}});
            }
            if (depth > 0) continue;  // inside a variation: skipped, null moves included
            g.has_move_text = true;
            if (std::string r = result_marker(tok); !r.empty()) {
                g.result = r;
                return;
            }
            if (!read_token(g, tok, line, number, side)) return;
        }
    }

    // One token of the main line: a move number, a move, a NAG or glyph.
    bool read_token(PgnGame& g, std::string tok, int line, int& number, Color& side) {
        if (tok[0] == '$') {
            int nag = 0;
            auto [p, ec] = std::from_chars(tok.data() + 1, tok.data() + tok.size(), nag);
            if (tok.size() == 1 || ec != std::errc() || p != tok.data() + tok.size() || nag > 255) {
                fail_at_move(g, line, number, side, tok, "unreadable NAG (expected $ and a number up to 255)",
                             "pgn_nag_unreadable");
                return false;
            }
            if (!g.moves.empty()) g.moves.back().nags.push_back(nag);
            return true;
        }
        if (auto nag = glyph_nag(tok)) {
            if (!g.moves.empty()) g.moves.back().nags.push_back(*nag);
            return true;
        }
        if (is_en_passant_mark(tok) || tok == "\u2026") return true;
        // Move number "12." or "12..." possibly glued to the move; "..." alone.
        std::size_t k = 0;
        while (k < tok.size() && tok[k] >= '0' && tok[k] <= '9') ++k;
        if (k == tok.size() && !is_null_move(tok)) return true;  // a bare number
        if (k < tok.size() && tok[k] == '.') {
            while (k < tok.size() && tok[k] == '.') ++k;
            tok.erase(0, k);
            if (tok.empty()) return true;
        }
        if (is_null_move(tok)) {
            fail_at_move(g, line, number, side, tok,
                         "a null move in the main line: the game cannot be replayed past it (null moves are "
                         "accepted only inside variations)",
                         "pgn_null_move");
            return false;
        }
        std::vector<int> nags;
        strip_move_suffixes(tok, nags);
        if (tok.empty()) return true;
        const unsigned char first = static_cast<unsigned char>(tok[0]);
        const bool figurine = tok.size() >= 3 && tok.compare(0, 2, "\xE2\x99") == 0;
        if (!((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z') || first == '0' || figurine)) {
            fail_at_move(g, line, number, side, tok, "unreadable move", "pgn_move_unreadable");
            return false;
        }
        PgnMove m;
        m.san = std::move(tok);
        m.number = number;
        m.side = side;
        m.line = line;
        m.nags = std::move(nags);
        g.moves.push_back(std::move(m));
        if (side == BLACK) ++number;
        side = ~side;
        return true;
    }

    // "a8(Q)" (old archives): after a pawn's arrival on a last rank, "(X)" with
    // X one letter or figurine is its promotion, not a variation. Appends
    // "(X" to tok; the caller takes the ')'.
    bool take_promotion_in_parens(std::string& tok) {
        const std::size_t n = tok.size();
        if (n < 2 || tok[n - 2] < 'a' || tok[n - 2] > 'h' || (tok[n - 1] != '1' && tok[n - 1] != '8')) return false;
        std::size_t len = 0;
        if (i_ + 2 < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_ + 1])))
            len = 1;
        else if (i_ + 4 < s_.size() && s_.compare(i_ + 1, 2, "\xE2\x99") == 0)
            len = 3;
        if (len == 0 || s_[i_ + 1 + len] != ')') return false;
        for (std::size_t k = 0; k <= len; ++k) tok += get();
        return true;
    }

    std::string s_;
    std::size_t i_ = 0;
    int line_ = 1;
};

}  // namespace

std::vector<PgnGame> read_pgn(std::string_view text) { return Reader(text).games(); }

}  // namespace echecs

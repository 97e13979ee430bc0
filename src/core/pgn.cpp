#include "pgn.h"

#include <cctype>

#include "notation.h"

namespace echecs {

namespace {

bool is_result(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

std::string move_label(const PgnMove& m) {
    return std::to_string(m.number) + (m.side == WHITE ? ". " : "... ") + m.san;
}

// Reads a PGN text token by token, keeping the line number for messages.
class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    std::vector<PgnGame> games() {
        std::vector<PgnGame> out;
        while (true) {
            skip_space();
            if (at_end()) break;
            PgnGame g;
            g.index = int(out.size()) + 1;
            g.line = line_;
            read_game(g);
            if (g.tags.empty() && g.moves.empty() && g.error.empty() && g.result == "*" && !saw_result_) continue;
            out.push_back(std::move(g));
        }
        return out;
    }

private:
    bool at_end() const { return i_ >= s_.size(); }
    char peek() const { return s_[i_]; }
    char get() {
        char c = s_[i_++];
        if (c == '\n') ++line_;
        return c;
    }
    void skip_space() {
        while (!at_end()) {
            char c = peek();
            if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
                get();
            } else if (c == '%' && (i_ == 0 || s_[i_ - 1] == '\n')) {  // escape line
                while (!at_end() && peek() != '\n') get();
            } else {
                break;
            }
        }
    }
    // "game 3, line 41, after move 12... Nf6: <msg>"
    void fail(PgnGame& g, const std::string& msg) {
        if (!g.error.empty()) return;
        g.error = "game " + std::to_string(g.index) + ", line " + std::to_string(line_);
        if (!g.moves.empty()) g.error += ", after move " + move_label(g.moves.back());
        g.error += ": " + msg;
    }
    // Skips to the start of the next game after an error: the next line that begins with '['.
    void resync() {
        while (!at_end()) {
            if (peek() == '[' && (i_ == 0 || s_[i_ - 1] == '\n')) return;
            get();
        }
    }

    void read_tag(PgnGame& g) {
        get();  // '['
        std::string name, value;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_')) name += get();
        while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
        if (name.empty() || at_end() || peek() != '"') {
            fail(g, "malformed tag pair (expected [Name \"value\"])");
            return;
        }
        get();
        bool closed = false;
        while (!at_end() && peek() != '\n') {
            char c = get();
            if (c == '\\' && !at_end() && peek() != '\n')
                c = get();  // a tag value never spans lines
            else if (c == '"') {
                closed = true;
                break;
            }
            value += c;
        }
        while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
        if (!closed || at_end() || peek() != ']') {
            fail(g, "malformed tag pair [" + name + " ...] (unterminated value or missing ']')");
            return;
        }
        get();
        g.tags.emplace_back(std::move(name), std::move(value));
    }

    void read_game(PgnGame& g) {
        saw_result_ = false;
        // Tag section.
        while (true) {
            skip_space();
            if (at_end() || peek() != '[') break;
            read_tag(g);
            if (!g.error.empty()) {
                resync_after_error();
                return;
            }
        }
        // Move text: ends at a result token, or when a new tag section begins.
        int number = 0;
        Color side = WHITE;
        const std::string fen = g.start_fen();
        {
            // Side and move number of the first move from the FEN, when given.
            size_t sp = fen.find(' ');
            if (sp != std::string::npos && sp + 1 < fen.size()) side = fen[sp + 1] == 'b' ? BLACK : WHITE;
            size_t last = fen.find_last_of(' ');
            number = last != std::string::npos ? std::atoi(fen.c_str() + last + 1) : 1;
            if (number < 1) number = 1;
        }
        while (true) {
            skip_space();
            if (at_end()) return;
            char c = peek();
            if (c == '[' && i_ > 0 && s_[i_ - 1] == '\n') return;  // next game without a result
            if (c == '{') {
                int start = line_;
                get();
                while (!at_end() && peek() != '}') get();
                if (at_end()) return fail(g, "comment opened on line " + std::to_string(start) + " is not closed");
                get();
                continue;
            }
            if (c == ';') {
                while (!at_end() && peek() != '\n') get();
                continue;
            }
            if (c == '(') {
                int depth = 0, start = line_;
                while (!at_end()) {
                    char d = get();
                    if (d == '{') {
                        while (!at_end() && peek() != '}') get();
                        if (!at_end()) get();
                    } else if (d == '(')
                        ++depth;
                    else if (d == ')' && --depth == 0)
                        break;
                }
                if (depth != 0) return fail(g, "variation opened on line " + std::to_string(start) + " is not closed");
                continue;
            }
            if (c == ')') {
                get();
                fail(g, "')' without a variation");
                resync_after_error();
                return;
            }
            std::string tok;
            while (!at_end()) {
                char d = peek();
                if (std::isspace(static_cast<unsigned char>(d)) || d == '{' || d == '(' || d == ')' || d == ';') break;
                tok += get();
            }
            if (tok.empty()) {  // a stray character such as '}' or ']'
                fail(g, std::string("unexpected '") + get() + "'");
                resync_after_error();
                return;
            }
            if (is_result(tok)) {
                g.result = tok;
                saw_result_ = true;
                return;
            }
            if (tok[0] == '$') continue;  // NAG
            // Move number "12." or "12..." possibly glued to the move.
            size_t k = 0;
            while (k < tok.size() && std::isdigit(static_cast<unsigned char>(tok[k]))) ++k;
            if (k > 0 && k < tok.size() && tok[k] == '.') {
                while (k < tok.size() && tok[k] == '.') ++k;
                tok = tok.substr(k);
                if (tok.empty()) continue;
            } else if (k == tok.size()) {
                continue;  // a bare number
            }
            while (!tok.empty() && (tok.back() == '!' || tok.back() == '?')) tok.pop_back();
            if (tok.empty()) continue;  // "!?" on its own
            if (!std::isalpha(static_cast<unsigned char>(tok[0])) && tok[0] != '0') {
                fail(g, "unreadable token '" + tok + "'");
                resync_after_error();
                return;
            }
            g.moves.push_back({tok, number, side});
            if (side == BLACK) ++number;
            side = ~side;
        }
    }
    void resync_after_error() { resync(); }

    std::string_view s_;
    size_t i_ = 0;
    int line_ = 1;
    bool saw_result_ = false;
};

}  // namespace

std::string PgnGame::tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return v;
    return "";
}

Variant PgnGame::variant() const {
    std::string v = tag("Variant");
    for (char& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (v.empty() || v == "standard" || v == "chess" || v == "normal") return Variant::Chess;
    if (v == "alice") return Variant::Alice;
    if (v == "avalanche") return Variant::Avalanche;
    throw PgnError("game " + std::to_string(index) + ": unknown variant \"" + tag("Variant") + "\"");
}

std::string PgnGame::start_fen() const {
    std::string fen = tag("FEN");
    if (!fen.empty() && tag("SetUp") != "0") return fen;
    return std::string(Position::START_FEN);
}

std::vector<PgnGame> read_pgn(std::string_view text) { return Reader(text).games(); }

void replay(const PgnGame& g, Game& game) {
    for (const PgnMove& m : g.moves) {
        try {
            game.play_san(m.san);
        } catch (const NotationError& e) {
            throw PgnError("game " + std::to_string(g.index) + ", move " + move_label(m) + ": " + e.what());
        }
    }
}

std::string write_pgn(Game& game, const std::vector<std::pair<std::string, std::string>>& tags, GameResult result,
                      const std::vector<std::string>& comments) {
    std::vector<std::pair<std::string, std::string>> out;
    auto find = [&](std::string_view n) -> const std::string* {
        for (const auto& [k, v] : tags)
            if (k == n) return &v;
        return nullptr;
    };
    for (const char* n : {"Event", "Site", "Date", "Round", "White", "Black"})
        out.emplace_back(n, find(n) ? *find(n) : "?");
    out.emplace_back("Result", std::string(pgn_result(result.outcome)));
    if (game.variant() == Variant::Alice) out.emplace_back("Variant", "Alice");
    if (game.variant() == Variant::Avalanche) out.emplace_back("Variant", "Avalanche");
    // The start FEN as Position writes it, to compare with the normal start.
    StateInfo st;
    Position start;
    start.set(game.variant(), Position::START_FEN, st);
    if (game.start_fen() != start.fen()) {
        out.emplace_back("SetUp", "1");
        out.emplace_back("FEN", game.start_fen());
    }
    if (result.over() && !find("Termination"))
        out.emplace_back("Termination", std::string(termination_name(result.termination)));
    for (const auto& [k, v] : tags) {
        bool known = false;
        for (const auto& [ok, ov] : out) known = known || ok == k;
        if (!known && k != "Result") out.emplace_back(k, v);
    }

    std::string text;
    for (const auto& [k, v] : out) {
        std::string esc;
        for (char c : v) {
            if (c == '\n' || c == '\r') c = ' ';  // tag pairs are one line each
            if (c == '"' || c == '\\') esc += '\\';
            esc += c;
        }
        text += "[" + k + " \"" + esc + "\"]\n";
    }
    text += '\n';

    // Replay from the start to write SAN.
    Game replayed(game.variant(), game.start_fen());
    std::string line;
    auto emit = [&](const std::string& word) {
        if (!line.empty() && line.size() + 1 + word.size() > 79) {
            text += line + '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    };
    bool number_needed = true;  // a Black move after the start or a comment carries its number
    for (std::size_t i = 0; i < game.moves().size(); ++i) {
        const Move m = game.moves()[i];
        Position& pos = replayed.position();
        if (pos.side_to_move() == WHITE)
            emit(std::to_string(pos.fullmove_number()) + ".");
        else if (number_needed)
            emit(std::to_string(pos.fullmove_number()) + "...");
        emit(to_san(pos, m));
        replayed.play(m);
        number_needed = false;
        if (i < comments.size() && !comments[i].empty()) {
            std::string c;
            for (char ch : comments[i]) c += ch == '}' || ch == '\n' || ch == '\r' ? ' ' : ch;
            emit("{" + c + "}");
            number_needed = true;
        }
    }
    emit(std::string(pgn_result(result.outcome)));
    text += line + "\n";
    return text;
}

}  // namespace echecs

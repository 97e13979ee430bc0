// Games to PGN text: tags (Seven Tag Roster, Variant, SetUp/FEN, Termination
// and the precise reason), SAN move text with optional comments, lines under
// 80 characters.
#include "notation.h"
#include "pgn.h"
#include "utf8.h"

namespace echecs {

namespace {

// Tag values and comments are one line of valid UTF-8 each.
std::string one_line(std::string_view s) {
    std::string out = is_valid_utf8(s) ? std::string(s) : to_utf8_from_legacy(s);
    for (char& c : out)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    return out;
}

class LineWriter {
public:
    explicit LineWriter(std::string& text) : text_(text) {}
    void word(std::string_view w) {
        if (!line_.empty() && line_.size() + 1 + w.size() > 79) flush();
        if (!line_.empty()) line_ += ' ';
        line_ += w;
    }
    void flush() {
        if (!line_.empty()) text_ += line_ + '\n';
        line_.clear();
    }

private:
    std::string& text_;
    std::string line_;
};

}  // namespace

std::string write_pgn(Game& game, const PgnTags& tags, GameResult result, std::span<const std::string> comments) {
    PgnTags out;
    auto find = [&](std::string_view n) -> const std::string* {
        for (const auto& [k, v] : tags)
            if (k == n) return &v;
        return nullptr;
    };
    for (const char* n : {"Event", "Site", "Date", "Round", "White", "Black"})
        out.emplace_back(n, find(n) ? *find(n) : "?");
    out.emplace_back("Result", std::string(pgn_result(result.outcome)));
    if (std::string_view v = variant_info(game.variant()).pgn; !v.empty()) out.emplace_back("Variant", v);
    // The start FEN as Position writes it, to compare with the normal start.
    StateInfo st;
    Position start;
    start.set(game.variant(), Position::START_FEN, st);
    if (game.start_fen() != start.fen()) {
        out.emplace_back("SetUp", "1");
        out.emplace_back("FEN", game.start_fen());
    }
    const bool own_termination = result.termination != Termination::None;
    if (own_termination) {
        const TerminationInfo& t = termination_info(result.termination);
        out.emplace_back("Termination", t.pgn);
        // The caller may say more precisely why ("illegal move 'e2e5' by B").
        const std::string* reason = find("EchecsTermination");
        out.emplace_back("EchecsTermination", reason && !reason->empty() ? *reason : std::string(t.reason));
    }
    for (const auto& [k, v] : tags) {
        bool known = k == "Result" || (own_termination && k == "Termination");
        for (const auto& [ok, ov] : out) known = known || ok == k;
        if (!known) out.emplace_back(k, v);
    }

    std::string text;
    for (const auto& [k, v] : out) {
        std::string esc;
        for (char c : one_line(v)) {
            if (c == '"' || c == '\\') esc += '\\';
            esc += c;
        }
        text += "[" + k + " \"" + esc + "\"]\n";
    }
    text += '\n';

    // Replay from the start to write SAN.
    Game replayed(game.variant(), game.start_fen());
    LineWriter lw(text);
    bool number_next = true;  // the first move, and a black move after a comment, carry their number
    for (std::size_t i = 0; i < game.moves().size(); ++i) {
        const Move m = game.moves()[i];
        Position& pos = replayed.position();
        if (pos.side_to_move() == WHITE)
            lw.word(std::to_string(pos.fullmove_number()) + ".");
        else if (number_next)
            lw.word(std::to_string(pos.fullmove_number()) + "...");
        lw.word(to_san(pos, m));
        replayed.play(m);
        number_next = false;
        if (i < comments.size() && !comments[i].empty()) {
            std::string c = one_line(comments[i]);
            for (char& ch : c)
                if (ch == '}') ch = ')';
            if (c.find_first_not_of(' ') == std::string::npos) continue;
            if (c.size() + 2 <= 79) {  // whole on one line, as "{[%clk 0:04:58]}"
                lw.word("{" + c + "}");
                number_next = true;
                continue;
            }
            // Longer: split on spaces so that it wraps like the moves.
            std::string_view rest = c;
            std::string wordbuf = "{";
            bool first = true;
            while (!rest.empty()) {
                const std::size_t sp = rest.find(' ');
                const std::string_view w = rest.substr(0, sp);
                if (!w.empty()) {
                    if (!first) lw.word(wordbuf), wordbuf.clear();
                    wordbuf += w;
                    first = false;
                }
                if (sp == std::string_view::npos) break;
                rest.remove_prefix(sp + 1);
            }
            lw.word(wordbuf + "}");
            number_next = true;
        }
    }
    lw.word(pgn_result(result.outcome));
    lw.flush();
    return text;
}

}  // namespace echecs

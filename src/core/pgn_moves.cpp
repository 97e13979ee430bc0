// Lenient reading of PGN moves: each spelling is rewritten into SAN that the
// strict reader (parse_san) accepts, in tiers tried in order; the first tier
// whose reading names a legal move wins.
#include "pgn_moves.h"

#include <cctype>
#include <optional>

#include "notation.h"
#include "utf8.h"

namespace echecs::pgn_moves {

namespace {

// U+2654..U+265F (white K Q R B N P, then black) are E2 99 94..9F in UTF-8.
constexpr std::string_view FIGURINE_LETTERS = "KQRBNPKQRBNP";

char figurine_letter(std::string_view s, std::size_t i) {
    if (i + 2 < s.size() && s[i] == '\xE2' && s[i + 1] == '\x99') {
        const unsigned char c = static_cast<unsigned char>(s[i + 2]);
        if (c >= 0x94 && c <= 0x9F) return FIGURINE_LETTERS[c - 0x94];
    }
    return 0;
}

char french_to_english(char c) {
    switch (c) {
        case 'R': return 'K';
        case 'D': return 'Q';
        case 'T': return 'R';
        case 'F': return 'B';
        case 'C': return 'N';
        default: return c;
    }
}

bool is_rank(char c) { return c >= '1' && c <= '8'; }

// The first part of a move (Avalanche: the push after ',' stays as written).
struct Parts {
    std::string prefix;  // "Q:" (Avalanche choice)
    std::string first;
    std::string rest;  // ",e6" and check marks
};

Parts split(std::string s) {
    Parts p;
    if (s.size() >= 2 && s[1] == ':') p.prefix = s.substr(0, 2), s.erase(0, 2);
    std::size_t end = s.find(',');
    if (end == std::string::npos) end = s.find_first_of("+#");
    if (end == std::string::npos) end = s.size();
    p.first = s.substr(0, end);
    p.rest = s.substr(end);
    return p;
}

// Tier 1: figurines, castling with o or 0, promotions "a8(Q)" and "a8/Q",
// French letters, lower-case piece letters that are not files (n r q k t).
std::string normalize(std::string_view written, bool french) {
    std::string s;
    for (std::size_t i = 0; i < written.size(); ++i) {
        if (char l = figurine_letter(written, i)) {
            s += l;
            i += 2;
        } else {
            s += written[i];
        }
    }
    Parts p = split(s);
    std::string& f = p.first;
    std::string castle = f;
    for (char& c : castle) c = c == '0' || c == 'o' ? 'O' : c;
    if (castle == "O-O" || castle == "O-O-O" || castle == "OO" || castle == "OOO") {
        f = castle == "O-O" || castle == "OO" ? "O-O" : "O-O-O";
        return p.prefix + f + p.rest;
    }
    // "a8(Q)" and "a8/Q" as "a8=Q".
    if (f.size() >= 5 && f.back() == ')' && f[f.size() - 3] == '(')
        f = f.substr(0, f.size() - 3) + "=" + f[f.size() - 2];
    if (f.size() >= 4 && f[f.size() - 2] == '/') f[f.size() - 2] = '=';
    // The promotion piece, after the square (and '=').
    if (f.size() >= 3 && !is_rank(f.back()) && (is_rank(f[f.size() - 2]) || f[f.size() - 2] == '=')) {
        char& c = f.back();
        c = char(std::toupper(static_cast<unsigned char>(c)));
        if (french) c = french_to_english(c);
    }
    if (!f.empty()) {
        char& c = f[0];
        if (french && c >= 'A' && c <= 'Z') c = french_to_english(c);
        // A lower-case letter that is no file is a piece (r: the king in French).
        if (c == 'n' || c == 'q' || c == 'k') c = char(std::toupper(static_cast<unsigned char>(c)));
        if (c == 'r') c = french ? 'K' : 'R';
        if (c == 't' && french) c = 'R';
    }
    if (p.prefix.size() == 2) {
        char& c = p.prefix[0];
        c = char(std::toupper(static_cast<unsigned char>(c)));
        if (french) c = french_to_english(c);
    }
    return p.prefix + f + p.rest;
}

// Tier 2: a leading lower-case file letter read as a piece (b; c d f in
// French), only when the move it spells as a pawn move does not exist.
std::string file_letter_as_piece(const std::string& tier1, bool french) {
    Parts p = split(tier1);
    if (p.first.size() < 3) return "";
    char& c = p.first[0];
    if (c == 'b')
        c = 'B';
    else if (french && (c == 'c' || c == 'd' || c == 'f'))
        c = french_to_english(char(std::toupper(static_cast<unsigned char>(c))));
    else
        return "";
    return p.prefix + p.first + p.rest;
}

int rank_of_kind(NotationError::Kind k) {
    return k == NotationError::Ambiguous ? 2 : k == NotationError::Illegal ? 1 : 0;
}

}  // namespace

bool writes_french(const PgnGame& g, Variant v) {
    const bool alice = variant_info(v).boards == 2;
    for (const PgnMove& m : g.moves) {
        std::string_view s = m.san;
        if (s.size() >= 2 && s[1] == ':') s.remove_prefix(2);
        if (s.empty()) continue;
        const char c = s[0];
        if (c == 'D' || c == 'F' || (!alice && (c == 'C' || c == 'T'))) return true;
        // "e8=D": a French promotion.
        const std::size_t eq = s.find('=');
        if (eq != std::string_view::npos && eq + 1 < s.size() && (s[eq + 1] == 'D' || s[eq + 1] == 'F')) return true;
    }
    return false;
}

Reading read_move(Position& pos, std::string_view written, bool french) {
    std::vector<std::string> tiers;
    if (!french) tiers.emplace_back(written);
    const std::string t1 = normalize(written, french);
    if (tiers.empty() || t1 != tiers[0]) tiers.push_back(t1);
    if (std::string t2 = file_letter_as_piece(t1, french); !t2.empty() && t2 != t1) tiers.push_back(t2);

    // The error of the reading that went furthest: ambiguous, else illegal, else unreadable.
    std::optional<NotationError> best;
    std::string best_read;
    for (const std::string& s : tiers) {
        try {
            return {parse_san(pos, s), s != written};
        } catch (const NotationError& e) {
            if (!best || rank_of_kind(e.kind) > rank_of_kind(best->kind)) best = e, best_read = s;
        }
    }
    std::string msg = best->what();
    // The message quotes the reading; say what was written when they differ.
    if (best_read != written) msg += " (written " + quote_input(written, 40) + ")";
    throw NotationError(best->kind, msg);
}

}  // namespace echecs::pgn_moves

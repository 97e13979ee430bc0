#include "notation.h"

#include <cctype>
#include <vector>

#include "movegen.h"
#include "utf8.h"

namespace echecs {

namespace {

constexpr char PIECE_LETTER[PIECE_TYPE_NB] = {' ', 'P', 'N', 'B', 'R', 'Q', 'K'};

std::string square_str(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

PieceType piece_from_letter(char c) {
    switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'N': return KNIGHT;
        case 'B': return BISHOP;
        case 'R': return ROOK;
        case 'Q': return QUEEN;
        case 'K': return KING;
        default: return NO_PIECE_TYPE;
    }
}

// The piece of a board-B letter in SAN (Alice: "Ue4" is board B's rook), from
// the white half of the game's FEN letters; NO_PIECE_TYPE if none.
PieceType board_b_piece_from_letter(Variant v, char c) {
    const std::string_view letters = variant_info(v).board_b_letters;
    const std::size_t i = c == ' ' ? std::string_view::npos : letters.find(c);
    return i >= PAWN && i <= KING ? PieceType(i) : NO_PIECE_TYPE;
}

// Input quoted in messages as valid UTF-8, never cut inside a character.
std::string quote(std::string_view s) { return quote_input(s, 40); }

// The piece type that makes the first part (a pending pawn moves as its choice).
PieceType moving_type(const Position& pos, Move m) { return type_of(pos.moved_piece(m)); }

std::string first_part_san(Position& pos, Move m, const MoveList& legal) {
    if (m.kind() == CASTLING) return m.to() > m.from() ? "O-O" : "O-O-O";
    const PieceType pt = moving_type(pos, m);
    const bool capture = pos.is_capture(m);
    std::string s;
    if (pt == PAWN) {
        if (capture) s += char('a' + file_of(m.from())), s += 'x';
        // Alice: pawns on both boards of one file may step to the same square
        // (single and double step); the origin square tells them apart.
        else if (variant_info(pos.variant()).boards == 2)
            for (Move o : legal)
                if (o.to() == m.to() && o.from() != m.from() && moving_type(pos, o) == PAWN) {
                    s += square_str(m.from());
                    break;
                }
        s += square_str(m.to());
        if (m.kind() == PROMOTION) s += '=', s += PIECE_LETTER[m.promotion()];
        return s;
    }
    s += PIECE_LETTER[pt];
    // Disambiguate among the other legal first parts (same choice) of the
    // same piece type to the same square; in Alice, on both boards.
    bool clash = false, same_file = false, same_rank = false;
    for (Move o : legal) {
        if (o.choice() != m.choice() || o.kind() == CASTLING) continue;
        if (o.to() != m.to() || o.from() == m.from() || moving_type(pos, o) != pt) continue;
        clash = true;
        if (file_of(o.from()) == file_of(m.from())) same_file = true;
        if (rank_of(o.from()) == rank_of(m.from())) same_rank = true;
    }
    if (clash) {
        if (!same_file)
            s += char('a' + file_of(m.from()));
        else if (!same_rank)
            s += char('1' + rank_of(m.from()));
        else
            s += square_str(m.from());
    }
    if (capture) s += 'x';
    s += square_str(m.to());
    return s;
}

}  // namespace

std::string to_uci(Move m) {
    std::string s;
    if (m.choice()) s += char(std::tolower(PIECE_LETTER[m.choice()])), s += ':';
    s += square_str(m.from()) + square_str(m.to());
    if (m.kind() == PROMOTION) s += char(std::tolower(PIECE_LETTER[m.promotion()]));
    if (m.has_push()) s += ',' + square_str(m.push_from()) + square_str(m.push_to());
    return s;
}

Move parse_uci(Position& pos, std::string_view s) {
    // Syntax first, so that a typo is reported as unreadable rather than illegal.
    std::string_view body = s;
    if (body.size() >= 2 && body[1] == ':') {
        if (!variant_info(pos.variant()).has_pushes || piece_from_letter(body[0]) < KNIGHT ||
            piece_from_letter(body[0]) > QUEEN)
            throw NotationError(
                NotationError::Unreadable,
                "unreadable move " + quote(s) + ": a choice prefix (q:, r:, b:, n:) exists only in Avalanche");
        body.remove_prefix(2);
    }
    std::string_view push;
    if (auto comma = body.find(','); comma != std::string_view::npos) {
        push = body.substr(comma + 1);
        body = body.substr(0, comma);
        if (!variant_info(pos.variant()).has_pushes)
            throw NotationError(NotationError::Unreadable,
                                "unreadable move " + quote(s) + ": a push (after ',') exists only in Avalanche");
        if (push.size() != 4 || !is_file(push[0]) || !is_rank(push[1]) || !is_file(push[2]) || !is_rank(push[3]))
            throw NotationError(NotationError::Unreadable,
                                "unreadable move " + quote(s) + ": the push must be two squares, like e7e6");
    }
    if ((body.size() != 4 && body.size() != 5) || !is_file(body[0]) || !is_rank(body[1]) || !is_file(body[2]) ||
        !is_rank(body[3]) || (body.size() == 5 && std::string_view("qrbn").find(body[4]) == std::string_view::npos))
        throw NotationError(NotationError::Unreadable,
                            "unreadable move " + quote(s) + ": expected coordinates like e2e4 or e7e8q");

    MoveList list;
    generate_legal(pos, list);
    for (Move m : list)
        if (to_uci(m) == s) return m;
    throw NotationError(NotationError::Illegal, "illegal move " + quote(s) + " in " + pos.fen());
}

namespace {
std::string san_among(Position& pos, Move m, const MoveList& legal) {
    std::string s;
    if (m.choice()) s += PIECE_LETTER[m.choice()], s += ':';
    s += first_part_san(pos, m, legal);
    if (m.has_push()) s += ',' + square_str(m.push_to());

    StateInfo st;
    pos.do_move(m, st);
    if (pos.in_check()) {
        MoveList replies;
        generate_legal(pos, replies);
        // '#' is checkmate only: an avalanche loss while in check is written '+'.
        const bool mate = replies.empty() && no_move_verdict(pos) == Termination::Checkmate;
        s += mate ? '#' : '+';
    }
    pos.undo_move(m);
    return s;
}
}  // namespace

std::string to_san(Position& pos, Move m) {
    MoveList legal;
    generate_legal(pos, legal);
    return san_among(pos, m, legal);
}

std::vector<std::string> to_san_all(Position& pos, const MoveList& legal) {
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (Move m : legal) out.push_back(san_among(pos, m, legal));
    return out;
}

Move parse_san(Position& pos, std::string_view text) {
    std::string_view s = text;
    // Check marks, glyphs and an en-passant mark ("exd6 e.p.") say nothing the move does not.
    for (std::size_t before = 0; before != s.size();) {
        before = s.size();
        while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?'))
            s.remove_suffix(1);
        for (std::string_view ep : {"e.p.", "e.p"})
            if (s.size() > ep.size() && s.ends_with(ep)) s.remove_suffix(ep.size());
        while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    }
    if (s.empty()) throw NotationError(NotationError::Unreadable, "unreadable move " + quote(text) + ": empty");

    // Avalanche: "Q:" choice prefix and ",e6" push suffix.
    PieceType choice = NO_PIECE_TYPE;
    if (s.size() >= 2 && s[1] == ':') {
        choice = piece_from_letter(s[0]);
        if (!variant_info(pos.variant()).has_pushes || choice < KNIGHT || choice > QUEEN)
            throw NotationError(
                NotationError::Unreadable,
                "unreadable move " + quote(text) + ": a choice prefix (Q:, R:, B:, N:) exists only in Avalanche");
        s.remove_prefix(2);
    }
    Square push_to = SQ_NONE;
    if (auto comma = s.find(','); comma != std::string_view::npos) {
        std::string_view p = s.substr(comma + 1);
        s = s.substr(0, comma);
        if (!variant_info(pos.variant()).has_pushes)
            throw NotationError(NotationError::Unreadable,
                                "unreadable move " + quote(text) + ": a push (after ',') exists only in Avalanche");
        if (p.size() == 4 && is_file(p[0]) && is_rank(p[1])) p.remove_prefix(2);  // accept "e7e6" too
        if (p.size() != 2 || !is_file(p[0]) || !is_rank(p[1]))
            throw NotationError(NotationError::Unreadable, "unreadable move " + quote(text) +
                                                               ": the push must be the pawn's arrival square, like e6");
        push_to = make_square(p[0] - 'a', p[1] - '1');
    }

    MoveList legal;
    generate_legal(pos, legal);
    if (variant_info(pos.variant()).has_pushes) {
        if (pos.pending_promotion() != SQ_NONE && !choice)
            throw NotationError(
                NotationError::Illegal,
                "illegal move " + quote(text) + ": a pawn waits for promotion; start with Q:, R:, B: or N:");
        if (pos.pending_promotion() == SQ_NONE && choice)
            throw NotationError(NotationError::Illegal,
                                "illegal move " + quote(text) + ": no pawn waits for promotion");
    }

    // First part.
    bool castle_short = s == "O-O" || s == "0-0", castle_long = s == "O-O-O" || s == "0-0-0";
    PieceType pt = PAWN, promo = NO_PIECE_TYPE;
    bool board_b_only = false;
    int from_file = -1, from_rank = -1;
    Square to = SQ_NONE;
    if (!castle_short && !castle_long) {
        std::string_view b = s;
        // Promotion suffix: "=Q" or "Q" after the destination square.
        if (b.size() >= 3 && !is_rank(b.back())) {
            promo = piece_from_letter(b.back());
            if (promo < KNIGHT || promo > QUEEN)
                throw NotationError(NotationError::Unreadable, "unreadable move " + quote(text));
            b.remove_suffix(1);
            if (!b.empty() && b.back() == '=') b.remove_suffix(1);
        }
        if (b.size() < 2 || !is_file(b[b.size() - 2]) || !is_rank(b.back()))
            throw NotationError(NotationError::Unreadable,
                                "unreadable move " + quote(text) + ": no destination square");
        to = make_square(b[b.size() - 2] - 'a', b.back() - '1');
        b.remove_suffix(2);
        if (!b.empty() && std::isupper(static_cast<unsigned char>(b[0]))) {
            PieceType p = piece_from_letter(b[0]);
            if (b[0] == 'P') p = PAWN;
            if (p == NO_PIECE_TYPE) {
                p = board_b_piece_from_letter(pos.variant(), b[0]);
                board_b_only = p != NO_PIECE_TYPE;
            }
            if (p == NO_PIECE_TYPE)
                throw NotationError(NotationError::Unreadable,
                                    "unreadable move " + quote(text) + ": unknown piece letter");
            pt = p;
            b.remove_prefix(1);
        }
        const bool capture_mark = !b.empty() && (b.back() == 'x' || b.back() == ':');
        if (capture_mark) b.remove_suffix(1);
        // Long algebraic "e2-e4", "Ng1-f3": a hyphen after a whole origin square.
        if (!capture_mark && b.size() == 3 && b.back() == '-' && is_file(b[0]) && is_rank(b[1])) b.remove_suffix(1);
        if (!b.empty() && is_file(b[0])) from_file = b[0] - 'a', b.remove_prefix(1);
        if (!b.empty() && is_rank(b[0])) from_rank = b[0] - '1', b.remove_prefix(1);
        if (!b.empty()) throw NotationError(NotationError::Unreadable, "unreadable move " + quote(text));
        if (promo && pt != PAWN)
            throw NotationError(NotationError::Unreadable, "unreadable move " + quote(text) + ": only pawns promote");
        // A pawn move without origin file or capture mark is a push along its
        // file (the seed writes captures like "Sxe4", without the file).
        if (pt == PAWN && from_file < 0 && !capture_mark) from_file = file_of(to);
    }

    std::vector<Move> matches;
    for (Move m : legal) {
        if (m.choice() != choice) continue;
        if (castle_short || castle_long) {
            if (m.kind() != CASTLING || (m.to() > m.from()) != castle_short) continue;
        } else {
            if (m.kind() == CASTLING || m.to() != to || moving_type(pos, m) != pt) continue;
            if (from_file >= 0 && file_of(m.from()) != from_file) continue;
            if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
            if ((m.kind() == PROMOTION ? m.promotion() : NO_PIECE_TYPE) != promo) continue;
            if (board_b_only && pos.board_of(m.from()) != BOARD_B) continue;
        }
        if (push_to != SQ_NONE ? !m.has_push() || m.push_to() != push_to : m.has_push()) continue;
        matches.push_back(m);
    }
    if (matches.size() == 1) return matches[0];
    if (matches.empty()) {
        // Say what is missing when the first part alone is fine.
        if (variant_info(pos.variant()).has_pushes && push_to == SQ_NONE) {
            for (Move m : legal)
                if (m.has_push() && m.choice() == choice &&
                    (castle_short || castle_long ? m.kind() == CASTLING : m.to() == to))
                    throw NotationError(NotationError::Illegal,
                                        "illegal move " + quote(text) + ": a push must follow (like ',e6')");
        }
        if (promo == NO_PIECE_TYPE && pt == PAWN && relative_rank(pos.side_to_move(), to) == 7 && to != SQ_NONE)
            throw NotationError(NotationError::Illegal,
                                "illegal move " + quote(text) + ": a promotion needs its piece, like =Q");
        throw NotationError(NotationError::Illegal, "illegal move " + quote(text) + " in " + pos.fen());
    }
    std::string names;
    for (Move m : matches) names += (names.empty() ? "" : ", ") + to_uci(m);
    throw NotationError(NotationError::Ambiguous, "ambiguous move " + quote(text) + ": it could be " + names);
}

}  // namespace echecs

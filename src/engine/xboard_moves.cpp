#include "xboard_moves.h"

#include <cctype>
#include <optional>

#include "core/movegen.h"
#include "core/notation.h"

namespace echecs::engine {

namespace {

// XBoard's piece-to-char table for Alice: pawn..queen and king as usual,
// board B's king on the Commoner image, bishop and rook on the crowned
// images, and (after '/', which jumps to XBoard's promoted pieces) pawn and
// knight on the gold images, queen on the princess.
constexpr const char* ALICE_PIECES = "PNBRQ..C..L...U/.........SO.......TKpnbrq..c..l...u/.........so.......tk";
constexpr char BOARD_A_LETTER[PIECE_TYPE_NB] = {0, 'p', 'n', 'b', 'r', 'q', 'k'};
constexpr char BOARD_B_LETTER[PIECE_TYPE_NB] = {0, 's', 'o', 'c', 'u', 't', 'l'};

std::optional<Square> square_of(std::string_view s) {
    if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return std::nullopt;
    return make_square(s[0] - 'a', s[1] - '1');
}

std::string square_text(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

// The piece letter of an arriving piece: its type after the move, on the board it lands on.
char arrival_letter(Position& pos, Move m) {
    const PieceType pt = m.kind() == PROMOTION ? m.promotion() : type_of(pos.piece_on(m.from()));
    const Board land = other(pos.board_of(m.from()));
    return land == BOARD_B ? BOARD_B_LETTER[pt] : BOARD_A_LETTER[pt];
}

// Board-B letters as promotion pieces (q r b n).
char promotion_letter(char c) {
    switch (std::tolower(static_cast<unsigned char>(c))) {
        case 't': return 'q';
        case 'u': return 'r';
        case 'c': return 'b';
        case 'o': return 'n';
        default: return char(std::tolower(static_cast<unsigned char>(c)));
    }
}

}  // namespace

std::string xboard_setup(Variant v) {
    const std::string start(Position::START_FEN);
    switch (v) {
        case Variant::Alice: return std::string("setup (") + ALICE_PIECES + ") 8x8+0_fairy " + start;
        case Variant::Avalanche: return "setup (PNBRQKpnbrqk) 8x8+0_fairy " + start;
        default: return "";
    }
}

std::string xboard_move(Position& pos, Move m) {
    if (pos.variant() != Variant::Alice) return to_uci(m);
    return square_text(m.from()) + square_text(m.to()) + arrival_letter(pos, m);
}

Move parse_xboard_move(Position& pos, std::string_view s) {
    if (pos.variant() == Variant::Alice && s.size() == 5 && std::isalpha(static_cast<unsigned char>(s[4]))) {
        // The arriving piece's letter: only a promotion's says anything.
        const std::string plain(s.substr(0, 4));
        const auto from = square_of(s.substr(0, 2)), to = square_of(s.substr(2, 2));
        const bool promotion =
            from && to && type_of(pos.piece_on(*from)) == PAWN && (rank_of(*to) == 0 || rank_of(*to) == 7);
        return parse_uci(pos, promotion ? plain + promotion_letter(s[4]) : plain);
    }
    if (pos.variant() == Variant::Avalanche) {
        // XBoard's relay of `a,b`: from, the pushed pawn's square, to (`d2f7,f7d4`).
        const auto comma = s.find(',');
        if (comma == 4 && s.size() == 9 && s.substr(2, 2) == s.substr(5, 2)) {
            const auto from = square_of(s.substr(0, 2)), kill = square_of(s.substr(2, 2)),
                       to = square_of(s.substr(7, 2));
            if (from && kill && to && type_of(pos.piece_on(*kill)) == PAWN &&
                color_of(pos.piece_on(*kill)) != pos.side_to_move()) {
                MoveList l;
                generate_legal(pos, l);
                for (Move m : l)
                    if (m.from() == *from && m.to() == *to && m.has_push() && m.push_from() == *kill) return m;
            }
        }
    }
    return parse_uci(pos, s);
}

std::string xboard_highlight(Position& pos, std::string_view square) {
    const auto from = square_of(square);
    if (!from || pos.variant() != Variant::Alice) return "";
    MoveList l;
    generate_legal(pos, l);
    Bitboard targets = 0;
    for (Move m : l)
        if (m.from() == *from) targets |= square_bb(m.to());
    if (!targets) return "";
    // A FEN of marks: 'B' (blue) asks XBoard to take the piece from `choice`.
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            if (targets & square_bb(make_square(f, r))) {
                if (empty) fen += char('0' + empty), empty = 0;
                fen += 'B';
            } else
                ++empty;
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    return fen;
}

char xboard_choice(Position& pos, std::string_view from, std::string_view to) {
    const auto f = square_of(from), t = square_of(to);
    if (!f || !t || pos.variant() != Variant::Alice) return 0;
    MoveList l;
    generate_legal(pos, l);
    char c = 0;
    for (Move m : l)
        if (m.from() == *f && m.to() == *t) {
            const char a = arrival_letter(pos, m);
            // A promotion: the queen unless the human picks otherwise later.
            if (!c || (m.kind() == PROMOTION && m.promotion() == QUEEN)) c = a;
        }
    return c;
}

}  // namespace echecs::engine

#include "xboard_moves.h"

#include <cctype>
#include <optional>

#include "core/movegen.h"
#include "core/notation.h"

namespace echecs::engine {

namespace {

constexpr char BOARD_A_LETTER[PIECE_TYPE_NB] = {0, 'p', 'n', 'b', 'r', 'q', 'k'};

// XBoard's piece-to-char table for a two-board game (Alice): pawn..queen and
// king as usual, board B's king on the Commoner image, bishop and rook on the
// crowned images, and (after '/', which jumps to XBoard's promoted pieces)
// pawn and knight on the gold images, queen on the princess. The digits are
// the piece types whose board-B letters (the game's FEN letters) go there.
std::string two_board_pieces(Variant v) {
    std::string white = "PNBRQ..3..6...4/.........12.......5K";
    for (char& c : white)
        if (c >= '1' && c <= '6') c = variant_info(v).board_b_letters[c - '0'];
    std::string black = white;
    for (char& c : black) c = char(std::tolower(static_cast<unsigned char>(c)));
    return white + black;
}

std::optional<Square> square_of(std::string_view s) {
    if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return std::nullopt;
    return make_square(s[0] - 'a', s[1] - '1');
}

std::string square_text(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

// The piece letter of an arriving piece: its type after the move, on the board it lands on.
char arrival_letter(Position& pos, Move m) {
    const PieceType pt = m.kind() == PROMOTION ? m.promotion() : type_of(pos.piece_on(m.from()));
    const Board land = other(pos.board_of(m.from()));
    return land == BOARD_B ? variant_info(pos.variant()).board_b_letters[make_piece(BLACK, pt)] : BOARD_A_LETTER[pt];
}

// Board-B letters as promotion pieces (q r b n).
char promotion_letter(Variant v, char c) {
    const char l = char(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t i = l == ' ' ? std::string_view::npos : variant_info(v).board_b_letters.find(l);
    return i == std::string_view::npos ? l : BOARD_A_LETTER[type_of(Piece(i))];
}

}  // namespace

std::string xboard_setup(Variant v) {
    const std::string start(Position::START_FEN);
    switch (v) {
        case Variant::Chess: return "";  // xboard knows it
        case Variant::Alice: return "setup (" + two_board_pieces(v) + ") 8x8+0_fairy " + start;
        case Variant::Avalanche: return "setup (PNBRQKpnbrqk) 8x8+0_fairy " + start;
    }
    return "";
}

std::string xboard_move(Position& pos, Move m) {
    if (variant_info(pos.variant()).boards == 1) return to_uci(m);
    return square_text(m.from()) + square_text(m.to()) + arrival_letter(pos, m);
}

Move parse_xboard_move(Position& pos, std::string_view s) {
    if (variant_info(pos.variant()).boards == 2 && s.size() == 5 && std::isalpha(static_cast<unsigned char>(s[4]))) {
        // The arriving piece's letter: only a promotion's says anything.
        const std::string plain(s.substr(0, 4));
        const auto from = square_of(s.substr(0, 2)), to = square_of(s.substr(2, 2));
        const bool promotion =
            from && to && type_of(pos.piece_on(*from)) == PAWN && (rank_of(*to) == 0 || rank_of(*to) == 7);
        return parse_uci(pos, promotion ? plain + promotion_letter(pos.variant(), s[4]) : plain);
    }
    if (variant_info(pos.variant()).has_pushes) {
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
    if (!from || variant_info(pos.variant()).boards == 1) return "";
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
    if (!f || !t || variant_info(pos.variant()).boards == 1) return 0;
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

// Basic types shared by the whole rules core: colours, pieces, squares,
// moves and the variant tag.
#pragma once

#include <cstdint>

namespace echecs {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

// The games. What differs between them is data in one table, VARIANTS
// (vocabulary.h); a new game is a new value here and a new row there.
enum class Variant : std::uint8_t { Chess, Alice, Avalanche };

// The kings a position must have: one of each (every game), or at most one
// of each (a problem with Popeye's options nowk and nobk). A side without a
// king is never in check and has no castling; its every move is legal.
enum class Kings : std::uint8_t { One, AtMostOne };
inline constexpr int VARIANT_NB = int(Variant::Avalanche) + 1;  // the size of every per-game table

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 7 };

enum Piece : std::uint8_t {
    NO_PIECE,
    W_PAWN = 1,
    W_KNIGHT,
    W_BISHOP,
    W_ROOK,
    W_QUEEN,
    W_KING,
    B_PAWN = 9,
    B_KNIGHT,
    B_BISHOP,
    B_ROOK,
    B_QUEEN,
    B_KING,
    PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) + pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Alice chess: the board a piece stands on.
enum Board : std::uint8_t { BOARD_A, BOARD_B };
constexpr Board other(Board b) { return Board(b ^ 1); }

enum Square : std::int8_t {
    SQ_A1,
    SQ_B1,
    SQ_C1,
    SQ_D1,
    SQ_E1,
    SQ_F1,
    SQ_G1,
    SQ_H1,
    SQ_A2,
    SQ_B2,
    SQ_C2,
    SQ_D2,
    SQ_E2,
    SQ_F2,
    SQ_G2,
    SQ_H2,
    SQ_A3,
    SQ_B3,
    SQ_C3,
    SQ_D3,
    SQ_E3,
    SQ_F3,
    SQ_G3,
    SQ_H3,
    SQ_A4,
    SQ_B4,
    SQ_C4,
    SQ_D4,
    SQ_E4,
    SQ_F4,
    SQ_G4,
    SQ_H4,
    SQ_A5,
    SQ_B5,
    SQ_C5,
    SQ_D5,
    SQ_E5,
    SQ_F5,
    SQ_G5,
    SQ_H5,
    SQ_A6,
    SQ_B6,
    SQ_C6,
    SQ_D6,
    SQ_E6,
    SQ_F6,
    SQ_G6,
    SQ_H6,
    SQ_A7,
    SQ_B7,
    SQ_C7,
    SQ_D7,
    SQ_E7,
    SQ_F7,
    SQ_G7,
    SQ_H7,
    SQ_A8,
    SQ_B8,
    SQ_C8,
    SQ_D8,
    SQ_E8,
    SQ_F8,
    SQ_G8,
    SQ_H8,
    SQ_NONE,
    SQUARE_NB = 64
};

enum Direction : int {
    NORTH = 8,
    EAST = 1,
    SOUTH = -8,
    WEST = -1,
    NORTH_EAST = 9,
    NORTH_WEST = 7,
    SOUTH_EAST = -7,
    SOUTH_WEST = -9
};

constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
constexpr Square& operator++(Square& s) { return s = Square(int(s) + 1); }

constexpr Square make_square(int file, int rank) { return Square((rank << 3) + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr bool is_ok(Square s) { return s >= SQ_A1 && s <= SQ_H8; }
// Rank seen from colour c's side (0 = own back rank).
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
constexpr Direction pawn_push(Color c) { return c == WHITE ? NORTH : SOUTH; }

enum CastlingRights : std::uint8_t {
    NO_CASTLING = 0,
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    ALL_CASTLING = 15
};

// A move in 32 bits.
//  bits  0- 5 destination, 6-11 origin, 12-13 promotion piece (N,B,R,Q),
//  bits 14-15 kind (normal, promotion, en passant, castling: the king's move),
//  bits 16-21 origin of the pushed enemy pawn (Avalanche), bit 22 push present,
//  bits 23-25 pending promotion choice (Avalanche part 0), a PieceType or 0,
//  bit 26 set when the pushed pawn is black (it moves south).
enum MoveKind : std::uint32_t { NORMAL = 0, PROMOTION = 1u << 14, EN_PASSANT = 2u << 14, CASTLING = 3u << 14 };

class Move {
public:
    // Trivial, so that move lists are not cleared on construction; Move{} is the null move.
    Move() = default;
    constexpr explicit Move(std::uint32_t raw) : raw_(raw) {}
    constexpr Move(Square from, Square to) : raw_(std::uint32_t(from) << 6 | std::uint32_t(to)) {}

    static constexpr Move make(MoveKind kind, Square from, Square to, PieceType promo = KNIGHT) {
        return Move(std::uint32_t(kind) | std::uint32_t(promo - KNIGHT) << 12 | std::uint32_t(from) << 6 |
                    std::uint32_t(to));
    }

    constexpr Square from() const { return Square((raw_ >> 6) & 63); }
    constexpr Square to() const { return Square(raw_ & 63); }
    constexpr MoveKind kind() const { return MoveKind(raw_ & (3u << 14)); }
    constexpr PieceType promotion() const { return PieceType(((raw_ >> 12) & 3) + KNIGHT); }

    constexpr bool has_push() const { return raw_ & (1u << 22); }
    constexpr Square push_from() const { return Square((raw_ >> 16) & 63); }
    // The pushed pawn moves one step in its owner's direction (bit 26: a black pawn).
    constexpr Square push_to() const { return raw_ & (1u << 26) ? push_from() + SOUTH : push_from() + NORTH; }
    constexpr Move with_push(Square from, Color pawn_owner) const {
        return Move((raw_ & ~(0x7Fu << 16 | 1u << 26)) | 1u << 22 | std::uint32_t(from) << 16 |
                    std::uint32_t(pawn_owner) << 26);
    }
    constexpr PieceType choice() const { return PieceType((raw_ >> 23) & 7); }
    constexpr Move with_choice(PieceType pt) const { return Move((raw_ & ~(7u << 23)) | std::uint32_t(pt) << 23); }
    // The orthodox part alone (no push, no choice).
    constexpr Move first_part() const { return Move(raw_ & 0xFFFFu); }

    constexpr std::uint32_t raw() const { return raw_; }
    constexpr bool is_none() const { return raw_ == 0; }
    constexpr explicit operator bool() const { return raw_ != 0; }
    constexpr bool operator==(const Move&) const = default;

    static constexpr Move none() { return Move(0u); }

private:
    std::uint32_t raw_;
};

constexpr int MAX_MOVES = 4096;  // Avalanche: choices x first parts x pushes
constexpr int MAX_PLY = 246;

}  // namespace echecs

// The names of variants and colours (variant_name, ...) for every user of these types.
#include "vocabulary.h"  // IWYU pragma: export

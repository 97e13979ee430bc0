// The position of one of the three games: placement (with each piece's board
// in Alice chess), side to move, castling, en passant, counters and the
// incremental Zobrist key. Moves are made and unmade in place; each made move
// keeps its undo information in a StateInfo owned by the caller, so that make
// and unmake never allocate.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bitboard.h"
#include "error_detail.h"
#include "types.h"

namespace echecs {

// Bad FEN input: the message names the field and the problem.
class FenError : public std::runtime_error {
public:
    explicit FenError(const std::string& msg, ErrorDetail d = {}) : std::runtime_error(msg), detail(std::move(d)) {}
    ErrorDetail detail;  // the key is fen_*: docs/API.md, "Parameters of an error"
};

struct StateInfo {
    // Copied from the previous state by do_move.
    Key key = 0;
    int rule50 = 0;
    int plies_from_null = 0;
    std::uint8_t castling = NO_CASTLING;
    Square ep_square = SQ_NONE;  // set after every double step (chess, Alice), as FEN writes it

    // Computed by do_move.
    bool ep_in_key = false;  // an en-passant capture is legal, so the square is part of the key
    Piece captured = NO_PIECE;
    Square captured_square = SQ_NONE;
    Board captured_board = BOARD_A;
    Square choice_square = SQ_NONE;  // Avalanche: where the pending pawn became the chosen piece
    Bitboard checkers = 0;
    StateInfo* previous = nullptr;
};

class Position {
public:
    static void init();  // attack tables and Zobrist keys; called by set() too

    Position() = default;
    Position(const Position&) = delete;
    Position& operator=(const Position&) = delete;

    // Throws FenError. `st` becomes the root state.
    Position& set(Variant v, std::string_view fen, StateInfo& st, Kings kings = Kings::One);
    static constexpr std::string_view START_FEN = ORTHODOX_START_FEN;
    std::string fen() const;
    std::string pretty() const;  // a text diagram (both boards in Alice)
    // A copy of this position whose root state is `st` (history is not copied).
    void copy_to(Position& dst, StateInfo& st) const;
    // A problem's retro rule (Popeye's castlingmutuallyexclusive): the
    // castlings with the rooks of these home squares cannot both be made, so
    // making one takes the other's right. set() clears it.
    void exclude_castlings(Square rook, Square other_rook) {
        castling_exclusion_[castling_mask_[rook]] |= castling_mask_[other_rook];
        castling_exclusion_[castling_mask_[other_rook]] |= castling_mask_[rook];
    }

    // Placement.
    Variant variant() const { return variant_; }
    Color side_to_move() const { return side_; }
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Board board_of(Square s) const { return (on_b_ & square_bb(s)) ? BOARD_B : BOARD_A; }
    Bitboard pieces() const { return by_type_[NO_PIECE_TYPE]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & (by_type_[a] | by_type_[b]); }
    // Squares whose piece stands on the given board (Alice; board A holds all in the other games).
    Bitboard board_mask(Board b) const { return b == BOARD_B ? on_b_ : ~on_b_; }
    Bitboard on_board_b() const { return on_b_; }
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }  // SQ_NONE without a king
    bool has_king(Color c) const { return pieces(c, KING) != 0; }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }

    // State.
    const StateInfo* state() const { return st_; }
    Key key() const { return st_->key; }
    int rule50() const { return st_->rule50; }
    int game_ply() const { return game_ply_; }
    int fullmove_number() const { return 1 + game_ply_ / 2; }
    std::uint8_t castling_rights() const { return st_->castling; }
    bool can_castle(CastlingRights cr) const { return st_->castling & cr; }
    Square ep_square() const { return st_->ep_square; }
    Bitboard checkers() const { return st_->checkers; }
    bool in_check() const { return st_->checkers != 0; }
    Piece captured_piece() const { return st_->captured; }

    // Avalanche: the pawn of the side to move on its own last rank, or SQ_NONE.
    Square pending_promotion() const;

    // Attacks. With `occ` the blockers of the board in question.
    Bitboard attackers_to(Square s, Bitboard occ) const;
    // Pieces of colour `by` attacking s on the board of the position's rules
    // (Alice: the board `b`, with that board's blockers).
    Bitboard attackers_on(Square s, Board b, Color by) const;
    bool king_attacked(Color c) const;

    // Moves. `m` must be legal (see movegen.h).
    void do_move(Move m, StateInfo& new_st);
    void undo_move(Move m);
    void do_null_move(StateInfo& new_st);
    void undo_null_move();

    // Whether the legal move m gives check. One board and no push (chess): from
    // the placement the move leaves, without making it; else (a transfer to
    // the other board, a push) by making and unmaking it.
    bool gives_check(Move m);
    // Whether gives_check answers without making the move: a search may then
    // ask it before deciding to make one (in the other games a check is seen
    // only after the transfer or the push).
    bool checks_known_before_move() const {
        const VariantInfo& rules = variant_info(variant_);
        return rules.boards == 1 && !rules.has_pushes;
    }
    // Inline: both are asked of every move of every node the engine searches.
    bool is_capture(Move m) const {
        if (m.kind() == EN_PASSANT) return true;
        if (m.kind() == CASTLING) return false;
        return board_[m.to()] != NO_PIECE;
    }
    Piece moved_piece(Move m) const {
        const Piece p = board_[m.from()];
        // Avalanche: a pending pawn moving as its chosen piece.
        if (m.choice() && type_of(p) == PAWN && m.from() == pending_promotion()) [[unlikely]]
            return make_piece(side_, m.choice());
        return p;
    }

    // Internal helpers shared with the move generator.
    bool alice_king_safe_after(Move m) const;              // Alice: the mover's king is safe after the non-king move m
    bool ep_capture_available() const;                     // a legal en-passant capture exists now
    void set_piece_type_in_place(Square s, PieceType pt);  // Avalanche: try a pending choice

private:
    void put_piece(Piece p, Square s, Board b);
    void remove_piece(Square s);
    void move_piece(Square from, Square to, Board to_board);
    void set_state();
    Key compute_key() const;
    Bitboard compute_checkers() const;
    void validate(Kings kings);

    Piece board_[SQUARE_NB] = {};
    Bitboard by_type_[PIECE_TYPE_NB] = {};
    Bitboard by_color_[COLOR_NB] = {};
    Bitboard on_b_ = 0;
    std::uint8_t castling_mask_[SQUARE_NB] = {};
    std::uint8_t castling_exclusion_[ALL_CASTLING + 1] = {};  // by the right a castling uses
    Color side_ = WHITE;
    Variant variant_ = Variant::Chess;
    int game_ply_ = 0;
    StateInfo* st_ = nullptr;
};

// The one FEN writer: Position::fen(), and a placement built elsewhere (the
// Popeye reader). `on_b`: the squares whose piece stands on board B, written
// with the game's board-B letters; `ep` is written only in a game with en passant.
std::string write_fen(Variant v, std::span<const Piece, SQUARE_NB> board, Bitboard on_b, Color side,
                      std::uint8_t castling, Square ep, int rule50, int fullmove);

namespace zobrist {
extern Key psq[PIECE_NB][SQUARE_NB][2];  // [piece][square][board]
extern Key ep_file[8];
extern Key castling[16];
extern Key side;
}  // namespace zobrist

}  // namespace echecs

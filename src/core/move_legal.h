// One move's legality without the generator (movegen.h), for a search that
// tries a single move first (the solver's killer). Apart from movegen.h so
// that its many includers do not depend on it.
#pragma once

#include "position.h"

namespace echecs {

// Whether `m`, a move without castling, en passant or promotion, is legal in
// `pos`. Chess only (one board, no pushes); false in the other games.
bool plain_move_legal(const Position& pos, Move m);

// Plain here: neither castling nor en passant (promotions are).
constexpr bool plain(Move m) { return m.kind() == NORMAL || m.kind() == PROMOTION; }

// After `m`, a legal plain move of the side to move, what the other side's
// plain move `d` would be (the solver's killer tried against each of the
// attacker's moves without making them). Unknown when either move is not
// plain, or in a game other than chess.
enum class Reply : std::uint8_t { Unknown, Illegal, Quiet, Check };
Reply plain_reply(const Position& pos, Move m, Move d);

// plain_reply for one reply `d` against many moves of one position: judged
// once, then again only for a move that could change the verdict (for a
// quiet d: one that gives check itself, leaves a line between a king and a
// slider, or touches d's path; else one that starts or ends on a line or
// knight's move from either king or on d's path; and a king's move). `pos`
// must outlive the probe, and be as it was when the probe was made whenever
// `after` is called.
class ReplyProbe {
public:
    ReplyProbe(const Position& pos, Move d);
    Reply after(Move m) const;
    Move reply() const { return d_; }

private:
    const Position* pos_;
    Move d_;
    Reply alone_ = Reply::Unknown;
    Square our_king_ = SQ_NONE, their_king_ = SQ_NONE;
    Bitboard occ_ = 0, path_ = 0, sensitive_ = 0, exposing_ = 0;
};

}  // namespace echecs

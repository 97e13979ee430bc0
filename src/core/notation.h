// Move notation: coordinate strings (UCI, RULES.md §3-4) and SAN.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "movegen.h"
#include "position.h"

namespace echecs {

// An unreadable, illegal or ambiguous move string; the message says which and why.
class NotationError : public std::runtime_error {
public:
    enum Kind { Unreadable, Illegal, Ambiguous };
    NotationError(Kind k, const std::string& msg) : std::runtime_error(msg), kind(k) {}
    Kind kind;
};

// "e2e4", "e7e8q", castling as the king's move "e1g1"; Avalanche
// "g1f3,e7e6", "g1f3" (no push possible), "q:g1f3,e7e6" (pending choice).
std::string to_uci(Move m);
// The legal move that `s` names. Throws NotationError.
Move parse_uci(Position& pos, std::string_view s);

// Standard Algebraic Notation of the legal move m ("Nf3", "exd5", "O-O",
// "e8=Q+"); Alice: standard letters, disambiguated among the moves of both
// boards; Avalanche: "Nf3,e6", "Q:Nf3,e6", the check suffix at the very end.
std::string to_san(Position& pos, Move m);
// The SAN of every move of `legal` (all the legal moves of pos, as
// generate_legal gives them), in the same order: one generation, not one per move.
std::vector<std::string> to_san_all(Position& pos, const MoveList& legal);
// Reads SAN (also Alice board-B letters S U O C T L and a leading P for
// pawns, as the seed writes them). Throws NotationError.
Move parse_san(Position& pos, std::string_view s);

}  // namespace echecs

// Legal move generation for the three games: one generator, with the few
// places where the games differ (Alice's two boards, Avalanche's missing en
// passant, pending choice and push) as compile-time hooks.
#pragma once

#include <cstdint>

#include "position.h"
#include "vocabulary.h"

namespace echecs {

struct MoveList {
    Move moves[MAX_MOVES];
    int count = 0;

    const Move* begin() const { return moves; }
    const Move* end() const { return moves + count; }
    Move* begin() { return moves; }
    Move* end() { return moves + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    bool contains(Move m) const {
        for (int i = 0; i < count; ++i)
            if (moves[i] == m) return true;
        return false;
    }
    void push(Move m) { moves[count++] = m; }
};

// Every legal complete move of the side to move (Avalanche: choice, first
// part and push). The position is restored before returning; it is not const
// because Avalanche moves are found by making each first part.
void generate_legal(Position& pos, MoveList& list);

// Moves legal in orthodox chess on this position (Avalanche: the first parts,
// without en passant; with a pending choice, of the choice already applied).
// Returns the new end of `list`.
Move* generate_first_parts(const Position& pos, Move* list);

// Avalanche: true when the side to move has at least one legal first part for
// some pending choice, whether or not a push can complete it.
bool has_first_part(Position& pos);

// THE judgement of a position whose side to move has no complete legal move
// (RULES.md §1.2, §2.3, §3.2): Checkmate or Stalemate when it has no first
// part at all (in check or not), AvalancheLoss when first parts exist but no
// push can complete any of them. Precondition: generate_legal finds nothing.
Termination no_move_verdict(Position& pos);

// Leaf nodes at `depth` (bulk-counted at the last ply).
std::uint64_t perft(Position& pos, int depth);

}  // namespace echecs

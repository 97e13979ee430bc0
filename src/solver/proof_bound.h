// The proof-game target and the lower bound that prunes the search: how
// many moves each side still needs, at least, to turn the position on the
// board into the diagram. Each man of the diagram must be some man of its
// colour now on the board: one of its type (its distance on an empty board,
// proof_distance.h), or a pawn that promotes on the way; a pawn stays a pawn
// only on its file or by capturing. The cheapest way to give every man of the
// diagram its own man now on the board (assignment.h) is a lower bound, and
// so is the number of enemy men each side must still capture (each capture
// is a move), and the captures the pawns' changes of file need must not
// exceed the enemy men that are to disappear.
//
// Every estimate ignores blockers, checks and the order of moves, so it never
// exceeds the truth: pruning with it keeps the search exhaustive.
// Alice: a man changes board at each of its moves, so the parity of its
// number of moves must bring it to the diagram's board. Avalanche: a pawn
// also advances when the enemy pushes it, so only its captures (changes of
// file) count as its own moves.
#pragma once

#include <array>
#include <memory>

#include "core/position.h"
#include "solver/proof_distance.h"

namespace echecs::solver {

class ProofBound {
public:
    // `target` holds the diagram (placement and, in Alice, boards).
    ProofBound(Variant v, const Position& target);

    // The placement (and Alice boards) equals the diagram's.
    bool reached(const Position& pos) const;
    bool pushes() const { return avalanche_; }
    // False when the diagram cannot be reached with `plies` more half-moves,
    // the side to move playing the first of them. `need` holds each side's
    // count; the side to move's is recounted only with `recount_both` (its
    // men have not changed since it was counted unless the last move
    // captured one, or pushed one of its pawns in Avalanche), else kept.
    bool feasible(const Position& pos, int plies, int need[COLOR_NB], bool recount_both) const;
    // The least number of moves each side needs (UNREACHABLE_MOVES: impossible).
    void needed(const Position& pos, int out[COLOR_NB]) const;

    static constexpr int UNREACHABLE_MOVES = 1000;

private:
    struct Man {
        Square sq;
        PieceType type;
        Board board;
    };
    int side_needs(const Position& pos, Color c) const;
    int move_cost(Color c, const Man& from, const Man& to) const;
    int pawn_moves(Color c, Square from, Board fb, Square to, Board tb) const;
    // A man of the same type as target man i, or a pawn, from (square, board): its moves to become it.
    int cost(Color c, int i, const Man& from) const {
        const Man& t = men_[c][i];
        if (from.type == PAWN) return pawn_cost_[c][i][from.sq][from.board];
        if (from.type != t.type) return ASSIGN_INF_COST;
        return distance_[c][i][from.sq][from.board];
    }
    static constexpr int ASSIGN_INF_COST = 1000;  // assignment.h's ASSIGN_INF

    bool alice_, avalanche_;
    std::array<Piece, SQUARE_NB> piece_{};
    std::array<std::uint8_t, SQUARE_NB> index_{};  // a target square's man: its index in men_
    Bitboard on_b_ = 0;
    Bitboard occupied_ = 0;
    std::array<std::array<Man, 16>, COLOR_NB> men_{};
    std::array<int, COLOR_NB> count_{};
    // Per target man, per square and board of the man that would become it:
    // a pawn's moves (staying a pawn or promoting), a man of its type's moves.
    // Distances on the board where the diagram's pawns on their first rank
    // stand for good (orthodox chess: a pawn there never moved and never will).
    struct Distances {
        DistanceTable d;
    };
    std::unique_ptr<Distances> distances_;
    int distance(PieceType pt, int flip, Square from, Square to) const {
        const auto& d = distances_->d[distance_index(pt)];
        return alice_ ? d[flip][from][to] : std::min(d[0][from][to], d[1][from][to]);
    }
    std::uint16_t pawn_cost_[COLOR_NB][16][SQUARE_NB][2];
    std::uint16_t distance_[COLOR_NB][16][SQUARE_NB][2];
};

}  // namespace echecs::solver

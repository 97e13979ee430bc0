// Static evaluation for the three games, from the side to move's point of
// view, in centipawns. The weights are data (EvalWeights), one set per game,
// so that each game can be tuned on its own positions (tune.cpp) and a term
// can be switched off by setting its weights to zero (UCI `Eval Weights`).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/position.h"

namespace echecs::engine {

namespace nnue {
struct Network;
}

using Value = int;

constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr int SEARCH_MAX_PLY = 120;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - SEARCH_MAX_PLY;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }

// Middle-game piece values, used by move ordering and pruning margins.
constexpr Value PIECE_VALUE[PIECE_TYPE_NB] = {0, 100, 320, 330, 500, 950, 0};

// A middle-game / endgame pair, blended by the game phase.
struct Score {
    int mg = 0, eg = 0;
};

// Every weight of the evaluation. The piece-square tables are built from a
// few shape parameters (centre distance, rank, file) rather than tuned
// square by square: far fewer parameters for the same positions.
struct EvalWeights {
    Score material[PIECE_TYPE_NB];
    Score mobility[PIECE_TYPE_NB];  // per reachable square above a typical count
    int king_attack_weight[PIECE_TYPE_NB] = {};
    int king_attack_scale = 0;  // units^2 * scale, capped
    Score bishop_pair, rook_open, rook_semi_open, rook_seventh;
    Score doubled, isolated;
    Score passed[8];
    int tempo = 0;
    int shield_near = 0, shield_far = 0, shield_missing = 0;
    // Piece-square shapes: by distance from the centre (0 centre .. 3 edge).
    Score knight_centre[4], bishop_centre[4], queen_centre[4];
    int king_centre_eg[4] = {};
    int king_file_mg[8] = {};
    int king_rank2_mg = 0, king_high_mg = 0;  // king on its 2nd rank; from the 3rd, times (rank + 3)
    Score pawn_rank[8];
    int pawn_centre = 0, pawn_wide_centre = 0, rook_centre_file = 0;

    // Alice: checks a piece could give by a transfer; the king's escape
    // squares judged on both boards.
    Score transfer_check, escape_square, no_escape;
    // Avalanche (pawn races are the game's own tuned passed-pawn table):
    // enemy pawns in front of the king (pushes that would check the
    // pusher are barred, which can leave only bad pushes), and a side with
    // no harmless enemy pawn left to push, which must advance one towards
    // promotion.
    Score pawn_in_front_of_king;
    Score forced_push;  // no harmless push left, only pushes to the enemy's 7th/8th rank

    // The game's network (nnue.h): when set, it evaluates instead of the
    // weights above (the hand-written evaluation's); in chess endgame.h
    // corrects its score in the endings it knows.
    std::shared_ptr<const nnue::Network> network;

    // Derived: piece-square values for White, built by finish().
    Score psq[PIECE_TYPE_NB][SQUARE_NB];
    void finish();

    // Every tunable integer by name ("material.knight.mg", "forced_push.eg", ...).
    void visit(const std::function<void(const std::string& name, int& value)>& f);
    // Applies "name=value,name=value": a name sets every weight it prefixes
    // ("forced_push=0" switches the whole term off). Returns an error message,
    // empty on success.
    std::string apply(std::string_view overrides);
};

// The committed weights of each game: the hand-set starting point with the
// tuned overrides of tuned_weights.h applied, and the game's network when it
// adopted one (nnue::adopted).
const EvalWeights& default_weights(Variant v);
// The same without the network: the hand-written evaluation, which the
// weakened levels keep (they were measured with it) and which the network's
// training positions are played with.
const EvalWeights& hand_written_weights(Variant v);
// The same as a SearchOptions::weights (non-owning: the weights are a static).
inline std::shared_ptr<const EvalWeights> hand_written_weights_ptr(Variant v) {
    return std::shared_ptr<const EvalWeights>(std::shared_ptr<const void>(), &hand_written_weights(v));
}
std::string_view tuned_overrides(Variant v);
// The hand-set starting point of tuning (no tuned override).
EvalWeights hand_set_weights(Variant v);
// Whether the evaluation of game v reads the weight `name`.
bool weight_used_by(Variant v, std::string_view name);
// The same weights with the Alice and Avalanche terms switched off.
EvalWeights without_variant_terms(const EvalWeights& w);

// The full evaluation of the position's variant.
Value evaluate(const Position& pos, const EvalWeights& weights);
inline Value evaluate(const Position& pos) { return evaluate(pos, default_weights(pos.variant())); }
// Material only (P=1, N=B=3, R=5, Q=9 pawns): the 2-ply beginner player of
// Skill Level 0.
Value evaluate_material(const Position& pos);

}  // namespace echecs::engine

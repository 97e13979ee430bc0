// Move ordering: each legal move gets a score (hash move, then good captures
// by victim and attacker, killers, history, bad captures), and the search
// takes them best first.
#pragma once

#include <cstdint>

#include "core/movegen.h"
#include "evaluate.h"

namespace echecs::engine {

constexpr int HISTORY_MAX = 16384;

// Per-search ordering statistics, indexed by the first part of a move.
struct OrderingStats {
    int history[COLOR_NB][SQUARE_NB][SQUARE_NB];
    Move killers[SEARCH_MAX_PLY + 2][2];

    void clear();
    void update_history(Color c, Move m,
                        int bonus);  // bonus in [-HISTORY_MAX, HISTORY_MAX]
    void update_killers(int ply, Move m);
};

// Captures, en passant and promotions: the moves quiescence looks at.
bool is_tactical(const Position& pos, Move m);
// A capture that loses material at once: the victim is worth less than the
// capturer and the capturer can be taken back where it lands.
bool is_bad_capture(const Position& pos, Move m);
// Avalanche: how good the push of m is for the mover (advancing the enemy's
// pawns, letting them attack our pieces, is bad; promoting them, worse).
int push_score(const Position& pos, Move m);

class MovePicker {
public:
    // Scores the moves of `list` into `scores` (room for list.count values).
    MovePicker(const Position& pos, MoveList& list, int* scores, Move tt_move, const OrderingStats& stats, int ply);
    // The best remaining move, or Move::none().
    Move next();
    int count() const { return n_; }

private:
    void sort_rest();

    Move* moves_;
    int* scores_;
    int n_ = 0, cur_ = 0;
    bool sorted_ = false;
};

}  // namespace echecs::engine

// Move ordering: a staged picker over the complete legal moves of a node
// (hash move, good captures, killers and the counter-move, quiet moves by
// history, bad captures), and the history tables it orders by.
#pragma once

#include <cstdint>

#include "core/movegen.h"
#include "evaluate.h"

namespace echecs::engine {

constexpr int HISTORY_MAX = 16384;

// Continuation history: how good a move (piece, destination) has been after
// a given earlier move (piece, destination), one table row per earlier move.
using PieceToHistory = std::int16_t[PIECE_NB][SQUARE_NB];

// Per-thread ordering statistics. Everything is indexed by the first part
// of a move (in Avalanche the push is not part of the index: the push
// scores of push_score() order the pushes of one first part).
struct OrderingStats {
    int history[COLOR_NB][SQUARE_NB][SQUARE_NB];               // from-to (butterfly)
    std::int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];  // moved piece, to, victim
    PieceToHistory continuation[PIECE_NB][SQUARE_NB];          // [earlier piece][earlier to]
    Move countermove[PIECE_NB][SQUARE_NB];                     // the refutation of the last move
    Move killers[SEARCH_MAX_PLY + 2][2];

    void clear();
    // bonus in [-HISTORY_MAX, HISTORY_MAX]; gravity keeps every entry inside.
    void update_history(Color c, Move m, int bonus);
    void update_killers(int ply, Move m);
};

inline void update_stat(std::int16_t& h, int bonus) {
    h = std::int16_t(h + bonus - h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

// Captures, en passant and promotions: the moves quiescence looks at.
bool is_tactical(const Position& pos, Move m);
// Avalanche: how good the push of m is for the mover (advancing the enemy's
// pawns, letting them attack our pieces, is bad; promoting them, worse).
int push_score(const Position& pos, Move m);

// What a node's picker orders by, besides the position.
struct PickerContext {
    Move tt_move = Move::none();
    Move killers[2] = {Move::none(), Move::none()};
    Move countermove = Move::none();
    // Continuation rows of the moves 1, 2 and 4 plies back (never null: a
    // missing move points at an all-zero row).
    const PieceToHistory* cont[3] = {nullptr, nullptr, nullptr};
};

class MovePicker {
public:
    enum class Mode : std::uint8_t {
        Main,        // every move: TT, good captures, killers, quiets, bad captures
        Quiescence,  // TT, then captures and queen promotions; quiet moves as `quiets` says
    };
    enum class Quiets : std::uint8_t {
        None,
        All,
        // Only those that give check. In a one-board game without pushes
        // (chess) that is known without playing them, so the others are
        // dropped unscored; elsewhere they all come and the caller plays them.
        Checks,
    };
    // Orders the moves of `list` (reordered in place); `scores` has room for
    // list.count values.
    MovePicker(Position& pos, MoveList& list, int* scores, const OrderingStats& stats, const PickerContext& ctx,
               Mode mode, Quiets quiets = Quiets::All);
    // The next move, or Move::none(). With skip_quiets the remaining quiet
    // moves (killers included) are passed over; bad captures still come.
    Move next(bool skip_quiets = false);
    // The stage the last move came from (for pruning decisions).
    bool last_was_bad_capture() const { return stage_ == Stage::Bad; }

private:
    enum class Stage : std::uint8_t { TT, CaptureInit, Good, Killers, QuietInit, Quiet, Bad, Done };
    Move pick_best(int begin, int end);   // the best scored move of [begin, end), moved to `begin`
    bool is_special(Move m) const;        // the TT move or a killer already returned
    void sort_range(int begin, int end);  // best first, stable
    bool checks_known() const;            // Quiets::Checks, filtered here

    Position& pos_;  // not changed (Position::gives_check is not const)
    const OrderingStats& stats_;
    const PickerContext& ctx_;
    Move* moves_;
    int* scores_;
    int n_ = 0;
    Mode mode_;
    Quiets quiets_;
    Stage stage_ = Stage::TT;
    int cur_ = 0;           // next index in the current stage
    int captures_end_ = 0;  // [0, captures_end_) tactical moves, the rest quiet
    int bad_end_ = 0;       // bad captures collected at [0, bad_end_)
    int killer_index_ = 0;
    Move returned_[3] = {Move::none(), Move::none(), Move::none()};  // killers and counter-move given out
    int returned_count_ = 0;
    bool tt_in_list_ = false;
    bool sorted_ = false;
};

}  // namespace echecs::engine

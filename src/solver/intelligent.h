// Helpmates in the manner of Popeye's intelligent mode: first the mating
// positions that the moves left can reach, then a search that plays only
// towards those still within reach.
//
// A target is a part of a final position: some men of the diagram (each
// named by its diagram square), each on a square as some type, and squares
// that must be empty. It is built from the mated king alone, one man at a
// time: while the men placed so far would leave the mated side a legal move
// (a flight, a capture of the checker, an interposition, or no check at
// all), each way a man could take that move away in a real mate is a branch
// (occupy the flight, attack it, attack the king after the move: a pin or a
// second check, stand in the moving man's path, give the check). Every
// checkmate reachable within the moves contains one of the targets, with its
// empty squares empty, so a search that prunes the positions from which no
// target is reachable still finds every solution (docs/SOLVER.md). The men
// are counted on an empty board (mate_bound.h), each on its own: necessary,
// never sufficient, and the search tests the real mate at the end.
//
// Stalemates the same way, with two differences: the king must not be in
// check (a man in each line of check), and every man of the stalemated side
// is decided, placed where it cannot move or captured (one move of the
// other side each), since any man left free could move (docs/SOLVER.md).
//
// Orthodox chess only.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/position.h"
#include "platform/huge_pages.h"
#include "solver/hash.h"
#include "solver/mate_bound.h"

namespace echecs::solver {

struct TargetMan {
    Square home;  // the man's diagram square: who it is
    Square on;    // where it stands at the end
    PieceType as;
};

struct Target {
    std::vector<TargetMan> men;  // the mated king first
    Bitboard empty = 0;          // squares empty at the end (lines of check and guard)
    Bitboard gone = 0;           // diagram squares of men captured by the end (stalemates)
};

// The targets for mating `mated` in `pos` with at most w moves by the other
// side and b by itself. False when there would be more than `limit`, or the
// listing would take more than 64 steps per target allowed, or `stop` (asked
// every few thousand steps) says to stop: then `out` is incomplete and the
// caller searches without them.
bool mate_targets(const Position& pos, Color mated, int w, int b, std::vector<Target>& out, std::size_t limit,
                  const std::function<bool()>& stop = {});

// The same for stalemating `stalemated`.
bool stalemate_targets(const Position& pos, Color stalemated, int w, int b, std::vector<Target>& out, std::size_t limit,
                       const std::function<bool()>& stop = {});

// Follows the diagram's men through a search towards a list of targets, and
// keeps at each node the targets still within reach: those of the node
// above that its moves left can still reach. A node with none is pruned.
class TargetTracker {
public:
    // From `root`, towards `targets` (nullptr: off).
    void start(const Position& root, const std::vector<Target>* targets);
    bool active() const { return targets_ != nullptr; }
    // Before the move is made on `pos`.
    void make(const Position& pos, Move m);
    void unmake(Move m);
    // A node with at most w moves left to the side that mates and b to the
    // mated side: its targets within reach (castling rights add one to their
    // side's; each man still to be captured takes one of the w); false when
    // there is none. Each enter() is followed by a leave() (TargetLevel).
    bool enter(const Position& pos, Color mated, int w, int b);
    void leave() { --depth_; }
    // The diagram square of the man on each occupied square, in square order,
    // then -1: which man stands where.
    void identities(const Position& pos, std::int8_t* out, int size) const;

private:
    bool reachable(const Target& t, const Position& pos, Color mated, const int* left, int moves) const;
    void shift(Square from, Square to);  // the man on `from` (if any) goes to `to`
    const std::vector<Target>* targets_ = nullptr;
    std::vector<std::vector<std::uint32_t>> live_;  // per node depth: the targets within reach
    int depth_ = 0;
    std::int8_t home_on_[64];  // the diagram square of the man on each square, -1 empty
    std::int8_t where_[64];    // each diagram man's square now, -1 captured
    Color colour_[64];         // each diagram man's
    // Each diagram man's tables where it stands now, changed by its moves:
    // a node filters thousands of targets.
    ManTables tables_[64];
    struct Undo {
        std::int8_t captured = -1;
        Square captured_on = SQ_NONE;
        ManTables moved, rook;  // the moving man's and a castling rook's tables before the move
    };
    Undo undo_[MAX_PLY + 2];
    int ply_ = 0;
};

// A node's level of the tracker (when active), left when the node returns.
class TargetLevel {
public:
    TargetLevel(TargetTracker& t, const Position& pos, Color mated, int w, int b)
        : tracker_(t.active() ? &t : nullptr), any_(!tracker_ || tracker_->enter(pos, mated, w, b)) {}
    ~TargetLevel() {
        if (tracker_) tracker_->leave();
    }
    TargetLevel(const TargetLevel&) = delete;
    TargetLevel& operator=(const TargetLevel&) = delete;
    bool none() const { return !any_; }

private:
    TargetTracker* tracker_;
    bool any_;
};

// The help lines that failed, for one thread's search towards its targets.
// The shared proof table cannot hold them: whether a position fails depends
// on which man stands where (two queens that have changed places make the
// same position but not the same targets), so an entry keeps that, whole. A
// fail holds whatever targets were still within reach: those dropped on the
// way were out of reach from here as well.
class TargetTable {
public:
    TargetTable();
    // Forgets every entry (new targets): a generation counter, no clearing.
    void clear() {
        ++generation_;
        used_ = 0;
    }
    bool failed(const Position& pos, const PositionCode& code, const TargetTracker& men, int plies) const;
    void store_fail(const Position& pos, const PositionCode& code, const TargetTracker& men, int plies);

private:
    static constexpr int MEN = 32;
    struct Entry {
        PositionCode code;
        std::uint64_t help_fail;
        std::uint32_t generation;
        std::uint32_t slot;  // the index's hash, to move the entry when the table grows
        std::int8_t men[MEN];
    };
    Entry* find(Key key, const PositionCode& code, const std::int8_t* men, bool make);
    void grow();
    // As ProofTable's: zero pages (generation 0: unused) as they are first
    // used, and only the first `active_` entries (a power of two), doubled,
    // each entry moved to its new place, once an eighth of them have been
    // written: a short problem touches 640 KiB, not 20 MiB (one table per
    // searching thread).
    static constexpr std::size_t SIZE = std::size_t(1) << 18;  // 20 MiB
    static constexpr std::size_t START = std::size_t(1) << 13;
    platform::HugePages block_;
    Entry* entries_;
    std::size_t active_ = START;
    std::size_t used_ = 0;  // entries written in this generation (some over others)
    std::uint32_t generation_ = 1;
};

}  // namespace echecs::solver

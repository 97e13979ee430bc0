// Puzzles: positions where one move wins clearly and every other move does
// not, found in the engine's own games (or finished games read from PGN) and
// checked by a deeper search (docs/PUZZLES.md gives the criteria and themes).
// Depends on the rules (core) and the engine only: the server reads the
// files this writes (puzzle_file.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"

namespace echecs::puzzle {

struct Puzzle {
    std::string id;  // stable: from the variant and the position
    Variant variant = Variant::Chess;
    std::string fen;
    std::vector<std::string> solution;  // coordinate strings; the solver's moves at even indices
    std::vector<std::string> themes;    // docs/PUZZLES.md "Themes"
    int rating = 1500;                  // a seed for the puzzle's own rating
    std::string source;                 // where the position came from (game and ply)
};

// The criteria. Scores are centipawns from the solver's view; a mate found
// for the solver always counts as winning, one against never.
struct Criteria {
    int win_cp = 300;                    // the best move wins: at least this, or a mate
    int fail_cp = 100;                   // every other move: at most this, and no mate
    std::uint64_t scan_nodes = 1500;     // the candidate search (MultiPV 2), per position
    std::uint64_t verify_nodes = 30000;  // the checking search (MultiPV 2) from a fresh table
    int max_solver_moves = 3;            // of a line that is not a mate
    int max_mate = 5;                    // longer mates are not kept (the line would be long)
};

// Finds and checks puzzles; one per thread (it owns its tables).
class Finder {
public:
    explicit Finder(const Criteria& c);
    ~Finder();
    Finder(const Finder&) = delete;
    Finder& operator=(const Finder&) = delete;

    // The puzzle of the position, or nothing when it is not one. The scan
    // search comes first (skipped with scan = false, e.g. when the caller
    // already scanned); then the verification from a fresh table, the
    // solution and the themes. `last_capture`: the square where the move
    // that led here captured (SQ_NONE: none or unknown): taking back there is
    // a trivial recapture, not a puzzle.
    std::optional<Puzzle> examine(Variant v, const std::string& fen, Square last_capture = SQ_NONE, bool scan = true);

    // The two best lines of a MultiPV-2 search of `nodes` (best first), from
    // the game searcher's table (cleared by new_game) or a fresh one.
    struct Line {
        Move move = Move::none();
        int score = 0;  // engine Value, side to move's view
        std::vector<Move> pv;
    };
    std::vector<Line> scan(Variant v, const std::string& fen);
    void new_game();

    // Whether two lines pass the criteria: loose for the scan, strict for
    // the verification.
    bool passes(const std::vector<Line>& lines, bool loose) const;

    const Criteria& criteria() const { return c_; }

private:
    struct Engines;
    Criteria c_;
    std::unique_ptr<Engines> e_;
};

// The stable id of a puzzle's position: the game's letter and 8 hex digits.
std::string puzzle_id(Variant v, const std::string& fen);

}  // namespace echecs::puzzle

// The problem solver's library interface: solve a problem (a diagram, a game
// and a stipulation) exhaustively and exactly, from the command line, a
// server endpoint or a test. The result is a tree (keys, threats, variations,
// tries, set play) or a list of help solutions, with the notation already
// written, serialisable to JSON (output.h).
//
// Limits and control: a timeout, a node limit and a maximum number of
// solutions stop the search and say so (Result::status); a cancel flag is
// polled; a progress callback is called from the calling thread about ten
// times a second while worker threads search.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/types.h"
#include "solver/stipulation.h"

namespace echecs {
class Position;
}

namespace echecs::solver {

struct Problem {
    Variant variant = Variant::Chess;
    std::string fen;  // the diagram (its side-to-move field is set by the stipulation); a=>b: the position a
    Stipulation stipulation;
    std::string title;  // free text: author, source (Popeye's author/origin/title)
    // Proof games: a=>b, the position b to reach from `fen` (placement and
    // Alice boards only). dia: empty, `fen` is the diagram to reach from the game's start.
    std::string target{};      // (a default initializer: Problem{v, fen, st, title} stays warning-free)
    Kings kings = Kings::One;  // AtMostOne: a king may be missing (Popeye's nowk, nobk)
    // Popeye's castlingmutuallyexclusive: pairs of rooks' home squares (White's
    // a1 or h1, Black's a8 or h8) whose castlings cannot both be made.
    std::vector<std::pair<Square, Square>> exclusive_castlings{};
};

// The problem's retro rules that the FEN cannot say (exclusive_castlings), given to `pos`.
void apply_retro_rules(const Problem& problem, Position& pos);

// One move of a solution, written for composers and for programs.
struct PlayedMove {
    Move move;
    std::string text;  // composers' long algebraic, e.g. "Bh4-g3A", "Ke5xd4B#"
    std::string uci;   // coordinates, e.g. "h4g3", Avalanche "g1f3,e7e6"
};

struct DefenceLine;

// An attacker's move (battle play: #n, s#n, =n) and the play after it.
struct AttackLine {
    PlayedMove move;
    bool goal = false;                     // the move reaches the goal itself (direct play: it mates)
    bool check = false;                    // it gives check (no threat is then looked for)
    bool zugzwang = false;                 // it threatens nothing: the defender must move
    std::vector<AttackLine> threats;       // the attacker's shortest threats
    std::vector<DefenceLine> defences;     // the variations: defences answering the threat, each with its play
    std::vector<DefenceLine> refutations;  // defences after which the attacker no longer wins (tries)
};

struct DefenceLine {
    PlayedMove move;
    bool goal = false;                      // selfplay: this defence reaches the goal (the defender is forced to mate)
    std::vector<AttackLine> continuations;  // the attacker's shortest wins after it
};

// A helpplay solution: every half-move from the diagram.
struct HelpLine {
    std::vector<PlayedMove> moves;
    // Series play: the moves after the series, which its numbers leave out
    // (Stipulation::series_tail(); ser-reci-h: 0 in Black's own line).
    int series_tail = 0;
    // Per move: played by the line's first mover (parry series: the numbered
    // moves, the other side's parries following them).
    std::vector<bool> first_side;
};

enum class Status { Complete, Timeout, Cancelled, NodeLimit, MaxSolutions };
std::string_view status_name(Status s);  // "complete", "timeout", ...

struct Result {
    Problem problem;
    std::string fen;   // the diagram as solved (side to move of the stipulation)
    std::string note;  // e.g. that the FEN's side to move was replaced
    // Battle play.
    std::vector<AttackLine> keys;
    std::vector<AttackLine> tries;      // first moves refuted by exactly one defence
    std::vector<DefenceLine> set_play;  // the defender's moves in the diagram and the attacker's answers
    // postkeyplay: the play after the key (the diagram), its move empty.
    std::optional<AttackLine> post_key;
    // Help play.
    std::vector<HelpLine> solutions;
    std::vector<HelpLine> set_solutions;  // one half-move shorter, the other side first

    Status status = Status::Complete;
    int first_moves = 0;       // legal first moves of the diagram
    int first_moves_done = 0;  // of which fully examined
    std::uint64_t nodes = 0;   // moves made by the search
    double seconds = 0;
    int threads = 1;
    std::size_t targets = 0;         // helpmates searched target by target (Options::intelligent): how many
    bool stalemate_targets = false;  // and they were stalemates

    bool complete() const { return status == Status::Complete; }
    bool battle() const { return problem.stipulation.battle(); }
    // postkeyplay: 1 when the key works (no defence refutes it), else 0.
    int solution_count() const {
        if (post_key) return post_key->refutations.empty() ? 1 : 0;
        return int(battle() ? keys.size() : solutions.size());
    }
};

struct Progress {
    int first_moves_done = 0, first_moves = 0;
    std::uint64_t nodes = 0;
    int solutions = 0;
    double seconds = 0;
};

struct Options {
    bool tries = false;           // battle play: first moves with a single refutation
    bool set_play = false;        // the play if the defender (helpplay: the other side) moved first
    bool threats = true;          // look for threats; variations are then those answering them
    bool variations = true;       // build the tree after each key (false: keys alone)
    int max_solutions = 0;        // stop after this many keys or help solutions (0: all)
    double timeout_seconds = 0;   // 0: none
    std::uint64_t max_nodes = 0;  // 0: none
    int threads = 0;              // 0: every core
    std::size_t hash_megabytes = 64;
    // Orthodox helpmates and help-stalemates searched target by target (solver/intelligent.h),
    // as Popeye's intelligent mode, or by the plain search: the same
    // solutions. Auto: by targets from 3 moves, where it is the faster.
    enum class Intelligent { Auto, Always, Never } intelligent = Intelligent::Auto;
    const std::atomic<bool>* cancel = nullptr;      // set by the caller to stop
    std::function<void(const Progress&)> progress;  // called from the calling thread
    // Each key with its play (battle play) or each solution (help and series
    // play) as soon as it is proven, before solve() returns: called from the
    // search threads, one call at a time. Result holds them all the same.
    std::function<void(const AttackLine* key, const HelpLine* solution)> found;
};

// A problem that cannot be solved as given (bad FEN, no king, ...): the message says why.
class ProblemError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws ProblemError (bad position for the stipulation; a FenError's text is kept).
Result solve(const Problem& problem, const Options& options = {});

}  // namespace echecs::solver

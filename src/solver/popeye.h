// Popeye's input language (.inp), the subset that describes problems of the
// three games: begin, title/author/origin/remark, pieces (white/black, the
// AliceB attribute), forsyth, stipulation, condition alice (and the echecs
// extension "condition avalanche"), option (try, defence 1, set, variation,
// nothreat, maxsolutions, maxtime, nocastling, enpassant, whitetoplay,
// intelligent, noboard), twin (move, exchange, remove, add, stipulation,
// continued), next, end. Keywords are Popeye's in its three languages
// (popeye_words.h), case-insensitive, abbreviated as Popeye allows.
// It is file input: the reader is bounded and every error names its line.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "solver/solver.h"

namespace echecs::solver {

// Unreadable or unsupported Popeye input; the message starts with "line N: ".
class PopeyeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PopeyeProblem {
    // The problem and each twin, complete: a), b), ... (one entry without twins).
    std::vector<Problem> twins;
    std::vector<std::string> twin_labels;  // "a)", "b) move h1 h2", ...
    // The solving options the input asks for.
    bool tries = false, set_play = false, variations = false, threats = true;
    int max_solutions = 0;
    double max_time = 0;
    // Set when the problem is refused ("line N: why"); it then has no twins.
    std::string refused;
    // What was read but ignored ("line N: ..."), e.g. a LaTeX command.
    std::vector<std::string> warnings;
};

constexpr std::size_t POPEYE_MAX_BYTES = 1 << 20;
constexpr std::size_t POPEYE_MAX_PROBLEMS = 1000;
constexpr std::size_t POPEYE_MAX_TWINS = 26;

// Every problem of a file; a problem that cannot be read or solved as asked
// is refused (PopeyeProblem::refused) and the reader goes on with the next.
// Throws PopeyeError only for the whole file (too large, no 'begin', too many problems).
std::vector<PopeyeProblem> read_popeye_all(std::string_view text);
// The same, but the first refused problem throws its PopeyeError (for one problem at a time).
std::vector<PopeyeProblem> read_popeye(std::string_view text);

struct PopeyeWriteOptions {
    bool tries = false, set_play = false, variations = true, threats = true;
};
// Popeye input for one problem (its FEN's side to move follows from the stipulation).
// Throws ProblemError for a FEN that cannot be read.
std::string write_popeye(const Problem& p, const PopeyeWriteOptions& o = {});

}  // namespace echecs::solver

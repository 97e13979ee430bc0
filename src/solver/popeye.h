// Popeye's input language (.inp), the subset that describes problems of the
// three games: begin, title/author/origin/remark, pieces (white/black, the
// AliceB attribute), forsyth, stipulation, condition alice (and the echecs
// extension "condition avalanche"), option (try, defence 1, set, variation,
// nothreat, maxsolutions, maxtime, nocastling, enpassant, noboard), twin
// (move, exchange, remove, add, stipulation, continued), next, end.
// Keywords are case-insensitive and may be abbreviated, as Popeye allows.
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
};

constexpr std::size_t POPEYE_MAX_BYTES = 1 << 20;
constexpr std::size_t POPEYE_MAX_PROBLEMS = 1000;
constexpr std::size_t POPEYE_MAX_TWINS = 26;

// Throws PopeyeError.
std::vector<PopeyeProblem> read_popeye(std::string_view text);

struct PopeyeWriteOptions {
    bool tries = false, set_play = false, variations = true, threats = true;
};
// Popeye input for one problem (its FEN's side to move follows from the stipulation).
// Throws ProblemError for a FEN that cannot be read.
std::string write_popeye(const Problem& p, const PopeyeWriteOptions& o = {});

}  // namespace echecs::solver

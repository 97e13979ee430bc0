// Which puzzles to serve next (GET /api/puzzles/next): those nearest a
// solver's rating, skipping the ones an account has already finished.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "puzzle.h"

namespace echecs::puzzle {

// The indices in `sorted` (puzzles by rating, ascending) of the `near`
// puzzles nearest `rating` that `done` does not hold, nearest first; when
// `done` holds every puzzle, the `near` nearest of all (a solver who has
// finished everything still gets one).
std::vector<std::size_t> nearest_puzzles(const std::vector<Puzzle>& sorted, int rating, std::size_t near,
                                         const std::function<bool(const Puzzle&)>& done = nullptr);

}  // namespace echecs::puzzle

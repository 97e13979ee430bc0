// The puzzle files: one JSON object per line (data/puzzles/<variant>.jsonl),
// {"id", "variant", "fen", "solution", "themes", "rating", "source"}.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "puzzle.h"

namespace echecs::puzzle {

std::string to_json_line(const Puzzle& p);

// Throws std::runtime_error naming the line for a line that is not a puzzle
// (bad JSON, a missing field, an unknown variant). Blank lines are skipped.
std::vector<Puzzle> read_puzzles(std::istream& in);
std::vector<Puzzle> read_puzzle_file(const std::string& path);

}  // namespace echecs::puzzle

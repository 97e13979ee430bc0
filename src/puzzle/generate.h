// `echecs puzzles generate` and `echecs puzzles check`.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "puzzle.h"

namespace echecs::puzzle {

struct GenerateOptions {
    Variant variant = Variant::Chess;
    int count = 100;         // puzzles to write
    std::uint64_t seed = 1;  // of the self-play games
    Criteria criteria;
    int threads = 1;           // games examined at once; the output does not depend on it
    int random_plies = 6;      // uniformly random moves opening each game
    double random_rate = 0.1;  // then, a random move instead of the engine's, sometimes: mistakes to punish
    int max_plies = 160;       // a game is cut there
    int max_per_game = 3;      // puzzles kept from one game
    std::string from_pgn;      // not empty: the games of this PGN file instead of self-play
    std::int64_t max_games = 100000;
};

struct GenerateStats {
    std::int64_t games = 0, positions = 0, candidates = 0, puzzles = 0;
};

// Writes up to o.count puzzles, one JSON line each, in a fixed order: the
// same options give the same lines. `progress` (may be null) gets a line
// every 10 games.
GenerateStats generate(const GenerateOptions& o, std::ostream& out, std::ostream* progress);

// The puzzles of one self-play game (its index and the seed decide it).
std::vector<Puzzle> selfplay_game_puzzles(Finder& f, const GenerateOptions& o, std::int64_t index,
                                          std::int64_t* positions, std::int64_t* candidates);

// Re-checks one puzzle: its moves are legal, a mate ends in mate, and the
// verification finds the same solution and themes. "" when it holds, else
// what differs.
std::string check_puzzle(Finder& f, const Puzzle& p);

// The command line: `generate ...` or `check FILE ...`. Exit code 0, 1 when
// a check fails, 2 for bad arguments.
int puzzles_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace echecs::puzzle

// PGN reading and writing (tags, comments, NAGs, variations skipped on read,
// [Variant], [SetUp]/[FEN], result).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "game.h"

namespace echecs {

class PgnError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PgnMove {
    std::string san;
    int number = 0;      // move number (1, 1, 2, 2, ...)
    Color side = WHITE;  // who played it
};

struct PgnGame {
    int index = 0;  // 1-based position of the game in its file
    int line = 0;   // line where the game starts
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<PgnMove> moves;
    std::string result = "*";  // the game-termination marker
    std::string error;         // structural problem found while reading: "game N, line L[, after move M]: ..."

    std::string tag(std::string_view name) const;  // "" if absent
    Variant variant() const;                       // from [Variant]; throws PgnError if unknown
    std::string start_fen() const;                 // [FEN] when [SetUp "1"], else the start position
};

// Splits a PGN text into games. Never throws: a malformed game carries its
// `error` (with line number) and reading goes on with the next game.
std::vector<PgnGame> read_pgn(std::string_view text);

// Replays the moves of `g` into `game` (built from g's variant and FEN).
// Throws PgnError: "game N, move M (SAN): reason".
void replay(const PgnGame& g, Game& game);

// The PGN text of a game; the Seven Tag Roster is completed with "?" where
// `tags` lacks it, and Variant/SetUp/FEN are added as needed. comments[i],
// when present and not empty, is written as {comment} after move i.
std::string write_pgn(Game& game, const std::vector<std::pair<std::string, std::string>>& tags, GameResult result,
                      const std::vector<std::string>& comments = {});

}  // namespace echecs

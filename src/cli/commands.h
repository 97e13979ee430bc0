// The rules-core subcommands of `echecs`.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/bitboard.h"
#include "core/types.h"

namespace echecs::cli {

// Throws std::invalid_argument for an unknown name.
Variant parse_variant(const std::string& name);

// The position of --fen: the initial position when not given; throws
// std::invalid_argument when given empty.
std::string fen_or_start(const std::optional<std::string>& fen);
// `echecs perft`: one line "<move>: <count>" per root move, a blank line, then
// "Nodes searched: N" (Stockfish's format), then time and speed.
int perft_command(Variant v, const std::optional<std::string>& fen, int depth, std::ostream& out);
// `echecs moves`: every legal move, the coordinate string then the SAN.
int moves_command(Variant v, const std::optional<std::string>& fen, std::ostream& out);
// `echecs pgn`: replays every game of the file and says how each ended
// (docs/PGN.md): "game N: <PgnReplay::summary>", or the game's error.
// The moves read from a lenient spelling ("nf3", "o-o", French "Cf3") are
// told on `notes`, one line each, where they stand in the file.
int pgn_command(const std::string& path, std::ostream& out, std::ostream& notes);
// `echecs bench perft`: perft speed of the three games (and of Stockfish's
// `go perft` on the same chess positions when `stockfish` names its binary),
// under each slider-table indexing of `sliders` in turn (empty: the one chosen
// at start-up). Throws std::runtime_error if one is not available.
int bench_perft_command(const std::string& stockfish, int repeat, const std::vector<SliderIndex>& sliders,
                        std::ostream& out);

}  // namespace echecs::cli

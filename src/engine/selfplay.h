// `echecs selfplay`: engine-versus-itself games in process, writing quiet
// positions with the game result and the search score, for Texel tuning of
// the evaluation.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace echecs::engine {

struct SelfplayOptions {
    std::string variant = "chess";  // chess, alice or avalanche
    std::int64_t games = 100;
    std::int64_t nodes = 5000;      // node limit of each move's search
    std::int64_t random_plies = 8;  // uniformly random moves before the engine plays
    std::int64_t seed = 1;          // at least 0 (a negative number is a typing mistake)
    std::int64_t threads = 1;
    std::string out = "-";  // file, or "-" for stdout
    // For network training: after each search, a uniformly random legal move
    // is played instead with this probability (0 to 1), so that the data
    // also holds unbalanced positions; and positions are kept while the
    // search score is below record_max (cp) in size.
    double random_rate = 0;
    std::int64_t record_max = 2000;
    // Play with the hand-written evaluation even where the game has adopted
    // its network: a network's training positions are regenerated so.
    bool hand_eval = false;
    // Play with the network in this file (of the same game) instead of the
    // game's built-in one: a later generation's positions are played with
    // the network before it (scripts/nnue-train.sh). Empty: the built-in one.
    std::string net;
};

struct SelfplayStats {
    std::int64_t games = 0, positions = 0, plies = 0;
    std::int64_t white_wins = 0, draws = 0, black_wins = 0;
};

// Empty when the options are usable, else a message naming the bad option
// (`out` is not opened here).
std::string check_selfplay_options(const SelfplayOptions& o);

// Plays the games and writes one line per recorded position to `out`:
// "<FEN>\t<result>\t<score>", the result (1, 0.5, 0) and the score (cp) from
// White's point of view. A game's content depends only on the seed, the game
// index and the options, not on the thread count. `progress` (may be null)
// gets a line every 10 games. The options must pass check_selfplay_options.
SelfplayStats run_selfplay(const SelfplayOptions& o, std::ostream& out, std::ostream* progress);

// The command: checks the options, opens `out`, plays. Exit code 0, or 2
// with a message on stderr for bad arguments.
int selfplay_main(const SelfplayOptions& o);

}  // namespace echecs::engine

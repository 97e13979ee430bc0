// PGN reading, replaying and writing for the three games (docs/PGN.md): the
// PGN that lichess, ChessBase and other tools write, with tags, comments and
// their [%clk]/[%eval] commands, NAGs and evaluation glyphs, variations
// (skipped), [Variant], [SetUp]/[FEN], [Termination] and the precise reason
// in [EchecsTermination].
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "game.h"

namespace echecs {

// A game that cannot be read or replayed. The message says where: "game N,
// line L, move M. SAN: reason" (or "game N, line L: reason").
// `detail` says it for a program (docs/API.md, "PGN import"): pgn_move_unreadable,
// pgn_move_illegal, pgn_move_ambiguous, pgn_null_move, pgn_nag_unreadable (with
// game, line, move, side, text), pgn_variant_unknown, pgn_fen_invalid (with
// problem: the FEN reader's key, and its parameters), pgn_syntax (with problem).
class PgnError : public std::runtime_error {
public:
    explicit PgnError(const std::string& msg, ErrorDetail d = {}) : std::runtime_error(msg), detail(std::move(d)) {}
    ErrorDetail detail;
};

using PgnTags = std::vector<std::pair<std::string, std::string>>;

// A command inside a comment: "[%clk 0:04:58]" is {"clk", "0:04:58"}.
struct PgnCommand {
    std::string name;
    std::string value;
    bool operator==(const PgnCommand&) const = default;
};

struct PgnMove {
    std::string san;  // as written, check marks kept; without glyphs, NAGs or "e.p."
    int number = 0;   // move number (1, 1, 2, 2, ...)
    Color side = WHITE;
    int line = 0;                      // line of the file where the move stands
    std::vector<int> nags;             // $n and glyphs: ! = 1, ? = 2, += = 14, +- = 18, ...
    std::string comment;               // the comments after the move, joined by a space, commands included
    std::vector<PgnCommand> commands;  // the [%name value] commands of those comments
};

struct PgnGame {
    int index = 0;  // 1-based position of the game in its file
    int line = 0;   // line where the game starts
    PgnTags tags;
    std::string comment;  // comments before the first move
    std::vector<PgnMove> moves;
    std::string result = "*";    // the game-termination marker of the move text ("*" if none)
    bool has_move_text = false;  // a move or a termination marker was found (false: tags only)
    std::string error;           // why the game cannot be read: "game N, line L[, move M. SAN]: ..."
    ErrorDetail error_detail;    // the same for a program (PgnError::detail)

    std::string tag(std::string_view name) const;  // "" if absent
    Variant variant() const;                       // from [Variant]; throws PgnError if unknown
    std::string start_fen() const;                 // [FEN] unless [SetUp "0"], else the start position
};

// Splits a PGN text into games. Never throws (except std::bad_alloc): a
// malformed game carries its `error` and reading goes on with the next game.
// Text that is not valid UTF-8 is read as Windows-1252, so every string of
// the result is valid UTF-8. A leading byte-order mark is skipped.
std::vector<PgnGame> read_pgn(std::string_view text);

// The game's variant and start position. Throws PgnError ("game N, line L,
// FEN tag: ...", "game N, line L: unknown variant ...").
std::unique_ptr<Game> start_game(const PgnGame& g);

// A move the reader had to guess: written in a lenient spelling ("nf3",
// "o-o", "a8(Q)", "\u2658f3", French "Cf3"), read as the SAN `read`.
struct PgnReading {
    int ply = 0;  // 1-based, from the PGN's start position
    std::string written;
    std::string read;
    bool operator==(const PgnReading&) const = default;
};

// How a replayed game ended.
struct PgnReplay {
    GameResult result;                 // by the board rules if they ended it, else from the PGN (declared_result)
    bool by_rules = false;             // the board rules ended the game (mate, stalemate, avalanche loss, draws)
    int plies = 0;                     // moves played: up to the end by the rules, else all
    int ignored = 0;                   // moves the PGN writes after the end by the rules, not played
    std::string marker;                // the PGN's own result marker
    std::vector<PgnReading> readings;  // the moves read from a lenient spelling, in order
    // "1/2-1/2 threefold repetition after 47 plies; 6 more plies ignored (the PGN says 1-0)"
    std::string summary() const;
};

// Replays the moves of `g` into `game` (from start_game(g)), judging the end
// of the game at each position: when the board rules end it (checkmate,
// stalemate, avalanche loss, repetition, fifty moves, dead position), the
// moves written after that are not played (PgnReplay::ignored).
// Throws PgnError: "game N, line L, move M. SAN: reason".
PgnReplay replay(const PgnGame& g, Game& game);

// The result the PGN declares: its result marker, with the termination from
// [EchecsTermination], else from [Termination] ("Time forfeit", "Normal" with
// a decisive result = resignation, with a draw = agreement, ...).
GameResult declared_result(const PgnGame& g);

// The PGN text of a game. The Seven Tag Roster is completed with "?" where
// `tags` lacks it; Variant/SetUp/FEN are added as needed; when
// result.termination is set, [Termination] (the PGN value) and
// [EchecsTermination] (the precise reason, unless `tags` gives its own) are
// written from it, replacing a [Termination] of `tags`. comments[i], when given and not empty, is written as a
// {comment} after move i (e.g. "[%clk 0:04:58]"); '}' in it becomes ')'.
std::string write_pgn(Game& game, const PgnTags& tags, GameResult result, std::span<const std::string> comments = {});

}  // namespace echecs

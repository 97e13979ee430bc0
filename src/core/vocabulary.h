// The names every part of echecs shares, one table each: variants, colours,
// results and the ways a game ends. The API names are what the server sends
// and stores and the web client reads: they never change spelling. PGN names
// are what PGN tools write (docs/PGN.md).
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "types.h"

namespace echecs {

enum class Outcome { Ongoing, WhiteWins, BlackWins, Draw };

enum class Termination {
    None,
    Checkmate,
    Stalemate,
    AvalancheLoss,  // first parts exist but every one's pushes are self-checks
    Repetition,
    FiftyMoves,
    InsufficientMaterial,  // a dead position: neither side can ever mate
    // Decided outside the board rules (server, match, PGN):
    TimeForfeit,
    Resignation,
    Agreement,
    Aborted,
    Abandonment,      // the opponent left the game and the player claimed it
    Adjudication,     // decided by an arbiter or a program, not by the players
    RulesInfraction,  // e.g. an engine that sent an illegal move
};

// How a game decides a dead position (RULES.md §1.2, §2.3, §3.2).
enum class DeadPositionRule : std::uint8_t {
    Orthodox,   // kings with at most one knight, or with bishops all on squares of one colour
    KingsOnly,  // bare kings only (Alice: a single minor piece can mate with the other board's help)
};

// The orthodox initial position, the start of all three games.
inline constexpr std::string_view ORTHODOX_START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// One row per game: what differs between the games, as data (after
// Fairy-Stockfish's variant.h). Code that depends on a property reads it here
// (has_en_passant, boards, has_pushes); only a game's own rules (Alice's or
// Avalanche's move generation) test the Variant itself.
struct VariantInfo {
    Variant variant;
    std::string_view name;        // API, UCI_Variant and command-line name (also the xboard name but for chess)
    std::string_view pgn;         // the PGN [Variant] value echecs writes ("" for chess: no tag)
    std::string_view xboard;      // the CECP `variant` name (xboard's "normal" for chess)
    std::string_view aliases[2];  // further names variant_from_name accepts ("" = none)
    std::string_view start_fen;
    int boards;           // 2: Alice's boards A and B
    bool has_en_passant;  // a double step gives an en-passant right (not in Avalanche, RULES.md §3.1)
    bool has_pushes;      // a move is completed by a push of an enemy pawn (Avalanche)
    DeadPositionRule dead_position;
    // FEN letters of the pieces on board B, indexed by Piece like " PNBRQK  pnbrqk"
    // ("" when the game has one board): Alice's seed letters, RULES.md §2.4.
    std::string_view board_b_letters;
    std::string_view display_key;  // the client's translation key of the game's display name
};

inline constexpr VariantInfo VARIANTS[VARIANT_NB] = {
    {Variant::Chess,
     "chess",
     "",
     "normal",
     {"standard", "normal"},
     ORTHODOX_START_FEN,
     1,
     true,
     false,
     DeadPositionRule::Orthodox,
     "",
     "variant.chess"},
    {Variant::Alice,
     "alice",
     "Alice",
     "alice",
     {},
     ORTHODOX_START_FEN,
     2,
     true,
     false,
     DeadPositionRule::KingsOnly,
     " SOCUTL  socutl",
     "variant.alice"},
    {Variant::Avalanche,
     "avalanche",
     "Avalanche",
     "avalanche",
     {},
     ORTHODOX_START_FEN,
     1,
     false,
     true,
     DeadPositionRule::Orthodox,
     "",
     "variant.avalanche"},
};

struct ColorInfo {
    Color color;
    std::string_view name;  // API name
    std::string_view pgn;   // as PGN tag names and sentences write it
    char fen;               // the FEN active-colour letter
};

inline constexpr ColorInfo COLORS[] = {
    {WHITE, "white", "White", 'w'},
    {BLACK, "black", "Black", 'b'},
};

struct OutcomeInfo {
    Outcome outcome;
    std::string_view pgn;  // the PGN result token, also the API result
};

inline constexpr OutcomeInfo OUTCOMES[] = {
    {Outcome::Ongoing, "*"},
    {Outcome::WhiteWins, "1-0"},
    {Outcome::BlackWins, "0-1"},
    {Outcome::Draw, "1/2-1/2"},
};

struct TerminationInfo {
    Termination termination;
    std::string_view api;     // what the server sends and stores ("" while the game goes on)
    std::string_view pgn;     // the PGN [Termination] value, capitalised as lichess writes it
    std::string_view reason;  // the precise reason, the PGN [EchecsTermination] value
};

inline constexpr TerminationInfo TERMINATIONS[] = {
    {Termination::None, "", "Unterminated", "unterminated"},
    {Termination::Checkmate, "checkmate", "Normal", "checkmate"},
    {Termination::Stalemate, "stalemate", "Normal", "stalemate"},
    {Termination::AvalancheLoss, "avalanche loss", "Normal", "avalanche loss"},
    {Termination::Repetition, "repetition", "Normal", "threefold repetition"},
    {Termination::FiftyMoves, "fifty moves", "Normal", "fifty-move rule"},
    {Termination::InsufficientMaterial, "insufficient material", "Normal", "dead position"},
    {Termination::TimeForfeit, "time forfeit", "Time forfeit", "time forfeit"},
    {Termination::Resignation, "resignation", "Normal", "resignation"},
    {Termination::Agreement, "agreement", "Normal", "agreement"},
    {Termination::Aborted, "aborted", "Abandoned", "aborted"},
    {Termination::Abandonment, "abandonment", "Abandoned", "abandonment"},
    {Termination::Adjudication, "adjudication", "Adjudication", "adjudication"},
    {Termination::RulesInfraction, "rules infraction", "Rules infraction", "rules infraction"},
};

// Each table is in enum order, so that a lookup is an index (checked below).
constexpr const VariantInfo& variant_info(Variant v) { return VARIANTS[int(v)]; }
constexpr const ColorInfo& color_info(Color c) { return COLORS[int(c)]; }
constexpr const OutcomeInfo& outcome_info(Outcome o) { return OUTCOMES[int(o)]; }
constexpr const TerminationInfo& termination_info(Termination t) { return TERMINATIONS[int(t)]; }

constexpr std::string_view variant_name(Variant v) { return variant_info(v).name; }
constexpr std::string_view color_name(Color c) { return color_info(c).name; }  // "white", "black"
constexpr std::string_view pgn_result(Outcome o) { return outcome_info(o).pgn; }
// The API name: "checkmate", "fifty moves", ...; "" for Termination::None.
constexpr std::string_view termination_name(Termination t) { return termination_info(t).api; }

// THE reader of game names, for every entry point (command line, UCI
// UCI_Variant, xboard `variant`, PGN through variant_from_pgn, Popeye,
// HTTP, WebSocket). Case rule: ASCII case-insensitive, nothing trimmed.
// Accepted: each row's name (`chess`, `alice`, `avalanche`), its xboard name
// and its aliases (`standard` and `normal` for chess). nullopt otherwise.
std::optional<Variant> variant_from_name(std::string_view s);
// The accepted names for messages, the rows' names: "chess, alice, avalanche".
std::string accepted_variant_names();
// The one message for a name no game has:
// "unknown variant 'x' (accepted: chess, alice, avalanche)" (the name quoted by quote_input).
std::string unknown_variant_message(std::string_view s);
// A PGN [Variant] value: the names above, `From Position` (lichess: chess from
// a set-up position), and each name followed by " chess" ("Alice Chess").
std::optional<Variant> variant_from_pgn(std::string_view s);
// The PGN spellings for messages: "Standard, Alice, Avalanche".
std::string accepted_pgn_variant_names();
std::optional<Color> color_from_name(std::string_view s);     // "white", "black"
std::optional<Outcome> outcome_from_pgn(std::string_view s);  // "1-0", "0-1", "1/2-1/2", "*" (exact)
// An API name ("fifty moves") or a precise reason ("fifty-move rule").
std::optional<Termination> termination_from_name(std::string_view s);

static_assert(std::size(VARIANTS) == VARIANT_NB);
static_assert([] {
    for (int i = 0; i < int(std::size(VARIANTS)); ++i)
        if (int(VARIANTS[i].variant) != i) return false;
    for (int i = 0; i < int(std::size(COLORS)); ++i)
        if (int(COLORS[i].color) != i) return false;
    for (int i = 0; i < int(std::size(OUTCOMES)); ++i)
        if (int(OUTCOMES[i].outcome) != i) return false;
    for (int i = 0; i < int(std::size(TERMINATIONS)); ++i)
        if (int(TERMINATIONS[i].termination) != i) return false;
    return true;
}());

}  // namespace echecs

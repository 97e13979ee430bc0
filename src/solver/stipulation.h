// What a problem asks: who plays, towards which goal, in how many moves.
// "#3" direct mate, "h#2" helpmate (Black starts), "h#2.5" helpmate with a
// White half-move first, "s#2" selfmate, "=3", "h=2", "s=2" stalemates,
// "h==2" double stalemate, "ser-#5" series mate (White plays five moves in
// a row), "ser-h#4" series helpmate (Black plays four, then White mates),
// "ser-s#6" series selfmate (White plays six, then Black must mate),
// "ser-r#3" series reflexmate (White plays three; Black must mate as soon as
// it can, and White may not when it can), "ser-hs#4" series helpselfmate
// (Black plays four, then White one move after which Black must mate).
// "pser-#3" parry series mate (White's series may check, every Black answer
// met), "pser-h#4" parry series helpmate (Black's series may check, White
// answering as it helps, then White mates), "pser-s#5" parry series selfmate
// (White's, every answer met, then Black must mate), "phser-#3" help parry
// series (White's, Black answering as it helps).
// "r#2" reflexmate (a selfmate where either side must mate when it can),
// "semi-r#2" semi-reflexmate (only the defender must), "hs#3" helpselfmate
// (White starts, both cooperate, White's last move forces Black to mate;
// "hs#2.5": Black starts). "reci-h#3" reciprocal helpmate: after two moves
// of each side, Black can mate White in one move and can also be mated in
// one by White ("reci-h(=)#3": Black's own move stalemates White). "dia4" a proof game (from the initial position to
// the diagram in four moves, White first), "a=>b3.5" the same from a given position a to a position b (Black first
// unless Popeye's whitetoplay says White). Popeye's spelling; what the solver cannot play is refused with its reason.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "core/error_detail.h"
#include "core/types.h"

namespace echecs::solver {

// A stipulation that cannot be read; the message says what and where.
// `detail` says it for a program: stip_* keys, with the stipulation as
// `text` (docs/API.md, "Parameters of an error").
class StipulationError : public std::runtime_error {
public:
    explicit StipulationError(const std::string& msg, ErrorDetail d = {})
        : std::runtime_error(msg), detail(std::move(d)) {}
    ErrorDetail detail;
};

enum class Play : std::uint8_t {
    Direct,
    Help,
    Self,
    Series,
    SeriesHelp,
    Proof,
    Reflex,
    SemiReflex,
    HelpSelf,
    ReciHelp,
    SeriesSelf,
    SeriesReflex,
    SeriesHelpSelf,
    HelpReflex,
    SeriesReciHelp,  // ser-reci-h: the series side's last move as reci-h's (Search::reci_end)
    // Parry series (Popeye's pser-): a series whose side may check, the other
    // side then answering with a move of its own (a parry; else it passes).
    ParrySeries,      // pser-#n: every parry must be met (Search::parry_lines)
    ParrySeriesHelp,  // pser-h#n: one parry chosen, the other side mating after the series
    ParrySeriesSelf,  // pser-s#n: every parry met, the other side then bound to mate
    HelpParrySeries   // phser-#n: pser-#n with one parry chosen (help), as ser-#n otherwise
};
// DoubleStalemate: neither side is in check and neither has a legal move.
// DoubleMate ("##") and CounterMate ("##!"), Popeye's: after the last move
// both sides are in check and neither has a legal move, the move leaving its
// own king attacked; before it the mover had a legal move (##), or was mated
// (##!). solver/self_check.h says how those moves are made.
// The others, Popeye's, are reached by the last move itself, the game going
// on: a check (+), a capture (x, en passant's included), any move (~), a
// castling (00), an en passant capture (ep), a man arriving on a square
// (z and the square: zc8), and mate or stalemate (#=).
// Zugzwang is Popeye's capture-zugzwang (sstipulation "[/1d[x]a{!+}]"): the
// side to move is not in check, has a move, and every move of it reaches
// Stipulation::zug_goal (a capture, a check, a mate, ...); those moves are
// not shown. The game goes on after it.
enum class Goal : std::uint8_t {
    Mate,
    Stalemate,
    DoubleStalemate,
    DoubleMate,
    CounterMate,
    Check,
    Capture,
    AnyMove,
    Castling,
    EnPassant,
    Target,
    MateOrStalemate,
    Zugzwang
};
// The goals that end the game (no move is left to the side that suffers them).
constexpr bool terminal_goal(Goal g) { return g <= Goal::CounterMate || g == Goal::MateOrStalemate; }
// The goals reached only by a move that leaves its own king attacked.
constexpr bool self_check_goal(Goal g) { return g == Goal::DoubleMate || g == Goal::CounterMate; }
// Why they are refused in Avalanche chess.
inline constexpr const char* AVALANCHE_SELF_CHECK =
    "double mate and counter-mate are not defined in Avalanche chess (their last move leaves its own king in check, "
    "which Avalanche's rules give no meaning to, push or not; Popeye, which defines them, has no Avalanche)";

struct Stipulation {
    Play play = Play::Direct;
    Goal goal = Goal::Mate;
    int moves = 2;             // n of #n, h#n, s#n, ser-#n (the whole part of h#n.5)
    bool half = false;         // h#n.5: White's half-move comes first (hs#n.5: Black's); dia n.5, a=>b n.5: one more
    bool atob = false;         // Proof: a=>b (from a given position) rather than dia (from the game's start)
    bool white_first = false;  // Proof a=>b: White makes the first half-move (Popeye's whitetoplay)
    // exact-: no short solutions (help and series play; proof games: the
    // diagram not reached earlier). Not in battle play.
    bool exact = false;
    // Popeye's halfduplex: the colours exchange their parts (h#2: White
    // starts and Black mates; #2: Black mates). Not for proof games.
    bool exchanged = false;
    // Popeye's postkeyplay (battle play): the diagram is the position after
    // the key, so the defender moves first and the attacker has n-1 moves;
    // the answer is the play after the key, not keys.
    bool post_key = false;
    // Popeye's "threat n" (battle play): an attacker's move that does not
    // check and leaves it n moves or more must threaten to win within n,
    // else the defender has defended. 0: no such rule.
    int max_threat = 0;
    // Popeye's "maxflightsquares n" (battle play): the defender to move whose
    // king has more than n flights has defended, the attacker's last move
    // failing. NO_MAX_FLIGHTS: no such rule.
    static constexpr int NO_MAX_FLIGHTS = -1;
    int max_flights = NO_MAX_FLIGHTS;
    // reci-h, ser-reci-h: the goal Black's part reaches by its own last move (reci-h(=)#n:
    // stalemate), `goal` being the one it suffers in the help line. Mate in
    // every other stipulation.
    Goal reci_goal = Goal::Mate;
    Square target = SQ_NONE;  // Goal::Target: the square a man must arrive on
    // Goal::Zugzwang: the goal every move of the side in zugzwang must reach.
    Goal zug_goal = Goal::Capture;
    // Popeye's sstipulation numbers a help line's moves by the side it names
    // ("white 5h[#]h": White's), a stipulation by Black's part; COLOR_NB: the latter.
    Color numbered_side = COLOR_NB;

    // Every line, with the passes of series play, stays within the core's
    // MAX_PLY, and the recursion (a move list per ply) within a thread's stack.
    static constexpr int MAX_MOVES = 60, MAX_SERIES_MOVES = 100;

    // The side that moves first in the diagram.
    Color starts() const {
        if (play == Play::Proof) return atob && !white_first ? BLACK : WHITE;
        const Color usual = ((play == Play::Help || play == Play::ReciHelp) && !half) ||
                                    ((play == Play::HelpSelf || play == Play::HelpReflex) && half) ||
                                    play == Play::SeriesHelp || play == Play::SeriesHelpSelf ||
                                    play == Play::SeriesReciHelp || play == Play::ParrySeriesHelp
                                ? BLACK
                                : WHITE;
        const Color first = exchanged ? ~usual : usual;
        return post_key && battle() ? ~first : first;
    }
    // The side that plays Black's part (help play's numbered moves).
    Color black_part() const { return exchanged ? WHITE : BLACK; }
    // The side whose moves are numbered in a help line: Black's part in help
    // play, White's in helpselfplay and helpreflexplay (which White starts),
    // as Popeye prints them.
    Color numbered() const {
        if (play == Play::Help && numbered_side != COLOR_NB) return numbered_side;
        return play == Play::HelpSelf || play == Play::HelpReflex ? ~black_part() : black_part();
    }
    // Half-moves of a complete solution (battle play: the attacker's moves and
    // the defences between; series play: the other side's passes included).
    int plies() const {
        switch (play) {
            case Play::Help:
            case Play::ReciHelp:    // the help line, the longer of the two
            case Play::HelpSelf:    // Black's forced last move included
            case Play::HelpReflex:  // Black's mating move included
            case Play::Proof: return 2 * moves + (half ? 1 : 0);
            case Play::SeriesHelp:
            case Play::ParrySeriesHelp:
            case Play::SeriesReciHelp:  // the help line, the longer of the two
            case Play::SeriesSelf:
            case Play::ParrySeriesSelf:
            case Play::SeriesReflex: return 2 * moves;        // the other side's last move included
            case Play::SeriesHelpSelf: return 2 * moves + 1;  // the other side's move and the series side's last
            case Play::Direct:
            case Play::Self:
            case Play::Reflex:
            case Play::SemiReflex:
            case Play::ParrySeries:
            case Play::HelpParrySeries:
            case Play::Series: return 2 * moves - 1;
        }
        return 0;
    }
    // Battle play: an attacker against a defender (tree output); else one line per solution.
    bool battle() const { return play == Play::Direct || play == Play::Self || reflex(); }
    // The defender must reach the goal whenever it can (r#, semi-r#).
    bool reflex() const { return play == Play::Reflex || play == Play::SemiReflex; }
    // Help play: one line per solution, both sides cooperating (hs#'s last move is forced).
    bool help() const {
        return play == Play::Help || play == Play::HelpSelf || play == Play::ReciHelp || play == Play::HelpReflex;
    }
    bool series() const {
        return play == Play::Series || play == Play::SeriesHelp || play == Play::SeriesSelf ||
               play == Play::SeriesReflex || play == Play::SeriesHelpSelf || play == Play::SeriesReciHelp || parry();
    }
    // Parry series: the series side may check, the other side must then answer.
    bool parry() const {
        return play == Play::ParrySeries || play == Play::ParrySeriesHelp || play == Play::ParrySeriesSelf ||
               play == Play::HelpParrySeries;
    }
    // Series play: the moves after the series, which its numbers leave out but
    // for the last of ser-hs#n: none (ser-#n), the other side's one (ser-h#n,
    // ser-s#n, ser-r#n), the other side's and the series side's (ser-hs#n).
    int series_tail() const {
        return play == Play::SeriesHelpSelf                                                                      ? 2
               : play == Play::Series || play == Play::ParrySeries || play == Play::HelpParrySeries || !series() ? 0
                                                                                                                 : 1;
    }
    bool proof() const { return play == Play::Proof; }
    // A problem may lack a king (Popeye's nowk, nobk); a proof game's diagram,
    // reached from the game's start, may not.
    Kings kings() const { return proof() ? Kings::One : Kings::AtMostOne; }
    std::string str() const;
    // Popeye's structured form of a help play, a capture-zugzwang in direct,
    // help or series-help play ("8hh[/1d[x]a{!+}]", without the side that
    // moves first); empty for the others.
    std::string sstip_tree() const;
    bool operator==(const Stipulation&) const = default;
};

// Throws StipulationError.
Stipulation parse_stipulation(std::string_view text);

}  // namespace echecs::solver

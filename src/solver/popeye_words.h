// Popeye's keywords in its three input languages (French, German, English),
// in Popeye's own order, and its rule for abbreviations. The whole lists
// are kept, also the words echecs refuses: an abbreviation is judged against
// every word Popeye knows, so "d" is as ambiguous here (defence, duplex) as
// it is in Popeye, and a refused word is named rather than misread.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace echecs::solver::popeye_words {

enum class Language { French, German, English };

// The language a problem file is written in, from its first word
// (DebutProbleme, AnfangProblem, beginproblem or an abbreviation).
std::optional<Language> language_of_begin(std::string_view token);

// Popeye's rule (GetUniqIndex): the first word the token is a prefix of,
// case-insensitively; when a later word also starts with it, the token is
// ambiguous unless it is the whole first word.
constexpr int NONE = -1, AMBIGUOUS = -2;
int find(std::span<const std::string_view> words, std::string_view token);

// The indexes below follow Popeye's tables.
enum ProblemWord { END_PROBLEM, NEXT_PROBLEM };
enum EndTwinWord { TWIN, ZERO_POSITION };
enum InitialWord {
    REMARK,
    SSTIPULATION,
    AUTHOR,
    ORIGIN,
    PIECES,
    CONDITION,
    OPTION,
    STIPULATION,
    PROTOCOL,
    NEWLINE,  // Popeye's table has an entry "\n"; no token matches it
    TITLE,
    LATEX,
    LATEX_PIECES,
    AWARD,
    INITIAL_GAME_ARRAY,
    FORSYTH
};
enum OptionWord {
    DEFENCE,
    SET_PLAY,
    WHITE_TO_PLAY,
    VARIATIONS,
    MOVE_NUMBERS,
    START_MOVE_NUMBER,
    NO_WK,
    DUPLEX,
    NO_BK,
    THREAT,
    NO_THREAT,
    TRY,
    MAX_SOLUTIONS,
    MAX_FLIGHTSQUARES,
    SEARCH,
    MULTI_SOLUTIONS,
    NO_SYMMETRY,
    NON_TRIVIAL,
    KEEP_MATING_PIECE,
    EN_PASSANT,
    NO_BOARD,
    NO_SHORT_VARIATIONS,
    HALF_DUPLEX,
    POST_KEY_PLAY,
    INTELLIGENT,
    MAX_TIME,
    NO_CASTLING,
    QUODLIBET,
    STOP_ON_SHORT_SOLUTIONS,
    BEEP,
    SUPPRESS_GRID,
    WRITE_GRID,
    CASTLING_MUTUALLY_EXCLUSIVE,
    GOAL_IS_END,
    UNPUBLISHED_OPTION,
    NULL_MOVES,
    UP_TO_MOVE_NUMBER,
    TRIVIAL_TRIES_AVOID,
    MATES_IN_1
};
enum ColourWord { WHITE_WORD, BLACK_WORD, NEUTRAL_WORD, TOTAL_INVISIBLE_WORD };
enum TwinWord {
    MOVE,
    EXCHANGE,
    TWIN_STIPULATION,
    TWIN_SSTIPULATION,
    ADD,
    REMOVE,
    CONTINUED,
    ROTATE,
    TWIN_CONDITION,
    POLISH_TYPE,
    MIRROR,
    SHIFT,
    SUBSTITUTE
};

std::span<const std::string_view> problem_words(Language l);
std::span<const std::string_view> end_twin_words(Language l);
std::span<const std::string_view> initial_words(Language l);
std::span<const std::string_view> option_words(Language l);
std::span<const std::string_view> colour_words(Language l);
std::span<const std::string_view> twin_words(Language l);

}  // namespace echecs::solver::popeye_words

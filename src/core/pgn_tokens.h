// Words of PGN move text, for the reader (pgn_read.cpp): internal to the core.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgn.h"

namespace echecs::pgn_tokens {

// The NAG of an annotation glyph written as a word ("!?" 5, "+=" 14, "N" 146).
std::optional<int> glyph_nag(std::string_view tok);
// Glyphs glued to a move ("e4!?", "Nf3+-") and "e.p." ("exd6e.p.") removed
// from `tok`, their NAGs added to `nags` in written order.
void strip_move_suffixes(std::string& tok, std::vector<int>& nags);
bool is_null_move(std::string_view tok);        // "--", "Z0", "0000", "@@@@"
bool is_en_passant_mark(std::string_view tok);  // "e.p.", "e.p", "ep"
// The termination marker a word stands for ("1/2" is a draw), or "".
std::string result_marker(std::string_view tok);
// The [%name value] commands of a comment, appended to `out`.
void parse_commands(std::string_view comment, std::vector<PgnCommand>& out);
bool is_symbol_char(char c);  // of a tag name
// {game, line, move ("12." or "12..."), side, text}: the parameters of an
// error about a move (PgnError::detail).
std::vector<std::pair<std::string, std::string>> pgn_move_params(int game, int line, int number, Color side,
                                                                 std::string_view text);
// Side to move and move number of the first move, from a FEN tag.
void first_move_of(const std::string& fen, int& number, Color& side);

}  // namespace echecs::pgn_tokens

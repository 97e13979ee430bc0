// Text that error messages quote from input, made safe for whoever prints or
// serialises it: always valid UTF-8, never a character cut in two.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace echecs {

// Length of the valid UTF-8 sequence starting at s[i] (1 to 4), or 0 when
// the byte there does not start one (a stray or truncated byte, an overlong
// form, a surrogate, a code point past U+10FFFF).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);
// The code point of the valid sequence at s[i], with i moved past it; 0 and
// i unchanged when none starts there (as above).
char32_t utf8_decode(std::string_view s, std::size_t& i);
bool is_valid_utf8(std::string_view s);

// `s` between single quotes, as valid UTF-8: valid characters are kept,
// invalid bytes and control characters are written \xNN; past `max_bytes` of
// input the quote stops at a character boundary and ends with "...".
std::string quote_input(std::string_view s, std::size_t max_bytes = 80);
// The character that starts at s[i], quoted the same way ('é', '\xC3').
std::string quote_char_at(std::string_view s, std::size_t i);

// `s` unchanged if it is valid UTF-8, else read as Windows-1252 (what
// ChessBase and older tools write) and converted to UTF-8.
std::string to_utf8_from_legacy(std::string_view s);
// `s` with each byte that is not part of a valid UTF-8 character replaced by
// U+FFFD (text that says it is UTF-8, with a byte-order mark, but is not).
std::string replace_invalid_utf8(std::string_view s);

}  // namespace echecs

// Text that leaves the server is valid UTF-8, always: every JSON message and
// body is written by dump() or quote(), which replace invalid bytes with
// U+FFFD instead of throwing (an error message may quote hostile input).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/utf8.h"

namespace echecs::server {

// The core's UTF-8 checks (core/utf8.h), under the names the server uses.
inline bool valid_utf8(std::string_view s) { return is_valid_utf8(s); }
// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
inline std::string to_valid_utf8(std::string_view s) { return replace_invalid_utf8(s); }

// The one JSON serializer of the server (compact, never throws).
std::string dump(const nlohmann::json& j);
// A JSON string literal, quotes included.
std::string quote(std::string_view s);

// The deepest nesting of arrays and objects in a JSON text (strings skipped),
// checked before parsing so that a deep document costs no parser work.
int json_depth(std::string_view text);
constexpr int MAX_JSON_DEPTH = 32;

// At most `max` characters of `s` as printable ASCII ('?' for anything
// else), for messages that name a path or a move sent by the client.
std::string ascii_excerpt(std::string_view s, std::size_t max = 60);

}  // namespace echecs::server

// The one reader of game names at the server: every entry point (HTTP bodies
// and query strings, WebSocket messages, the problems page) reads a game name
// with the core's variant_from_name (vocabulary.h: letter case ignored,
// `standard` and `normal` also name chess) and refuses an unknown one with
// the one reason `variant_unknown`, whose message and params list the
// accepted names from the core's VARIANTS table.
//
// Header only, for the server and its problems library alike.
#pragma once

#include <string>
#include <string_view>

#include "core/vocabulary.h"
#include "server/api/reasons.h"

namespace echecs::server {

// "chess, alice, avalanche": the names of the core's table, in its order.
inline std::string accepted_variant_names() {
    std::string out;
    for (const VariantInfo& v : VARIANTS) {
        if (!out.empty()) out += ", ";
        out += v.name;
    }
    return out;
}

// params.accepted: the names above, for the client's sentence.
inline ApiError variant_unknown(const std::string& field) {
    const std::string names = accepted_variant_names();
    return ApiError(Reason::variant_unknown, field + " must be one of " + names + " (letter case ignored)", field,
                    {{"accepted", names}});
}

inline Variant read_variant(std::string_view name, const std::string& field = "variant") {
    if (auto v = variant_from_name(name)) return *v;
    throw variant_unknown(field);
}

}  // namespace echecs::server

// An input error said for a program: a snake_case key and its parameters, so
// that the server can send them and the client say the error in the user's
// language (the exception's message says it in English).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace echecs {

struct ErrorDetail {
    std::string key;  // "fen_rank_squares"; "" when not said
    std::vector<std::pair<std::string, std::string>> params;
};

}  // namespace echecs

// The placement field of a FEN from 64 characters (a1 first, '.' empty),
// for the tests that draw random diagrams.
#pragma once

#include <string>

namespace echecs::solver::test_helpers {

inline std::string board_fen(const char* board) {
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const char c = board[r * 8 + f];
            if (c == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    return fen;
}

}  // namespace echecs::solver::test_helpers

// Shared helpers of the engine tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "engine/entry.h"
#include "test_paths.h"

namespace echecs::test {

// Runs a scripted UCI session and returns everything the engine wrote.
inline std::string uci_session(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    uci_loop(in, out);
    return out.str();
}

inline std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream is(s);
    for (std::string l; std::getline(is, l);) out.push_back(l);
    return out;
}

// The move after the last "bestmove " in `out`, or "".
inline std::string last_bestmove(const std::string& out) {
    const auto p = out.rfind("bestmove ");
    if (p == std::string::npos) return "";
    std::istringstream is(out.substr(p + 9));
    std::string m;
    is >> m;
    return m;
}

inline std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream is(s);
    for (std::string w; is >> w;) out.push_back(w);
    return out;
}

inline bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

// True when the side to move can force mate in at most n of its moves
// (brute force over legal moves; independent of the engine's search).
inline bool mated_now(Position& pos) {
    MoveList l;
    generate_legal(pos, l);
    if (!l.empty()) return false;
    if (pos.in_check()) return true;
    return pos.variant() == Variant::Avalanche && has_first_part(pos);
}

inline bool forced_mate(Position& pos, int n) {
    if (n <= 0) return false;
    MoveList l;
    generate_legal(pos, l);
    for (Move m : l) {
        StateInfo st;
        pos.do_move(m, st);
        bool ok = mated_now(pos);
        if (!ok && n > 1) {
            MoveList replies;
            generate_legal(pos, replies);
            ok = !replies.empty();
            for (Move r : replies) {
                StateInfo st2;
                pos.do_move(r, st2);
                const bool mate = forced_mate(pos, n - 1);
                pos.undo_move(r);
                if (!mate) {
                    ok = false;
                    break;
                }
            }
        }
        pos.undo_move(m);
        if (ok) return true;
    }
    return false;
}

}  // namespace echecs::test

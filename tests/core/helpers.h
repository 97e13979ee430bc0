// Small helpers shared by the rules-core tests.
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "test_paths.h"

namespace echecs::test {

// A position that owns its root state.
struct Pos {
    StateInfo st;
    Position pos;
    Pos(Variant v, std::string_view fen) { pos.set(v, fen, st); }
};

inline std::vector<std::string> legal_uci(Position& pos) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<std::string> out;
    for (Move m : list) out.push_back(to_uci(m));
    std::sort(out.begin(), out.end());
    return out;
}

inline bool has_move(Position& pos, const std::string& uci) {
    auto v = legal_uci(pos);
    return std::find(v.begin(), v.end(), uci) != v.end();
}

inline std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, '\t')) out.push_back(f);
    return out;
}

// A file of tests/data; throws (failing the test) if it is missing or empty,
// so that no test passes without checking anything.
inline std::vector<std::vector<std::string>> read_tsv(const std::string& name) {
    const std::string path = test_path(ECHECS_TESTDATA) + "/" + name;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("missing test data " + path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) rows.push_back(split_tabs(line));
    if (rows.empty()) throw std::runtime_error("empty test data " + path);
    return rows;
}

}  // namespace echecs::test

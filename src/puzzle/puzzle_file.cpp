#include "puzzle_file.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/vocabulary.h"

namespace echecs::puzzle {

std::string to_json_line(const Puzzle& p) {
    nlohmann::ordered_json j;
    j["id"] = p.id;
    j["variant"] = std::string(variant_name(p.variant));
    j["fen"] = p.fen;
    j["solution"] = p.solution;
    j["themes"] = p.themes;
    j["rating"] = p.rating;
    if (!p.source.empty()) j["source"] = p.source;
    return j.dump();
}

std::vector<Puzzle> read_puzzles(std::istream& in) {
    std::vector<Puzzle> out;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            const nlohmann::json j = nlohmann::json::parse(line);
            Puzzle p;
            p.id = j.at("id").get<std::string>();
            const std::string name = j.at("variant").get<std::string>();
            const auto v = variant_from_name(name);
            if (!v) throw std::runtime_error(unknown_variant_message(name));
            p.variant = *v;
            p.fen = j.at("fen").get<std::string>();
            p.solution = j.at("solution").get<std::vector<std::string>>();
            p.themes = j.at("themes").get<std::vector<std::string>>();
            p.rating = j.at("rating").get<int>();
            if (j.contains("source")) p.source = j["source"].get<std::string>();
            if (p.id.empty() || p.solution.empty()) throw std::runtime_error("empty id or solution");
            out.push_back(std::move(p));
        } catch (const std::exception& e) {
            throw std::runtime_error("line " + std::to_string(n) + ": " + e.what());
        }
    }
    return out;
}

std::vector<Puzzle> read_puzzle_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot be read");
    try {
        return read_puzzles(in);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ", " + e.what());
    }
}

}  // namespace echecs::puzzle

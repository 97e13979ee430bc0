// The `echecs puzzles` command line.
#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>

#include "core/vocabulary.h"
#include "generate.h"
#include "puzzle_file.h"

namespace echecs::puzzle {

namespace {

const char* USAGE =
    "usage: echecs puzzles generate --variant chess|alice|avalanche --count N --seed S --out FILE\n"
    "                [--scan-nodes N] [--verify-nodes N] [--threads T] [--from-pgn FILE]\n"
    "       echecs puzzles check FILE [--scan-nodes N] [--verify-nodes N]\n"
    "Searches have fixed node budgets (defaults: scan 1500, verify 30000), so the same\n"
    "options give the same file on any machine; check needs the --verify-nodes of generate.\n";

template <class T>
bool number(const std::string& s, T& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

int puzzles_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? err : out) << USAGE;
        return args.empty() ? 2 : 0;
    }
    const std::string cmd = args[0];
    GenerateOptions o;
    std::string out_path, file;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
        bool ok = true;
        if (a == "--variant") {
            const std::string* s = value();
            const auto v = s ? variant_from_name(*s) : std::nullopt;
            if (!v) {
                err << "puzzles: --variant: " << (s ? unknown_variant_message(*s) : "missing") << "\n";
                return 2;
            }
            o.variant = *v;
        } else if (a == "--count") {
            const std::string* s = value();
            ok = s && number(*s, o.count) && o.count > 0;
        } else if (a == "--seed") {
            const std::string* s = value();
            ok = s && number(*s, o.seed);
        } else if (a == "--scan-nodes") {
            const std::string* s = value();
            ok = s && number(*s, o.criteria.scan_nodes) && o.criteria.scan_nodes > 0;
        } else if (a == "--verify-nodes") {
            const std::string* s = value();
            ok = s && number(*s, o.criteria.verify_nodes) && o.criteria.verify_nodes > 0;
        } else if (a == "--threads") {
            const std::string* s = value();
            ok = s && number(*s, o.threads) && o.threads >= 1 && o.threads <= 64;
        } else if (a == "--out") {
            const std::string* s = value();
            ok = s && !s->empty();
            if (ok) out_path = *s;
        } else if (a == "--from-pgn") {
            const std::string* s = value();
            ok = s && !s->empty();
            if (ok) o.from_pgn = *s;
        } else if (cmd == "check" && file.empty() && !a.starts_with("-")) {
            file = a;
        } else {
            err << "puzzles: unknown argument '" << a << "'\n" << USAGE;
            return 2;
        }
        if (!ok) {
            err << "puzzles: " << a << ": a value is missing or out of range\n";
            return 2;
        }
    }

    if (cmd == "generate") {
        if (out_path.empty()) {
            err << "puzzles generate: --out FILE is required\n";
            return 2;
        }
        std::ofstream f(out_path);
        if (!f) {
            err << "puzzles generate: " << out_path << ": cannot be written\n";
            return 2;
        }
        const auto start = std::chrono::steady_clock::now();
        const GenerateStats s = generate(o, f, &err);
        const auto secs =
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
        err << "puzzles: " << s.puzzles << " written to " << out_path << " from " << s.games << " games, "
            << s.positions << " positions, " << s.candidates << " candidates, in " << secs << " s\n";
        return s.puzzles < o.count ? 1 : 0;
    }
    if (cmd == "check") {
        if (file.empty()) {
            err << "puzzles check: FILE is required\n";
            return 2;
        }
        const std::vector<Puzzle> ps = read_puzzle_file(file);
        Finder f(o.criteria);
        int bad = 0;
        for (const Puzzle& p : ps) {
            const std::string why = check_puzzle(f, p);
            if (!why.empty()) {
                ++bad;
                out << p.id << ": " << why << "\n";
            }
        }
        out << ps.size() - bad << " of " << ps.size() << " puzzles hold\n";
        return bad ? 1 : 0;
    }
    err << "puzzles: unknown command '" << cmd << "'\n" << USAGE;
    return 2;
}

}  // namespace echecs::puzzle

#include "cli/commands.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/pgn.h"
#include "core/utf8.h"
#include "engine/uci_process.h"

namespace echecs::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct BenchCase {
    Variant variant;
    const char* name;
    const char* fen;
    int depth;
};

}  // namespace

Variant parse_variant(const std::string& name) {
    if (auto v = variant_from_name(name)) return *v;
    throw std::invalid_argument("unknown variant " + quote_input(name) + " (chess, alice or avalanche)");
}

std::string fen_or_start(const std::optional<std::string>& fen) {
    if (!fen) return std::string(Position::START_FEN);
    // An empty --fen is a mistake (an unset shell variable, say), not a request for the start.
    if (fen->find_first_not_of(" \t") == std::string::npos)
        throw std::invalid_argument("--fen: the FEN is empty (leave --fen out for the initial position)");
    return *fen;
}

int perft_command(Variant v, const std::optional<std::string>& fen, int depth, std::ostream& out) {
    StateInfo root;
    Position pos;
    pos.set(v, fen_or_start(fen), root);
    const auto t0 = Clock::now();
    std::uint64_t total = 0;
    if (depth <= 0) {
        total = 1;
    } else {
        MoveList list;
        generate_legal(pos, list);
        StateInfo st;
        for (Move m : list) {
            pos.do_move(m, st);
            const std::uint64_t n = perft(pos, depth - 1);
            pos.undo_move(m);
            total += n;
            out << to_uci(m) << ": " << n << '\n';
        }
    }
    const double secs = seconds_since(t0);
    out << "\nNodes searched: " << total << "\n";
    std::cerr << "Time: " << std::fixed << std::setprecision(3) << secs << " s, " << std::setprecision(1)
              << (secs > 0 ? double(total) / secs / 1e6 : 0.0) << " Mnodes/s\n";
    return 0;
}

int moves_command(Variant v, const std::optional<std::string>& fen, std::ostream& out) {
    StateInfo root;
    Position pos;
    pos.set(v, fen_or_start(fen), root);
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) out << to_uci(m) << ' ' << to_san(pos, m) << '\n';
    return 0;
}

int pgn_command(const std::string& path, std::ostream& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + quote_input(path));
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string text = buf.str();
    int bad = 0, empty = 0;
    const auto games = read_pgn(text);
    for (const PgnGame& g : games) {
        // Errors say where themselves ("game N, line L, move M ...").
        if (!g.error.empty()) {
            out << g.error << '\n';
            ++bad;
            continue;
        }
        if (!g.has_move_text) {
            out << "game " << g.index << ", line " << g.line << ": tags and no moves (nothing to replay)\n";
            ++empty;
            continue;
        }
        try {
            const std::unique_ptr<Game> game = start_game(g);
            const std::string summary = replay(g, *game).summary();
            out << "game " << g.index << ": " << summary << '\n';
        } catch (const PgnError& e) {
            out << e.what() << '\n';
            ++bad;
        }
    }
    out << games.size() << " games, " << bad << " with errors";
    if (empty) out << ", " << empty << " without moves";
    out << '\n';
    return bad ? 1 : 0;
}

int bench_perft_command(const std::string& stockfish, int repeat, std::ostream& out) {
    static const BenchCase cases[] = {
        {Variant::Chess, "chess start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
        {Variant::Chess, "chess kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
        {Variant::Alice, "alice start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
        {Variant::Avalanche, "avalanche start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4},
    };
    out << std::left << std::setw(18) << "position" << std::right << std::setw(6) << "depth" << std::setw(14) << "nodes"
        << std::setw(10) << "seconds" << std::setw(12) << "Mnodes/s" << '\n';
    double chess_nps = 0;
    std::vector<double> nps_of(std::size(cases));
    for (size_t i = 0; i < std::size(cases); ++i) {
        const BenchCase& c = cases[i];
        double best = 1e30;
        std::uint64_t nodes = 0;
        for (int r = 0; r < repeat; ++r) {
            StateInfo st;
            Position pos;
            pos.set(c.variant, c.fen, st);
            const auto t0 = Clock::now();
            nodes = perft(pos, c.depth);
            best = std::min(best, seconds_since(t0));
        }
        nps_of[i] = double(nodes) / best;
        if (i == 0) chess_nps = nps_of[i];
        out << std::left << std::setw(18) << c.name << std::right << std::setw(6) << c.depth << std::setw(14) << nodes
            << std::setw(10) << std::fixed << std::setprecision(3) << best << std::setw(12) << std::setprecision(1)
            << nps_of[i] / 1e6 << '\n';
        if (!stockfish.empty() && c.variant == Variant::Chess) {
            engine::UciProcess sf(stockfish);
            constexpr std::int64_t kTimeoutMs = 600'000;
            auto expect = [&](const std::string& prefix) {
                auto line = sf.wait_for(prefix, kTimeoutMs);
                if (!line) throw std::runtime_error(stockfish + " did not answer '" + prefix + "'");
                return *line;
            };
            sf.send("uci");
            expect("uciok");
            double sf_best = 1e30;
            std::uint64_t sf_nodes = 0;
            for (int r = 0; r < repeat; ++r) {
                sf.send(std::string("position fen ") + c.fen);
                sf.send("isready");
                expect("readyok");
                const auto t0 = Clock::now();
                sf.send("go perft " + std::to_string(c.depth));
                const std::string line = expect("Nodes searched");
                sf_best = std::min(sf_best, seconds_since(t0));
                sf_nodes = std::stoull(line.substr(line.find(':') + 1));
            }
            out << std::left << std::setw(18) << "  stockfish" << std::right << std::setw(6) << c.depth << std::setw(14)
                << sf_nodes << std::setw(10) << std::setprecision(3) << sf_best << std::setw(12) << std::setprecision(1)
                << double(sf_nodes) / sf_best / 1e6 << "   echecs/stockfish speed " << std::setprecision(2)
                << (double(nodes) / best) / (double(sf_nodes) / sf_best) << '\n';
        }
    }
    out << "\nratio to chess start nodes/s:";
    for (size_t i = 0; i < std::size(cases); ++i)
        out << "  " << cases[i].name << ' ' << std::setprecision(2) << nps_of[i] / chess_nps;
    out << '\n';
    return 0;
}

}  // namespace echecs::cli

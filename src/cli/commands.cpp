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

#include "core/bitboard.h"
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
    throw std::invalid_argument(unknown_variant_message(name));
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

int pgn_command(const std::string& path, std::ostream& out, std::ostream& notes) {
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
            const PgnReplay r = replay(g, *game);
            for (const PgnReading& reading : r.readings) {
                const PgnMove& m = g.moves[std::size_t(reading.ply - 1)];
                notes << "game " << g.index << ", line " << m.line << ", move " << m.number
                      << (m.side == WHITE ? ". " : "... ") << reading.written << ": read as " << reading.read << '\n';
            }
            out << "game " << g.index << ": " << r.summary() << '\n';
        } catch (const PgnError& e) {
            out << e.what() << '\n';
            ++bad;
        }
    }
    out << games.size() << (games.size() == 1 ? " game, " : " games, ") << bad << " with errors";
    if (empty) out << ", " << empty << " without moves";
    out << '\n';
    return bad ? 1 : 0;
}

int bench_perft_command(const std::string& stockfish, int repeat, const std::vector<SliderIndex>& sliders,
                        std::ostream& out) {
    static const BenchCase cases[] = {
        {Variant::Chess, "chess start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
        {Variant::Chess, "chess kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
        {Variant::Alice, "alice start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
        {Variant::Avalanche, "avalanche start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4},
    };
    Position::init();
    const SliderIndex start_up = slider_index();
    std::vector<SliderIndex> indexings = sliders.empty() ? std::vector<SliderIndex>{start_up} : sliders;
    for (SliderIndex i : indexings)
        if (!slider_index_available(i))
            throw std::runtime_error(std::string("bench perft: ") + slider_index_name(i) +
                                     " indexing is not available in this build or on this processor");
    out << "slider tables: " << slider_index_name(start_up) << " at start-up";
#if defined(ECHECS_PEXT_AT_BUILD)
    out << " (PEXT compiled in: built for a processor with BMI2)";
#endif
    out << "\n"
        << std::left << std::setw(18) << "position" << std::setw(7) << "index" << std::right << std::setw(6) << "depth"
        << std::setw(14) << "nodes" << std::setw(10) << "seconds" << std::setw(12) << "Mnodes/s" << '\n';
    // nodes/s of each case under each indexing; the indexings take turns
    // within each repetition, so that a change of load hits them alike.
    std::vector<std::vector<double>> nps(std::size(cases), std::vector<double>(indexings.size()));
    for (size_t c = 0; c < std::size(cases); ++c) {
        const BenchCase& bc = cases[c];
        std::vector<double> best(indexings.size(), 1e30);
        std::uint64_t nodes = 0;
        for (int r = 0; r < repeat; ++r)
            for (size_t k = 0; k < indexings.size(); ++k) {
                set_slider_index(indexings[k]);
                StateInfo st;
                Position pos;
                pos.set(bc.variant, bc.fen, st);
                const auto t0 = Clock::now();
                nodes = perft(pos, bc.depth);
                best[k] = std::min(best[k], seconds_since(t0));
            }
        for (size_t k = 0; k < indexings.size(); ++k) {
            nps[c][k] = double(nodes) / best[k];
            out << std::left << std::setw(18) << bc.name << std::setw(7) << slider_index_name(indexings[k])
                << std::right << std::setw(6) << bc.depth << std::setw(14) << nodes << std::setw(10) << std::fixed
                << std::setprecision(3) << best[k] << std::setw(12) << std::setprecision(1) << nps[c][k] / 1e6 << '\n';
        }
        if (!stockfish.empty() && bc.variant == Variant::Chess) {
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
                sf.send(std::string("position fen ") + bc.fen);
                sf.send("isready");
                expect("readyok");
                const auto t0 = Clock::now();
                sf.send("go perft " + std::to_string(bc.depth));
                const std::string line = expect("Nodes searched");
                sf_best = std::min(sf_best, seconds_since(t0));
                sf_nodes = std::stoull(line.substr(line.find(':') + 1));
            }
            out << std::left << std::setw(25) << "  stockfish" << std::right << std::setw(6) << bc.depth
                << std::setw(14) << sf_nodes << std::setw(10) << std::setprecision(3) << sf_best << std::setw(12)
                << std::setprecision(1) << double(sf_nodes) / sf_best / 1e6 << "   echecs/stockfish speed "
                << std::setprecision(2) << nps[c][0] / (double(sf_nodes) / sf_best) << '\n';
        }
    }
    for (size_t k = 0; k < indexings.size(); ++k) {
        out << "\n" << slider_index_name(indexings[k]) << ": ratio to chess start nodes/s:";
        for (size_t c = 0; c < std::size(cases); ++c)
            out << "  " << cases[c].name << ' ' << std::setprecision(2) << nps[c][k] / nps[0][k];
    }
    if (indexings.size() > 1) {
        out << "\n" << slider_index_name(indexings[1]) << " / " << slider_index_name(indexings[0]) << " speed:";
        for (size_t c = 0; c < std::size(cases); ++c)
            out << "  " << cases[c].name << ' ' << std::setprecision(3) << nps[c][1] / nps[c][0];
    }
    out << '\n';
    set_slider_index(start_up);
    return 0;
}

}  // namespace echecs::cli

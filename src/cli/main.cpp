// The `echecs` command: without arguments a UCI engine; subcommands for
// perft, move listing, PGN replay, benchmarks, matches and the game server.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "core/position.h"
#include "engine/entry.h"
#include "server/entry.h"

int main(int argc, char** argv) {
    using namespace echecs;
    CLI::App app{"echecs: orthodox, Alice and Avalanche chess (rules, engine, server)"};
    app.require_subcommand(0, 1);

    std::string variant = "chess", fen;
    int depth = 1;
    auto* perft = app.add_subcommand("perft", "count leaf nodes of the legal move tree");
    perft->add_option("--variant", variant, "chess, alice or avalanche")
        ->check(CLI::IsMember({"chess", "alice", "avalanche"}));
    perft->add_option("--fen", fen, "start position (default: the initial position)");
    perft->add_option("depth", depth, "depth in plies")->required()->check(CLI::Range(0, 20));

    auto* moves = app.add_subcommand("moves", "list the legal moves (coordinates, then SAN)");
    moves->add_option("--variant", variant, "chess, alice or avalanche")
        ->check(CLI::IsMember({"chess", "alice", "avalanche"}));
    moves->add_option("--fen", fen, "position (default: the initial position)");

    std::string pgn_path;
    auto* pgn = app.add_subcommand("pgn", "replay every game of a PGN file and say how each ended");
    pgn->add_option("file", pgn_path, "PGN file")->required();

    auto passthrough = [&](const char* name, const char* help) {
        auto* sub = app.add_subcommand(name, help);
        sub->allow_extras();
        sub->prefix_command();
        return sub;
    };
    auto* bench =
        passthrough("bench", "benchmarks: `bench perft [--stockfish PATH] [--repeat N]`, or the search bench");
    auto* match = passthrough("match", "engine-versus-engine games");
    auto* serve = passthrough("serve", "run the game server");
    auto* xboard = app.add_subcommand("xboard", "CECP (xboard) mode");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }

    try {
        if (fen.empty()) fen = std::string(Position::START_FEN);
        if (*perft) return cli::perft_command(cli::parse_variant(variant), fen, depth, std::cout);
        if (*moves) return cli::moves_command(cli::parse_variant(variant), fen, std::cout);
        if (*pgn) return cli::pgn_command(pgn_path, std::cout);
        if (*bench) {
            auto args = bench->remaining();
            if (!args.empty() && args[0] == "perft") {
                std::string stockfish;
                int repeat = 1;
                for (size_t i = 1; i < args.size(); ++i) {
                    if (args[i] == "--stockfish" && i + 1 < args.size())
                        stockfish = args[++i];
                    else if (args[i] == "--repeat" && i + 1 < args.size())
                        repeat = std::stoi(args[++i]);
                    else {
                        std::cerr << "bench perft: unknown argument '" << args[i] << "'\n";
                        return 2;
                    }
                }
                return cli::bench_perft_command(stockfish, repeat, std::cout);
            }
            return bench_main(args, std::cout);
        }
        if (*match) return match_main(match->remaining(), std::cout);
        if (*serve) return serve_main(serve->remaining());
        if (*xboard) return xboard_loop(std::cin, std::cout);
        return uci_loop(std::cin, std::cout);
    } catch (const std::exception& e) {
        std::cerr << "echecs: " << e.what() << '\n';
        return 1;
    }
}

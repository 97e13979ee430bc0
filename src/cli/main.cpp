// The `echecs` command: without arguments a UCI engine; subcommands for
// perft, move listing, PGN replay, benchmarks, matches, self-play training
// positions and the game server (a binary of its own: server_main.cpp).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/solve.h"
#include "core/position.h"
#include "engine/entry.h"
#include "engine/nnue_train.h"
#include "engine/protocol_util.h"
#include "engine/selfplay.h"
#include "engine/tune.h"
#include "engine/wdl.h"
#include "platform/paths.h"
#include "platform/version.h"
#include "puzzle/generate.h"

namespace {

// `echecs match` without --openings plays the installed (or built) opening set
// of its variant, share/echecs/openings/<variant>.txt (src/cli/paths.h).
std::vector<std::string> with_default_openings(std::vector<std::string> args) {
    if (args.empty()) return args;  // match_main prints its usage
    std::string name = "chess";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--openings" || args[i] == "--help" || args[i] == "-h") return args;
        if (args[i] == "--variant" && i + 1 < args.size()) name = args[i + 1];
    }
    const auto v = echecs::variant_from_name(name);
    if (!v) return args;  // match_main says so
    const std::string variant(echecs::variant_name(*v));
    if (auto found = echecs::paths::find_share("openings", variant + ".txt")) {
        args.push_back("--openings");
        args.push_back((found->path / (variant + ".txt")).string());
    }
    return args;
}

// `echecs serve` and `echecs reports` run the server's binary in this
// process's place, found next to this one (the build tree) or in
// <prefix>/libexec/echecs (installed): the other subcommands then start
// without loading the server's libraries.
int run_server(char** argv) {
    const std::filesystem::path exe = echecs::paths::executable();
    const std::filesystem::path candidates[] = {
        exe.parent_path() / "echecs-server",
        exe.parent_path().parent_path() / "libexec" / "echecs" / "echecs-server",
    };
    for (const auto& p : candidates)
        if (!exe.empty() && ::access(p.c_str(), X_OK) == 0) {
            ::execv(p.c_str(), argv);
            std::cerr << "echecs: " << argv[1] << ": cannot run " << p.string() << ": " << std::strerror(errno) << '\n';
            return 1;
        }
    std::cerr << "echecs: " << argv[1] << ": the server's binary is not installed (no " << candidates[0].string()
              << ", no " << candidates[1].string() << ")\n";
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace echecs;
    if (argc > 1 && (std::string_view(argv[1]) == "serve" || std::string_view(argv[1]) == "reports"))
        return run_server(argv);
    CLI::App app{"echecs: orthodox, Alice and Avalanche chess (rules, engine, server)"};
    app.require_subcommand(0, 1);
    app.set_version_flag("--version", std::string("echecs ") + version::STRING);

    std::string variant = "chess";
    std::optional<std::string> fen;  // unset: the initial position; empty: an error
    int depth = 1;
    // --variant is read by the one reader (variant_from_name): any case, the aliases too.
    const std::string variants_help = accepted_variant_names();
    const auto known_variant = [](const std::string& s) {
        return variant_from_name(s) ? std::string() : unknown_variant_message(s);
    };
    auto* perft = app.add_subcommand("perft", "count leaf nodes of the legal move tree");
    perft->add_option("--variant", variant, variants_help)->check(known_variant);
    perft->add_option("--fen", fen, "start position (default: the initial position)");
    perft->add_option("depth", depth, "depth in plies")->required()->check(CLI::Range(0, 20));
    std::string perft_sliders;
    perft->add_option("--sliders", perft_sliders, "slider table indexing: magic or pext (default: chosen at start-up)")
        ->check(CLI::IsMember({"magic", "pext"}));

    auto* moves = app.add_subcommand("moves", "list the legal moves (coordinates, then SAN)");
    moves->add_option("--variant", variant, variants_help)->check(known_variant);
    moves->add_option("--fen", fen, "position (default: the initial position)");

    std::string pgn_path;
    auto* pgn = app.add_subcommand("pgn", "replay every game of a PGN file and say how each ended");
    pgn->add_option("file", pgn_path, "PGN file")->required();

    auto passthrough = [&](const char* name, const char* help) {
        auto* sub = app.add_subcommand(name, help);
        sub->allow_extras();
        sub->prefix_command();
        sub->set_help_flag();  // --help goes to the command itself, which knows its options
        return sub;
    };
    auto* bench = passthrough(
        "bench",
        "benchmarks: `bench perft [--stockfish PATH] [--repeat N] [--sliders magic|pext|both]`, or the search bench");
    auto* match = passthrough("match", "engine-versus-engine games");
    auto* wdl = passthrough("wdl", "fit the win/draw/loss model (UCI_ShowWDL) to selfplay output");
    auto* nnue_train = passthrough("nnue-train", "train a game's evaluation network on selfplay positions");
    // Listed for --help; run by the server's binary (run_server).
    passthrough("serve", "run the game server");
    passthrough("reports", "list and resolve the chat reports in the server's database (`reports --help`)");
    auto* solve = passthrough("solve", "solve a problem: #n, h#n, s#n in the three games (`solve --help`)");
    auto* puzzles =
        passthrough("puzzles",
                    "puzzles from the engine's games: `puzzles generate --variant V --count N --seed S --out FILE`, "
                    "`puzzles check FILE`");
    auto* xboard = app.add_subcommand("xboard", "CECP (xboard) mode");

    // No CLI11 range checks here: selfplay_main checks the values and names the
    // bad option, with the exit code 2 of its other argument errors.
    engine::SelfplayOptions sp;
    auto* selfplay = app.add_subcommand("selfplay", "engine self-play games: quiet positions for Texel tuning");
    selfplay->add_option("--variant", sp.variant, variants_help)->capture_default_str();
    selfplay->add_option("--games", sp.games, "number of games")->capture_default_str();
    selfplay->add_option("--nodes", sp.nodes, "node limit of each move's search")->capture_default_str();
    selfplay->add_option("--random-plies", sp.random_plies, "random moves opening each game")->capture_default_str();
    selfplay->add_option("--seed", sp.seed, "seed of the random openings")->capture_default_str();
    selfplay->add_option("--threads", sp.threads, "games played in parallel")->capture_default_str();
    selfplay->add_option("--out", sp.out, "output file, '-' for the standard output")->capture_default_str();
    selfplay->add_option("--random-rate", sp.random_rate, "probability of a random move after each search")
        ->capture_default_str();
    selfplay->add_option("--record-max", sp.record_max, "keep positions scored below this (cp)")->capture_default_str();
    selfplay->add_flag("--hand-eval", sp.hand_eval, "play with the hand-written evaluation, not the game's network");
    selfplay->add_option("--net", sp.net, "play with the network in this file, not the game's built-in one");

    engine::TuneOptions tn;
    std::string tune_variant = "chess";
    auto* tune = app.add_subcommand("tune", "Texel-tune the evaluation weights on selfplay positions");
    tune->add_option("--variant", tune_variant, variants_help)->capture_default_str();
    tune->add_option("--data", tn.data, "selfplay output (FEN, result, score per line)")->required();
    tune->add_option("--passes", tn.passes, "passes of the local search")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    tune->add_option("--lambda", tn.lambda, "weight of the search score in the target (0: results only)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 1.0));
    tune->add_option("--only", tn.only, "comma-separated weight name prefixes to tune (default: all)");
    tune->add_option("--limit", tn.limit, "use at most this many positions (0: all)")->capture_default_str();
    tune->add_option("--validation", tn.validation, "hold out every n-th position (0: none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000000));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        // selfplay: every argument error exits with 2 (CLI11 has its own codes).
        const bool is_selfplay = argc > 1 && std::string_view(argv[1]) == "selfplay";
        return is_selfplay && rc != 0 ? 2 : rc;
    }

    try {
        if (*perft) {
            if (!perft_sliders.empty()) {
                const SliderIndex i = perft_sliders == "pext" ? SliderIndex::Pext : SliderIndex::Magic;
                if (!set_slider_index(i)) {
                    std::cerr << "perft: --sliders " << perft_sliders << ": not available in this build or processor\n";
                    return 2;
                }
            }
            return cli::perft_command(cli::parse_variant(variant), fen, depth, std::cout);
        }
        if (*moves) return cli::moves_command(cli::parse_variant(variant), fen, std::cout);
        if (*pgn) return cli::pgn_command(pgn_path, std::cout, std::cerr);
        if (*bench) {
            auto args = bench->remaining();
            if (!args.empty() && args[0] == "perft") {
                std::string stockfish;
                int repeat = 1;
                std::vector<SliderIndex> sliders;
                for (size_t i = 1; i < args.size(); ++i) {
                    if (args[i] == "--stockfish" && i + 1 < args.size())
                        stockfish = args[++i];
                    else if (args[i] == "--repeat" && i + 1 < args.size())
                        repeat = std::stoi(args[++i]);
                    else if (args[i] == "--sliders" && i + 1 < args.size()) {
                        const std::string v = args[++i];
                        if (v != "magic" && v != "pext" && v != "both") {
                            std::cerr << "bench perft: --sliders: '" << v << "' is not magic, pext or both\n";
                            return 2;
                        }
                        // both: each one this build and processor can use
                        for (SliderIndex k : {SliderIndex::Magic, SliderIndex::Pext})
                            if (v == slider_index_name(k) || (v == "both" && slider_index_available(k)))
                                sliders.push_back(k);
                    } else {
                        std::cerr << "bench perft: unknown argument '" << args[i] << "'\n";
                        return 2;
                    }
                }
                return cli::bench_perft_command(stockfish, repeat, sliders, std::cout);
            }
            return bench_main(args, std::cout);
        }
        if (*match) return match_main(with_default_openings(match->remaining()), std::cout);
        if (*wdl) return engine::wdl_main(wdl->remaining(), std::cout);
        if (*nnue_train) return engine::nnue::train_main(nnue_train->remaining(), std::cerr);
        if (*selfplay) return engine::selfplay_main(sp);
        if (*tune) {
            const auto v = variant_from_name(tune_variant);
            if (!v) {
                std::cerr << "tune: --variant: " << unknown_variant_message(tune_variant) << "\n";
                return 2;
            }
            tn.variant = *v;
            return engine::tune(tn, std::cout, std::cerr);
        }
        if (*solve) return cli::solve_main(solve->remaining(), std::cout, std::cerr);
        if (*puzzles) return puzzle::puzzles_main(puzzles->remaining(), std::cout, std::cerr);
        if (*xboard) return xboard_loop(std::cin, std::cout);
        return uci_loop(std::cin, std::cout);
    } catch (const std::exception& e) {
        std::cerr << "echecs: " << e.what() << '\n';
        return 1;
    }
}

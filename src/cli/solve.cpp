#include "cli/solve.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>

#include "cli/commands.h"
#include "core/position.h"
#include "solver/output.h"
#include "solver/popeye.h"
#include "solver/solver.h"

namespace echecs::cli {

namespace {

// Reads at most the reader's bound, so that a huge file is refused, not loaded.
std::string read_input(const std::string& path) {
    std::ifstream file;
    std::istream* in = &std::cin;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) throw std::runtime_error("cannot open '" + path + "'");
        in = &file;
    }
    std::string text(solver::POPEYE_MAX_BYTES + 1, '\0');
    in->read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in->gcount()));
    return text;
}

}  // namespace

int solve_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{
        "echecs solve: every solution of a chess problem (#n, h#n, h#n.5, s#n, r#n, hs#n, reci-h#n, =n, h=n, s=n, "
        "proof games) "
        "in chess, Alice or Avalanche chess"};
    app.name("echecs solve");
    std::string variant = "chess", fen, stipulation, input, write_inp, format = "text", target;
    bool white_first = false, post_key = false;
    solver::Options o;
    bool no_variations = false, progress = false, stream = false;
    app.add_option("--variant", variant, accepted_variant_names())
        ->check([](const std::string& s) { return variant_from_name(s) ? std::string() : unknown_variant_message(s); })
        ->capture_default_str();
    app.add_option("--fen", fen, "the diagram (its side to move follows from the stipulation)");
    app.add_option(
        "--stipulation,-s", stipulation,
        "#n, h#n, h#n.5, s#n, r#n, semi-r#n, hs#n, hs#n.5, hr#n, reci-h#n, =n, h=n, s=n, ser-#n, ser-h#n, ser-s#n; "
        "proof games dian, dian.5, a=>bn");
    app.add_option("--target", target, "a=>b: the position b to reach (FEN); --fen is the position a");
    app.add_flag("--white-first", white_first, "a=>b: White makes the first half-move (Popeye's whitetoplay)");
    app.add_flag("--post-key", post_key,
                 "battle play: the diagram is the position after the key; its play is shown (Popeye's "
                 "postkeyplay)");
    app.add_option("--input,-i", input, "a Popeye input file ('-': standard input); twins are solved in turn");
    app.add_option("--write-popeye", write_inp,
                   "write the problem as Popeye input to this file ('-': standard output) "
                   "instead of solving it");
    app.add_flag("--tries", o.tries, "also the first moves refuted by a single defence");
    app.add_flag("--set-play", o.set_play, "also the play if the other side moved first");
    app.add_flag("--threats,!--no-threats", o.threats,
                 "look for threats and show only the variations that answer "
                 "them (default)");
    app.add_flag("--no-variations", no_variations, "keys only, without the play that follows");
    app.add_option("--max-solutions", o.max_solutions, "stop after this many keys or solutions (0: all)")
        ->check(CLI::Range(0, 1000000));
    app.add_option("--timeout", o.timeout_seconds, "stop after this many seconds (0: none)")
        ->check(CLI::Range(0.0, 1e7));
    app.add_option("--max-nodes", o.max_nodes, "stop after this many moves searched (0: none)");
    app.add_option("--threads", o.threads, "search threads (0: every core)")->check(CLI::Range(0, 256));
    app.add_option("--hash", o.hash_megabytes, "proof table size in MiB")
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
    const std::map<std::string, solver::Options::Intelligent> intelligent_modes{
        {"auto", solver::Options::Intelligent::Auto},
        {"on", solver::Options::Intelligent::Always},
        {"off", solver::Options::Intelligent::Never}};
    app.add_option("--intelligent", o.intelligent,
                   "helpmates and help-stalemates in orthodox chess: search final position by final position "
                   "(on), or the plain search (off); the same solutions (auto: by positions from h#2, h=2, unless the "
                   "plain search ends within a few thousand nodes)")
        ->transform(CLI::CheckedTransformer(intelligent_modes, CLI::ignore_case))
        ->capture_default_str();
    app.add_option("--format", format, "text (composers' notation), uci (one line per key or solution) or json")
        ->check(CLI::IsMember({"text", "uci", "json"}))
        ->capture_default_str();
    app.add_flag("--progress", progress, "report progress on the standard error");
    app.add_flag("--stream", stream,
                 "print each key with its play, or each solution, on the standard error as soon as it is proven "
                 "(the default when the standard error is a terminal)");

    std::vector<std::string> argv(args.rbegin(), args.rend());
    try {
        app.parse(argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e, out, err);
        return rc == 0 ? 0 : 2;
    }
    o.variations = !no_variations;
    // A long solve shows what it has proven as it goes; the standard output
    // still gets the whole answer, in order, at the end.
    stream = stream || isatty(STDERR_FILENO);
    if (progress)
        o.progress = [&err](const solver::Progress& p) {
            err << "progress: " << p.first_moves_done << "/" << p.first_moves << " first moves, " << p.nodes
                << " nodes, " << p.solutions << " solutions, " << p.seconds << " s\n";
        };

    // The problems: from a Popeye file, or from the options.
    // Each problem with its label (twin) and its options (a Popeye file's own, added to the command line's).
    std::vector<solver::Problem> problems;
    std::vector<std::string> labels;
    std::vector<solver::Options> options;
    std::vector<std::string> refusals;  // problems of a Popeye file not solved, each "line N: why"
    try {
        if (!input.empty()) {
            if (!fen.empty() || !stipulation.empty()) {
                err << "echecs solve: --input gives the position and the stipulation; drop --fen and --stipulation\n";
                return 2;
            }
            const auto read = solver::read_popeye_all(read_input(input));
            for (const auto& pp : read) {
                for (const auto& w : pp.warnings) err << "echecs solve: " << input << ": warning: " << w << '\n';
                if (!pp.refused.empty()) {
                    refusals.push_back(pp.refused);
                    continue;
                }
                solver::Options po = o;
                po.tries = o.tries || pp.tries;
                po.set_play = o.set_play || pp.set_play;
                po.threats = o.threats && pp.threats;
                if (pp.max_solutions && !o.max_solutions) po.max_solutions = pp.max_solutions;
                if (pp.max_time && !o.timeout_seconds) po.timeout_seconds = pp.max_time;
                for (std::size_t i = 0; i < pp.twins.size(); ++i) {
                    problems.push_back(pp.twins[i]);
                    labels.push_back(pp.twin_labels[i]);
                    options.push_back(po);
                }
            }
        } else {
            if (stipulation.empty()) {
                err << "echecs solve: --stipulation is required (e.g. -s '#2'), or --input FILE\n";
                return 2;
            }
            solver::Problem p;
            p.variant = parse_variant(variant);
            p.fen = fen.empty() ? std::string(Position::START_FEN) : fen;
            p.stipulation = solver::parse_stipulation(stipulation);
            p.target = target;
            p.kings = p.stipulation.kings();
            if (p.stipulation.proof() && p.stipulation.atob) p.stipulation.white_first = white_first;
            if (post_key && !p.stipulation.battle()) {
                err << "echecs solve: --post-key: the play after a key exists only in battle play (#n, s#n, r#n, "
                       "semi-r#n, =n), not in "
                    << p.stipulation.str() << '\n';
                return 2;
            }
            p.stipulation.post_key = post_key;
            problems.push_back(p);
            labels.emplace_back();
            options.push_back(o);
        }
    } catch (const solver::StipulationError& e) {
        err << "echecs solve: " << e.what() << '\n';
        return 2;
    } catch (const solver::PopeyeError& e) {
        err << "echecs solve: " << input << ": " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        err << "echecs solve: " << e.what() << '\n';
        return 2;
    }

    // A refused problem is reported where it stands; the rest of the file is solved.
    for (const auto& why : refusals)
        err << "echecs solve: " << input << ": problem refused, not solved: " << why << '\n';
    if (!write_inp.empty() && problems.empty()) {
        err << "echecs solve: " << input << ": no problem to write\n";
        return 2;
    }

    if (!write_inp.empty()) {
        try {
            const std::string text =
                solver::write_popeye(problems.front(), {o.tries, o.set_play, o.variations, o.threats});
            if (write_inp == "-")
                out << text;
            else {
                std::ofstream f(write_inp, std::ios::binary);
                if (!(f << text)) throw std::runtime_error("cannot write '" + write_inp + "'");
            }
        } catch (const std::exception& e) {
            err << "echecs solve: " << e.what() << '\n';
            return 2;
        }
        return 0;
    }

    int rc = 0;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        if (stream)
            options[i].found = [&err, st = problems[i].stipulation](const solver::AttackLine* key,
                                                                    const solver::HelpLine* solution) {
                err << "found: " << (key ? solver::key_text(*key) : solver::solution_text(*solution, st));
                err.flush();
            };
        solver::Result r;
        try {
            r = solver::solve(problems[i], options[i]);
        } catch (const solver::ProblemError& e) {
            err << "echecs solve: " << (labels[i].empty() ? "" : labels[i] + " ") << "bad position: " << e.what()
                << '\n';
            if (input.empty()) return 2;
            refusals.push_back(e.what());  // a Popeye file goes on with its next problem
            continue;
        }
        if (!r.note.empty()) err << "note: " << r.note << '\n';
        if (format == "json")
            out << solver::to_json(r) << '\n';
        else if (format == "uci")
            out << solver::to_uci_lines(r);
        else {
            if (i) out << '\n';
            if (!labels[i].empty()) out << labels[i] << '\n';
            out << solver::to_text(r);
        }
        if (!r.complete() && r.status != solver::Status::MaxSolutions) rc = 3;
    }
    // 4: some problems were refused (named above); it outranks 3, which only says a search stopped early.
    return refusals.empty() ? rc : 4;
}

}  // namespace echecs::cli

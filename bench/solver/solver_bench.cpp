// The solver's benchmark: every problem (and twin) of the Popeye files given,
// solved in full, one line each with the time and the moves searched. The
// node total is the solver's signature: it changes only when the search does.
//   solver_bench [--threads N] FILE.inp...
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/popeye.h"
#include "solver/solver.h"

using namespace echecs;

int main(int argc, char** argv) {
    int threads = 1;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else
            files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: solver_bench [--threads N] FILE.inp...\n");
        return 2;
    }
    std::uint64_t total_nodes = 0;
    double total_seconds = 0;
    std::printf("%-52s %-9s %-7s %9s %12s %9s\n", "problem", "game", "stip", "solutions", "nodes", "seconds");
    for (const auto& file : files) {
        std::ifstream in(file);
        std::stringstream ss;
        ss << in.rdbuf();
        std::vector<solver::PopeyeProblem> problems;
        try {
            problems = solver::read_popeye(ss.str());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", file.c_str(), e.what());
            return 2;
        }
        for (const auto& pp : problems)
            for (std::size_t t = 0; t < pp.twins.size(); ++t) {
                solver::Options o;
                o.threads = threads;
                o.tries = pp.tries;
                o.set_play = pp.set_play;
                o.variations = pp.variations;  // as Popeye: the play after the keys with "option variation"
                o.hash_megabytes = 256;
                const solver::Result r = solver::solve(pp.twins[t], o);
                std::string name = pp.twins[t].title.substr(0, 44);
                if (!pp.twin_labels[t].empty()) {
                    name += ' ';
                    name += pp.twin_labels[t].substr(0, 2);
                }
                std::printf("%-52s %-9s %-7s %9d %12llu %9.3f\n", name.c_str(),
                            std::string(variant_name(pp.twins[t].variant)).c_str(),
                            pp.twins[t].stipulation.str().c_str(), r.solution_count(), (unsigned long long)r.nodes,
                            r.seconds);
                total_nodes += r.nodes;
                total_seconds += r.seconds;
            }
    }
    std::printf("total: %llu nodes, %.3f s, %d thread%s\n", (unsigned long long)total_nodes, total_seconds, threads,
                threads == 1 ? "" : "s");
    return 0;
}

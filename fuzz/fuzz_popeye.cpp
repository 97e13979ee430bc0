// Popeye input reader: arbitrary text gives problems or a PopeyeError, never
// a crash. Every problem read is written back as Popeye input and read
// again to the same position (compared exactly) and stipulation; the first
// is solved under a small node limit, so that the solver meets odd positions.
#include "common.h"
#include "solver/hash.h"
#include "solver/popeye.h"

using namespace echecs;

namespace {
solver::PositionCode code_of(const solver::Problem& p) {
    StateInfo st;
    Position pos;
    pos.set(p.variant, p.fen, st, p.kings);
    solver::PositionCode c;
    solver::encode(pos, c);
    return c;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<solver::PopeyeProblem> problems;
    try {
        problems = solver::read_popeye_all(text);
    } catch (const solver::PopeyeError& e) {
        fuzz::check(std::string_view(e.what()).substr(0, 5) == "line ", "error names its line");
        return 0;
    }
    fuzz::check(!problems.empty(), "a problem read");
    const solver::Problem* first = nullptr;
    for (const auto& pp : problems) {
        // A refused problem names its line and has no twins; the others are read.
        if (!pp.refused.empty()) {
            fuzz::check(pp.refused.substr(0, 5) == "line " && pp.twins.empty(), "a refusal names its line");
            continue;
        }
        fuzz::check(!pp.twins.empty() && pp.twins.size() == pp.twin_labels.size(), "twins and labels");
        if (!first) first = &pp.twins[0];
        for (const auto& p : pp.twins) {
            const std::string written = solver::write_popeye(p);
            const auto again = solver::read_popeye(written);
            fuzz::check(again.size() == 1 && again[0].twins.size() == 1, "one problem written, one read");
            const auto& q = again[0].twins[0];
            fuzz::check(q.variant == p.variant && q.stipulation == p.stipulation, "variant and stipulation");
            fuzz::check(code_of(q) == code_of(p), "position round trip");
        }
    }
    solver::Options o;
    o.threads = 1;
    o.max_nodes = 3000;
    o.hash_megabytes = 1;
    o.tries = o.set_play = true;
    if (!first) return 0;
    solver::Problem p = *first;
    if (p.stipulation.moves > 3) p.stipulation.moves = 3;
    const solver::Result r = solver::solve(p, o);
    fuzz::check(r.first_moves_done <= r.first_moves, "progress within the first moves");
    return 0;
}

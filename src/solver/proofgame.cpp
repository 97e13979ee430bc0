#include "solver/proofgame.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "core/movegen.h"
#include "core/vocabulary.h"
#include "solver/proof_bound.h"
#include "solver/root_runner.h"
#include "solver/search.h"
#include "solver/tree.h"

namespace echecs::solver {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t FLUSH = 1024;
constexpr int TABLE_PLIES = 64;  // Proven::help_fail has a bit per length below this
constexpr int MIN_TABLE_PLIES = 3;

// The proof table's size: 4 MiB up to 16 half-moves, 16 MiB beyond. The
// bound does most of the pruning; a larger table mostly adds page faults and
// cache misses (one thread, a loaded machine: Alice dia10.5 of Andernach
// 2025 0.92 s with 64 MiB, 0.53 s with 16, 0.38 s with 4; Caillaud &
// Rotenberg dia7 0.17 s with 64, 0.07 s with 4), but the longest games lose
// positions in a small one (a=>b16 of Andernach 2001: 31.6 M nodes with 4
// MiB, 9.7 M with 16, 8.9 M with 64; 3.3 s with 16 MiB, 6.6 s with 64).
std::size_t table_megabytes(const Options& o, int plies) {
    return std::min<std::size_t>(o.hash_megabytes, plies <= 16 ? 4 : 16);
}

// A FEN with its side to move replaced; the target's castling and en-passant
// fields are dropped (a proof game compares the placement only).
std::string fen_with_side(const std::string& fen, Color side, bool placement_only) {
    std::istringstream in(fen);
    std::string fields[6];
    int n = 0;
    while (n < 6 && in >> fields[n]) ++n;
    if (n == 0) return fen;  // Position::set says what is wrong
    // assign(1, c), not "=": GCC 12 warns falsely (-Wrestrict) about short literals.
    const char s = side == WHITE ? 'w' : 'b';
    if (n < 2) n = 2;
    if (fields[1] != std::string(1, s) && n >= 4) fields[3].assign(1, '-');  // an en-passant square belongs to its side
    fields[1].assign(1, s);
    if (placement_only) {
        n = std::max(n, 4);
        fields[2].assign(1, '-');
        fields[3].assign(1, '-');
    }
    std::string out;
    for (int i = 0; i < n; ++i) {
        if (i) out += ' ';
        out += fields[i];
    }
    return out;
}

class ProofSearch {
public:
    ProofSearch(const Position& root, const ProofBound& bound, Shared& shared, bool exact)
        : bound_(bound), shared_(shared), exact_(exact) {
        root.copy_to(pos_, root_state_);
    }
    ~ProofSearch() { flush(); }
    ProofSearch(const ProofSearch&) = delete;
    ProofSearch& operator=(const ProofSearch&) = delete;

    bool stopped() const { return shared_.stop.load(std::memory_order_relaxed); }
    void make(Move m) {
        pos_.do_move(m, states_[ply_++]);
        if (++unflushed_ >= FLUSH) flush();
    }
    void unmake(Move m) {
        pos_.undo_move(m);
        --ply_;
    }

    // The side to move plays the first of `plies` half-moves; each line that
    // ends on the diagram goes to on_solution. True when there is one.
    // `need`: each side's count in the position before the last half-move.
    bool search(int plies, const int parent_need[COLOR_NB]) {
        if (stopped()) return false;
        if (plies == 0) {
            if (!bound_.reached(pos_)) return false;
            if (on_solution) on_solution(line);
            return true;
        }
        // A short solution: the diagram reached by the side that makes the last
        // half-move, earlier. The line ends there (Popeye's helpplay reports it so).
        if (!exact_ && plies % 2 == 0 && bound_.reached(pos_)) {
            if (on_solution) on_solution(line);
            return true;
        }
        int need[COLOR_NB] = {parent_need[WHITE], parent_need[BLACK]};
        const bool recount = parent_need[WHITE] < 0 || pos_.captured_piece() || bound_.pushes();
        if (!bound_.feasible(pos_, plies, need, recount)) return false;
        PositionCode code;
        // Near the leaves the bound prunes as well as the table would, and a
        // probe (a cache miss in a large table) costs more than the search it saves.
        const bool stored = plies >= MIN_TABLE_PLIES && plies < TABLE_PLIES && encode(pos_, code);
        Proven known;
        if (stored && shared_.table.probe(pos_.key(), code, known) && (known.help_fail >> plies & 1)) return false;
        MoveList list;
        generate_legal(pos_, list);
        bool found = false;
        for (Move m : list) {
            make(m);
            line.push_back(m);
            found = search(plies - 1, need) || found;
            line.pop_back();
            unmake(m);
            if (stopped()) return found;
        }
        // Only a finished search proves that nothing is there.
        if (!found && stored) shared_.table.store_help_fail(pos_.key(), code, plies);
        return found;
    }

    std::vector<Move> line;
    std::function<void(const std::vector<Move>&)> on_solution;

private:
    void flush() {
        if (!unflushed_) return;
        const std::uint64_t total = shared_.nodes.fetch_add(unflushed_, std::memory_order_relaxed) + unflushed_;
        unflushed_ = 0;
        if (shared_.max_nodes && total >= shared_.max_nodes) shared_.halt(Status::NodeLimit);
    }

    const ProofBound& bound_;
    Shared& shared_;
    bool exact_;
    StateInfo root_state_;
    Position pos_;
    StateInfo states_[MAX_PLY + 2];
    int ply_ = 0;
    std::uint64_t unflushed_ = 0;
};

// The first moves shared out by the RootRunner, as for the other stipulations.
class ProofDriver {
public:
    ProofDriver(const Problem& p, const Options& o, Position& root, const ProofBound& bound, Result& r)
        : problem_(p),
          options_(o),
          root_(root),
          bound_(bound),
          result_(r),
          shared_(table_megabytes(o, p.stipulation.plies())) {
        shared_.max_nodes = o.max_nodes;
        shared_.max_solutions = o.max_solutions;
    }

    void run() {
        const auto t0 = Clock::now();
        generate_legal(root_, first_);
        lines_.resize(first_.size());
        done_.assign(first_.size(), 0);
        result_.first_moves = first_.size();
        RootRunner runner(options_, shared_, first_.size());
        result_.threads = runner.threads();
        runner.run([&] { work(runner); });
        for (int i = 0; i < first_.size(); ++i) {
            if (done_[i]) ++result_.first_moves_done;
            for (const auto& l : lines_[i]) {
                if (options_.max_solutions > 0 && int(result_.solutions.size()) >= options_.max_solutions) break;
                result_.solutions.push_back(help_line(root_, l));
            }
        }
        result_.status = Status(shared_.reason.load());
        result_.nodes = shared_.nodes.load();
        result_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    }

private:
    void work(RootRunner& runner) {
        ProofSearch search(root_, bound_, shared_, problem_.stipulation.exact);
        StateInfo root_state;
        Position root;  // this thread's copy of the start, to write what it finds
        root_.copy_to(root, root_state);
        const int plies = problem_.stipulation.plies();
        for (int i; (i = runner.next()) >= 0;) {
            search.on_solution = [&](const std::vector<Move>& line) { runner.help_solution(root, lines_[i], line); };
            const Move m = first_.moves[i];
            search.make(m);
            search.line.assign(1, m);
            const int unknown[COLOR_NB] = {-1, -1};
            search.search(plies - 1, unknown);
            search.unmake(m);
            if (!search.stopped()) {
                done_[i] = 1;
                runner.finished();
            }
        }
    }

    const Problem& problem_;
    const Options& options_;
    Position& root_;
    const ProofBound& bound_;
    Result& result_;
    Shared shared_;
    MoveList first_;
    std::vector<std::vector<std::vector<Move>>> lines_;  // per first move, its solutions in order found
    std::vector<char> done_;  // bytes, not vector<bool>'s shared bits: each first move is one thread's
};

}  // namespace

Result solve_proof_game(const Problem& problem, const Options& options) {
    Result result;
    result.problem = problem;
    const Stipulation& st = problem.stipulation;
    const int plies = st.plies();
    if (plies < 1) throw ProblemError(st.str() + ": at least one half-move");
    // dia: from the game's initial position to the diagram; a=>b: from a to b.
    const std::string start_fen =
        st.atob ? fen_with_side(problem.fen, st.starts(), false) : std::string(variant_info(problem.variant).start_fen);
    const std::string& target_text = st.atob ? problem.target : problem.fen;
    if (target_text.empty()) throw ProblemError(st.str() + ": the position b to reach is missing");
    // The diagram as it stands after the last half-move (its side to move then).
    const Color last_side = plies % 2 ? ~st.starts() : st.starts();
    StateInfo start_state, target_state;
    Position start, target;
    try {
        start.set(problem.variant, start_fen, start_state);
    } catch (const FenError& e) {
        throw ProblemError(std::string(st.atob ? "position a: " : "") + e.what());
    }
    try {
        target.set(problem.variant, fen_with_side(target_text, last_side, true), target_state);
    } catch (const FenError& e) {
        // Legal only with the other side to move: the side that has just
        // moved would be in check, so no game ends there (Popeye: no solution).
        StateInfo other_state;
        Position other;
        try {
            other.set(problem.variant, fen_with_side(target_text, ~last_side, true), other_state);
        } catch (const FenError&) {
            throw ProblemError(std::string(st.atob ? "position b: " : "the diagram: ") + e.what());
        }
        result.fen = st.atob ? start.fen() : other.fen();
        result.note = st.str() + ": the diagram cannot arise after the last half-move (" + e.what() + ")";
        return result;
    }
    result.fen = st.atob ? start.fen() : target.fen();
    if (st.atob) result.note = st.str() + ": to " + target.fen();
    const ProofBound bound(problem.variant, target);
    ProofDriver(problem, options, start, bound, result).run();
    return result;
}

}  // namespace echecs::solver

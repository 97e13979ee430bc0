#include "solver/solver.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <sstream>

#include "core/movegen.h"
#include "solver/notation.h"
#include "solver/proofgame.h"
#include "solver/root_runner.h"
#include "solver/search.h"
#include "solver/tree.h"

namespace echecs::solver {

std::string_view status_name(Status s) {
    switch (s) {
        case Status::Timeout: return "timeout";
        case Status::Cancelled: return "cancelled";
        case Status::NodeLimit: return "node limit";
        case Status::MaxSolutions: return "max solutions";
        default: return "complete";
    }
}

namespace {

using Clock = std::chrono::steady_clock;

// The diagram with the side to move of the stipulation. A FEN's en-passant
// square belongs to the side it names, so it goes when the side changes.
std::string diagram_fen(const Problem& p, std::string& note) {
    std::istringstream in(p.fen);
    std::string fields[6];
    int n = 0;
    while (n < 6 && in >> fields[n]) ++n;
    if (n < 2) return p.fen;  // Position::set says what is wrong
    const std::string side = p.stipulation.starts() == WHITE ? "w" : "b";
    if (fields[1] == side) return p.fen;
    if (fields[1] != "w" && fields[1] != "b") return p.fen;
    note = p.stipulation.str() + ": " + (side == "w" ? "White" : "Black") + " moves first; the FEN's side to move '" +
           fields[1] + "' is replaced";
    fields[1] = side;
    if (n >= 4) fields[3].assign(1, '-');
    std::string out;
    for (int i = 0; i < n; ++i) {
        if (i) out += ' ';
        out += fields[i];
    }
    return out;
}

struct RootResult {
    bool done = false;
    bool key = false;
    bool is_try = false;
    int order = 0;  // a key: how many keys had been found, this one included
    AttackLine line;
    std::vector<std::vector<Move>> help;  // help play: the solutions through this first move
};

// The proof table's size. A search of at most three half-moves (#2, s#2,
// h#1.5) stores a few thousand positions, which a 64 MiB table would scatter
// over as many fresh pages, each costing a page fault (about a third of an
// `echecs solve` of a #2): such problems get 1 MiB. The size changes only the speed.
std::size_t table_megabytes(const Problem& p, const Options& o) {
    return p.stipulation.plies() <= 3 ? std::min<std::size_t>(o.hash_megabytes, 1) : o.hash_megabytes;
}

class Driver {
public:
    Driver(const Problem& p, const Options& o, Position& root, Result& r)
        : problem_(p), options_(o), root_(root), result_(r), shared_(table_megabytes(p, o)), started_(Clock::now()) {
        shared_.max_nodes = o.max_nodes;
        shared_.max_solutions = o.max_solutions;
    }

    void run() {
        const auto t0 = Clock::now();
        generate_legal(root_, first_);
        add_goal_moves();
        roots_.resize(first_.size());
        result_.first_moves = first_.size();
        if (problem_.stipulation.post_key) {
            post_key_play();
        } else {
            const Stipulation& st = problem_.stipulation;
            if (st.play == Play::Reflex || st.play == Play::SeriesReflex ||
                (st.play == Play::HelpReflex && st.plies() % 2 == 0))
                note_bound_attacker();
            // hr#n.5: Black, able to mate in the diagram, must: those moves are all the solutions.
            if (st.play == Play::HelpReflex && st.plies() % 2 == 1)
                reflex_root_ = Search(root_, st, shared_).can_reach_goal();
            list_problem_targets();
            if (!solved_by_probe_) {
                const Options left = time_left();
                RootRunner runner(left, shared_, first_.size());
                result_.threads = runner.threads();
                runner.run([&] { work(runner, shared_); });
                result_.first_moves_done = runner.finished_count();
            }
        }

        // The set play on the runner too: its time limit and cancel flag (a set
        // play took minutes past --timeout without it).
        if (!shared_.stop.load() && options_.set_play && !problem_.stipulation.post_key) {
            const Options left = time_left();
            RootRunner runner(left, shared_, 1);
            runner.run([&] {
                if (runner.next() == 0) set_play();
            });
        }
        collect();
        result_.status = Status(shared_.reason.load());
        result_.nodes = shared_.nodes.load();
        result_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    }

private:
    void work(RootRunner& runner, Shared& shared) {
        Search search(root_, problem_.stipulation, shared);
        if (targets_) search.set_targets(&*targets_);
        TreeBuilder tree(search, options_);
        // This thread's copy of the diagram, to write the solutions it finds.
        StateInfo root_state;
        Position root;
        root_.copy_to(root, root_state);
        for (int i; (i = runner.next()) >= 0;) {
            if (problem_.stipulation.series())
                series_root(search, runner, root, i);
            else if (problem_.stipulation.help())
                help_root(search, runner, root, i);
            else
                battle_root(search, tree, runner, i);
            if (roots_[i].done) runner.finished();
        }
    }

    // postkeyplay: the diagram is the position after the key; its play is
    // written as a key's (threat, variations, refutations), on one thread,
    // the runner keeping the time limit and the cancel flag.
    void post_key_play() {
        RootRunner runner(options_, shared_, 1);
        result_.threads = runner.threads();
        runner.run([&] {
            if (runner.next() != 0) return;
            Search s(root_, problem_.stipulation, shared_);
            Options o = options_;
            o.variations = true;  // the play is the answer
            TreeBuilder tree(s, o);
            AttackLine node;
            tree.attack_node(node, problem_.stipulation.moves - 1);
            if (s.stopped()) return;
            result_.post_key = std::move(node);
            runner.finished();
        });
        result_.first_moves_done = runner.finished_count() ? result_.first_moves : 0;
    }

    // ## and ##!: the diagram's self-checking moves that reach the goal, when
    // the side to move is the one to reach it (the attacker in direct play,
    // help play's last mover when the half-moves are odd, the series side).
    void add_goal_moves() {
        const Stipulation& st = problem_.stipulation;
        if (!self_check_goal(st.goal) || st.post_key) return;
        if (!(st.play == Play::Direct || (st.play == Play::Help && st.plies() % 2 == 1) ||
              (st.play == Play::Series && st.moves == 1)))
            return;
        Search s(root_, st, shared_);
        MoveList checks;
        s.add_self_checks(checks);
        for (Move m : checks) {
            s.make(m);
            if (s.goaled()) first_.push(m);
            s.unmake(m);
        }
    }

    // r#: an attacker that can reach the goal at once must, and has lost
    // (Popeye prints such a move with "?!?"): no first move is a key. ser-r#:
    // likewise the series side, at its first move as at every other.
    void note_bound_attacker() {
        Search s(root_, problem_.stipulation, shared_);
        std::string moves;
        MoveList all = first_;
        s.add_self_checks(all);  // ##, ##!
        for (Move m : all) {
            const std::string text = problem_notation(s.pos(), m);
            s.make(m);
            if (s.goaled()) moves += (moves.empty() ? "1." : ", 1.") + text;
            s.unmake(m);
        }
        if (moves.empty()) return;
        bound_ = true;
        if (!result_.note.empty()) result_.note += "; ";
        result_.note += problem_.stipulation.str() + ": the attacker must reach the goal at once (" + moves +
                        "), so there is no solution";
    }

    void battle_root(Search& s, TreeBuilder& tree, RootRunner& runner, int i) {
        const Move m = first_.moves[i];
        const int k = problem_.stipulation.moves - 1;
        RootResult& r = roots_[i];
        if (bound_) {
            r.done = true;
            return;
        }
        r.line.move = tree.played(m);
        s.make(m);
        const bool key = s.after_attack(k);
        if (key) {
            // A proven key counts even if the search stops while its play is written.
            r.key = true;
            r.done = true;
            const int count = r.order = shared_.count_solution();
            // Keys past the maximum are dropped; the last one kept gets its play before the search stops.
            if (options_.max_solutions == 0 || count <= options_.max_solutions) {
                // Direct play: its play for the fewest moves it wins in, as Popeye
                // writes a short key's, so no threat longer than that (selfplay:
                // the whole length, as Popeye's "s#2 with short solution").
                int len = s.direct() && !problem_.stipulation.exact ? 0 : k;
                while (len < k && !s.after_attack(len)) ++len;
                tree.attack_node(r.line, len);
                runner.report(&r.line, nullptr);
            }
            shared_.check_max_solutions(count);
        } else if (!s.stopped()) {
            if (options_.tries && tree.count_refutations(k, 2) == 1 && !s.stopped()) {
                r.is_try = true;
                tree.attack_node(r.line, k);
            }
            r.done = !s.stopped();
        }
        s.unmake(m);
    }

    // exact-: a short solution is none. A solution's half-moves, the series'
    // passes included, are the stipulation's (reci-h: Black's own line one fewer).
    bool full_length(const std::vector<Move>& line) const {
        const Stipulation& st = problem_.stipulation;
        const bool reci = st.play == Play::ReciHelp || st.play == Play::SeriesReciHelp;
        return !st.exact || int(line.size()) >= st.plies() - (reci ? 1 : 0);
    }

    void help_root(Search& s, RootRunner& runner, Position& root, int i) {
        const Move m = first_.moves[i];
        const int plies = problem_.stipulation.plies();
        RootResult& r = roots_[i];
        // reci-h with Black's part to move in the diagram: its two lines may
        // end here (the solution of reci-h#1, a short one of a longer reci-h),
        // which only the whole position can say: the first root's work.
        const bool reci_root = problem_.stipulation.play == Play::ReciHelp && plies % 2 == 0;
        s.on_solution = [&](const std::vector<Move>& line) {
            if (full_length(line)) runner.help_solution(root, r.help, line, problem_.stipulation.goal);
        };
        if (bound_ || reflex_root_) {  // hr#: the side to move in the diagram must reach the goal
            if (reflex_root_ && i == 0) {
                s.line.clear();
                s.reflex_end();
            }
            r.done = !s.stopped();
            return;
        }
        if (reci_root && i == 0) {
            s.line.clear();
            s.reci_end();
        }
        if (reci_root && plies == 2) {
            r.done = !s.stopped();
            return;
        }
        s.make(m);
        s.line.assign(1, m);
        s.after_help_move(plies);
        r.done = !s.stopped();
        s.unmake(m);
    }

    // Orthodox h#n, ser-h#n, ser-#n and their stalemates (n >= INTELLIGENT_FROM moves): the final
    // positions within reach first, then the usual search, first move by first move, pruning
    // each node from which none is within reach (Search::set_targets): the same solutions in
    // the same order. Not when there are too many (the plain search then).
    static constexpr int INTELLIGENT_FROM = 2;
    static constexpr std::size_t MAX_TARGETS = 200000;
    // Auto: beyond this many, the plain search was the faster on Popeye's
    // examples (each node filters its list of targets). 12,000 until the
    // filter got cheaper: 40,000 put intell.inp 40 (h#3) at 1.8x Popeye's
    // time instead of 2.8x, and cost short problems with many targets a few
    // hundredths (ep.inp 9: 0.08 s instead of 0.02 s; Popeye 0.02 s).
    static constexpr std::size_t AUTO_TARGETS = 40000;
    // A stalemate's target places every man of its side, so few stay within
    // reach (hpint.inp 107: 34,792 targets, 2.3 s; the plain search over 20 s).
    static constexpr std::size_t AUTO_STALEMATE_TARGETS = 40000;
    static bool by_targets(Goal g) { return g == Goal::Mate || g == Goal::Stalemate; }
    // The targets place both kings (a problem without one, nowk/nobk: the plain search).
    static bool both_kings(const Position& pos) { return pos.has_king(WHITE) && pos.has_king(BLACK); }

    // Auto: many targets may still go with a small plain search (ep.inp 9,
    // h#3: 14,787 targets, 3,896 plain nodes; 5x Popeye's time by targets).
    // Past PROBE_TARGETS, the plain search runs first, on one thread, up to
    // PROBE_NODES nodes (about 10 ms); if it ends there, it is the answer.
    static constexpr std::size_t PROBE_TARGETS = 1500;
    static constexpr std::uint64_t PROBE_NODES = 6000;

    std::size_t target_limit() const {
        if (options_.intelligent == Options::Intelligent::Always) return MAX_TARGETS;
        return problem_.stipulation.goal == Goal::Stalemate ? AUTO_STALEMATE_TARGETS : AUTO_TARGETS;
    }

    // The targets of the problem's goal; false: more than `limit`.
    bool list_targets(const Position& pos, Color mated, int w, int b, std::vector<Target>& out,
                      std::size_t limit) const {
        const std::function<bool()> stop = [this] { return must_stop(); };
        if (problem_.stipulation.goal == Goal::Stalemate) return stalemate_targets(pos, mated, w, b, out, limit, stop);
        return mate_targets(pos, mated, w, b, out, limit, stop);
    }

    // The caller's limits as the listing of targets sees them: the time
    // limit from the start of the solve, and the cancel flag.
    bool must_stop() const {
        if (options_.cancel && options_.cancel->load()) return true;
        return options_.timeout_seconds > 0 &&
               std::chrono::duration<double>(Clock::now() - started_).count() >= options_.timeout_seconds;
    }
    // After a listing that must_stop() cut short: the solve stops, as a search would.
    void stop_if_late() {
        if (!solved_by_probe_ && must_stop())
            shared_.halt(options_.cancel && options_.cancel->load() ? Status::Cancelled : Status::Timeout);
    }
    // The options with the time limit less what the listing took, for the searches after it.
    Options time_left() const {
        Options o = options_;
        if (o.timeout_seconds > 0)
            o.timeout_seconds =
                std::max(1e-3, o.timeout_seconds - std::chrono::duration<double>(Clock::now() - started_).count());
        return o;
    }

    // The plain search up to PROBE_NODES nodes, its solutions kept quiet
    // until it has ended. True: it ended (or stopped on another limit), and
    // its solutions are the answer, reported now.
    bool plain_probe() {
        if (options_.max_nodes && options_.max_nodes <= PROBE_NODES) return false;
        Options o = time_left();
        o.found = nullptr;
        o.progress = nullptr;
        o.threads = 1;
        Shared probe(1);
        probe.max_nodes = PROBE_NODES;
        probe.max_solutions = options_.max_solutions;
        RootRunner runner(o, probe, first_.size());
        runner.run([&] { work(runner, probe); });
        shared_.nodes += probe.nodes.load();
        const Status why = Status(probe.reason.load());
        if (why == Status::NodeLimit) {
            roots_.assign(first_.size(), RootResult{});
            return false;
        }
        if (why != Status::Complete) shared_.halt(why);
        for (const RootResult& r : roots_)
            for (const auto& line : r.help) {
                const int count = shared_.count_solution();
                if (options_.found && (options_.max_solutions == 0 || count <= options_.max_solutions)) {
                    const HelpLine h = help_line(root_, line, problem_.stipulation.goal);
                    options_.found(nullptr, &h);
                }
            }
        result_.threads = 1;
        result_.first_moves_done = runner.finished_count();
        solved_by_probe_ = true;
        return true;
    }

    // Lists the problem's targets into targets_ when it is searched by them.
    void list_problem_targets() {
        const Stipulation& st = problem_.stipulation;
        const VariantInfo& rules = variant_info(root_.variant());
        using I = Options::Intelligent;
        // reci-h: the targets of its help line (its mate by the other side, `goal`); the search
        // tests Black's own line where the two part (Search::reci_end).
        const bool help = st.play == Play::Help || st.play == Play::ReciHelp;
        const bool series = st.play == Play::SeriesHelp || st.play == Play::Series;
        if (options_.intelligent == I::Never || (options_.intelligent == I::Auto && st.moves < INTELLIGENT_FROM) ||
            !(help || series) || !by_targets(st.goal) || rules.boards != 1 || rules.has_pushes || !both_kings(root_))
            return;
        const int plies = st.plies();
        // h#: the last mover mates; ser-h#: the series side is mated by one move; ser-#: it mates.
        const Color stm = root_.side_to_move();
        const Color mated = help ? (plies % 2 ? ~stm : stm) : st.play == Play::SeriesHelp ? stm : ~stm;
        const int w = help ? (plies + 1) / 2 : st.play == Play::SeriesHelp ? 1 : st.moves;
        const int b = help ? plies / 2 : st.play == Play::SeriesHelp ? st.moves : 0;
        std::vector<Target> targets;
        if (options_.intelligent == I::Auto && !list_targets(root_, mated, w, b, targets, PROBE_TARGETS) &&
            (must_stop() || plain_probe()))
            return stop_if_late();
        if (!list_targets(root_, mated, w, b, targets, target_limit())) return stop_if_late();
        result_.targets = targets.size();
        result_.stalemate_targets = st.goal == Goal::Stalemate;
        targets_ = std::move(targets);
    }

    // h#'s set play (the search after a pass, `plies` left) by its targets.
    // False: the plain search.
    bool set_play_by_targets(Search& s, int plies) {
        using I = Options::Intelligent;
        const Stipulation& st = problem_.stipulation;
        const VariantInfo& rules = variant_info(root_.variant());
        if (options_.intelligent == I::Never || (options_.intelligent == I::Auto && st.moves < INTELLIGENT_FROM) ||
            st.play != Play::Help || !by_targets(st.goal) || rules.boards != 1 || rules.has_pushes ||
            !both_kings(root_))
            return false;
        Position& pos = s.pos();
        const Color mated = plies % 2 ? ~pos.side_to_move() : pos.side_to_move();
        std::vector<Target> targets;
        if (!list_targets(pos, mated, (plies + 1) / 2, plies / 2, targets, target_limit())) {
            stop_if_late();
            return false;
        }
        s.set_targets(&targets);
        s.line.clear();
        s.help(plies);
        s.set_targets(nullptr);
        return true;
    }

    void series_root(Search& s, RootRunner& runner, Position& root, int i) {
        const Move m = first_.moves[i];
        RootResult& r = roots_[i];
        if (bound_) {
            r.done = true;
            return;
        }
        s.on_solution = [&](const std::vector<Move>& line) {
            if (full_length(line)) runner.help_solution(root, r.help, line, problem_.stipulation.goal);
        };
        // ser-reci-h1: the diagram's whole position says it (the first root's work).
        if (problem_.stipulation.play == Play::SeriesReciHelp && problem_.stipulation.moves == 1) {
            if (i == 0) {
                s.line.clear();
                s.reci_end();
            }
            r.done = !s.stopped();
            return;
        }
        s.make(m);
        s.line.assign(1, m);
        if (problem_.stipulation.play == Play::ParrySeries || problem_.stipulation.play == Play::ParrySeriesSelf) {
            // pser-#n, pser-s#n: a first move that wins within n, with its play line by line.
            if (s.after_attack(problem_.stipulation.moves - 1)) s.parry_lines(problem_.stipulation.moves - 1);
        } else if (problem_.stipulation.play == Play::ParrySeriesHelp)
            s.after_parry_move(problem_.stipulation.moves);
        else
            s.after_series_move(problem_.stipulation.moves);
        r.done = !s.stopped();
        s.unmake(m);
    }

    void set_play() {
        const Play play = problem_.stipulation.play;
        // Series play's set play is its end with the other side first, as in Popeye:
        // ser-h# "1...Qd1-d8#", ser-s# and ser-r# Black mating at once ("1...d3-d2#"),
        // ser-hs# White's move that binds Black. ser-# and ser-= have none (Popeye:
        // "not applicable"), nor reci-h here.
        if (play == Play::Series || play == Play::ParrySeries || play == Play::HelpParrySeries) {
            if (!result_.note.empty()) result_.note += "; ";
            result_.note += problem_.stipulation.str() + ": set play is not applicable (Popeye ignores it too)";
            return;
        }
        if (play == Play::ReciHelp || play == Play::SeriesReciHelp) return;
        const bool series_end = problem_.stipulation.series();
        Search s(root_, problem_.stipulation, shared_);
        // The lines found with the other side to move first, written from the diagram.
        const auto lines_after_a_pass = [&](const auto& search) {
            std::vector<std::vector<Move>> lines;
            // At most max_solutions of them, as the play's own (each is kept until written).
            s.on_solution = [&](const std::vector<Move>& line) {
                if (options_.max_solutions == 0 || int(lines.size()) < options_.max_solutions) lines.push_back(line);
            };
            s.make_null();
            s.line.clear();
            search();
            s.unmake_null();
            for (auto& l : lines) {
                StateInfo st;
                root_.do_null_move(st);
                result_.set_solutions.push_back(help_line(root_, l, problem_.stipulation.goal));
                root_.undo_null_move();
            }
        };
        if (series_end) {
            if (!root_.in_check()) lines_after_a_pass([&] { s.series_end(); });
            return;
        }
        if (!problem_.stipulation.help()) {
            TreeBuilder tree(s, options_);
            result_.set_play = tree.set_play(problem_.stipulation.moves);
            return;
        }
        // Helpplay: the other side first, one half-move shorter; an orthodox
        // h# by its final positions as the play itself (list_problem_targets).
        const int plies = problem_.stipulation.plies() - 1;
        if (plies < 1 || root_.in_check()) return;
        lines_after_a_pass([&] {
            if (!set_play_by_targets(s, plies)) s.help(plies);
        });
    }

    void collect() {
        for (auto& r : roots_) {
            if (r.key) {
                if (options_.max_solutions == 0 || r.order <= options_.max_solutions)
                    result_.keys.push_back(std::move(r.line));
            } else if (r.is_try)
                result_.tries.push_back(std::move(r.line));
            for (auto& l : r.help) {
                if (options_.max_solutions > 0 && int(result_.solutions.size()) >= options_.max_solutions) break;
                result_.solutions.push_back(help_line(root_, l, problem_.stipulation.goal));
            }
        }
    }

    const Problem& problem_;
    const Options& options_;
    Position& root_;
    Result& result_;
    Shared shared_;
    MoveList first_;
    std::vector<RootResult> roots_;
    const Clock::time_point started_;
    bool solved_by_probe_ = false;                // plain_probe found the whole answer
    bool bound_ = false;                          // r#, ser-r#, hr#: the attacker must reach the goal at its first move
    bool reflex_root_ = false;                    // hr#n.5: Black must reach the goal at its first move
    std::optional<std::vector<Target>> targets_;  // the final positions searched towards (list_problem_targets)
};

}  // namespace

Result solve(const Problem& problem, const Options& options) {
    if (problem.stipulation.proof()) return solve_proof_game(problem, options);
    Result result;
    result.problem = problem;
    // A pass leaves the Avalanche rules: a pawn pushed onto its owner's last
    // rank must be chosen at its owner's next move (RULES.md), which a pass skips.
    if (self_check_goal(problem.stipulation.goal) && problem.variant == Variant::Avalanche)
        throw ProblemError(problem.stipulation.str() + ": " + AVALANCHE_SELF_CHECK);
    if (problem.stipulation.series() && problem.variant == Variant::Avalanche)
        throw ProblemError(problem.stipulation.str() +
                           ": series play is not defined in Avalanche chess (the passing side could not make its "
                           "pending promotion choice)");
    const std::string fen = diagram_fen(problem, result.note);
    StateInfo st;
    Position root;
    try {
        root.set(problem.variant, fen, st, problem.kings);
    } catch (const FenError& e) {
        throw ProblemError(e.what());
    }
    apply_retro_rules(problem, root);
    result.fen = root.fen();
    Driver(problem, options, root, result).run();
    return result;
}

void apply_retro_rules(const Problem& problem, Position& pos) {
    for (auto [white_rook, black_rook] : problem.exclusive_castlings) pos.exclude_castlings(white_rook, black_rook);
}

}  // namespace echecs::solver

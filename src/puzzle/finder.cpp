// The puzzle criteria, the checking search and the solution line.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "core/game.h"
#include "core/notation.h"
#include "engine/evaluate.h"
#include "engine/search.h"
#include "puzzle.h"
#include "themes.h"

namespace echecs::puzzle {

using engine::Searcher;
using engine::SearchInfo;
using engine::TranspositionTable;

struct Finder::Engines {
    TranspositionTable scan_tt{16};
    Searcher scan{scan_tt};
    TranspositionTable verify_tt{16};
    Searcher verify{verify_tt};
};

namespace {

// MultiPV-2 lines of the last completed iteration, best first. A fixed node
// budget on one thread: the same answer on any machine, under any load.
std::vector<Finder::Line> search_lines(Searcher& s, Position& pos, std::uint64_t nodes) {
    engine::Limits limits;
    limits.nodes = nodes;
    engine::SearchOptions opt;
    // The hand-written evaluation, not the game's network: a retrained
    // network changes the verdicts, and the shipped files must keep
    // holding under `puzzles check`.
    opt.weights = engine::hand_written_weights_ptr(pos.variant());
    opt.multipv = 2;
    opt.analyse = true;  // both lines even when a mate is found early
    MoveList legal;
    generate_legal(pos, legal);
    const int expected = std::min(2, legal.count);
    std::vector<Finder::Line> building, last;
    s.run(pos, limits, opt, nullptr, [&](const SearchInfo& i) {
        if (i.kind != SearchInfo::Kind::Line || i.pv.empty()) return;
        if (i.multipv == 1) building.clear();
        building.push_back({i.pv.front(), i.score, i.pv});
        if (int(building.size()) == expected) last = building;
    });
    return last;
}

bool mate_for(int score) { return score >= engine::VALUE_MATE_IN_MAX_PLY; }
bool mate_against(int score) { return score <= -engine::VALUE_MATE_IN_MAX_PLY; }

bool solver_wins(const Game& g, Color solver) {
    const GameResult r = const_cast<Game&>(g).result();
    return (r.outcome == Outcome::WhiteWins && solver == WHITE) || (r.outcome == Outcome::BlackWins && solver == BLACK);
}

}  // namespace

Finder::Finder(const Criteria& c) : c_(c), e_(std::make_unique<Engines>()) { Position::init(); }
Finder::~Finder() = default;

void Finder::new_game() {
    e_->scan_tt.clear();
    e_->scan.clear();
}

std::vector<Finder::Line> Finder::scan(Variant v, const std::string& fen) {
    Game g(v, fen);
    return search_lines(e_->scan, g.position(), c_.scan_nodes);
}

bool Finder::passes(const std::vector<Line>& lines, bool loose) const {
    // One legal move is no puzzle: there is nothing to find.
    if (lines.size() < 2) return false;
    const int best = lines[0].score, second = lines[1].score;
    if (mate_for(second) || mate_against(best)) return false;
    if (!loose) return (mate_for(best) || best >= c_.win_cp) && second <= c_.fail_cp;
    // The scan's shallow scores are rough: let through what the deeper search may confirm.
    return (mate_for(best) || best >= c_.win_cp * 2 / 3) && second <= c_.fail_cp + 150 && best - second >= 150;
}

std::optional<Puzzle> Finder::examine(Variant v, const std::string& fen, Square last_capture, bool scan_first) {
    if (scan_first && !passes(scan(v, fen), true)) return std::nullopt;

    // The verification: a deeper search from a fresh table, so that
    // `puzzles check` reaches the same verdict from the file alone.
    auto verify = [&](Position& pos) {
        e_->verify_tt.clear();
        e_->verify.clear();
        return search_lines(e_->verify, pos, c_.verify_nodes);
    };
    Game game(v, fen);
    const Color solver = game.position().side_to_move();
    const std::vector<Line> lines = verify(game.position());
    if (!passes(lines, false)) return std::nullopt;
    const Move first = lines[0].move;
    const bool mate = mate_for(lines[0].score);
    const int mate_in = mate ? engine::mate_moves(lines[0].score) : 0;
    if (mate && mate_in > c_.max_mate) return std::nullopt;
    // Taking back what the opponent just took is found by anyone.
    if (!mate && last_capture != SQ_NONE && game.position().is_capture(first) && first.to() == last_capture)
        return std::nullopt;

    Puzzle p;
    p.variant = v;
    p.fen = fen;
    p.themes = themes_of(game.position(), first);
    if (!game.play(first)) return std::nullopt;
    p.solution.push_back(to_uci(first));

    if (mate) {
        // The mating line with the defender's best replies: the verified PV
        // as far as it goes, then searched move by move.
        std::vector<Move> pv = lines[0].pv;
        for (int ply = 1; ply < 2 * mate_in - 1; ++ply) {
            if (game.result().over()) break;
            Move m = ply < int(pv.size()) ? pv[ply] : Move::none();
            if (!m || !game.is_legal(m)) {
                const std::vector<Line> l = verify(game.position());
                if (l.empty()) return std::nullopt;
                m = l[0].move;
                pv.clear();
            }
            game.play(m);
            p.solution.push_back(to_uci(m));
        }
        // A mate in n must be mate after the n-th move; any other claim is dropped.
        if (!solver_wins(game, solver) || int(p.solution.size()) != 2 * mate_in - 1) return std::nullopt;
        // A mate is not told as a fork: the mate is the point.
        std::erase(p.themes, std::string("fork"));
        p.themes.insert(p.themes.begin(), "mate");
        p.themes.insert(p.themes.begin() + 1, "mateIn" + std::to_string(mate_in));
    } else {
        // 1-3 moves of the solver: the line goes on while the defender's
        // best reply leaves the solver again one winning move only.
        for (int moves = 1; moves < c_.max_solver_moves; ++moves) {
            if (game.result().over()) break;
            const std::vector<Line> reply = verify(game.position());
            if (reply.empty()) break;
            if (!game.play(reply[0].move)) break;
            if (game.result().over()) {
                game.undo();
                break;
            }
            const std::vector<Line> next = verify(game.position());
            if (!passes(next, false) || mate_for(next[0].score)) {
                game.undo();
                break;
            }
            game.play(next[0].move);
            p.solution.push_back(to_uci(reply[0].move));
            p.solution.push_back(to_uci(next[0].move));
        }
    }
    p.id = puzzle_id(v, fen);
    p.rating = rating_seed(p, mate_in);
    return p;
}

std::string puzzle_id(Variant v, const std::string& fen) {
    // FNV-1a of the position without its move counters.
    std::string key = fen;
    for (int spaces = 0, i = 0; i < int(key.size()); ++i)
        if (key[i] == ' ' && ++spaces == 4) key.resize(i);
    std::uint64_t h = 1469598103934665603ULL;
    for (char ch : key) h = (h ^ std::uint8_t(ch)) * 1099511628211ULL;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", unsigned(h ^ (h >> 32)));
    const char letter = v == Variant::Chess ? 'c' : v == Variant::Alice ? 'a' : 'v';
    return letter + std::string(buf);
}

}  // namespace echecs::puzzle

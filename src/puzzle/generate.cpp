// Puzzles from self-play games or a PGN file, in a reproducible order.
#include "generate.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "core/game.h"
#include "core/notation.h"
#include "core/pgn.h"
#include "core/prng.h"
#include "puzzle_file.h"

namespace echecs::puzzle {

namespace {

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// Puzzles from the positions of a game played so far: each position is
// scanned, the candidates verified. `next` chooses the move to play on.
template <class Next>
std::vector<Puzzle> walk(Finder& f, const GenerateOptions& o, Game& game, const std::string& source, int max_plies,
                         Next next, std::int64_t* positions, std::int64_t* candidates) {
    std::vector<Puzzle> found;
    Square last_capture = SQ_NONE;
    int cooldown = 0;  // a won position gives puzzles at every move: keep the first
    for (int ply = int(game.moves().size()); ply < max_plies; ++ply) {
        if (game.result().over()) break;
        const std::string fen = game.position().fen();
        const std::vector<Finder::Line> lines = f.scan(o.variant, fen);
        if (lines.empty()) break;
        ++*positions;
        if (cooldown > 0) {
            --cooldown;
        } else if (f.passes(lines, true)) {
            ++*candidates;
            if (auto p = f.examine(o.variant, fen, last_capture, false)) {
                p->source = source + " ply " + std::to_string(ply + 1);
                found.push_back(std::move(*p));
                cooldown = 6;
                if (int(found.size()) >= o.max_per_game) break;
            }
        }
        const Move m = next(lines[0].move);
        if (!m) break;
        last_capture = game.position().is_capture(m) ? m.to() : SQ_NONE;
        if (!game.play(m)) break;
    }
    return found;
}

}  // namespace

std::vector<Puzzle> selfplay_game_puzzles(Finder& f, const GenerateOptions& o, std::int64_t index,
                                          std::int64_t* positions, std::int64_t* candidates) {
    f.new_game();
    Prng rng{splitmix(o.seed ^ splitmix(std::uint64_t(index))) | 1};
    auto random_unit = [&] { return double(rng.rand64() >> 11) / double(1ull << 53); };
    Game game(o.variant);
    MoveList legal;
    for (int i = 0; i < o.random_plies && !game.result().over(); ++i) {
        game.legal_moves(legal);
        game.play(legal.moves[rng.rand64() % std::uint64_t(legal.count)]);
    }
    const std::string source = "selfplay seed " + std::to_string(o.seed) + " game " + std::to_string(index);
    return walk(
        f, o, game, source, o.max_plies,
        [&](Move best) {
            if (random_unit() >= o.random_rate) return best;
            game.legal_moves(legal);
            return legal.moves[rng.rand64() % std::uint64_t(legal.count)];
        },
        positions, candidates);
}

GenerateStats generate(const GenerateOptions& o, std::ostream& out, std::ostream* progress) {
    Position::init();  // before the threads: the tables are shared
    GenerateStats stats;
    std::set<std::string> ids;
    auto keep = [&](std::vector<Puzzle>& ps) {
        for (Puzzle& p : ps) {
            if (stats.puzzles >= o.count || !ids.insert(p.id).second) continue;
            out << to_json_line(p) << '\n' << std::flush;
            ++stats.puzzles;
        }
    };
    auto report = [&] {
        if (progress && stats.games % 10 == 0)
            *progress << "games " << stats.games << ", positions " << stats.positions << ", candidates "
                      << stats.candidates << ", puzzles " << stats.puzzles << std::endl;
    };

    if (!o.from_pgn.empty()) {
        std::ifstream in(o.from_pgn, std::ios::binary);
        if (!in) throw std::runtime_error(o.from_pgn + ": cannot be read");
        std::stringstream text;
        text << in.rdbuf();
        Finder f(o.criteria);
        int n = 0;
        for (const PgnGame& g : read_pgn(text.str())) {
            ++n;
            if (stats.puzzles >= o.count) break;
            std::unique_ptr<Game> full, game;
            try {
                full = start_game(g);
                if (full->variant() != o.variant) continue;
                replay(g, *full);
                game = start_game(g);
            } catch (const std::exception& e) {
                // A game the rules refuse is skipped, not the file.
                if (progress) *progress << "skipped: " << e.what() << "\n";
                continue;
            }
            std::size_t i = 0;
            f.new_game();
            std::vector<Puzzle> ps = walk(
                f, o, *game, o.from_pgn + " game " + std::to_string(n), int(full->moves().size()),
                [&](Move) { return i < full->moves().size() ? full->moves()[i++] : Move::none(); }, &stats.positions,
                &stats.candidates);
            keep(ps);
            ++stats.games;
            report();
        }
        return stats;
    }

    // Self-play: games in batches of `threads`, kept in the order of their
    // index, so that the file does not depend on the thread count.
    const int threads = std::max(1, o.threads);
    std::vector<std::unique_ptr<Finder>> finders;
    for (int t = 0; t < threads; ++t) finders.push_back(std::make_unique<Finder>(o.criteria));
    for (std::int64_t base = 0; stats.puzzles < o.count && base < o.max_games; base += threads) {
        std::vector<std::vector<Puzzle>> found(threads);
        std::vector<std::int64_t> pos(threads), cand(threads);
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back(
                [&, t] { found[t] = selfplay_game_puzzles(*finders[t], o, base + t, &pos[t], &cand[t]); });
        for (auto& w : workers) w.join();
        for (int t = 0; t < threads; ++t) {
            stats.positions += pos[t];
            stats.candidates += cand[t];
            keep(found[t]);
            ++stats.games;
            report();
        }
    }
    return stats;
}

std::string check_puzzle(Finder& f, const Puzzle& p) {
    try {
        Game g(p.variant, p.fen);
        for (const std::string& m : p.solution) g.play_uci(m);
    } catch (const std::exception& e) {
        return std::string("illegal: ") + e.what();
    }
    const std::optional<Puzzle> again = f.examine(p.variant, p.fen, SQ_NONE, false);
    if (!again) return "the verification search does not find one winning move only";
    auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
        return s;
    };
    if (again->solution != p.solution)
        return "solution differs: file '" + join(p.solution) + "', search '" + join(again->solution) + "'";
    if (again->themes != p.themes)
        return "themes differ: file '" + join(p.themes) + "', search '" + join(again->themes) + "'";
    return "";
}

}  // namespace echecs::puzzle

// `echecs selfplay`: training positions for Texel tuning from games of the
// engine against itself at a fixed node count.
#include "selfplay.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/game.h"
#include "core/prng.h"
#include "core/vocabulary.h"
#include "evaluate.h"
#include "nnue.h"
#include "search.h"

namespace echecs::engine {

namespace {

constexpr int MAX_PLIES = 400;     // longer games are drawn
constexpr Value WIN_SCORE = 1000;  // |score| this large for WIN_PLIES plies: a win
constexpr int WIN_PLIES = 6;
constexpr Value DRAW_SCORE = 10;  // |score| this small for DRAW_PLIES plies from DRAW_FROM_PLY: a draw
constexpr int DRAW_PLIES = 12;
constexpr int DRAW_FROM_PLY = 100;
constexpr std::int64_t MAX_RECORD = 20000;  // --record-max: below the mate scores
constexpr Value BALANCED = 300;             // a random opening further from equal is drawn again
constexpr std::uint64_t BALANCE_NODES = 1000;
constexpr int MAX_OPENING_TRIES = 100;  // then the most balanced one is taken
constexpr std::int64_t MAX_RANDOM_PLIES = 200;
constexpr std::int64_t MAX_THREADS = 256;

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// Positions whose score the static evaluation should explain: no capture or
// promotion about to change the material (quiescence would have to resolve it).
bool quiet(const Position& pos, Move m) {
    if (pos.in_check() || pos.is_capture(m) || m.kind() == PROMOTION) return false;
    if (variant_info(pos.variant()).has_pushes) {
        if (pos.pending_promotion() != SQ_NONE) return false;
        // A pawn pushed onto its last rank becomes a pending promotion.
        if (m.has_push() && (rank_of(m.push_to()) == 0 || rank_of(m.push_to()) == 7)) return false;
    }
    return true;
}

struct GameOutput {
    std::string text;
    Outcome outcome = Outcome::Draw;
    int plies = 0;
    int positions = 0;
};

// One worker thread's engine: its own table and searcher, reset before each
// game so that a game depends only on its index.
class SelfPlayer {
public:
    SelfPlayer(const SelfplayOptions& o, Variant v, std::shared_ptr<const EvalWeights> net_weights)
        : o_(o), variant_(v) {
        if (o.hand_eval) search_.weights = hand_written_weights_ptr(v);
        if (net_weights) search_.weights = std::move(net_weights);
    }

    GameOutput play(std::int64_t index) {
        tt_.clear();
        searcher_.clear();
        // | 1: xorshift needs a non-zero state.
        Prng rng{splitmix(std::uint64_t(o_.seed) ^ splitmix(std::uint64_t(index))) | 1};
        std::unique_ptr<Game> game = opening(rng);

        struct Record {
            std::string fen;
            Value score;  // White's view
        };
        std::vector<Record> records;
        Limits limits;
        limits.nodes = std::uint64_t(o_.nodes);
        int win_streak[COLOR_NB] = {0, 0}, draw_streak = 0;
        GameResult result;
        for (;;) {
            result = game->result();
            if (result.over()) break;
            const int ply = int(game->moves().size());
            if (ply >= MAX_PLIES) {
                result = {Outcome::Draw, Termination::Aborted};
                break;
            }
            Position& pos = game->position();
            const SearchResult r = searcher_.run(pos, limits, search_, nullptr, nullptr);
            if (!r.best) throw std::logic_error("selfplay: no move in a game that is not over: " + pos.fen());
            const Value white = pos.side_to_move() == WHITE ? r.score : -r.score;
            // depth 0: not even one iteration finished, so the score means nothing.
            const bool scored = r.depth > 0;
            // Larger scores (default 2000) are decided games or mates, useless for tuning.
            if (scored && std::abs(r.score) < o_.record_max && quiet(pos, r.best))
                records.push_back({pos.fen(), white});
            win_streak[WHITE] = scored && white >= WIN_SCORE ? win_streak[WHITE] + 1 : 0;
            win_streak[BLACK] = scored && white <= -WIN_SCORE ? win_streak[BLACK] + 1 : 0;
            draw_streak = scored && ply >= DRAW_FROM_PLY && std::abs(white) <= DRAW_SCORE ? draw_streak + 1 : 0;
            if (win_streak[WHITE] >= WIN_PLIES || win_streak[BLACK] >= WIN_PLIES) {
                result = {win_streak[WHITE] ? Outcome::WhiteWins : Outcome::BlackWins, Termination::Aborted};
                break;
            }
            if (draw_streak >= DRAW_PLIES) {
                result = {Outcome::Draw, Termination::Aborted};
                break;
            }
            Move next = r.best;
            if (o_.random_rate > 0 && double(rng.rand64() >> 11) / double(1ull << 53) < o_.random_rate) {
                game->legal_moves(*moves_);
                next = moves_->moves[rng.rand64() % std::uint64_t(moves_->count)];
            }
            if (!game->play(next)) throw std::logic_error("selfplay: an illegal move was chosen in " + pos.fen());
        }

        GameOutput g;
        g.outcome = result.outcome;
        g.plies = int(game->moves().size());
        g.positions = int(records.size());
        const char* res = result.outcome == Outcome::WhiteWins   ? "1"
                          : result.outcome == Outcome::BlackWins ? "0"
                                                                 : "0.5";
        for (const Record& rec : records) g.text += rec.fen + '\t' + res + '\t' + std::to_string(rec.score) + '\n';
        return g;
    }

private:
    // The variant's start, then random_plies uniformly random legal moves,
    // drawn again while the game ends on the way or the result is unbalanced.
    std::unique_ptr<Game> opening(Prng& rng) {
        Limits limits;
        limits.nodes = BALANCE_NODES;
        std::unique_ptr<Game> best;
        Value best_abs = VALUE_INFINITE;
        for (int attempt = 0; attempt < MAX_OPENING_TRIES; ++attempt) {
            auto g = std::make_unique<Game>(variant_);
            if (o_.random_plies == 0) return g;
            bool ended = false;
            for (std::int64_t i = 0; i < o_.random_plies && !ended; ++i) {
                g->legal_moves(*moves_);
                g->play(moves_->moves[rng.rand64() % std::uint64_t(moves_->count)]);
                ended = g->result().over();
            }
            if (ended) continue;
            const Value a = std::abs(searcher_.run(g->position(), limits, search_, nullptr, nullptr).score);
            if (a <= BALANCED) return g;
            if (a < best_abs) best_abs = a, best = std::move(g);
        }
        return best ? std::move(best) : std::make_unique<Game>(variant_);
    }

    const SelfplayOptions& o_;
    Variant variant_;
    SearchOptions search_;  // full strength; the hand-written evaluation with --hand-eval
    TranspositionTable tt_{16};
    Searcher searcher_{tt_};
    std::unique_ptr<MoveList> moves_ = std::make_unique<MoveList>();  // 16 KB: not on the stack
};

}  // namespace

std::string check_selfplay_options(const SelfplayOptions& o) {
    if (!variant_from_name(o.variant)) return "--variant: " + unknown_variant_message(o.variant);
    if (o.games < 1) return "--games: must be at least 1, not " + std::to_string(o.games);
    if (o.nodes < 1) return "--nodes: must be at least 1, not " + std::to_string(o.nodes);
    if (o.seed < 0) return "--seed: must be at least 0, not " + std::to_string(o.seed);
    if (o.random_plies < 0 || o.random_plies > MAX_RANDOM_PLIES)
        return "--random-plies: must be between 0 and " + std::to_string(MAX_RANDOM_PLIES) + ", not " +
               std::to_string(o.random_plies);
    if (o.threads < 1 || o.threads > MAX_THREADS)
        return "--threads: must be between 1 and " + std::to_string(MAX_THREADS) + ", not " + std::to_string(o.threads);
    if (o.out.empty()) return "--out: empty file name (use '-' for the standard output)";
    if (!(o.random_rate >= 0 && o.random_rate <= 1)) return "--random-rate: must be between 0 and 1";
    if (!o.net.empty() && o.hand_eval) return "--net and --hand-eval: choose one evaluation";
    if (o.record_max < 1 || o.record_max > MAX_RECORD)
        return "--record-max: must be between 1 and " + std::to_string(MAX_RECORD) + ", not " +
               std::to_string(o.record_max);
    return "";
}

SelfplayStats run_selfplay(const SelfplayOptions& o, std::ostream& out, std::ostream* progress) {
    if (const std::string e = check_selfplay_options(o); !e.empty()) throw std::invalid_argument(e);
    const Variant v = *variant_from_name(o.variant);  // checked above
    Position::init();                                 // before the threads: the tables are shared
    // --net: read once, shared by the threads (a network is read-only).
    std::shared_ptr<const EvalWeights> net_weights;
    if (!o.net.empty()) {
        std::shared_ptr<const nnue::Network> net = nnue::load_file(o.net);  // NnueError names the file and fault
        if (net->shape.variant != v)
            throw std::invalid_argument("--net: '" + o.net + "' is a network for " +
                                        std::string(variant_name(net->shape.variant)) + ", not " + o.variant);
        auto w = std::make_shared<EvalWeights>(hand_written_weights(v));
        w->network = std::move(net);
        net_weights = std::move(w);
    }

    const auto start = std::chrono::steady_clock::now();
    std::atomic<std::int64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mu;  // guards out, progress, stats and error
    SelfplayStats stats;
    std::exception_ptr error;

    auto work = [&] {
        try {
            SelfPlayer player(o, v, net_weights);
            while (!failed.load()) {
                const std::int64_t index = next.fetch_add(1);
                if (index >= o.games) return;
                const GameOutput g = player.play(index);
                std::lock_guard lock(mu);
                out << g.text << std::flush;
                if (!out) throw std::runtime_error("selfplay: writing the positions failed");
                ++stats.games;
                stats.positions += g.positions;
                stats.plies += g.plies;
                if (g.outcome == Outcome::WhiteWins)
                    ++stats.white_wins;
                else if (g.outcome == Outcome::BlackWins)
                    ++stats.black_wins;
                else
                    ++stats.draws;
                if (progress && (stats.games % 10 == 0 || stats.games == o.games)) {
                    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                    char line[256];
                    std::snprintf(line, sizeof line,
                                  "selfplay: %lld/%lld games, %lld positions, W/D/L %lld/%lld/%lld, %.1f plies/game, "
                                  "%.1f positions/s\n",
                                  (long long)stats.games, (long long)o.games, (long long)stats.positions,
                                  (long long)stats.white_wins, (long long)stats.draws, (long long)stats.black_wins,
                                  double(stats.plies) / double(stats.games),
                                  secs > 0 ? double(stats.positions) / secs : 0.0);
                    *progress << line << std::flush;
                }
            }
        } catch (...) {
            std::lock_guard lock(mu);
            if (!error) error = std::current_exception();
            failed = true;
        }
    };

    const std::int64_t n = std::min(o.threads, o.games);
    if (n == 1) {
        work();
    } else {
        std::vector<std::thread> threads;
        for (std::int64_t i = 0; i < n; ++i) threads.emplace_back(work);
        for (auto& t : threads) t.join();
    }
    if (error) std::rethrow_exception(error);
    return stats;
}

int selfplay_main(const SelfplayOptions& o) {
    if (const std::string e = check_selfplay_options(o); !e.empty()) {
        std::cerr << "echecs selfplay: " << e << '\n';
        return 2;
    }
    std::ofstream file;
    if (o.out != "-") {
        file.open(o.out, std::ios::out | std::ios::trunc);
        if (!file) {
            std::cerr << "echecs selfplay: --out: cannot write '" << o.out << "': " << std::strerror(errno) << '\n';
            return 2;
        }
    }
    try {
        run_selfplay(o, o.out == "-" ? std::cout : file, &std::cerr);
    } catch (const nnue::NnueError& e) {
        std::cerr << "echecs selfplay: --net: " << e.what() << '\n';
        return 2;
    } catch (const std::invalid_argument& e) {
        std::cerr << "echecs selfplay: " << e.what() << '\n';
        return 2;
    }
    if (file.is_open()) {
        file.close();
        if (!file) {
            std::cerr << "echecs selfplay: --out: writing '" << o.out << "' failed\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace echecs::engine

#include "server/review/game_review.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "core/game.h"
#include "core/notation.h"
#include "core/vocabulary.h"
#include "engine/engine.h"
#include "server/review/accuracy.h"

namespace echecs::review {

using nlohmann::json;

namespace {

// Indexed by Variant (chess, alice, avalanche).
constexpr Thresholds THRESHOLDS[] = {
    {0.05, 0.10, 0.15},
    {0.05, 0.10, 0.15},
    {0.05, 0.10, 0.15},
};

Evaluation terminal(const GameResult& r) {
    Evaluation e;
    e.white_expected = r.outcome == Outcome::WhiteWins ? 1.0 : r.outcome == Outcome::BlackWins ? 0.0 : 0.5;
    return e;
}

Evaluation evaluate(Game& game, const ReviewRequest& req, const std::vector<std::string>& played,
                    const std::atomic<bool>* cancel, std::uint64_t& nodes) {
    engine::AnalysisRequest a;
    a.variant = req.variant;
    a.fen = game.start_fen();
    a.moves = played;
    a.nodes = req.nodes_per_position;
    a.threads = 1;
    a.hash_mb = req.hash_mb;
    const engine::AnalysisUpdate u = engine::analyse(a, cancel, {});
    nodes += u.nodes;
    Evaluation e;
    if (u.lines.empty()) {
        // No line: the game is over here, or the search was cancelled (the
        // caller drops the position). Never an unfinished game's value.
        const GameResult res = game.result();
        if (!res.over() && !(cancel && *cancel))
            throw std::runtime_error("the engine gave no line in a game that goes on: " + game.position().fen());
        return terminal(res);
    }
    const engine::AnalysisLine& best = u.lines.front();
    const bool white = game.position().side_to_move() == WHITE;
    const double mine = (best.win + best.draw / 2.0) / 1000.0;
    e.white_expected = white ? mine : 1.0 - mine;
    if (best.score_cp) e.cp = white ? *best.score_cp : -*best.score_cp;
    if (best.mate) e.mate = white ? *best.mate : -*best.mate;
    e.best_line = best.pv;
    e.depth = best.depth;
    if (!best.pv.empty()) {
        Position& pos = game.position();
        e.best_san = to_san(pos, parse_uci(pos, best.pv.front()));
    }
    return e;
}

json summary_json(const PlayerSummary& s) {
    return {{"inaccuracies", s.inaccuracies},
            {"mistakes", s.mistakes},
            {"blunders", s.blunders},
            {"average_loss", s.average_loss},
            {"accuracy", s.accuracy ? json(*s.accuracy) : json(nullptr)}};
}

}  // namespace

std::string_view judgement_name(Judgement j) {
    switch (j) {
        case Judgement::Inaccuracy: return "inaccuracy";
        case Judgement::Mistake: return "mistake";
        case Judgement::Blunder: return "blunder";
        default: return "";
    }
}

const Thresholds& thresholds(Variant v) { return THRESHOLDS[int(v)]; }

Judgement judge(Variant v, double loss) {
    const Thresholds& t = thresholds(v);
    return loss >= t.blunder      ? Judgement::Blunder
           : loss >= t.mistake    ? Judgement::Mistake
           : loss >= t.inaccuracy ? Judgement::Inaccuracy
                                  : Judgement::None;
}

Review review_game(const ReviewRequest& req, const std::atomic<bool>* cancel, const ReviewProgress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<Game> game;
    try {
        game = std::make_unique<Game>(req.variant, req.initial_fen.empty() ? Position::START_FEN : req.initial_fen);
    } catch (const FenError& e) {
        throw std::invalid_argument(std::string("initial position: ") + e.what());
    }
    Review r;
    r.variant = req.variant;
    std::vector<std::string> played;
    std::vector<Color> movers;
    const int total = int(req.moves.size()) + 1;
    int searched = 0;
    for (int i = 0;; ++i) {
        if (cancel && *cancel) break;
        const GameResult res = game->result();
        if (res.over()) {
            r.positions.push_back(terminal(res));
        } else if (i < int(req.known.size())) {
            r.positions.push_back(req.known[std::size_t(i)]);
        } else {
            if (req.max_new > 0 && searched == req.max_new) break;
            Evaluation e = evaluate(*game, req, played, cancel, r.nodes);
            if (cancel && *cancel) break;  // cut short: searched again on resumption
            ++searched;
            r.positions.push_back(std::move(e));
        }
        if (progress) progress(i + 1, total);
        if (i == int(req.moves.size())) {
            r.complete = true;
            break;
        }
        if (res.over()) throw std::invalid_argument("ply " + std::to_string(i + 1) + ": the game is already over");
        MoveReview m;
        m.ply = i + 1;
        m.uci = req.moves[i];
        m.mover = game->position().side_to_move();
        try {
            Position& pos = game->position();
            const Move mv = parse_uci(pos, m.uci);
            m.san = to_san(pos, mv);
            if (!game->play(mv)) throw NotationError(NotationError::Illegal, "illegal move");
        } catch (const std::exception& e) {
            throw std::invalid_argument("ply " + std::to_string(i + 1) + " (" + m.uci + "): " + e.what());
        }
        played.push_back(m.uci);
        movers.push_back(m.mover);
        r.moves.push_back(std::move(m));
    }
    // A move's loss: the mover's expected score before it minus after it.
    const std::size_t judged = std::min(r.moves.size(), r.positions.size() - 1);
    int counts[2] = {0, 0};
    double losses[2] = {0, 0};
    for (std::size_t i = 0; i < judged; ++i) {
        MoveReview& m = r.moves[i];
        const bool white = m.mover == WHITE;
        const double before = white ? r.positions[i].white_expected : 1 - r.positions[i].white_expected;
        const double after = white ? r.positions[i + 1].white_expected : 1 - r.positions[i + 1].white_expected;
        m.loss = std::max(0.0, before - after);
        m.judgement = judge(req.variant, m.loss);
        PlayerSummary& s = white ? r.white : r.black;
        s.inaccuracies += m.judgement == Judgement::Inaccuracy;
        s.mistakes += m.judgement == Judgement::Mistake;
        s.blunders += m.judgement == Judgement::Blunder;
        ++counts[white ? 0 : 1];
        losses[white ? 0 : 1] += m.loss;
    }
    if (counts[0]) r.white.average_loss = 100 * losses[0] / counts[0];
    if (counts[1]) r.black.average_loss = 100 * losses[1] / counts[1];
    // Accuracy over the positions evaluated so far.
    std::vector<double> win;
    for (std::size_t i = 0; i <= judged && i < r.positions.size(); ++i) {
        const Evaluation& e = r.positions[i];
        win.push_back(win_percent(e.cp, e.mate, e.white_expected));
    }
    for (std::size_t i = 0; i < judged; ++i) {
        MoveReview& m = r.moves[i];
        const bool white = m.mover == WHITE;
        m.accuracy = move_accuracy(white ? win[i] : 100 - win[i], white ? win[i + 1] : 100 - win[i + 1]);
    }
    if (judged) {
        const GameAccuracy a = game_accuracy(win, r.moves[0].mover);
        r.white.accuracy = a.white;
        r.black.accuracy = a.black;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

Evaluation evaluate_position(Variant v, const std::string& initial_fen, const std::vector<std::string>& moves,
                             std::uint64_t nodes, int hash_mb, const std::atomic<bool>* cancel) {
    std::unique_ptr<Game> game;
    try {
        game = std::make_unique<Game>(v, initial_fen.empty() ? Position::START_FEN : initial_fen, moves);
    } catch (const std::exception& e) {
        throw std::invalid_argument(e.what());
    }
    ReviewRequest req;
    req.variant = v;
    req.nodes_per_position = nodes;
    req.hash_mb = hash_mb;
    std::uint64_t searched = 0;
    const GameResult res = game->result();
    if (res.over()) return terminal(res);
    return evaluate(*game, req, moves, cancel, searched);
}

TryVerdict judge_try(Variant v, Color mover, const Evaluation& before, const std::string& tried,
                     const Evaluation& after) {
    const bool white = mover == WHITE;
    const double b = white ? before.white_expected : 1 - before.white_expected;
    const double a = white ? after.white_expected : 1 - after.white_expected;
    TryVerdict t;
    t.loss = std::max(0.0, b - a);
    if (!before.best_line.empty() && before.best_line.front() == tried)
        t.verdict = "best";
    else if (const Judgement j = judge(v, t.loss); j == Judgement::None)
        t.verdict = "good";
    else
        t.verdict = std::string(judgement_name(j));
    return t;
}

json to_json(const Review& r) {
    json positions = json::array(), moves = json::array();
    for (const Evaluation& e : r.positions)
        positions.push_back({{"cp", e.cp ? json(*e.cp) : json(nullptr)},
                             {"mate", e.mate ? json(*e.mate) : json(nullptr)},
                             {"white_expected", e.white_expected},
                             {"best", e.best_line},
                             {"best_san", e.best_san.empty() ? json(nullptr) : json(e.best_san)},
                             {"depth", e.depth}});
    for (const MoveReview& m : r.moves)
        moves.push_back(
            {{"ply", m.ply},
             {"uci", m.uci},
             {"san", m.san},
             {"color", color_info(m.mover).name},
             {"loss", m.loss},
             {"accuracy", m.accuracy},
             {"judgement", m.judgement == Judgement::None ? json(nullptr) : json(judgement_name(m.judgement))}});
    const Thresholds& t = thresholds(r.variant);
    return {{"variant", variant_name(r.variant)},
            {"complete", r.complete},
            {"nodes", r.nodes},
            {"seconds", r.seconds},
            {"positions", std::move(positions)},
            {"moves", std::move(moves)},
            {"summary", {{"white", summary_json(r.white)}, {"black", summary_json(r.black)}}},
            {"thresholds", {{"inaccuracy", t.inaccuracy}, {"mistake", t.mistake}, {"blunder", t.blunder}}}};
}

}  // namespace echecs::review

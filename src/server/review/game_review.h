// The computer analysis of a game ("review"): every position of the game is
// searched with the same budget; each move gets the evaluation before and
// after it, the engine's best line, and a judgement — inaccuracy, mistake,
// blunder — from how much of the mover's expected score (win + draw/2, the
// engine's WDL model of that game) the move gave away. Pure computation: the
// server runs it on its engine pool and stores `to_json`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace echecs::review {

enum class Judgement : std::uint8_t { None, Inaccuracy, Mistake, Blunder };
std::string_view judgement_name(Judgement j);  // "", "inaccuracy", "mistake", "blunder"

// The losses of expected score (0..1, the mover's view) from which a move is
// judged, per game. lichess's thresholds (0.1/0.2/0.3 of its -1..1 winning
// chances) are these on a 0..1 scale; the three games share them because
// each game's WDL model is fitted to its own self-play, which already puts
// their evaluations on one scale. Data, so that a game may differ.
struct Thresholds {
    double inaccuracy, mistake, blunder;
};
const Thresholds& thresholds(Variant v);
Judgement judge(Variant v, double loss);

// One position's evaluation, White's view.
struct Evaluation {
    std::optional<int> cp;               // centipawns, unless a mate is seen
    std::optional<int> mate;             // moves to mate: positive White mates, negative Black mates
    double white_expected = 0.5;         // White's expected score, 0..1
    std::vector<std::string> best_line;  // coordinate strings from this position (empty when the game is over)
    std::string best_san;                // the best move in SAN ("" when none)
    int depth = 0;
};

struct ReviewRequest {
    Variant variant = Variant::Chess;
    std::string initial_fen;                     // "": the start position
    std::vector<std::string> moves;              // coordinate strings (Avalanche "g1f3,e7e6")
    std::uint64_t nodes_per_position = 300'000;  // the budget: fixed, so a review is reproducible
    int hash_mb = 16;
    // A review resumed in steps (the server searches one position per engine
    // job, so that live games and other clients come between): the positions
    // already evaluated, from the first, are taken as they are, and at most
    // `max_new` (0: no limit) more are searched before returning incomplete.
    std::vector<Evaluation> known;
    int max_new = 0;
};

struct MoveReview {
    int ply = 0;  // 1 = the first move of the game
    std::string uci, san;
    Color mover = WHITE;
    double loss = 0;        // of the mover's expected score, 0..1
    double accuracy = 100;  // 0..100, from the win% lost (accuracy.h)
    Judgement judgement = Judgement::None;
};

struct PlayerSummary {
    int inaccuracies = 0, mistakes = 0, blunders = 0;
    double average_loss = 0;         // mean loss per move, in percent of expected score
    std::optional<double> accuracy;  // 0..100 (accuracy.h); none without a move
};

struct Review {
    Variant variant = Variant::Chess;
    std::vector<Evaluation> positions;  // moves.size() + 1: before the first move ... after the last
    std::vector<MoveReview> moves;
    PlayerSummary white, black;
    std::uint64_t nodes = 0;
    double seconds = 0;
    bool complete = false;  // false: cancelled before the last position
};

// progress(done, total) after each position, from the calling thread.
using ReviewProgress = std::function<void(int done, int total)>;

// Throws std::invalid_argument for a bad FEN or an illegal move (the
// message names the move's ply). Stops early when *cancel becomes true; the
// position whose search was cut short is left out (a review is the same
// whether or not it was interrupted and resumed).
Review review_game(const ReviewRequest& request, const std::atomic<bool>* cancel = nullptr,
                   const ReviewProgress& progress = nullptr);

// The evaluation of the position after `moves` from `initial_fen` ("": the
// start), with the review's budget (a position where the game is over is its
// result). Throws std::invalid_argument for an illegal move.
Evaluation evaluate_position(Variant v, const std::string& initial_fen, const std::vector<std::string>& moves,
                             std::uint64_t nodes, int hash_mb = 16, const std::atomic<bool>* cancel = nullptr);

// "Learn from your mistakes": a move `tried` instead of the one played, in a
// position evaluated `before` (the review's), leading to `after`. The
// verdict: "best" (the engine's own move), "good" (it loses less than an
// inaccuracy: as good as the engine's), else the judgement of its loss
// ("inaccuracy", "mistake", "blunder").
struct TryVerdict {
    std::string verdict;
    double loss = 0;  // of the mover's expected score, 0..1
};
TryVerdict judge_try(Variant v, Color mover, const Evaluation& before, const std::string& tried,
                     const Evaluation& after);

// {"variant","complete","nodes","seconds","positions":[{"cp","mate","white_expected","best","best_san","depth"}],
//  "moves":[{"ply","uci","san","color","loss","accuracy","judgement"}],"summary":{"white":{...},"black":{...}},
//  "thresholds":{...}}
nlohmann::json to_json(const Review& r);

}  // namespace echecs::review

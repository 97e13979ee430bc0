#include "server/api/puzzle_attempt.h"

#include <cmath>
#include <string>

#include "core/game.h"
#include "core/notation.h"
#include "server/accounts/puzzle_ratings.h"
#include "server/api/reasons.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

// The solver's puzzle rating as the browser keeps it ({} for a new solver),
// read and checked: each field a number in its range, missing ones the
// server's defaults.
accounts::Glicko read_player(const json& j) {
    if (!j.is_object())
        throw ApiError(Reason::field_type, "player must be an object", "player", {{"expected", "object"}});
    const accounts::GlickoParams params;
    accounts::Glicko g = accounts::new_rating(params);
    auto field = [&](const char* name, double lo, double hi, double& out) {
        const auto it = j.find(name);
        if (it == j.end()) return;
        const std::string path = std::string("player.") + name;
        if (!it->is_number())
            throw ApiError(Reason::field_type, path + " must be a number", path, {{"expected", "number"}});
        const double v = it->get<double>();
        if (!(v >= lo && v <= hi))
            throw ApiError(Reason::number_range,
                           path + " must be between " + std::to_string(lo) + " and " + std::to_string(hi), path,
                           {{"min", lo}, {"max", hi}});
        out = v;
    };
    field("rating", 0, 4000, g.rating);
    field("deviation", params.min_deviation, params.max_deviation, g.deviation);
    field("volatility", 0.01, params.max_volatility, g.volatility);
    return g;
}

}  // namespace

void rate_for_browser(const puzzle::Puzzle& p, JudgedAttempt& j) {
    if (!j.finished || !j.player) return;
    const accounts::GlickoParams params;
    const accounts::Glicko& before = *j.player;
    const accounts::Glicko after = accounts::rate_against_puzzle(before, 0, p.rating, j.solved, params);
    j.answer["player"] = accounts::puzzle_player_json(after, params);
    j.answer["rating_diff"] = int(std::lround(after.rating)) - int(std::lround(before.rating));
}

// Each move must be the solution's, or a move that wins the game at once
// (another mate is a solution too). The replies are the solution's.
JudgedAttempt judge_attempt(const puzzle::Puzzle& p, const json& body) {
    const auto it = body.find("moves");
    if (it == body.end()) throw ApiError(Reason::field_missing, "moves is required", "moves");
    if (!it->is_array())
        throw ApiError(Reason::field_type, "moves must be an array of strings", "moves", {{"expected", "array"}});
    const std::size_t solver_moves = (p.solution.size() + 1) / 2;
    if (it->size() > solver_moves)
        throw ApiError(Reason::moves_too_many, "at most the solver's moves of the solution", "moves",
                       {{"max", solver_moves}});
    JudgedAttempt j;
    // Checked first: a bad rating is refused whatever the moves say.
    if (const auto pl = body.find("player"); pl != body.end()) j.player = read_player(*pl);
    Game g(p.variant, p.fen);
    const Color solver = g.position().side_to_move();
    j.answer = {{"id", p.id}};
    for (std::size_t k = 0; k < it->size(); ++k) {
        const std::string path = "moves[" + std::to_string(k) + "]";
        const json& m = (*it)[k];
        if (!m.is_string())
            throw ApiError(Reason::field_type, path + " must be a string", path,
                           {{"index", k}, {"expected", "string"}});
        Move mv;
        try {
            mv = parse_uci(g.position(), m.get<std::string>());
        } catch (const std::exception& e) {
            const std::string detail = to_valid_utf8(e.what());
            throw ApiError(Reason::move_illegal, path + ": " + detail, path, {{"index", k}, {"detail", detail}});
        }
        const std::string& expected = p.solution[2 * k];
        g.play(mv);
        const GameResult r = g.result();
        const bool won = (r.outcome == Outcome::WhiteWins && solver == WHITE) ||
                         (r.outcome == Outcome::BlackWins && solver == BLACK);
        if (to_uci(mv) != expected && !won) {
            j.answer["result"] = "failed";
            j.answer["expected"] = expected;
            j.answer["solution"] = p.solution;
            j.finished = true;
            return j;
        }
        if (won || 2 * k + 1 >= p.solution.size()) {
            j.answer["result"] = "solved";
            j.answer["solution"] = p.solution;
            j.finished = j.solved = true;
            return j;
        }
        g.play_uci(p.solution[2 * k + 1]);
    }
    // Right so far: the opponent's answer to the last move, or the first move to find.
    j.answer["result"] = "partial";
    if (!it->empty()) j.answer["reply"] = p.solution[2 * it->size() - 1];
    return j;
}

}  // namespace echecs::server

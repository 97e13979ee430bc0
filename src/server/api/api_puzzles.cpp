// HTTP API: puzzles (GET /api/puzzles/next, POST /api/puzzles/<id>/attempt).
// The files data/puzzles/<game>.jsonl (written by `echecs puzzles generate`,
// docs/PUZZLES.md) are read once, when the routes are registered; answering
// is a pick from memory or a replay of a few moves by the rules, on the I/O
// thread, with no engine.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <optional>
#include <random>
#include <unordered_map>

#include "core/game.h"
#include "core/notation.h"
#include "platform/paths.h"
#include "puzzle/puzzle_file.h"
#include "server/accounts/glicko2.h"
#include "server/api/game_names.h"
#include "server/play/hub.h"
#include "server/protocol/text.h"

namespace echecs::server {

using nlohmann::json;

namespace {

struct PuzzleSet {
    std::vector<puzzle::Puzzle> by_variant[VARIANT_NB];  // each sorted by rating
    std::unordered_map<std::string, const puzzle::Puzzle*> by_id;
    std::mutex mutex;  // of rng
    std::mt19937 rng{std::random_device{}()};
};

// --puzzles (ServerOptions::puzzles_dir), else share/echecs/puzzles of the
// installation or build tree, as the web client and the opening sets are found.
std::string puzzles_dir(const ServerOptions& opt) {
    if (!opt.puzzles_dir.empty()) return opt.puzzles_dir;
    if (auto found = paths::find_share("puzzles", "chess.jsonl")) return found->path.string();
    return "";
}

std::shared_ptr<PuzzleSet> load(Hub& hub) {
    auto set = std::make_shared<PuzzleSet>();
    const std::string dir = puzzles_dir(hub.options());
    for (const VariantInfo& v : VARIANTS) {
        const std::filesystem::path file = std::filesystem::path(dir) / (std::string(v.name) + ".jsonl");
        if (dir.empty() || !std::filesystem::exists(file)) {
            hub.log("no puzzles for " + std::string(v.name) + ": " +
                    (dir.empty() ? "no puzzles folder" : file.string()) + " is missing");
            continue;
        }
        try {
            auto& list = set->by_variant[int(v.variant)];
            for (puzzle::Puzzle& p : puzzle::read_puzzle_file(file.string()))
                if (p.variant == v.variant) list.push_back(std::move(p));
            std::stable_sort(list.begin(), list.end(),
                             [](const auto& a, const auto& b) { return a.rating < b.rating; });
        } catch (const std::exception& e) {
            hub.log(std::string("puzzles not loaded: ") + e.what());
        }
    }
    for (const auto& list : set->by_variant)
        for (const puzzle::Puzzle& p : list) set->by_id.emplace(p.id, &p);
    return set;
}

// The puzzle as the solver's opponent in Glicko-2: its seed rating, with a
// deviation that says the seed is an estimate (docs/PUZZLES.md).
constexpr double PUZZLE_DEVIATION = 100;

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
            throw ApiError(Reason::number_range, path + " must be between " + std::to_string(lo) + " and " +
                               std::to_string(hi), path, {{"min", lo}, {"max", hi}});
        out = v;
    };
    field("rating", 0, 4000, g.rating);
    field("deviation", params.min_deviation, params.max_deviation, g.deviation);
    field("volatility", 0.01, params.max_volatility, g.volatility);
    return g;
}

// A finished attempt rated: one Glicko-2 game against the puzzle, won when
// solved. The browser keeps the new rating (nothing is stored here).
void rate(const puzzle::Puzzle& p, const std::optional<accounts::Glicko>& player, json& out) {
    if (!player) return;
    const accounts::GlickoParams params;
    const accounts::Glicko& before = *player;
    const accounts::Glicko after = accounts::rate_game(before, 0, {double(p.rating), PUZZLE_DEVIATION, 0.09},
                                                       out["result"] == "solved" ? 1.0 : 0.0, params);
    out["player"] = {{"rating", after.rating},
                     {"deviation", after.deviation},
                     {"volatility", after.volatility},
                     {"provisional", accounts::provisional(after, params)}};
    out["rating_diff"] = int(std::lround(after.rating)) - int(std::lround(before.rating));
}

// The solver's moves (`moves`, at most the solution's) against the
// solution: each must be the solution's move, or a move that wins the game
// at once (another mate is a solution too). The replies are the solution's.
json attempt(const puzzle::Puzzle& p, const json& body) {
    const auto it = body.find("moves");
    if (it == body.end()) throw ApiError(Reason::field_missing, "moves is required", "moves");
    if (!it->is_array())
        throw ApiError(Reason::field_type, "moves must be an array of strings", "moves", {{"expected", "array"}});
    const std::size_t solver_moves = (p.solution.size() + 1) / 2;
    if (it->size() > solver_moves)
        throw ApiError(Reason::moves_too_many, "at most the solver's moves of the solution", "moves",
                       {{"max", solver_moves}});
    // Checked first: a bad rating is refused whatever the moves say.
    std::optional<accounts::Glicko> player;
    if (const auto pl = body.find("player"); pl != body.end()) player = read_player(*pl);
    Game g(p.variant, p.fen);
    const Color solver = g.position().side_to_move();
    json out = {{"id", p.id}};
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
            out["result"] = "failed";
            out["expected"] = expected;
            out["solution"] = p.solution;
            rate(p, player, out);
            return out;
        }
        if (won || 2 * k + 1 >= p.solution.size()) {
            out["result"] = "solved";
            out["solution"] = p.solution;
            rate(p, player, out);
            return out;
        }
        g.play_uci(p.solution[2 * k + 1]);
    }
    // Right so far: the opponent's answer to the last move, or the first move to find.
    out["result"] = "partial";
    if (!it->empty()) out["reply"] = p.solution[2 * it->size() - 1];
    return out;
}

json puzzle_json(const puzzle::Puzzle& p) {
    return {{"id", p.id},         {"variant", variant_name(p.variant)},
            {"fen", p.fen},       {"solution", p.solution},
            {"themes", p.themes}, {"rating", p.rating}};
}

// rating: a whole number; the puzzle is drawn among the NEAR closest to it.
constexpr std::size_t NEAR = 20;

}  // namespace

void add_puzzle_routes(Router& r, Hub& hub) {
    std::shared_ptr<PuzzleSet> set = load(hub);
    r.add("GET", "/api/puzzles/next", [set](const HttpContextPtr& ctx) {
        const Variant v = read_variant(ctx->has_query("variant") ? ctx->query("variant") : "chess");
        const auto& list = set->by_variant[int(v)];
        if (list.empty())
            throw ApiError(Reason::puzzles_missing, "this server has no puzzles for this game", "variant",
                           {{"variant", variant_name(v)}});
        std::size_t lo = 0, hi = list.size();
        if (ctx->has_query("rating")) {
            int rating = 0;
            const std::string& q = ctx->query("rating");
            const auto [end, ec] = std::from_chars(q.data(), q.data() + q.size(), rating);
            if (ec != std::errc() || end != q.data() + q.size() || rating < 0 || rating > 4000)
                throw ApiError(Reason::number_range, "rating must be a whole number between 0 and 4000", "rating",
                               {{"min", 0}, {"max", 4000}});
            const auto at = std::lower_bound(list.begin(), list.end(), rating,
                                             [](const puzzle::Puzzle& p, int x) { return p.rating < x; });
            const std::size_t mid = std::size_t(at - list.begin());
            lo = mid > NEAR / 2 ? mid - NEAR / 2 : 0;
            hi = std::min(list.size(), lo + NEAR);
            lo = hi > NEAR ? hi - NEAR : 0;
        }
        std::size_t pick;
        {
            std::lock_guard lock(set->mutex);
            pick = std::uniform_int_distribution<std::size_t>(lo, hi - 1)(set->rng);
        }
        ctx->json(200, puzzle_json(list[pick]));
    });
    r.add("POST", "/api/puzzles/:id/attempt", [set](const HttpContextPtr& ctx) {
        const auto found = set->by_id.find(ctx->param("id"));
        if (found == set->by_id.end()) throw ApiError(Reason::puzzle_not_found, "no such puzzle", "id");
        ctx->json(200, attempt(*found->second, ctx->body()));
    });
}

}  // namespace echecs::server

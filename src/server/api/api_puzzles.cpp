// HTTP API: puzzles (GET /api/puzzles/next, POST /api/puzzles/<id>/attempt).
// The files data/puzzles/<game>.jsonl (written by `echecs puzzles generate`,
// docs/PUZZLES.md) are read once, when the routes are registered; answering
// is a pick from memory or a replay of a few moves by the rules, on the I/O
// thread, with no engine. A request with a session cookie goes on to the
// accounts thread (AccountService::request), which does every database
// read and write: the account's stored rating, its finished puzzles, the
// rated attempt.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <optional>
#include <random>
#include <unordered_map>

#include "platform/paths.h"
#include "puzzle/puzzle_file.h"
#include "puzzle/puzzle_pick.h"
#include "server/accounts/account_service.h"
#include "server/accounts/puzzle_ratings.h"
#include "server/api/api_accounts.h"
#include "server/api/game_names.h"
#include "server/api/puzzle_attempt.h"
#include "server/play/hub.h"

namespace echecs::server {

using nlohmann::json;
namespace acc = accounts;

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

json puzzle_json(const puzzle::Puzzle& p) {
    return {{"id", p.id},         {"variant", variant_name(p.variant)},
            {"fen", p.fen},       {"solution", p.solution},
            {"themes", p.themes}, {"rating", p.rating}};
}

// rating: a whole number; the puzzle is drawn among the NEAR_PUZZLES closest to it.
constexpr std::size_t NEAR_PUZZLES = 20;

// A puzzle of the game: at random among the NEAR_PUZZLES nearest `rating` that
// `done` does not hold (all of them when it holds every one), or among all
// without a rating.
const puzzle::Puzzle& pick_puzzle(PuzzleSet& set, Variant v, std::optional<int> rating,
                                  const std::function<bool(const puzzle::Puzzle&)>& done = nullptr) {
    const auto& list = set.by_variant[int(v)];
    std::vector<std::size_t> candidates;
    if (rating) candidates = puzzle::nearest_puzzles(list, *rating, NEAR_PUZZLES, done);
    std::lock_guard lock(set.mutex);
    if (candidates.empty()) return list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(set.rng)];
    return list[candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(set.rng)]];
}

std::optional<int> puzzle_rating_query(const HttpContextPtr& ctx) {
    if (!ctx->has_query("rating")) return std::nullopt;
    int rating = 0;
    const std::string& q = ctx->query("rating");
    const auto [end, ec] = std::from_chars(q.data(), q.data() + q.size(), rating);
    if (ec != std::errc() || end != q.data() + q.size() || rating < 0 || rating > 4000)
        throw ApiError(Reason::number_range, "rating must be a whole number between 0 and 4000", "rating",
                       {{"min", 0}, {"max", 4000}});
    return rating;
}

// The account of a session secret, or nullopt (a stale or revoked session is
// an anonymous solver's; the database away throws StoreError).
std::optional<acc::Me> solver_account(acc::Accounts& a, const std::string& secret) {
    try {
        return a.who_am_i(secret);
    } catch (const acc::AccountError&) {
        return std::nullopt;
    }
}

acc::HttpAnswer puzzle_answer(json body) {
    acc::HttpAnswer a;
    a.body = std::move(body);
    return a;
}

}  // namespace

void add_puzzle_routes(Router& r, Hub& hub) {
    std::shared_ptr<PuzzleSet> set = load(hub);
    r.add("GET", "/api/puzzles/next", [set, &hub](const HttpContextPtr& ctx) {
        const Variant v = read_variant(ctx->has_query("variant") ? ctx->query("variant") : "chess");
        if (set->by_variant[int(v)].empty())
            throw ApiError(Reason::puzzles_missing, "this server has no puzzles for this game", "variant",
                           {{"variant", variant_name(v)}});
        const std::optional<int> rating = puzzle_rating_query(ctx);
        const auto secret = acc::session_cookie(ctx->request().header("cookie"));
        if (!secret) return ctx->json(200, puzzle_json(pick_puzzle(*set, v, rating)));
        // An account: near its stored rating (unless one is asked for), its
        // finished puzzles last.
        hub.accounts().request(
            ctx->request().ip,
            [set, v, rating, secret = *secret](acc::Accounts& a) {
                const auto me = solver_account(a, secret);
                if (!me) return puzzle_answer(puzzle_json(pick_puzzle(*set, v, rating)));
                const acc::PuzzleStanding s = acc::puzzle_standing(a, me->account_id, std::string(variant_name(v)));
                auto done = [&](const puzzle::Puzzle& p) {
                    return std::binary_search(s.attempted.begin(), s.attempted.end(), p.id);
                };
                const puzzle::Puzzle& p =
                    pick_puzzle(*set, v, rating.value_or(int(std::lround(s.rating.rating))), done);
                json out = puzzle_json(p);
                out["attempted"] = done(p);
                return puzzle_answer(std::move(out));
            },
            [ctx](acc::HttpAnswer a) { send_account_answer(ctx, a); });
    });
    r.add("POST", "/api/puzzles/:id/attempt", [set, &hub](const HttpContextPtr& ctx) {
        const auto found = set->by_id.find(ctx->param("id"));
        if (found == set->by_id.end()) throw ApiError(Reason::puzzle_not_found, "no such puzzle", "id");
        const puzzle::Puzzle& p = *found->second;
        JudgedAttempt j = judge_attempt(p, ctx->body());
        const auto secret = acc::session_cookie(ctx->request().header("cookie"));
        if (!j.finished || !secret) {
            rate_for_browser(p, j);
            return ctx->json(200, j.answer);
        }
        // An account's finished attempt: rated from its stored rating, once
        // per puzzle, written before the answer. (`set` keeps `p` alive.)
        hub.accounts().request(
            ctx->request().ip,
            [set, &p, j = std::move(j), secret = *secret](acc::Accounts& a) mutable {
                const auto me = solver_account(a, secret);
                if (!me) {
                    rate_for_browser(p, j);
                    return puzzle_answer(std::move(j.answer));
                }
                const acc::PuzzleRated r = acc::rate_puzzle_attempt(
                    a, me->account_id, {p.id, std::string(variant_name(p.variant)), p.rating, j.solved});
                j.answer["player"] = acc::puzzle_player_json(r.after, a.options().glicko);
                j.answer["rating_diff"] = int(std::lround(r.after.rating)) - int(std::lround(r.before.rating));
                j.answer["rated"] = r.rated;
                j.answer["puzzles"] = r.puzzles;
                return puzzle_answer(std::move(j.answer));
            },
            [ctx](acc::HttpAnswer a) { send_account_answer(ctx, a); });
    });
}

}  // namespace echecs::server

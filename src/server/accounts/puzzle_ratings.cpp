#include "server/accounts/puzzle_ratings.h"

#include <cmath>

#include "core/vocabulary.h"

namespace echecs::server::accounts {

using nlohmann::json;

namespace {

constexpr double PUZZLE_DAY_MS = 86'400'000;

Glicko puzzle_glicko(const PuzzleRatingRecord& r) { return {r.rating, r.deviation, r.volatility}; }

}  // namespace

Glicko rate_against_puzzle(const Glicko& solver, double days, int puzzle_rating, bool solved, const GlickoParams& p) {
    return rate_game(solver, days, {double(puzzle_rating), PUZZLE_DEVIATION, p.default_volatility}, solved ? 1.0 : 0.0,
                     p);
}

json puzzle_player_json(const Glicko& g, const GlickoParams& p) {
    return {{"rating", g.rating},
            {"deviation", g.deviation},
            {"volatility", g.volatility},
            {"provisional", provisional(g, p)}};
}

PuzzleRated rate_puzzle_attempt(Accounts& a, std::int64_t account_id, const PuzzleAttempt& attempt) {
    const GlickoParams& params = a.options().glicko;
    const std::int64_t now = a.now();
    PuzzleAttemptRecord record{account_id, attempt.puzzle_id, attempt.variant, attempt.solved ? "solved" : "failed",
                               now};
    const auto written = a.store().record_puzzle_attempt(record, [&](const std::optional<PuzzleRatingRecord>& stored) {
        PuzzleRatingRecord r;
        if (stored) {
            r = *stored;
        } else {
            const Glicko n = new_rating(params);
            r = {account_id, attempt.variant, n.rating, n.deviation, n.volatility, 0, now};
        }
        // As for games: the deviation grows with the time since the last rated puzzle.
        const double days = r.puzzles ? std::max(0.0, double(now - r.last_at) / PUZZLE_DAY_MS) : 0.0;
        const Glicko after = rate_against_puzzle(puzzle_glicko(r), days, attempt.puzzle_rating, attempt.solved, params);
        r.rating = after.rating, r.deviation = after.deviation, r.volatility = after.volatility;
        r.puzzles += 1, r.last_at = now;
        return r;
    });
    PuzzleRated out;
    if (!written) {
        const PuzzleStanding s = puzzle_standing(a, account_id, attempt.variant);
        out.before = out.after = s.rating;
        out.puzzles = s.puzzles;
        return out;
    }
    out.rated = true;
    out.before = written->before ? puzzle_glicko(*written->before) : new_rating(params);
    out.after = puzzle_glicko(written->after);
    out.puzzles = written->after.puzzles;
    return out;
}

PuzzleStanding puzzle_standing(Accounts& a, std::int64_t account_id, const std::string& variant) {
    PuzzleStanding s;
    s.rating = new_rating(a.options().glicko);
    if (auto r = a.store().puzzle_rating(account_id, variant)) {
        s.rating = puzzle_glicko(*r);
        s.puzzles = r->puzzles;
    }
    s.attempted = a.store().attempted_puzzles(account_id, variant);
    return s;
}

json puzzle_ratings_json(AccountStore& store, std::int64_t account_id, const GlickoParams& p) {
    auto entry = [&](const Glicko& g, int puzzles) {
        return json{{"rating", int(std::lround(g.rating))},
                    {"rd", int(std::lround(g.deviation))},
                    {"puzzles", puzzles},
                    {"provisional", provisional(g, p)}};
    };
    json out = json::object();
    for (const VariantInfo& info : VARIANTS) out[std::string(info.name)] = entry(new_rating(p), 0);
    for (const PuzzleRatingRecord& r : store.puzzle_ratings(account_id))
        if (out.contains(r.variant)) out[r.variant] = entry(puzzle_glicko(r), r.puzzles);
    return out;
}

}  // namespace echecs::server::accounts

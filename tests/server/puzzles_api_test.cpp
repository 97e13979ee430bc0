// The puzzle routes over real sockets, on the shipped files (data/puzzles):
// a puzzle in each game whose solution the rules accept from its FEN, a mate
// claim that ends in mate by the rules alone (no engine here), a puzzle
// solved and failed in each game, a finished attempt rated, a rating asked for, an unknown game
// refused, and a server without the files saying so. An account's puzzle
// rating: stored, moved up and down by its first attempt at each puzzle
// only, kept across a restart, shown by its profile; its next puzzle near
// that rating and not one it has finished.
#include <algorithm>
#include <cmath>
#include <set>

#include "accounts_client.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/vocabulary.h"
#include "puzzle/puzzle_file.h"
#include "server/accounts/puzzle_ratings.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

class PuzzlesApiTest : public ServerTest {
protected:
    void SetUp() override {
        start([](server::ServerOptions& o) { o.puzzles_dir = test_path(ECHECS_SOURCE_DIR) + "/data/puzzles"; });
    }
};

bool has(const json& themes, const std::string& t) {
    return std::any_of(themes.begin(), themes.end(), [&](const json& x) { return x == t; });
}

TEST_F(PuzzlesApiTest, EachGameServesAPuzzleWhoseSolutionTheRulesAccept) {
    for (const VariantInfo& v : VARIANTS) {
        SCOPED_TRACE(std::string(v.name));
        for (int draw = 0; draw < 5; ++draw) {
            const json p = get_json(port_, "/api/puzzles/next?variant=" + std::string(v.name));
            ASSERT_EQ(p["_status"], 200) << p.dump();
            EXPECT_EQ(p["variant"], v.name);
            ASSERT_TRUE(p["id"].is_string() && p["fen"].is_string() && p["rating"].is_number_integer()) << p.dump();
            ASSERT_TRUE(p["solution"].is_array() && !p["solution"].empty()) << p.dump();
            ASSERT_TRUE(p["themes"].is_array());
            EXPECT_EQ(p["solution"].size() % 2, 1u) << "the solver plays the first and the last move: " << p.dump();
            Game g(v.variant, p["fen"].get<std::string>());
            const Color solver = g.position().side_to_move();
            for (const json& m : p["solution"]) {
                ASSERT_FALSE(g.result().over()) << "a move after the end: " << p.dump();
                EXPECT_NO_THROW(g.play_uci(m.get<std::string>())) << m << " in " << p.dump();
            }
            if (has(p["themes"], "mate")) {
                const GameResult r = g.result();
                EXPECT_EQ(r.outcome, solver == WHITE ? Outcome::WhiteWins : Outcome::BlackWins) << p.dump();
                const std::string n = "mateIn" + std::to_string((p["solution"].size() + 1) / 2);
                EXPECT_TRUE(has(p["themes"], n)) << n << " expected: " << p.dump();
            } else {
                EXPECT_FALSE(g.result().over()) << "only a mate ends the game: " << p.dump();
            }
            if (has(p["themes"], "capture")) {
                Game first(v.variant, p["fen"].get<std::string>());
                const Move m = parse_uci(first.position(), p["solution"][0].get<std::string>());
                EXPECT_TRUE(first.position().is_capture(m)) << p.dump();
            }
            if (v.variant != Variant::Avalanche) {
                EXPECT_FALSE(has(p["themes"], "push")) << p.dump();
            }
            if (v.variant != Variant::Alice) {
                EXPECT_FALSE(has(p["themes"], "lookingGlass")) << p.dump();
            }
        }
    }
}

// A move other than the solution's first that does not end the game: a
// wrong answer (the rules alone pick it).
std::string wrong_move(Variant v, const std::string& fen, const std::string& right) {
    Game g(v, fen);
    MoveList legal;
    g.legal_moves(legal);
    for (int i = 0; i < legal.count; ++i) {
        const std::string m = to_uci(legal.moves[i]);
        if (m == right) continue;
        g.play(legal.moves[i]);
        const bool over = g.result().over();
        g.undo();
        if (!over) return m;
    }
    return "";
}

TEST_F(PuzzlesApiTest, APuzzleSolvedAndFailedInEachGame) {
    for (const VariantInfo& v : VARIANTS) {
        SCOPED_TRACE(std::string(v.name));
        const json p = get_json(port_, "/api/puzzles/next?variant=" + std::string(v.name));
        ASSERT_EQ(p["_status"], 200) << p.dump();
        const std::string attempt = "/api/puzzles/" + p["id"].get<std::string>() + "/attempt";
        const json& sol = p["solution"];
        json mine = json::array();
        for (std::size_t i = 0; i < sol.size(); i += 2) {
            const json r = post_json(port_, attempt, {{"moves", mine}}, "");
            ASSERT_EQ(r["_status"], 200) << r.dump();
            EXPECT_EQ(r["result"], "partial") << r.dump();
            if (i > 0) {
                EXPECT_EQ(r["reply"], sol[i - 1]) << r.dump();
            }
            mine.push_back(sol[i]);
        }
        const json solved = post_json(port_, attempt, {{"moves", mine}}, "");
        EXPECT_EQ(solved["result"], "solved") << solved.dump();
        EXPECT_EQ(solved["solution"], sol);

        const std::string wrong = wrong_move(v.variant, p["fen"].get<std::string>(), sol[0].get<std::string>());
        ASSERT_FALSE(wrong.empty()) << p.dump();
        const json failed = post_json(port_, attempt, {{"moves", json::array({wrong})}}, "");
        EXPECT_EQ(failed["result"], "failed") << failed.dump();
        EXPECT_EQ(failed["expected"], sol[0]);

        const json illegal = post_json(port_, attempt, {{"moves", json::array({"a1a1"})}}, "");
        EXPECT_EQ(illegal["_status"], 400);
        EXPECT_EQ(illegal["error"]["reason"], "move_illegal") << illegal.dump();
    }
    const json none = post_json(port_, "/api/puzzles/nosuchpuzzle/attempt", {{"moves", json::array()}}, "");
    EXPECT_EQ(none["_status"], 404);
    EXPECT_EQ(none["error"]["reason"], "puzzle_not_found") << none.dump();
}

// The trainer's rating (Glicko-2, kept by the browser): a finished attempt
// with `player` gives the new one; a win raises it and a loss lowers it, each
// more for a new solver than for a settled one, whose deviation shrinks; an
// unfinished attempt is not rated; a bad rating is refused, naming its field.
TEST_F(PuzzlesApiTest, AFinishedAttemptIsRatedForTheBrowser) {
    // A puzzle of one move (most of them; bounded: 100 draws).
    json p;
    for (int draw = 0; draw < 100 && !(p.contains("solution") && p["solution"].size() == 1); ++draw)
        p = get_json(port_, "/api/puzzles/next?variant=chess");
    ASSERT_EQ(p["_status"], 200) << p.dump();
    ASSERT_EQ(p["solution"].size(), 1u) << "no one-move puzzle in 100 draws";
    const std::string attempt = "/api/puzzles/" + p["id"].get<std::string>() + "/attempt";
    const json& sol = p["solution"];
    const std::string wrong = wrong_move(Variant::Chess, p["fen"].get<std::string>(), sol[0].get<std::string>());
    ASSERT_FALSE(wrong.empty()) << p.dump();
    const json settled = {{"rating", 1500}, {"deviation", 60}, {"volatility", 0.06}};
    auto rated = [&](const json& moves, const json& player) {
        const json r = post_json(port_, attempt, {{"moves", moves}, {"player", player}}, "");
        EXPECT_EQ(r["_status"], 200) << r.dump();
        return r;
    };
    EXPECT_FALSE(rated(json::array(), json::object()).contains("player")) << "an unfinished attempt is not rated";
    const json new_win = rated(json::array({sol[0]}), json::object());
    ASSERT_EQ(new_win["result"], "solved") << new_win.dump();
    const json& after = new_win["player"];
    EXPECT_GT(after["rating"].get<double>(), 1500) << new_win.dump();
    EXPECT_LT(after["deviation"].get<double>(), 500) << new_win.dump();
    EXPECT_TRUE(after["provisional"].get<bool>()) << "one puzzle does not settle a rating: " << new_win.dump();
    EXPECT_EQ(new_win["rating_diff"], int(std::lround(after["rating"].get<double>())) - 1500);
    const json settled_win = rated(json::array({sol[0]}), settled);
    EXPECT_GT(settled_win["rating_diff"].get<int>(), 0) << settled_win.dump();
    EXPECT_LT(settled_win["rating_diff"].get<int>(), new_win["rating_diff"].get<int>()) << settled_win.dump();
    const json new_loss = rated(json::array({wrong}), json::object());
    ASSERT_EQ(new_loss["result"], "failed") << new_loss.dump();
    EXPECT_LT(new_loss["player"]["rating"].get<double>(), 1500) << new_loss.dump();
    EXPECT_LT(new_loss["rating_diff"].get<int>(), 0);
    const json settled_loss = rated(json::array({wrong}), settled);
    EXPECT_LT(settled_loss["rating_diff"].get<int>(), 0) << settled_loss.dump();
    EXPECT_GT(settled_loss["rating_diff"].get<int>(), new_loss["rating_diff"].get<int>()) << settled_loss.dump();
    // Not rated without `player`; refused with a bad one, moves unread.
    EXPECT_FALSE(post_json(port_, attempt, {{"moves", json::array({wrong})}}, "").contains("player"));
    const json bad_rating = post_json(port_, attempt, {{"moves", json::array()}, {"player", {{"rating", 9000}}}}, "");
    EXPECT_EQ(bad_rating["_status"], 400);
    EXPECT_EQ(bad_rating["error"]["reason"], "number_range") << bad_rating.dump();
    EXPECT_EQ(bad_rating["error"]["field"], "player.rating") << bad_rating.dump();
    const json bad_type = post_json(port_, attempt, {{"moves", json::array()}, {"player", 5}}, "");
    EXPECT_EQ(bad_type["error"]["reason"], "field_type") << bad_type.dump();
}

TEST_F(PuzzlesApiTest, ARatingAskedForGivesAPuzzleNearIt) {
    const json low = get_json(port_, "/api/puzzles/next?variant=chess&rating=0");
    const json high = get_json(port_, "/api/puzzles/next?variant=chess&rating=4000");
    ASSERT_EQ(low["_status"], 200);
    ASSERT_EQ(high["_status"], 200);
    EXPECT_LE(low["rating"].get<int>(), high["rating"].get<int>());
    EXPECT_EQ(get_json(port_, "/api/puzzles/next?variant=chess&rating=x")["error"]["reason"], "number_range");
}

TEST_F(PuzzlesApiTest, AnUnknownGameIsRefused) {
    const json r = get_json(port_, "/api/puzzles/next?variant=shogi");
    EXPECT_EQ(r["_status"], 400);
    EXPECT_EQ(r["error"]["reason"], "variant_unknown") << r.dump();
    EXPECT_EQ(get_json(port_, "/api/puzzles/next?variant=ALICE")["variant"], "alice");
}

TEST_F(PuzzlesApiTest, AServerWithoutTheFilesSaysSo) {
    TempDir empty;
    restart([&](server::ServerOptions& o) { o.puzzles_dir = empty.path().string(); });
    const json r = get_json(port_, "/api/puzzles/next?variant=chess");
    EXPECT_EQ(r["_status"], 503);
    EXPECT_EQ(r["error"]["reason"], "puzzles_missing") << r.dump();
}

// Accounts: the puzzle rating is the server's.
class PuzzleAccountsTest : public ServerTest {
protected:
    static void tweak(server::ServerOptions& o) {
        o.puzzles_dir = test_path(ECHECS_SOURCE_DIR) + "/data/puzzles";
        o.fast_password_hash = true;
    }
    void SetUp() override { start(tweak); }

    json call(http::verb method, const std::string& target, const json& body, const Player& p) {
        HttpResult r = account_call(port_, method, target, body, p);
        json j = r.j();
        if (j.is_object()) j["_status"] = r.status;
        return j;
    }
    json next(const Player& p, const std::string& variant = "chess") {
        return call(http::verb::get, "/api/puzzles/next?variant=" + variant, nullptr, p);
    }
    // The puzzle solved (every solver move at once) or failed (a wrong first move).
    json attempt(const json& puzzle, bool solve, const Player& p, const json& player = json::object()) {
        json moves = json::array();
        const json& sol = puzzle["solution"];
        if (solve) {
            for (std::size_t i = 0; i < sol.size(); i += 2) moves.push_back(sol[i]);
        } else {
            const std::string wrong = wrong_move(variant_from_name(puzzle["variant"].get<std::string>()).value(),
                                                 puzzle["fen"], sol[0].get<std::string>());
            EXPECT_FALSE(wrong.empty()) << puzzle.dump();
            moves.push_back(wrong);
        }
        const json r = call(http::verb::post, "/api/puzzles/" + puzzle["id"].get<std::string>() + "/attempt",
                            {{"moves", moves}, {"player", player}}, p);
        EXPECT_EQ(r["_status"], 200) << r.dump();
        EXPECT_EQ(r["result"], solve ? "solved" : "failed") << r.dump();
        return r;
    }
    json puzzle_rating(const Player& p, const std::string& variant = "chess") {
        const json me = call(http::verb::get, "/api/account", nullptr, p);
        EXPECT_EQ(me["_status"], 200) << me.dump();
        return me["puzzle_ratings"][variant];
    }
};

TEST_F(PuzzleAccountsTest, AnAccountsRatingIsStoredMovedOncePerPuzzleAndKeptAcrossARestart) {
    using namespace server::accounts;
    const Player ann = sign_up(port_, "Ann");
    const json fresh = puzzle_rating(ann);
    EXPECT_EQ(fresh, json({{"rating", 1500}, {"rd", 500}, {"puzzles", 0}, {"provisional", true}})) << fresh.dump();

    // Solved: up from the stored rating; the browser's rating sent is ignored.
    const json p1 = next(ann);
    ASSERT_EQ(p1["_status"], 200) << p1.dump();
    EXPECT_EQ(p1["attempted"], false) << p1.dump();
    const json won = attempt(p1, true, ann, {{"rating", 3000}, {"deviation", 50}});
    EXPECT_EQ(won["rated"], true) << won.dump();
    EXPECT_EQ(won["puzzles"], 1);
    const Glicko after1 = rate_against_puzzle(new_rating(), 0, p1["rating"].get<int>(), true);
    EXPECT_NEAR(won["player"]["rating"].get<double>(), after1.rating, 1e-6) << won.dump();
    EXPECT_GT(after1.rating, 1500);
    EXPECT_EQ(won["rating_diff"], int(std::lround(after1.rating)) - 1500);
    EXPECT_EQ(puzzle_rating(ann)["rating"], int(std::lround(after1.rating)));
    EXPECT_EQ(puzzle_rating(ann)["puzzles"], 1);
    EXPECT_EQ(puzzle_rating(ann, "alice")["puzzles"], 0) << "one rating per game";

    // The same puzzle again, failed this time: not rated, the rating unchanged.
    const json again = attempt(p1, false, ann);
    EXPECT_EQ(again["rated"], false) << again.dump();
    EXPECT_EQ(again["rating_diff"], 0);
    EXPECT_NEAR(again["player"]["rating"].get<double>(), after1.rating, 1e-6) << again.dump();
    EXPECT_EQ(puzzle_rating(ann)["puzzles"], 1);

    // Another puzzle (the next one is never a finished one while others are left), failed: down.
    const json p2 = next(ann);
    ASSERT_EQ(p2["_status"], 200) << p2.dump();
    ASSERT_NE(p2["id"], p1["id"]);
    const json lost = attempt(p2, false, ann);
    EXPECT_EQ(lost["rated"], true) << lost.dump();
    EXPECT_EQ(lost["puzzles"], 2);
    const Glicko after2 = rate_against_puzzle(after1, 0, p2["rating"].get<int>(), false);
    // (the deviation grows by the few milliseconds since the first: not exactly 0 days)
    EXPECT_NEAR(lost["player"]["rating"].get<double>(), after2.rating, 0.01) << lost.dump();
    EXPECT_LT(after2.rating, after1.rating);
    EXPECT_LT(lost["rating_diff"].get<int>(), 0);

    // Durable: the same after a restart, in the account and in the profile.
    const int shown = int(std::lround(lost["player"]["rating"].get<double>()));
    restart(tweak);
    EXPECT_EQ(puzzle_rating(ann)["rating"], shown);
    EXPECT_EQ(puzzle_rating(ann)["puzzles"], 2);
    const json prof = profile(port_, "Ann");
    EXPECT_EQ(prof["puzzle_ratings"]["chess"]["rating"], shown) << prof.dump();
    EXPECT_EQ(prof["puzzle_ratings"]["avalanche"]["puzzles"], 0) << prof.dump();
    EXPECT_EQ(attempt(p2, true, ann)["rated"], false) << "still finished after the restart";

    // An anonymous solver of the same puzzle: today's rating, the browser's.
    json moves = json::array();
    for (std::size_t i = 0; i < p1["solution"].size(); i += 2) moves.push_back(p1["solution"][i]);
    const json anon = post_json(port_, "/api/puzzles/" + p1["id"].get<std::string>() + "/attempt",
                                {{"moves", moves}, {"player", json::object()}}, "");
    EXPECT_EQ(anon["result"], "solved") << anon.dump();
    EXPECT_FALSE(anon.contains("rated")) << anon.dump();
    EXPECT_NEAR(anon["player"]["rating"].get<double>(), after1.rating, 1e-6) << anon.dump();
}

TEST_F(PuzzleAccountsTest, TheNextPuzzleOfAnAccountIsNearItsRatingAndNotOneItFinished) {
    const Player bob = sign_up(port_, "Bob");
    std::set<std::string> finished;
    // Two failures: the rating falls far from the 1500 of a new solver.
    for (int k = 0; k < 2; ++k) {
        const json p = next(bob);
        ASSERT_EQ(p["_status"], 200) << p.dump();
        EXPECT_EQ(attempt(p, false, bob)["rated"], true);
        finished.insert(p["id"].get<std::string>());
    }
    const int rating = puzzle_rating(bob)["rating"];
    EXPECT_LT(rating, 1300);
    // The 20 nearest of the puzzles left (the shipped file, read here): the
    // next one is at most as far as the 20th.
    std::vector<int> distances;
    for (const auto& p : puzzle::read_puzzle_file(test_path(ECHECS_SOURCE_DIR) + "/data/puzzles/chess.jsonl"))
        if (!finished.count(p.id)) distances.push_back(std::abs(p.rating - rating));
    ASSERT_GE(distances.size(), 20u);
    std::nth_element(distances.begin(), distances.begin() + 19, distances.end());
    const int farthest = distances[19];
    for (int draw = 0; draw < 5; ++draw) {
        const json p = next(bob);
        ASSERT_EQ(p["_status"], 200) << p.dump();
        EXPECT_EQ(p["attempted"], false) << p.dump();
        EXPECT_FALSE(finished.count(p["id"].get<std::string>())) << p.dump();
        EXPECT_LE(std::abs(p["rating"].get<int>() - rating), farthest) << "rating " << rating << ": " << p.dump();
    }

    // A session cookie the server does not know: an anonymous solver.
    const Player stale{"Nobody", "", "echecs_session=" + std::string(43, 'A')};
    const json p = next(stale);
    ASSERT_EQ(p["_status"], 200) << p.dump();
    EXPECT_FALSE(p.contains("attempted")) << p.dump();
    const json r = attempt(p, true, stale);
    EXPECT_FALSE(r.contains("rated")) << r.dump();
    EXPECT_GT(r["player"]["rating"].get<double>(), 1500) << "rated for the browser: " << r.dump();
}

}  // namespace

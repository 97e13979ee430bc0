// `echecs match` between two copies of the engine, the opening sets, and the
// Elo arithmetic.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/game.h"
#include "core/pgn.h"
#include "engine/elo.h"
#include "helpers.h"

namespace echecs::test {
namespace {

std::string file_text(const std::string& path) {
    std::ifstream f(path);
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}

std::string run_match(const std::vector<std::string>& args) {
    std::ostringstream out;
    match_main(args, out);
    return out.str();
}

TEST(Match, PlaysGamesWritesPgnAndScores) {
    const std::string pgn = ::testing::TempDir() + "echecs_match_test.pgn";
    std::remove(pgn.c_str());
    const std::string out = run_match({"--engine",
                                       "cmd=" + test_path(ECHECS_UCI_STUB),
                                       "name=A",
                                       "--engine",
                                       "cmd=" + test_path(ECHECS_UCI_STUB),
                                       "name=B",
                                       "option.Skill Level=0",
                                       "--variant",
                                       "avalanche",
                                       "--games",
                                       "2",
                                       "--movetime",
                                       "20",
                                       "--maxplies",
                                       "40",
                                       "--concurrency",
                                       "2",
                                       "--pgn",
                                       pgn,
                                       "--openings",
                                       test_path(ECHECS_OPENINGS) + "/avalanche.txt"});
    EXPECT_TRUE(contains(out, "game 1 ")) << out;
    EXPECT_TRUE(contains(out, "game 2 ")) << out;
    EXPECT_TRUE(contains(out, "Score of A vs B: ")) << out;
    EXPECT_TRUE(contains(out, "Elo difference: ")) << out;
    const std::string text = file_text(pgn);
    const auto games = read_pgn(text);
    ASSERT_EQ(games.size(), 2u) << text;
    for (const auto& g : games) {
        EXPECT_EQ(g.tag("Variant"), "Avalanche");
        EXPECT_TRUE(g.error.empty()) << g.error;
        Game replayed(g.variant(), g.start_fen());
        EXPECT_NO_THROW(replay(g, replayed));
    }
}

// White's only legal move is e5xd6 en passant. With --no-en-passant (an
// opponent whose rules have none) both games stop there, uncounted; without
// it they are played and scored.
TEST(Match, NoEnPassantStopsAndDoesNotCountTheGame) {
    const std::string openings = ::testing::TempDir() + "echecs_match_ep.txt";
    std::ofstream(openings) << "fen 7K/r7/4p2n/3pP3/8/8/8/k7 w - d6 0 2\n";
    const std::string pgn = ::testing::TempDir() + "echecs_match_ep.pgn";
    auto play = [&](bool no_ep) {
        std::remove(pgn.c_str());
        std::vector<std::string> args = {"--engine",
                                         "cmd=" + test_path(ECHECS_UCI_STUB),
                                         "name=A",
                                         "--engine",
                                         "cmd=" + test_path(ECHECS_UCI_STUB),
                                         "name=B",
                                         "--games",
                                         "2",
                                         "--movetime",
                                         "20",
                                         "--maxplies",
                                         "30",
                                         "--openings",
                                         openings,
                                         "--pgn",
                                         pgn};
        if (no_ep) args.push_back("--no-en-passant");
        return run_match(args);
    };
    const std::string stopped = play(true);
    EXPECT_TRUE(contains(stopped, "(not counted: en passant e5d6 by A)")) << stopped;
    EXPECT_TRUE(contains(stopped, "(not counted: en passant e5d6 by B)")) << stopped;
    EXPECT_TRUE(contains(stopped, "Score of A vs B: 0 - 0 - 0")) << stopped;
    EXPECT_TRUE(contains(stopped, "Not counted (stopped at an en passant capture): 2")) << stopped;
    const std::string text = file_text(pgn);
    const auto games = read_pgn(text);
    ASSERT_EQ(games.size(), 2u) << text;
    for (const auto& g : games) {
        EXPECT_EQ(g.tag("Result"), "*");
        EXPECT_EQ(g.moves.size(), 1u);
    }

    const std::string played = play(false);
    EXPECT_FALSE(contains(played, "not counted")) << played;
    EXPECT_FALSE(contains(played, "Score of A vs B: 0 - 0 - 0")) << played;
}

TEST(Match, BadArguments) {
    EXPECT_TRUE(contains(run_match({"--engine", "cmd=x"}), "exactly two --engine"));
    EXPECT_TRUE(contains(run_match({"--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"}), "--tc: 'fast'"));
    EXPECT_TRUE(contains(run_match({"--engine", "cmd=x", "--engine", "cmd=y", "--variant", "shogi"}), "shogi"));
    EXPECT_TRUE(contains(run_match({"--engine", "bogus", "--engine", "cmd=y"}), "not KEY=VALUE"));
    EXPECT_TRUE(contains(run_match({"--engine", "cmd=/nonexistent/engine", "--engine", "cmd=/nonexistent/engine",
                                    "--games", "1", "--movetime", "10"}),
                         "did not answer"));
}

TEST(Openings, EveryCommittedLineIsLegal) {
    for (const char* v : {"chess", "alice", "avalanche"}) {
        std::ifstream f(test_path(ECHECS_OPENINGS) + "/" + v + ".txt");
        ASSERT_TRUE(f) << v;
        int n = 0;
        for (std::string line; std::getline(f, line);) {
            if (line.empty() || line[0] == '#') continue;
            ++n;
            std::istringstream is(line);
            std::vector<std::string> moves;
            for (std::string m; is >> m;) moves.push_back(m);
            const Variant var = v == std::string("alice")       ? Variant::Alice
                                : v == std::string("avalanche") ? Variant::Avalanche
                                                                : Variant::Chess;
            EXPECT_NO_THROW(std::make_unique<Game>(var, Position::START_FEN, moves)) << v << ": " << line;
        }
        EXPECT_GE(n, 20) << v;
    }
}

TEST(Elo, ScoreAndErrorBars) {
    engine::MatchScore even{10, 0, 10};
    EXPECT_NEAR(even.elo(), 0.0, 1e-9);
    EXPECT_GT(even.elo_error95(), 100.0);
    engine::MatchScore strong{75, 0, 25};  // 75% is about +191 Elo
    EXPECT_NEAR(strong.elo(), 190.8, 0.5);
    engine::MatchScore many{750, 0, 250};
    EXPECT_LT(many.elo_error95(), strong.elo_error95());
    engine::MatchScore all{40, 0, 0};  // 40 wins: p >= 0.05^(1/40) = 0.928 at 95%, about +444 Elo
    EXPECT_TRUE(all.perfect());
    EXPECT_NEAR(all.elo_bound95(), 443.8, 0.5);
    EXPECT_NEAR(engine::MatchScore({0, 0, 40}).elo_bound95(), -443.8, 0.5);
    engine::MatchScore draws{0, 10, 0};
    EXPECT_NEAR(draws.elo(), 0.0, 1e-9);
    EXPECT_NEAR(draws.elo_error95(), 0.0, 1e-9);
}

TEST(Elo, SprtOverGamePairs) {
    engine::Sprt t;  // elo0 = 0, elo1 = 10, alpha = beta = 0.05
    EXPECT_NEAR(t.lower(), -2.944, 0.001);
    EXPECT_NEAR(t.upper(), 2.944, 0.001);
    // 40 pairs scoring 0, 1/2, 1, 3/2, 2 points: mean 0.55, variance 0.06625 per pair.
    const int counts[5] = {2, 8, 14, 12, 4};
    for (int k = 0; k < 5; ++k)
        for (int i = 0; i < counts[k]; ++i) t.add_pair(k / 2.0);
    EXPECT_EQ(t.pair_count(), 40);
    EXPECT_NEAR(t.llr(), 0.3719, 0.001);  // 40 (s1 - s0) (1.1 - s0 - s1) / (2 * 0.06625)
    EXPECT_GT(t.llr(), t.lower());        // inside the bounds (the decision is sequential: the
    EXPECT_LT(t.llr(), t.upper());        // first losing pairs, added first here, crossed one)
    engine::Sprt win;                     // a clearly stronger engine is accepted early
    for (int i = 0; i < 30; ++i) win.add_pair(i % 3 == 0 ? 1.0 : 1.5);
    EXPECT_EQ(win.decision(), 1);
    engine::Sprt even;  // an equal one is rejected after enough pairs
    for (int i = 0; i < 2000; ++i) even.add_pair(i % 2 == 0 ? 0.5 : 1.5);
    EXPECT_LT(even.llr(), 0);
    EXPECT_EQ(even.decision(), -1);
    // The first crossing decides: pairs that finish after it (games in
    // flight when the match stops) may take the LLR back inside the bounds,
    // not the decision.
    engine::Sprt late;
    while (late.decision() == 0 && late.pair_count() < 200) late.add_pair(late.pair_count() % 3 == 0 ? 1.0 : 1.5);
    ASSERT_EQ(late.decision(), 1);
    late.add_pair(0);
    late.add_pair(0);
    EXPECT_LT(late.llr(), late.upper());
    EXPECT_EQ(late.decision(), 1);
}

TEST(Match, SprtStopsEarly) {
    // The full engine against the 2-ply material player: decided long before 200 games.
    std::ostringstream out;
    const int rc = echecs::match_main(
        {"--engine", "cmd=" + test_path(ECHECS_UCI_STUB), "name=full", "--engine", "cmd=" + test_path(ECHECS_UCI_STUB),
         "name=weak", "option.Skill Level=0", "--games", "200", "--tc", "0.5+0.01", "--margin", "2000", "--sprt",
         "elo0=0", "elo1=50", "--openings", test_path(ECHECS_OPENINGS) + "/chess.txt"},
        out);
    EXPECT_EQ(rc, 0) << out.str();
    EXPECT_NE(out.str().find("H1 accepted"), std::string::npos) << out.str();
    EXPECT_EQ(out.str().find("200/200"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace echecs::test

// The generator on positions chosen for the purpose: it finds the one
// winning move, plays out the line and tags the theme, and rejects a
// position with two winning moves. Small fixed node budgets: the same
// verdict on any machine and under any load.
#include "puzzle/puzzle.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/game.h"
#include "puzzle/generate.h"
#include "puzzle/puzzle_file.h"

using namespace echecs;
using namespace echecs::puzzle;

namespace {

Criteria small() {
    Criteria c;
    c.scan_nodes = 2000;
    c.verify_nodes = 20000;
    return c;
}

bool has(const Puzzle& p, const std::string& theme) {
    return std::find(p.themes.begin(), p.themes.end(), theme) != p.themes.end();
}

// The solution replayed by the rules: every move legal, and the game's end
// as claimed (a mate is won by the solver; anything else goes on).
void expect_line_holds(const Puzzle& p) {
    Game g(p.variant, p.fen);
    const Color solver = g.position().side_to_move();
    for (const std::string& m : p.solution) EXPECT_NO_THROW(g.play_uci(m)) << m;
    const GameResult r = g.result();
    if (has(p, "mate"))
        EXPECT_EQ(r.outcome, solver == WHITE ? Outcome::WhiteWins : Outcome::BlackWins);
    else
        EXPECT_FALSE(r.over());
}

TEST(Generator, FindsTheBackRankMateInOne) {
    // A rook against a bishop, a knight and a pawn: only Ra8 wins, and it mates.
    Finder f(small());
    const auto p = f.examine(Variant::Chess, "6k1/5ppp/8/1p6/2nb4/8/5PPP/R5K1 w - - 0 1");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->solution, std::vector<std::string>{"a1a8"});
    EXPECT_TRUE(has(*p, "mate"));
    EXPECT_TRUE(has(*p, "mateIn1"));
    EXPECT_FALSE(has(*p, "capture"));
    EXPECT_EQ(p->id[0], 'c');
    expect_line_holds(*p);
}

TEST(Generator, FindsTheMateInTwoWithTheForcedReply) {
    // Black is a bishop up; 1.Rxd8+ Rxd8 2.Rxd8# is the only win.
    Finder f(small());
    const auto p = f.examine(Variant::Chess, "2rr2k1/5ppp/b7/8/8/8/3R1PPP/3R2K1 w - - 0 1");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->solution, (std::vector<std::string>{"d2d8", "c8d8", "d1d8"}));
    EXPECT_TRUE(has(*p, "mateIn2"));
    EXPECT_TRUE(has(*p, "capture"));
    expect_line_holds(*p);
}

TEST(Generator, FindsTheKnightForkOfKingAndQueen) {
    // Down a queen for a knight and two pawns: Nc7+ and Nxa8 is the only way back.
    Finder f(small());
    const auto p = f.examine(Variant::Chess, "q3k3/5ppp/8/1N6/8/8/PP3PPP/6K1 w - - 0 1");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->solution.front(), "b5c7");
    EXPECT_TRUE(has(*p, "fork"));
    EXPECT_FALSE(has(*p, "mate"));
    expect_line_holds(*p);
}

TEST(Generator, FindsTheAvalanchePushThatDiscoversCheck) {
    // 1.Qxa4 wins only with the push d7-d6, which opens b5-e8 for the
    // bishop: check. The same capture with any other push
    // does not win (push).
    Finder f(small());
    const char* fen = "rnb1kbnr/2pp4/5q1p/1B2p1p1/pP2PpP1/P1P2P2/1B1P3P/RN1QK1NR w KQkq - 0 6";
    const auto p = f.examine(Variant::Avalanche, fen);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->solution.front(), "d1a4,d7d6");
    EXPECT_TRUE(has(*p, "push"));
    EXPECT_TRUE(has(*p, "capture"));
    EXPECT_EQ(p->id[0], 'v');
    Game g(Variant::Avalanche, fen);
    g.play_uci("d1a4,d7d6");
    EXPECT_TRUE(g.position().in_check()) << "the push discovers the bishop's check";
    expect_line_holds(*p);
}

TEST(Generator, FindsTheAliceMateThroughTheLookingGlass) {
    // Black's queen on board B (t on d6) moves to g3 and passes to board A,
    // where the white king stands: mate.
    Finder f(small());
    const auto p = f.examine(Variant::Alice, "3k4/T1pc1pp1/1s1t4/1P2N2s/2Cp1p1S/3SS3/P1POu2o/1U4KR b - - 6 25");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->solution, std::vector<std::string>{"d6g3"});
    EXPECT_TRUE(has(*p, "mateIn1"));
    EXPECT_TRUE(has(*p, "lookingGlass"));
    EXPECT_EQ(p->id[0], 'a');
    expect_line_holds(*p);
}

TEST(Generator, RejectsAPositionWithTwoWinningMoves) {
    // Ra8# and Rb8# both mate: no single move to find.
    Finder f(small());
    EXPECT_FALSE(f.examine(Variant::Chess, "6k1/5ppp/8/1p6/2nb4/8/5PPP/RR4K1 w - - 0 1"));
    // And a quiet equal position has no winning move at all.
    EXPECT_FALSE(f.examine(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
}

TEST(Generator, FindsTheMissedMateInAPgnGameAndSkipsAnIllegalGame) {
    // Game 1 has an illegal move (skipped); in game 2, 3...Nf6 allows Qxf7#.
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("echecs-puzzle-test-" + std::to_string(::getpid()) + ".pgn");
    std::ofstream(file) << "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n"
                        << "[Event \"scholar\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    GenerateOptions o;
    o.variant = Variant::Chess;
    o.criteria = small();
    o.from_pgn = file.string();
    o.count = 5;
    std::ostringstream out;
    const GenerateStats s = generate(o, out, nullptr);
    std::filesystem::remove(file);
    EXPECT_EQ(s.games, 1) << "the illegal game is skipped";
    std::istringstream in(out.str());
    const std::vector<Puzzle> ps = read_puzzles(in);
    const auto mate = std::find_if(ps.begin(), ps.end(), [](const Puzzle& p) { return p.solution.front() == "h5f7"; });
    ASSERT_NE(mate, ps.end()) << out.str();
    EXPECT_EQ(mate->fen, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    EXPECT_TRUE(has(*mate, "mateIn1"));
    EXPECT_NE(mate->source.find("game 2 ply 7"), std::string::npos) << mate->source;
}

TEST(Generator, TheCriteriaOnTwoLines) {
    Finder f(small());
    using L = Finder::Line;
    const int mate1 = 32000 - 1;  // engine::VALUE_MATE - 1: mate in one
    EXPECT_TRUE(f.passes({L{Move::none(), mate1, {}}, L{Move::none(), 50, {}}}, false));
    EXPECT_FALSE(f.passes({L{Move::none(), mate1, {}}, L{Move::none(), mate1 - 2, {}}}, false)) << "two mates";
    EXPECT_TRUE(f.passes({L{Move::none(), 300, {}}, L{Move::none(), 100, {}}}, false));
    EXPECT_FALSE(f.passes({L{Move::none(), 299, {}}, L{Move::none(), 0, {}}}, false)) << "not a clear win";
    EXPECT_FALSE(f.passes({L{Move::none(), 900, {}}, L{Move::none(), 101, {}}}, false)) << "the second wins too";
    EXPECT_FALSE(f.passes({L{Move::none(), 900, {}}}, false)) << "one legal move";
}

TEST(Generator, SelfPlayGamesGiveTheSamePuzzlesForTheSameSeed) {
    GenerateOptions o;
    o.variant = Variant::Chess;
    o.criteria = small();
    o.criteria.scan_nodes = 500;
    o.max_plies = 40;
    o.seed = 7;
    std::int64_t positions = 0, candidates = 0;
    Finder a(o.criteria), b(o.criteria);
    for (int game = 0; game < 2; ++game) {
        const std::vector<Puzzle> x = selfplay_game_puzzles(a, o, game, &positions, &candidates);
        const std::vector<Puzzle> y = selfplay_game_puzzles(b, o, game, &positions, &candidates);
        ASSERT_EQ(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            EXPECT_EQ(x[i].fen, y[i].fen);
            EXPECT_EQ(x[i].solution, y[i].solution);
            expect_line_holds(x[i]);
        }
    }
    EXPECT_GT(positions, 0);
}

}  // namespace

// The themes told from a position and its first move (src/puzzle/themes.h),
// on positions built for each, and the puzzle file's lines.
#include "puzzle/themes.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/game.h"
#include "core/notation.h"
#include "puzzle/puzzle_file.h"

using namespace echecs;
using namespace echecs::puzzle;

namespace {

struct At {
    Game game;
    Move move;
    At(Variant v, const char* fen, const char* uci) : game(v, fen), move(parse_uci(game.position(), uci)) {}
    Position& pos() { return game.position(); }
};

TEST(Themes, AKnightCheckingTheKingAndAttackingTheQueenIsAFork) {
    At a(Variant::Chess, "q3k3/5ppp/8/1N6/8/8/PP3PPP/6K1 w - - 0 1", "b5c7");
    EXPECT_TRUE(is_fork(a.pos(), a.move));
    At quiet(Variant::Chess, "q3k3/5ppp/8/1N6/8/8/PP3PPP/6K1 w - - 0 1", "b5a3");
    EXPECT_FALSE(is_fork(quiet.pos(), quiet.move));
}

TEST(Themes, TwoPawnsAreAForkOnlyWhenUndefended) {
    // The knight on d5 attacks the pawns c7 and e7, worth less than itself:
    // defended by the king on d8 they are no fork; undefended they are.
    At defended(Variant::Chess, "3k4/2p1p3/8/8/8/4N3/8/6K1 w - - 0 1", "e3d5");
    EXPECT_FALSE(is_fork(defended.pos(), defended.move));
    At loose(Variant::Chess, "7k/2p1p3/8/8/8/4N3/8/6K1 w - - 0 1", "e3d5");
    EXPECT_TRUE(is_fork(loose.pos(), loose.move));
}

TEST(Themes, AliceCheckThroughTheGlassIsLookingGlass) {
    // The rook moves on board A and checks from board B, where the black king stands.
    At check(Variant::Alice, "4l3/8/8/8/8/8/8/R5K1 w - - 0 1", "a1e1");
    EXPECT_TRUE(is_looking_glass(check.pos(), check.move));
    EXPECT_EQ(themes_of(check.pos(), check.move), std::vector<std::string>{"lookingGlass"});
    At quiet(Variant::Alice, "4l3/8/8/8/8/8/8/R5K1 w - - 0 1", "a1a2");
    EXPECT_FALSE(is_looking_glass(quiet.pos(), quiet.move));
    // The same move in chess is no check and no theme.
    At chess(Variant::Chess, "4k3/8/8/8/8/8/8/R5K1 w - - 0 1", "a1e1");
    EXPECT_TRUE(themes_of(chess.pos(), chess.move).empty());
}

TEST(Themes, AliceCaptureOfADefendedManThatVanishesIsLookingGlass) {
    // Board A: the white rook takes the knight on d5, defended by the pawn
    // on e6; the rook passes to board B, where nothing attacks d5.
    At a(Variant::Alice, "4l3/8/4p3/3n4/8/8/8/3R2K1 w - - 0 1", "d1d5");
    EXPECT_TRUE(is_looking_glass(a.pos(), a.move));
    // An undefended man taken is a plain capture.
    At b(Variant::Alice, "4l3/8/8/3n4/8/8/8/3R2K1 w - - 0 1", "d1d5");
    EXPECT_FALSE(is_looking_glass(b.pos(), b.move));
}

TEST(Themes, AvalanchePushMattersOnlyWhenAnotherPushExists) {
    const char* fen = "4k3/pp6/8/8/8/8/8/4K2R w - - 0 1";
    At two(Variant::Avalanche, fen, "h1h8,a7a6");
    EXPECT_TRUE(push_matters(two.pos(), two.move));
    // No black pawn: no push at all.
    At none(Variant::Avalanche, "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1h8");
    EXPECT_FALSE(push_matters(none.pos(), none.move));
    // Chess knows no push.
    At chess(Variant::Chess, fen, "h1h8");
    EXPECT_FALSE(push_matters(chess.pos(), chess.move));
}

TEST(PuzzleFile, ALineReadsBackAsWritten) {
    Puzzle p;
    p.id = puzzle_id(Variant::Avalanche, "4k3/pp6/8/8/8/8/8/4K2R w - - 0 1");
    p.variant = Variant::Avalanche;
    p.fen = "4k3/pp6/8/8/8/8/8/4K2R w - - 0 1";
    p.solution = {"h1h8,a7a6"};
    p.themes = {"mate", "mateIn1", "push"};
    p.rating = 950;
    p.source = "test";
    std::istringstream in(to_json_line(p) + "\n\n");
    const std::vector<Puzzle> back = read_puzzles(in);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].id, p.id);
    EXPECT_EQ(back[0].id[0], 'v');
    EXPECT_EQ(back[0].variant, Variant::Avalanche);
    EXPECT_EQ(back[0].solution, p.solution);
    EXPECT_EQ(back[0].themes, p.themes);
    EXPECT_EQ(back[0].rating, 950);
    // The id ignores the move counters only.
    EXPECT_EQ(p.id, puzzle_id(Variant::Avalanche, "4k3/pp6/8/8/8/8/8/4K2R w - - 7 30"));
    EXPECT_NE(p.id, puzzle_id(Variant::Chess, "4k3/pp6/8/8/8/8/8/4K2R w - - 0 1"));
    std::istringstream bad("{\"id\": \"x\"}\n");
    EXPECT_THROW(read_puzzles(bad), std::runtime_error);
}

}  // namespace

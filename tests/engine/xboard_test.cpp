// Scripted CECP (xboard) sessions.
#include <gtest/gtest.h>

#include "helpers.h"

namespace echecs::test {
namespace {

std::string xboard_session(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    xboard_loop(in, out);
    return out.str();
}

// The move after the last "move " line.
std::string last_move(const std::string& out) {
    std::string m;
    for (const std::string& l : lines_of(out))
        if (l.rfind("move ", 0) == 0) m = l.substr(5);
    return m;
}

TEST(Xboard, FeaturesListTheThreeGames) {
    const std::string out = xboard_session("xboard\nprotover 2\nquit\n");
    EXPECT_TRUE(contains(out, "variants=\"normal,alice,avalanche\""));
    EXPECT_TRUE(contains(out, "usermove=1"));
    EXPECT_TRUE(contains(out, "setboard=1"));
    EXPECT_TRUE(contains(out, "ping=1"));
    EXPECT_TRUE(contains(out, "feature done=1"));
}

TEST(Xboard, PlaysBlackAfterAUserMove) {
    const std::string out = xboard_session("xboard\nprotover 2\nnew\nlevel 40 0:05 0\nsd 3\nusermove e2e4\nping 7\n");
    const std::string m = last_move(out);
    StateInfo st, st2;
    Position pos;
    pos.set(Variant::Chess, Position::START_FEN, st);
    pos.do_move(parse_uci(pos, "e2e4"), st2);
    EXPECT_NO_THROW(parse_uci(pos, m)) << out;
    EXPECT_TRUE(contains(out, "pong 7"));
}

TEST(Xboard, GoPlaysTheSideToMoveInEachVariant) {
    for (const char* v : {"normal", "alice", "avalanche"}) {
        const std::string out =
            xboard_session(std::string("xboard\nprotover 2\nnew\nvariant ") + v + "\nst 1\nsd 2\ngo\n");
        const std::string m = last_move(out);
        StateInfo st;
        Position pos;
        pos.set(v == std::string("alice")       ? Variant::Alice
                : v == std::string("avalanche") ? Variant::Avalanche
                                                : Variant::Chess,
                Position::START_FEN, st);
        EXPECT_NO_THROW(parse_uci(pos, m)) << v << ": " << out;
    }
}

TEST(Xboard, ForceModeRecordsMovesWithoutThinking) {
    const std::string out = xboard_session(
        "xboard\nprotover 2\nnew\nvariant avalanche\nforce\nusermove g1f3,e7e6\nusermove e6e5,d2d3\nd\n");
    EXPECT_EQ(last_move(out), "");
    EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppp1ppp/8/4p3/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2")) << out;
}

TEST(Xboard, SetboardAndMateAnnouncesTheResult) {
    const std::string out =
        xboard_session("xboard\nprotover 2\nnew\nforce\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\nsd 3\ngo\n");
    EXPECT_EQ(last_move(out), "a1a8");
    EXPECT_TRUE(contains(out, "1-0 {White mates}"));
}

TEST(Xboard, BadInput) {
    const std::string out = xboard_session(
        "xboard\nprotover 2\nnew\nforce\nusermove e2e5\nfrobnicate\nvariant crazyhouse\nsetboard 8/8/8 w - -\n"
        "level x y z\nsd -1\nusermove e2e4\nd\n");
    EXPECT_TRUE(contains(out, "Illegal move: e2e5"));
    EXPECT_TRUE(contains(out, "Error (unknown command): frobnicate"));
    EXPECT_TRUE(contains(out, "Error (unknown variant): crazyhouse"));
    EXPECT_TRUE(contains(out, "Error (FEN:"));
    EXPECT_TRUE(contains(out, "Error (bad level"));
    EXPECT_TRUE(contains(out, "Error (bad number): sd -1"));
    // The legal move after all that was played.
    EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")) << out;
}

TEST(Xboard, UndoAndRemoveTakeMovesBack) {
    const std::string out = xboard_session(
        "xboard\nprotover 2\nnew\nforce\nusermove e2e4\nusermove e7e5\nusermove g1f3\nundo\nremove\nd\nremove\n");
    EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")) << out;
    EXPECT_TRUE(contains(out, "Error (no moves to remove)"));
}

TEST(Xboard, MoveNowAndQuitDuringThinking) {
    const std::string out = xboard_session("xboard\nprotover 2\nnew\nlevel 0 60 0\ngo\n?\nquit\n");
    EXPECT_FALSE(last_move(out).empty()) << out;
}

}  // namespace
}  // namespace echecs::test

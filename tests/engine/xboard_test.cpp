// Scripted CECP (xboard) sessions.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "engine/uci_process.h"
#include "engine/xboard_moves.h"
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
        EXPECT_NO_THROW(engine::parse_xboard_move(pos, m)) << v << ": " << out;
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

TEST(Xboard, AvalancheTellsTheUserWhereItCanBeSeen) {
    const std::string out = xboard_session("xboard\nprotover 2\nnew\nvariant avalanche\nnew\nvariant alice\n");
    EXPECT_TRUE(contains(out, "setup (PNBRQKpnbrqk) 8x8+0_fairy")) << out;
    const auto l = lines_of(out);
    EXPECT_EQ(std::count_if(l.begin(), l.end(), [](const std::string& s) { return s.rfind("telluser ", 0) == 0; }), 1)
        << out;
    EXPECT_TRUE(contains(out, "telluser XBoard cannot show or enter Avalanche's pawn push")) << out;
    EXPECT_TRUE(contains(out, "echecs web client")) << out;
}

TEST(Xboard, MoveNowAndQuitDuringThinking) {
    const std::string out = xboard_session("xboard\nprotover 2\nnew\nlevel 0 60 0\ngo\n?\nquit\n");
    EXPECT_FALSE(last_move(out).empty()) << out;
}

// Replays what Debian's xboard 4.9.1 sent to the first engine in a recorded
// engine-versus-engine game (tests/engine/data/xboard_<variant>.txt, made from
// `xboard -debug` logs of games at depth 4, so that the engine's answers are
// deterministic) and checks every answer that matters to xboard: features,
// the variant's setup line, each move, each pong (after the move it follows),
// results and errors, in order. A move the search now chooses differently is
// taken back and replaced by the recorded one, so that a search change does
// not end the replay.
// The engine's name carries the version and commit, which the recording cannot know.
std::string without_version(std::string line) {
    const auto at = line.find("myname=\"");
    if (at == std::string::npos) return line;
    const auto end = line.find('"', at + 8);
    return end == std::string::npos ? line : line.replace(at + 8, end - at - 8, "*");
}

void replay(const std::string& variant) {
    std::ifstream f(test_path(ECHECS_XBOARD_DATA) + "/xboard_" + variant + ".txt");
    ASSERT_TRUE(f) << variant;
    engine::UciProcess e(test_path(ECHECS_UCI_STUB));
    auto relevant = [](const std::string& l) {
        for (const char* p : {"move ", "pong ", "setup ", "feature ", "highlight ", "choice ", "1-0", "0-1", "1/2-1/2",
                              "Error", "Illegal"})
            if (l.rfind(p, 0) == 0) return true;
        return false;
    };
    int n = 0, answers = 0, resynced = 0;
    for (std::string line; std::getline(f, line);) {
        ++n;
        if (line.rfind("> ", 0) == 0) {
            e.send(line.substr(2));
            continue;
        }
        ASSERT_EQ(line.rfind("< ", 0), 0u) << variant << " line " << n;
        std::optional<std::string> got;
        while ((got = e.read_line(60000)) && !relevant(*got)) {
        }
        ASSERT_TRUE(got) << variant << " line " << n << ": no answer, expected " << line.substr(2);
        ++answers;
        const std::string want = line.substr(2);
        if (want.rfind("move ", 0) == 0 && got->rfind("move ", 0) == 0 && *got != want) {
            // The engine chose another move than the recorded one (the
            // search has changed since the recording): its move was sent in
            // the protocol's form; take it back and play the recorded one, as
            // XBoard's "force, undo, move, playother" would, so that the rest
            // of the session is the recorded game.
            ++resynced;
            e.send("force");
            e.send("undo");
            e.send("usermove " + want.substr(5));
            e.send("playother");
            continue;
        }
        EXPECT_EQ(without_version(*got), without_version(want)) << variant << " line " << n;
    }
    EXPECT_GT(answers, 10) << variant;
    EXPECT_LT(resynced, answers) << variant;
}

TEST(XboardReplay, ChessGame) { replay("normal"); }
TEST(XboardReplay, AliceGame) { replay("alice"); }
// A human (xdotool dragging pieces in XBoard's window) against the engine:
// every lift answered by the highlight of the legal destinations, every put
// by the arriving piece's choice.
TEST(XboardReplay, AliceHumanAgainstEngine) { replay("alice_human"); }
TEST(XboardReplay, AvalancheGameUntilXboardLosesTrackOfThePush) { replay("avalanche"); }

TEST(Xboard, FractionalLevelIncrementAndStDecimals) {
    const std::string out =
        xboard_session("xboard\nprotover 2\nnew\nlevel 0 0:20 0.2\nst 0.5\nlevel 40 1.5 0\nlevel 0 0:20 x\nst -1\n");
    EXPECT_FALSE(contains(out, "Error (bad level, expected 'level MPS BASE INC'): level 0 0:20 0.2")) << out;
    EXPECT_FALSE(contains(out, "st 0.5")) << out;
    EXPECT_FALSE(contains(out, "level 40 1.5 0")) << out;
    EXPECT_TRUE(contains(out, "Error (bad level, expected 'level MPS BASE INC'): level 0 0:20 x")) << out;
    EXPECT_TRUE(contains(out, "Error (bad number): st -1")) << out;
}

TEST(Xboard, PongComesAfterTheMoveBeingThought) {
    // ping right after the move that starts the engine thinking.
    const std::string out = xboard_session("xboard\nprotover 2\nnew\nst 0.3\nusermove e2e4\nping 9\n");
    const auto m = out.find("\nmove "), p = out.find("pong 9");
    ASSERT_NE(m, std::string::npos) << out;
    ASSERT_NE(p, std::string::npos) << out;
    EXPECT_LT(m, p) << out;
}

TEST(Xboard, AnalyzeModeFollowsTheBoardAndAnswersPeriodicUpdates) {
    engine::UciProcess e(test_path(ECHECS_UCI_STUB));
    for (const char* l : {"xboard", "protover 2", "new", "variant alice", "post", "analyze"}) e.send(l);
    auto until = [&](const std::string& prefix) {
        while (auto l = e.read_line(60000))
            if (l->rfind(prefix, 0) == 0) return *l;
        return std::string();
    };
    EXPECT_FALSE(until("3 ").empty());  // thinking output reaches depth 3
    e.send("usermove e2e4s");           // the board changes: analysis goes on from there
    e.send(".");
    const std::string stat = until("stat01: ");
    EXPECT_FALSE(stat.empty());
    e.send("exit");
    e.send("ping 5");
    EXPECT_EQ(until("pong "), "pong 5");
    e.send("d");
    EXPECT_TRUE(contains(until("Fen: "), "rnbqkbnr/pppppppp/8/8/4S3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
}

TEST(Xboard, HardPondersAndAHitPlaysOnTheClock) {
    engine::UciProcess e(test_path(ECHECS_UCI_STUB));
    for (const char* l :
         {"xboard", "protover 2", "new", "hard", "level 0 1 0", "time 6000", "otim 6000", "usermove e2e4"})
        e.send(l);
    auto until = [&](const std::string& prefix) {
        while (auto l = e.read_line(60000))
            if (l->rfind(prefix, 0) == 0) return *l;
        return std::string();
    };
    const std::string first = until("move ");
    ASSERT_FALSE(first.empty());
    e.send("hint");
    const std::string hint = until("Hint: ");
    ASSERT_FALSE(hint.empty());
    // Play the move the engine expects: it answers from its ponder search.
    e.send("time 5900");
    e.send("usermove " + hint.substr(6));
    EXPECT_FALSE(until("move ").empty());
    // A move it did not expect: the ponder search is dropped, a new one answers.
    e.send("easy");
    e.send("ping 3");
    EXPECT_EQ(until("pong "), "pong 3");
}

TEST(Xboard, OptionsMemoryCoresHintAndBook) {
    const std::string out = xboard_session(
        "xboard\nprotover 2\nnew\nmemory 64\ncores 2\noption MultiPV=2\noption Skill Level=5\noption Bogus=1\n"
        "option Clear Hash\nbk\nsd 3\ngo\n");
    EXPECT_TRUE(contains(out, "feature option=\"MultiPV -spin 1 1 5\"")) << out;
    EXPECT_TRUE(contains(out, "Error (bad option): option Bogus=1")) << out;
    EXPECT_TRUE(contains(out, "\techecs has no opening book\n\n")) << out;
    EXPECT_FALSE(last_move(out).empty()) << out;
}

TEST(Xboard, AliceMovesCarryTheArrivingPieceAndHighlightsAskForIt) {
    StateInfo st;
    Position pos;
    pos.set(Variant::Alice, Position::START_FEN, st);
    EXPECT_EQ(engine::xboard_move(pos, parse_uci(pos, "e2e4")), "e2e4s");  // the pawn passes to board B
    EXPECT_EQ(engine::xboard_move(pos, parse_uci(pos, "g1f3")), "g1f3o");
    EXPECT_EQ(engine::parse_xboard_move(pos, "e2e4s"), parse_uci(pos, "e2e4"));
    EXPECT_EQ(engine::parse_xboard_move(pos, "e2e4"), parse_uci(pos, "e2e4"));
    EXPECT_EQ(engine::xboard_highlight(pos, "g1"), "8/8/8/8/8/5B1B/8/8");
    EXPECT_EQ(engine::xboard_choice(pos, "g1", "f3"), 'o');
    EXPECT_EQ(engine::xboard_choice(pos, "g1", "g3"), 0);
    EXPECT_TRUE(engine::xboard_setup(Variant::Alice).rfind("setup (", 0) == 0);
    EXPECT_TRUE(engine::xboard_setup(Variant::Chess).empty());
    // A session: lift and put answered as xboard expects.
    const std::string out = xboard_session("xboard\nprotover 2\nnew\nvariant alice\nforce\nlift e2\nput e4\nlift a1\n");
    EXPECT_TRUE(contains(out, "highlight 8/8/8/8/4B3/4B3/8/8\nchoice s\n")) << out;
}

TEST(Xboard, AvalancheReadsXboardsRelayOfAMove) {
    StateInfo st;
    Position pos;
    pos.set(Variant::Avalanche, Position::START_FEN, st);
    // xboard turns "d2d4,f7f6" into "d2f7,f7d4": from, the pushed pawn, to.
    EXPECT_EQ(engine::parse_xboard_move(pos, "d2f7,f7d4"), parse_uci(pos, "d2d4,f7f6"));
    EXPECT_EQ(engine::parse_xboard_move(pos, "d2d4,f7f6"), parse_uci(pos, "d2d4,f7f6"));
    EXPECT_THROW(engine::parse_xboard_move(pos, "d2d8,d8d4"), NotationError);
}

}  // namespace
}  // namespace echecs::test

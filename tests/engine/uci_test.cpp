// Scripted UCI sessions: the commands of the rules-core issue, options,
// search commands and bad input.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "engine/engine.h"
#include "helpers.h"

namespace echecs::test {
namespace {

TEST(Uci, Handshake) {
    const std::string out = uci_session("uci\nisready\nquit\n");
    const auto l = lines_of(out);
    ASSERT_GE(l.size(), 3u);
    EXPECT_EQ(l[0].rfind("id name echecs", 0), 0u);
    EXPECT_TRUE(contains(out, "option name UCI_Variant type combo default chess var chess var alice var avalanche"));
    EXPECT_TRUE(contains(out, "option name Hash type spin"));
    EXPECT_TRUE(contains(out, "option name Skill Level type spin default 20 min 0 max 20"));
    EXPECT_TRUE(contains(out, "option name UCI_LimitStrength type check default false"));
    EXPECT_TRUE(contains(out, "option name UCI_Elo type spin"));
    EXPECT_EQ(l[l.size() - 2], "uciok");
    EXPECT_EQ(l.back(), "readyok");
}

TEST(Uci, PerftPrintsEachRootMoveThenTotalLikeStockfish) {
    const auto l = lines_of(uci_session("position startpos\ngo perft 3\n"));
    ASSERT_EQ(l.size(), 20u + 3u);  // 20 moves, blank line, total, blank line
    for (int i = 0; i < 20; ++i) EXPECT_NE(l[i].find(": "), std::string::npos) << l[i];
    EXPECT_TRUE(contains(uci_session("position startpos\ngo perft 3\n"), "a2a3: 380\n"));
    EXPECT_EQ(l[20], "");
    EXPECT_EQ(l[21], "Nodes searched: 8902");
}

TEST(Uci, PerftInEachVariant) {
    EXPECT_TRUE(contains(uci_session("setoption name UCI_Variant value avalanche\nposition startpos\ngo perft 1\n"),
                         "Nodes searched: 160\n"));
    EXPECT_TRUE(contains(uci_session("setoption name UCI_Variant value alice\nposition startpos\ngo perft 1\n"),
                         "Nodes searched: 20\n"));
    // Avalanche coordinate moves with a push, and with a pending choice.
    const std::string out =
        uci_session("setoption name UCI_Variant value avalanche\nposition startpos moves g1f3,e7e6 e6e5,d2d3\nd\n");
    EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppp1ppp/8/4p3/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2")) << out;
}

TEST(Uci, DisplaysBothAliceBoards) {
    const std::string out =
        uci_session("setoption name UCI_Variant value alice\nposition startpos moves g1f3 d7d5 c2c4 d5c4\nd\n");
    EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3")) << out;
}

TEST(Uci, BadInputIsReportedAndChangesNothing) {
    const std::string out = uci_session(
        "position startpos moves e2e4\n"
        "frobnicate\n"
        "setoption name NoSuchOption value 3\n"
        "setoption name UCI_Variant value crazyhouse\n"
        "setoption name Hash value lots\n"
        "position startpos moves e2e4 e7e5 e1e3\n"
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq\n"
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBXR w KQkq - 0 1\n"
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1\n"
        "position sideways\n"
        "go depth x\n"
        "go sideways 3\n"
        "go perft 99\n"
        "d\n");
    EXPECT_TRUE(contains(out, "info string unknown command 'frobnicate'"));
    EXPECT_TRUE(contains(out, "info string unknown option 'NoSuchOption'"));
    EXPECT_TRUE(contains(out, "info string option UCI_Variant: unknown variant 'crazyhouse'"));
    EXPECT_TRUE(contains(out, "info string option Hash: value 'lots'"));
    EXPECT_TRUE(contains(out, "info string illegal move"));
    EXPECT_TRUE(contains(out, "e1e3"));
    EXPECT_TRUE(contains(out, "info string FEN:"));
    EXPECT_TRUE(contains(out, "info string position: expected 'startpos' or 'fen <FEN>'"));
    EXPECT_TRUE(contains(out, "info string go: 'depth' needs a non-negative number"));
    EXPECT_TRUE(contains(out, "info string go: unknown parameter 'sideways'"));
    EXPECT_TRUE(contains(out, "info string go perft: depth must be 1..12"));
    // Still the position after 1.e4, in chess.
    EXPECT_TRUE(contains(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")) << out;
    EXPECT_FALSE(contains(out, "bestmove"));
}

TEST(Uci, EvalWeightsOptionChangesTheEvaluationAndRejectsUnknownNames) {
    const auto evals = [](const std::string& out) {
        std::vector<std::string> v;
        for (const std::string& l : lines_of(out))
            if (l.rfind("info string eval ", 0) == 0) v.push_back(l);
        return v;
    };
    const std::string fen = "position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n";
    const std::string out = uci_session(fen + "eval\nsetoption name Eval Weights value material.queen=2000\neval\n" +
                                        "setoption name Eval Weights value queen=5\neval\n" +
                                        "setoption name Eval Weights value <empty>\neval\n");
    const auto e = evals(out);
    ASSERT_EQ(e.size(), 4u) << out;
    EXPECT_NE(e[0], e[1]);  // the queen is now worth 2000
    EXPECT_EQ(e[1], e[2]);  // a bad override leaves the last good one
    EXPECT_EQ(e[0], e[3]);  // <empty>: back to the committed weights
    EXPECT_TRUE(contains(out, "info string option Eval Weights: unknown weight 'queen'; weights unchanged")) << out;
}

TEST(Uci, VariantOptionResetsToItsStartPosition) {
    const std::string out =
        uci_session("position startpos moves e2e4\nsetoption name UCI_Variant value avalanche\ngo perft 1\n");
    EXPECT_TRUE(contains(out, "Nodes searched: 160"));
}

TEST(Uci, GoAnswersWithALegalBestmoveInEachGame) {
    for (const char* v : {"chess", "alice", "avalanche"}) {
        const std::string out = uci_session(std::string("setoption name UCI_Variant value ") + v +
                                            "\nucinewgame\nposition startpos\ngo depth 3\n");
        const std::string m = last_bestmove(out);
        StateInfo st;
        Position pos;
        pos.set(v == std::string("alice")       ? Variant::Alice
                : v == std::string("avalanche") ? Variant::Avalanche
                                                : Variant::Chess,
                Position::START_FEN, st);
        EXPECT_NO_THROW(parse_uci(pos, m)) << v << ": " << m;
    }
}

TEST(Uci, ClockAndMovetimeSearchesEnd) {
    EXPECT_FALSE(last_bestmove(uci_session("position startpos\ngo wtime 300 btime 300 winc 10 binc 10\n")).empty());
    EXPECT_FALSE(last_bestmove(uci_session("position startpos\ngo movetime 50\n")).empty());
    EXPECT_FALSE(
        last_bestmove(uci_session("position startpos moves e2e4\ngo wtime 1000 btime 200 movestogo 5\n")).empty());
}

TEST(Uci, StopEndsAnInfiniteSearchWithABestmove) {
    const std::string out = uci_session("position startpos\ngo infinite\nisready\nstop\nisready\n");
    EXPECT_FALSE(last_bestmove(out).empty());
    EXPECT_TRUE(contains(out, "readyok"));
}

TEST(Uci, QuitDuringSearchStillAnswers) {
    const std::string out = uci_session("position startpos\ngo infinite\nquit\n");
    EXPECT_FALSE(last_bestmove(out).empty());
}

TEST(Uci, SkillLevelZeroAndLimitStrengthPlayLegalMoves) {
    // Skill Level 0 is level 1: at most its depth cap (two plies, and
    // quiescence; its node cap may end the last iteration early).
    const int depth1 = engine::level_strength(Variant::Chess, 1).depth;
    ASSERT_GT(depth1, 0);
    const std::string out = uci_session("setoption name Skill Level value 0\nposition startpos\ngo depth 10\n");
    EXPECT_TRUE(contains(out, "info depth 1 ")) << out;
    EXPECT_FALSE(contains(out, "info depth " + std::to_string(depth1 + 1) + " ")) << out;
    EXPECT_FALSE(last_bestmove(out).empty());
    // UCI_Elo at level 3's rating is level 3 on the chess ladder: at most
    // its depth cap, and its node cap ends the search long before depth 20.
    const int depth3 = engine::level_strength(Variant::Chess, 3).depth;
    ASSERT_GT(depth3, 0);
    const std::string beyond3 = "info depth " + std::to_string(depth3 + 1) + " ";
    const std::string weak = uci_session("setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value " +
                                         std::to_string(engine::level_rating(Variant::Chess, 3)) +
                                         "\nposition startpos moves e2e4\ngo depth 20\n");
    EXPECT_TRUE(contains(weak, "info depth 1 ")) << weak;
    EXPECT_FALSE(contains(weak, beyond3)) << weak;
    EXPECT_FALSE(last_bestmove(weak).empty());
    // The Level option picks the same point of the ladder.
    const std::string level = uci_session("setoption name Level value 3\nposition startpos moves e2e4\ngo depth 20\n");
    EXPECT_TRUE(contains(level, "info depth 1 ")) << level;
    EXPECT_FALSE(contains(level, beyond3)) << level;
    EXPECT_FALSE(last_bestmove(level).empty());
    // The two-ply material player is an option of its own.
    const std::string anchor =
        uci_session("setoption name Fixed Player value material2\nposition startpos\ngo depth 10\n");
    EXPECT_TRUE(contains(anchor, "info depth 2 "));
    EXPECT_FALSE(contains(anchor, "info depth 3 "));
}

TEST(Uci, XboardFirstCommandHandsOver) {
    const std::string out = uci_session("xboard\nprotover 2\nquit\n");
    EXPECT_TRUE(contains(out, "feature "));
    EXPECT_TRUE(contains(out, "done=1"));
}

}  // namespace
}  // namespace echecs::test

namespace echecs::test {
namespace {

// Random command lines built from protocol words, numbers and junk: the loop
// must answer every line without crashing, and end normally.
TEST(Uci, RandomCommandsNeverCrash) {
    const std::vector<std::string> words = {"uci",
                                            "isready",
                                            "ucinewgame",
                                            "setoption",
                                            "name",
                                            "value",
                                            "UCI_Variant",
                                            "alice",
                                            "avalanche",
                                            "chess",
                                            "Hash",
                                            "Skill",
                                            "Level",
                                            "position",
                                            "startpos",
                                            "fen",
                                            "moves",
                                            "go",
                                            "depth",
                                            "nodes",
                                            "movetime",
                                            "perft",
                                            "wtime",
                                            "btime",
                                            "winc",
                                            "binc",
                                            "movestogo",
                                            "infinite",
                                            "stop",
                                            "d",
                                            "eval",
                                            "e2e4",
                                            "e7e5",
                                            "g1f3,e7e6",
                                            "q:a7a8",
                                            "e1g1",
                                            "0",
                                            "1",
                                            "2",
                                            "-1",
                                            "99999999999999999999",
                                            "8/8/8/8/8/8/8/8",
                                            "w",
                                            "b",
                                            "KQkq",
                                            "-",
                                            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                                            "\t",
                                            "xyzzy",
                                            ",",
                                            ":",
                                            "ponderhit"};
    std::mt19937 rng(7);
    std::string script;
    for (int i = 0; i < 1500; ++i) {
        std::string line;
        const int n = 1 + int(rng() % 8);
        for (int j = 0; j < n; ++j) {
            std::string w = words[rng() % words.size()];
            // Keep the searches and perfts short.
            if (w == "infinite" || w == "wtime" || w == "btime" || w == "movetime") w = "nodes";
            line += (j ? " " : "") + w;
        }
        if (line.find("go") != std::string::npos) line = "go nodes 200";
        script += line + "\n";
    }
    script += "isready\n";
    const std::string out = uci_session(script);
    EXPECT_TRUE(contains(out, "readyok"));
}

}  // namespace
}  // namespace echecs::test

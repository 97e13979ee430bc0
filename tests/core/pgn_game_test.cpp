// PGN games replayed (the end judged at each position, the declared result)
// and written (tags, termination, comments, round trips).
#include <gtest/gtest.h>

#include "core/pgn.h"
#include "helpers.h"

namespace echecs::test {
namespace {

PgnReplay replay_text(const std::string& text, std::unique_ptr<Game>* keep = nullptr) {
    const auto games = read_pgn(text);
    EXPECT_EQ(games.size(), 1u);
    EXPECT_TRUE(games[0].error.empty()) << games[0].error;
    auto game = start_game(games[0]);
    PgnReplay r = replay(games[0], *game);
    if (keep) *keep = std::move(game);
    return r;
}

TEST(PgnReplay, EndsAtTheRepetitionNotAtTheLastMove) {
    std::unique_ptr<Game> game;
    const PgnReplay r = replay_text(
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Ng1 Nb8 6. Nc3 Nf6 7. d4 1-0", &game);
    EXPECT_TRUE(r.by_rules);
    EXPECT_EQ(r.result.outcome, Outcome::Draw);
    EXPECT_EQ(r.result.termination, Termination::Repetition);
    EXPECT_EQ(r.plies, 10);
    EXPECT_EQ(r.ignored, 3);
    EXPECT_EQ(game->moves().size(), 10u);
    EXPECT_EQ(r.summary(), "1/2-1/2 threefold repetition after 10 plies; 3 more plies ignored (the PGN says 1-0)");
}

TEST(PgnReplay, EndsAtTheFiftyMoveRuleMateStalemateAndDeadPosition) {
    const PgnReplay fifty = replay_text(
        "[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/4K3/8/R7 w - - 98 60\"]\n\n60. Ra2 Kd6 61. Ra3 Kc6 62. Kd4 Kb6 1-0");
    EXPECT_EQ(fifty.result.termination, Termination::FiftyMoves);
    EXPECT_EQ(fifty.plies, 2);
    EXPECT_EQ(fifty.ignored, 4);
    // Moves after the end are not played, so not checked: 3. Kf2 is illegal.
    const PgnReplay mate = replay_text("1. f3 e5 2. g4 Qh4# 3. Kf2 Qxh2+ 0-1");
    EXPECT_EQ(mate.result.termination, Termination::Checkmate);
    EXPECT_EQ(mate.summary(), "0-1 checkmate after 4 plies; 2 more plies ignored");
    const PgnReplay stale = replay_text("[SetUp \"1\"]\n[FEN \"k7/8/1K6/8/8/8/8/2Q5 w - - 0 1\"]\n\n1. Qc7 Ka8 1-0");
    EXPECT_EQ(stale.result.termination, Termination::Stalemate);
    EXPECT_EQ(stale.ignored, 1);
    const PgnReplay dead = replay_text(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/1n6/8/3B4/8/4KB2 w - - 0 1\"]\n\n1. Bxb5+ Kd8 2. Be2 Ke7 3. Bc4 1-0");
    EXPECT_EQ(dead.result.termination, Termination::InsufficientMaterial);
    EXPECT_EQ(dead.summary(), "1/2-1/2 dead position after 1 ply; 4 more plies ignored (the PGN says 1-0)");
    // A start position that is already over: nothing is played.
    const PgnReplay aval = replay_text(
        "[Variant \"Avalanche\"]\n[SetUp \"1\"]\n[FEN \"8/b4P2/8/2p5/8/7q/8/k5K1 w - - 0 1\"]\n\n1. Kf2 0-1");
    EXPECT_EQ(aval.result.termination, Termination::AvalancheLoss);
    EXPECT_EQ(aval.plies, 0);
    EXPECT_EQ(aval.ignored, 1);
}

TEST(PgnReplay, DeclaredResultFromTerminationTags) {
    auto declared = [](const std::string& tags, const char* result) {
        auto g = read_pgn(tags + "\n1. e4 e5 " + result);
        return declared_result(g.at(0));
    };
    EXPECT_EQ(declared("[Termination \"Time forfeit\"]", "0-1").termination, Termination::TimeForfeit);
    EXPECT_EQ(declared("[Termination \"time forfeit\"]", "0-1").outcome, Outcome::BlackWins);
    EXPECT_EQ(declared("[Termination \"Normal\"]", "1-0").termination, Termination::Resignation);
    EXPECT_EQ(declared("[Termination \"Normal\"]", "1/2-1/2").termination, Termination::Agreement);
    EXPECT_EQ(declared("[Termination \"Abandoned\"]", "1-0").termination, Termination::Abandonment);
    EXPECT_EQ(declared("[Termination \"abandoned\"]", "*").termination, Termination::Aborted);
    EXPECT_EQ(declared("[Termination \"adjudication\"]", "1-0").termination, Termination::Adjudication);
    EXPECT_EQ(declared("[Termination \"Rules infraction\"]", "0-1").termination, Termination::RulesInfraction);
    EXPECT_EQ(declared("[Termination \"unterminated\"]", "*").termination, Termination::None);
    EXPECT_EQ(declared("", "1-0").termination, Termination::None);
    EXPECT_EQ(declared("[Termination \"Game drawn by timeout vs insufficient material\"]", "1/2-1/2").termination,
              Termination::TimeForfeit);
    EXPECT_EQ(declared("[Termination \"bob won - game abandoned\"]", "0-1").termination, Termination::Abandonment);
    EXPECT_EQ(declared("[Termination \"something else\"]", "0-1").termination, Termination::None);
    EXPECT_EQ(declared("", "1-0").outcome, Outcome::WhiteWins);
    // The precise reason wins over the PGN value.
    EXPECT_EQ(declared("[Termination \"Normal\"]\n[EchecsTermination \"agreement\"]", "1/2-1/2").termination,
              Termination::Agreement);
    EXPECT_EQ(declared("[Termination \"Time forfeit\"]\n[EchecsTermination \"time forfeit\"]", "1/2-1/2").outcome,
              Outcome::Draw);
    // Tags only: the Result tag.
    auto tags_only = read_pgn("[Result \"0-1\"]\n[Termination \"Normal\"]\n");
    EXPECT_EQ(declared_result(tags_only.at(0)).outcome, Outcome::BlackWins);
}

TEST(PgnReplay, ReplayErrorsNameGameLineAndMove) {
    const std::string text = "[Event \"ok\"]\n\n1. e4 e5 *\n\n[Event \"illegal\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n";
    auto games = read_pgn(text);
    ASSERT_EQ(games.size(), 2u);
    auto game = start_game(games[1]);
    try {
        replay(games[1], *game);
        ADD_FAILURE();
    } catch (const PgnError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("game 2, line 8, move 2. Ke3: illegal move 'Ke3'", 0), 0u) << e.what();
    }
    auto bad_fen = read_pgn("[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *");
    try {
        start_game(bad_fen.at(0));
        ADD_FAILURE();
    } catch (const PgnError& e) {
        EXPECT_EQ(std::string(e.what()), "game 1, line 1, FEN tag: piece placement field: 3 ranks, not 8");
    }
}

// ---------------------------------------------------------------- writing

TEST(PgnWrite, WriteThenReadGivesTheSameGameInAllVariants) {
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        std::uint64_t seed = 42;
        for (int n = 0; n < 10; ++n) {
            Game g(v);
            std::vector<std::string> comments;
            for (int ply = 0; ply < 80; ++ply) {
                MoveList list;
                g.legal_moves(list);
                if (list.empty()) break;
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                g.play(list.moves[(seed >> 33) % list.size()]);
                comments.push_back(ply % 3 ? "[%clk 0:04:" + std::to_string(10 + ply % 50) + "]" : "");
            }
            const GameResult result = g.result();
            const std::string text = write_pgn(g, {{"Event", "round trip"}}, result, comments);
            auto games = read_pgn(text);
            ASSERT_EQ(games.size(), 1u) << text;
            ASSERT_TRUE(games[0].error.empty()) << games[0].error;
            auto back = start_game(games[0]);
            const PgnReplay r = replay(games[0], *back);
            EXPECT_EQ(back->moves(), g.moves()) << text;
            EXPECT_EQ(r.ignored, 0);
            EXPECT_EQ(games[0].result, std::string(pgn_result(result.outcome)));
            EXPECT_EQ(r.result.termination, result.termination) << text;
            for (std::size_t i = 0; i < games[0].moves.size(); ++i) {
                EXPECT_EQ(games[0].moves[i].comment, comments[i]) << text;
                if (!comments[i].empty()) {
                    EXPECT_EQ(games[0].moves[i].commands.at(0).name, "clk");
                }
            }
            for (const std::string& line : [&] {
                     std::vector<std::string> lines;
                     std::stringstream ss(text);
                     for (std::string l; std::getline(ss, l);) lines.push_back(l);
                     return lines;
                 }())
                EXPECT_LT(line.size(), 80u) << line;
        }
    }
}

TEST(PgnWrite, TerminationTagsAndPreciseReason) {
    Game g(Variant::Chess);
    for (const char* san : {"f3", "e5", "g4", "Qh4#"}) g.play_san(san);
    // A caller's own Termination tag gives way to the result's.
    const std::string text = write_pgn(g, {{"Termination", "checkmate"}, {"Annotator", "x"}}, g.result());
    EXPECT_NE(text.find("[Termination \"Normal\"]\n[EchecsTermination \"checkmate\"]\n[Annotator \"x\"]"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("[Termination \"checkmate\"]"), std::string::npos) << text;
    Game h(Variant::Chess);
    h.play_san("e4");
    const std::string flag = write_pgn(h, {}, {Outcome::WhiteWins, Termination::TimeForfeit});
    EXPECT_NE(flag.find("[Termination \"Time forfeit\"]\n[EchecsTermination \"time forfeit\"]"), std::string::npos);
    auto back = read_pgn(flag);
    EXPECT_EQ(declared_result(back.at(0)).termination, Termination::TimeForfeit);
    // A caller's precise reason is kept.
    const std::string own = write_pgn(h, {{"EchecsTermination", "illegal move 'e7e4' by B"}},
                                      {Outcome::WhiteWins, Termination::RulesInfraction});
    EXPECT_NE(own.find("[Termination \"Rules infraction\"]\n[EchecsTermination \"illegal move 'e7e4' by B\"]"),
              std::string::npos)
        << own;
    // Without a termination, the caller's tag stays.
    const std::string plain = write_pgn(h, {{"Termination", "Unterminated"}}, {});
    EXPECT_NE(plain.find("[Termination \"Unterminated\"]"), std::string::npos);
    EXPECT_EQ(plain.find("EchecsTermination"), std::string::npos);
}

TEST(PgnWrite, CommentsAfterMovesAndTheMoveNumberAfterThem) {
    Game g(Variant::Chess);
    for (const char* san : {"e4", "e5", "Nf3"}) g.play_san(san);
    const std::vector<std::string> comments = {"[%clk 0:04:58]", "", "a } brace\nand a line"};
    const std::string text = write_pgn(g, {}, {}, comments);
    EXPECT_NE(text.find("1. e4 {[%clk 0:04:58]} 1... e5 2. Nf3 {a ) brace and a line} *"), std::string::npos) << text;
    // Fewer comments than moves, or none, is fine.
    EXPECT_NE(write_pgn(g, {}, {}, std::vector<std::string>{"x"}).find("1. e4 {x} 1... e5 2. Nf3 *"),
              std::string::npos);
    // A long comment wraps at spaces and reads back as one line.
    const std::string long_comment(30, 'a');
    const std::vector<std::string> many = {long_comment + " " + long_comment + " " + long_comment};
    const std::string wrapped = write_pgn(g, {}, {}, many);
    EXPECT_EQ(read_pgn(wrapped).at(0).moves[0].comment, many[0]);
}

TEST(PgnWrite, TagValuesAreOneLineOfValidUtf8) {
    Game g(Variant::Chess);
    const std::string text = write_pgn(g, {{"Event", "two\nlines"}, {"White", "M\xFCller"}}, g.result());
    auto back = read_pgn(text);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_TRUE(back[0].error.empty()) << back[0].error;
    EXPECT_EQ(back[0].tag("Event"), "two lines");
    EXPECT_EQ(back[0].tag("White"), "M\u00fcller");  // a Windows-1252 byte written as UTF-8
}

TEST(PgnWrite, SetUpAndFenTagsAreWrittenAndRead) {
    Game g(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1");
    g.play_uci("q:d1d5");
    const std::string text = write_pgn(g, {}, g.result());
    EXPECT_NE(text.find("[Variant \"Avalanche\"]"), std::string::npos);
    EXPECT_NE(text.find("[SetUp \"1\"]"), std::string::npos);
    EXPECT_NE(text.find("[FEN \"4k3/8/8/8/8/8/K7/3p4 b - - 0 1\"]"), std::string::npos);
    EXPECT_NE(text.find("1... Q:Qd5+"), std::string::npos) << text;
    auto games = read_pgn(text);
    auto back = start_game(games[0]);
    replay(games[0], *back);
    EXPECT_EQ(back->position().fen(), g.position().fen());
}

}  // namespace
}  // namespace echecs::test

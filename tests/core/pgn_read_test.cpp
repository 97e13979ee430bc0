// PGN reading as real tools write it (tests/data/pgn: lichess, ChessBase,
// older programs and hand editing, the variants) and bad input.
#include <gtest/gtest.h>

#include "core/pgn.h"
#include "core/utf8.h"
#include "helpers.h"

namespace echecs::test {
namespace {

std::string read_file(const std::string& name) {
    std::ifstream in(echecs::test::test_path(ECHECS_TESTDATA) + "/pgn/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Replays a read game; fails the test on an error.
PgnReplay replayed(const PgnGame& g) {
    EXPECT_TRUE(g.error.empty()) << g.error;
    auto game = start_game(g);
    return replay(g, *game);
}

TEST(PgnRead, LichessExportWithClocksEvalsAndAnalysis) {
    const auto games = read_pgn(read_file("lichess.pgn"));
    ASSERT_EQ(games.size(), 4u);
    const PgnGame& g = games[0];
    EXPECT_EQ(g.tag("Variant"), "Standard");
    EXPECT_EQ(g.variant(), Variant::Chess);
    ASSERT_EQ(g.moves.size(), 13u);
    EXPECT_EQ(g.moves[0].commands, (std::vector<PgnCommand>{{"eval", "0.36"}, {"clk", "0:03:00"}}));
    // 3... Bg4?!: the glyph is a NAG; the analysis comment, with its
    // parentheses and arrow, is kept before the clock comment.
    const PgnMove& bg4 = g.moves[5];
    EXPECT_EQ(bg4.san, "Bg4");
    EXPECT_EQ(bg4.number, 3);
    EXPECT_EQ(bg4.side, BLACK);
    EXPECT_EQ(bg4.nags, std::vector<int>{6});
    EXPECT_EQ(bg4.comment, "(0.40 \u2192 1.06) Inaccuracy. Nf6 was best. [%eval 1.06] [%clk 0:02:55]");
    EXPECT_EQ(bg4.commands.back(), (PgnCommand{"clk", "0:02:55"}));
    EXPECT_EQ(g.moves[8].nags, std::vector<int>{1});  // 5. Nxe5!
    const PgnReplay r = replayed(g);
    EXPECT_TRUE(r.by_rules);
    EXPECT_EQ(r.result.termination, Termination::Checkmate);
    EXPECT_EQ(r.summary(), "1-0 checkmate after 13 plies");

    // [Variant "From Position"] with FEN and SetUp, starting at move 40.
    EXPECT_EQ(games[1].variant(), Variant::Chess);
    EXPECT_EQ(games[1].moves[0].number, 40);
    EXPECT_EQ(replayed(games[1]).result.termination, Termination::Checkmate);
    // Termination "Time forfeit" and "Normal" when the board has not ended it.
    EXPECT_EQ(replayed(games[2]).result.termination, Termination::TimeForfeit);
    const PgnReplay resigned = replayed(games[3]);
    EXPECT_FALSE(resigned.by_rules);
    EXPECT_EQ(resigned.result.outcome, Outcome::BlackWins);
    EXPECT_EQ(resigned.result.termination, Termination::Resignation);
}

TEST(PgnRead, ChessComTerminationSentences) {
    const auto games = read_pgn(read_file("chesscom.pgn"));
    ASSERT_EQ(games.size(), 4u);
    EXPECT_EQ(games[0].moves[6].commands, (std::vector<PgnCommand>{{"clk", "0:00:00.4"}}));
    const PgnReplay flag = replayed(games[0]);  // "knightowl won on time"
    EXPECT_EQ(flag.result.termination, Termination::TimeForfeit);
    EXPECT_EQ(flag.result.outcome, Outcome::BlackWins);
    const PgnReplay rep = replayed(games[1]);  // the rules see the repetition themselves
    EXPECT_TRUE(rep.by_rules);
    EXPECT_EQ(rep.result.termination, Termination::Repetition);
    EXPECT_EQ(replayed(games[2]).result.termination, Termination::Resignation);
    EXPECT_EQ(replayed(games[3]).result.termination, Termination::Agreement);
}

TEST(PgnRead, ChessBaseWindows1252CrlfNestedVariationsAndEnPassant) {
    const auto games = read_pgn(read_file("chessbase_cp1252.pgn"));
    ASSERT_EQ(games.size(), 1u);
    const PgnGame& g = games[0];
    EXPECT_EQ(g.tag("White"), "M\u00fcller, Karsten");  // read as Windows-1252, given as UTF-8
    EXPECT_EQ(g.tag("Black"), "Schmidt, J\u00f6rg");
    EXPECT_EQ(g.line, 1);
    EXPECT_EQ(g.comment, "[%evp 17,41,20,24,31,28,15,33]");
    EXPECT_EQ(g.moves[2].nags, std::vector<int>{5});                         // 2. e5 $5
    EXPECT_EQ(g.moves[2].comment, "Das Chigorin-System, selten gespielt.");  // a line break is a space
    EXPECT_EQ(g.moves[4].san, "exd6");                                       // "exd6 e.p."
    EXPECT_EQ(g.moves[4].line, 22);
    EXPECT_EQ(g.moves[18].commands, (std::vector<PgnCommand>{{"cal", "Gb5d6,Gd3h7"}}));
    const PgnReplay r = replayed(g);
    EXPECT_EQ(r.plies, 41);
    EXPECT_EQ(r.result.outcome, Outcome::WhiteWins);
}

TEST(PgnRead, ByteOrderMarkAndUtf8) {
    const auto games = read_pgn(read_file("chessbase_utf8_bom.pgn"));
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].tags.front().first, "Event");  // the mark is not part of the first tag
    EXPECT_EQ(games[0].tag("White"), "Dvo\u0159\u00e1k, Petr");
    EXPECT_EQ(games[0].moves.back().comment, "Z0 =");
    EXPECT_EQ(replayed(games[0]).plies, 12);
    EXPECT_EQ(replayed(games[1]).plies, 41);
    // A mark says UTF-8: a stray Windows-1252 byte is replaced, not re-read.
    const auto marked = read_pgn("\xEF\xBB\xBF[White \"M\xFCller\"]\n\n1. e4 *");
    EXPECT_EQ(marked.at(0).tag("White"), "M\uFFFDller");
    // A mark in front of a second file appended to the first.
    const std::string one = "\xEF\xBB\xBF[Event \"a\"]\n\n1. e4 *\n";
    const auto two = read_pgn(one + one);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[1].tag("Event"), "a");
}

TEST(PgnRead, OtherToolsLongAlgebraicZerosGlyphsLineCommentsNullMoves) {
    const auto games = read_pgn(read_file("other_tools.pgn"));
    ASSERT_EQ(games.size(), 6u);
    // e2-e4, Bf1-c4, e5xf4, Qb2xa1+, Bd6-e7#.
    const PgnReplay immortal = replayed(games[0]);
    EXPECT_EQ(immortal.result.termination, Termination::Checkmate);
    EXPECT_EQ(immortal.plies, 45);
    // No blank line before this game's tags; 0-0; "cxb3e.p." glued; +=, = and =+.
    const PgnGame& g = games[1];
    EXPECT_EQ(g.tag("Event"), "Castling with zeros, e.p. glued and separate, evaluation signs");
    EXPECT_EQ(g.moves[14].san, "h4");
    EXPECT_EQ(g.moves[14].nags, std::vector<int>{14});
    EXPECT_EQ(g.moves[19].san, "cxb3");
    EXPECT_EQ(g.moves[23].nags, std::vector<int>{10});
    EXPECT_EQ(replayed(g).plies, 33);
    // Variations with ';' comments holding '(' and ')', nested, with a null move.
    EXPECT_EQ(replayed(games[2]).plies, 36);
    EXPECT_EQ(games[2].moves[28].nags, std::vector<int>{6});
    // Tags and no moves: a game of its own, not merged with the next one.
    EXPECT_FALSE(games[3].has_move_text);
    EXPECT_TRUE(games[3].moves.empty());
    EXPECT_EQ(games[3].tag("White"), "Lost");
    EXPECT_EQ(games[3].line, 41);
    EXPECT_EQ(games[4].tag("White"), "A");
    EXPECT_EQ(games[4].moves.size(), 4u);
    // A null move in the main line is an error that says where.
    EXPECT_EQ(games[5].error,
              "game 6, line 66, move 2... '--': a null move in the main line: the game cannot be replayed past it "
              "(null moves are accepted only inside variations)");
}

TEST(PgnRead, AVariantTagOfEverySpelling) {
    const auto games = read_pgn(read_file("variants.pgn"));
    ASSERT_EQ(games.size(), 6u);
    EXPECT_EQ(games[0].variant(), Variant::Alice);  // "Alice Chess"
    EXPECT_EQ(replayed(games[0]).result.termination, Termination::Checkmate);
    EXPECT_EQ(games[1].variant(), Variant::Alice);  // "alice"
    EXPECT_EQ(replayed(games[1]).plies, 20);
    EXPECT_EQ(games[2].variant(), Variant::Avalanche);  // "AVALANCHE"
    EXPECT_EQ(replayed(games[2]).plies, 24);
    for (int i : {3, 4}) {  // "Qg2+" and the older "Qg2#": the board says avalanche loss
        const PgnReplay r = replayed(games[i]);
        EXPECT_EQ(r.result.termination, Termination::AvalancheLoss) << i;
        EXPECT_EQ(r.result.outcome, Outcome::BlackWins) << i;
    }
    try {
        games[5].variant();
        ADD_FAILURE();
    } catch (const PgnError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "game 6, line 65: unknown variant 'Crazyhouse' (accepted: Standard, Alice, Avalanche)");
    }
    for (const char* v : {"Standard", "standard", "Chess", "From Position", "from position", "Alice", "ALICE CHESS",
                          "avalanche", "Avalanche Chess"})
        EXPECT_TRUE(variant_from_pgn(v)) << v;
    EXPECT_FALSE(variant_from_pgn("Chess960"));
}

// Alice games of a correspondence site that plays the variant: its rules
// and ours agree on every move, and its draw-offer marks ("Kd4=", "Qh3+=")
// are read past.
TEST(PgnRead, SchemingMindAliceGamesReplayToTheirEnd) {
    const auto games = read_pgn(read_file("schemingmind_alice.pgn"));
    ASSERT_EQ(games.size(), 4u);
    const int plies[] = {157, 184, 141, 174};
    for (std::size_t i = 0; i < games.size(); ++i) {
        EXPECT_EQ(games[i].variant(), Variant::Alice) << i;
        const PgnReplay r = replayed(games[i]);
        EXPECT_EQ(r.plies, plies[i]) << i;
        EXPECT_EQ(r.ignored, 0) << i;
    }
    // The second game ends with the two kings alone: drawn by the rules there.
    const PgnReplay dead = replayed(games[1]);
    EXPECT_TRUE(dead.by_rules);
    EXPECT_EQ(dead.result.outcome, Outcome::Draw);
    EXPECT_EQ(games[3].moves.back().san, "Kd4");
    // A promotion still waiting for its piece is not read as a draw offer.
    const auto waiting = read_pgn("[Event \"x\"]\n1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8= *");
    ASSERT_EQ(waiting.size(), 1u);
    EXPECT_EQ(waiting[0].moves.back().san, "bxa8=");
    const auto push = read_pgn("[Event \"x\"]\n[Variant \"Avalanche\"]\n1. Nf3,d1= Nf6= *");
    ASSERT_EQ(push.size(), 1u);
    EXPECT_EQ(push[0].moves[0].san, "Nf3,d1=");  // the push's pawn waits for its piece
    EXPECT_EQ(push[0].moves[1].san, "Nf6");
}

TEST(PgnRead, GamesWithoutBlankLinesOrResults) {
    const auto games = read_pgn("[Event \"1\"]\n1. e4 e5 1-0\n[Event \"2\"]\n1. d4 d5\n[Event \"3\"]\n1. c4 *");
    ASSERT_EQ(games.size(), 3u);
    EXPECT_EQ(games[0].result, "1-0");
    EXPECT_EQ(games[1].moves.size(), 2u);
    EXPECT_EQ(games[1].result, "*");  // no marker: the next tags start the next game
    EXPECT_EQ(games[2].tag("Event"), "3");
    // A repeated tag name starts a game even without an empty line.
    const auto two = read_pgn("[Event \"a\"]\n[Site \"x\"]\n[Event \"b\"]\n\n1. e4 *\n");
    ASSERT_EQ(two.size(), 2u);
    EXPECT_FALSE(two[0].has_move_text);
    EXPECT_EQ(two[1].tag("Event"), "b");
}

TEST(PgnRead, OldMacLineEndsCountLines) {
    const auto games = read_pgn("[Event \"a\"]\r\r1. e4 e5\r2. Kf8 *\r");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].moves[2].line, 4);
}

TEST(PgnRead, ErrorsNameGameLineAndMove) {
    const std::string text = "[Event \"ok\"]\n\n1. e4 e5 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Nf3 \x01x *\n";
    const auto games = read_pgn(text);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[1].error, "game 2, line 7, move 2... '\\x01x': unreadable move");
    const auto nag = read_pgn("1. e4 $x *");
    EXPECT_EQ(nag[0].error, "game 1, line 1, move 1... '$x': unreadable NAG (expected $ and a number up to 255)");
    const auto paren = read_pgn("1. e4 e5 ) *");
    EXPECT_EQ(paren[0].error, "game 1, line 1, after move 1... e5: ')' without a variation");
    const auto open = read_pgn("1. e4 (1. d4 d5\n\n[Event \"next\"]\n1. c4 *");
    ASSERT_EQ(open.size(), 2u);
    EXPECT_EQ(open[0].error, "game 1, line 3, after move 1. e4: variation opened on line 1 is not closed");
    EXPECT_EQ(open[1].moves.size(), 1u);
    const auto stray = read_pgn("1. e4 } e5 *");
    EXPECT_EQ(stray[0].error, "game 1, line 1, after move 1. e4: unexpected '}'");
    const auto before = read_pgn("(1. d4) 1. e4 *");
    EXPECT_NE(before[0].error.find("before the first move"), std::string::npos) << before[0].error;
}

TEST(PgnRead, ErrorsQuoteInputAsValidUtf8) {
    // é in a move, an invalid byte, a truncated character: every message is valid UTF-8.
    for (const char* text : {"1. N\xC3\xA9"
                             "f3 *",
                             "1. e4 \xC3 *", "1. e4 \xE2\x82 *", "1. e4 }\xC3\xA9 *", "[Event \"\xC3\xA9\" *",
                             "1. e4 \xF0\x9F\x98\x80x *"}) {
        for (const PgnGame& g : read_pgn(text)) EXPECT_TRUE(is_valid_utf8(g.error)) << g.error;
    }
    const auto e = read_pgn(
        "1. e4 e5 2. N\xC3\xA9"
        "f3 *");
    ASSERT_EQ(e.size(), 1u);
    ASSERT_TRUE(e[0].error.empty());
    auto game = start_game(e[0]);
    try {
        replay(e[0], *game);
        ADD_FAILURE();
    } catch (const PgnError& err) {
        EXPECT_EQ(std::string(err.what()).rfind("game 1, line 1, move 2. N\u00e9f3: unreadable move 'N\u00e9f3'", 0),
                  0u)
            << err.what();
        EXPECT_TRUE(is_valid_utf8(err.what()));
    }
}

TEST(PgnRead, MalformedInputNeverThrowsFromTheReader) {
    for (const char* text : {"[",
                             "[Event",
                             "[Event \"x",
                             "((",
                             ")",
                             "1.",
                             "}",
                             "{",
                             "[A \"b\"] 1. e4 ) e5",
                             "\x01\x02",
                             "1... ... e4",
                             "$",
                             "%escape\n1. e4 *",
                             "\xEF\xBB\xBF",
                             "[ \"x\"]",
                             ";",
                             "1. e4 (;)",
                             "1. -- *",
                             "[A \"b\"]\n[A \"c\"]\n[A",
                             "$999999999999 e4"}) {
        EXPECT_NO_THROW(read_pgn(text)) << text;
    }
    // Deep nesting is counted, not recursed into.
    EXPECT_NO_THROW(read_pgn("1. e4 " + std::string(200000, '(') + std::string(200000, ')') + " *"));
    PgnGame crazy;
    crazy.tags = {{"Variant", "Crazyhouse"}};
    EXPECT_THROW(crazy.variant(), PgnError);
}

TEST(PgnRead, TagValuesNeverSpanLines) {
    // Found by fuzzing: an escaped line break inside a tag value.
    auto games = read_pgn("[Event \"a\\\nb\"]\n\n1. e4 *\n");
    ASSERT_FALSE(games.empty());
    EXPECT_NE(games[0].error.find("malformed tag pair"), std::string::npos) << games[0].error;
}

TEST(PgnRead, AMalformedTagSkipsItsWholeGame) {
    const auto games = read_pgn("[Event \"a\"]\n[Site x]\n[Round \"1\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n");
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].error, "game 1, line 2: malformed tag pair (expected [Name \"value\"])");
    EXPECT_EQ(games[1].tag("Event"), "b");
    EXPECT_EQ(games[1].moves[0].san, "d4");
}

}  // namespace
}  // namespace echecs::test

// PGN into the analysis board: games read and replayed by the core, each
// with what the board loads, a bad game reported where it goes wrong without
// losing the others, hostile text bounded.
#include "server/study/pgn_import.h"

#include <gtest/gtest.h>

using echecs::server::ApiError;
using echecs::study::import_pgn;
using nlohmann::json;

namespace {

const char* TWO_GAMES =
    "\xEF\xBB\xBF[Event \"Rated Blitz game\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n"
    "1. e4 { [%clk 0:04:58] } e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n\n"
    "[Event \"Alice\"]\n[Variant \"Alice\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n"
    "1. Nf3 d5 2. c4 dxc4 *\n\n"
    "[Event \"Broken\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";

}  // namespace

TEST(PgnImport, EachGameAsTheBoardLoadsIt) {
    const json r = import_pgn({{"text", TWO_GAMES}});
    ASSERT_EQ(r["games"].size(), 3u);
    EXPECT_FALSE(r["truncated"].get<bool>());
    const json& a = r["games"][0];
    EXPECT_TRUE(a["error"].is_null());
    EXPECT_EQ(a["tags"]["White"], "Ann");
    EXPECT_EQ(a["variant"], "chess");
    EXPECT_EQ(a["moves"].size(), 7u);
    EXPECT_EQ(a["moves"][0]["uci"], "e2e4");
    EXPECT_EQ(a["moves"][0]["comment"], "[%clk 0:04:58]");
    EXPECT_EQ(a["moves"][6]["san"], "Qxf7#");
    EXPECT_EQ(a["result"], "1-0");
    EXPECT_EQ(a["termination"], "checkmate");

    const json& b = r["games"][1];
    EXPECT_EQ(b["variant"], "alice");
    EXPECT_EQ(b["moves"][3]["uci"], "d5c4");
    EXPECT_EQ(b["result"], "*");

    const json& c = r["games"][2];
    ASSERT_TRUE(c["error"].is_string());
    EXPECT_NE(c["error"].get<std::string>().find("game 3"), std::string::npos) << c["error"];
    EXPECT_NE(c["error"].get<std::string>().find("Ke3"), std::string::npos) << c["error"];
}

TEST(PgnImport, MovesAfterTheEndByTheRulesAreNotLoaded) {
    const json r = import_pgn({{"text", "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 1-0\n"}});
    const json& g = r["games"][0];
    EXPECT_EQ(g["moves"].size(), 4u);
    EXPECT_EQ(g["result"], "0-1");
    EXPECT_NE(g["summary"].get<std::string>().find("ignored"), std::string::npos) << g["summary"];
}

TEST(PgnImport, LegacyBytesBecomeUtf8AndEveryAnswerSerialises) {
    // Windows-1252 "é" and a stray continuation byte in a tag.
    const json r = import_pgn({{"text", std::string("[White \"Ren\xE9\"]\n[Black \"\x80x\"]\n\n1. e4 *\n")}});
    EXPECT_EQ(r["games"][0]["tags"]["White"], "Ren\xC3\xA9");
    EXPECT_NO_THROW(r.dump());
}

TEST(PgnImport, HostileRequestsAreBounded) {
    auto reason = [](const json& body) {
        try {
            import_pgn(body);
        } catch (const ApiError& e) {
            return e.field + ":" + e.reason;
        }
        return std::string("none");
    };
    EXPECT_EQ(reason(json::array()), ":not_object");
    EXPECT_EQ(reason(json::object()), "text:missing");
    EXPECT_EQ(reason({{"text", 5}}), "text:missing");
    EXPECT_EQ(reason({{"text", std::string(echecs::study::MAX_PGN_BYTES + 1, ' ')}}), "text:too_long");
    // Many games: the first MAX_GAMES are kept and the answer says so.
    std::string many;
    for (int i = 0; i < 250; ++i) many += "[Event \"g\"]\n\n1. e4 *\n\n";
    const json r = import_pgn({{"text", many}});
    EXPECT_EQ(r["games"].size(), echecs::study::MAX_GAMES);
    EXPECT_TRUE(r["truncated"].get<bool>());
    // Deep nesting of variations and comments reads without a crash.
    std::string deep = "1. e4 ";
    for (int i = 0; i < 5000; ++i) deep += "(";
    deep += " *";
    EXPECT_NO_THROW(import_pgn({{"text", deep}}).dump());
}

TEST(PgnImport, MovesReadFromALenientSpellingAreNoted) {
    const std::string pgn =
        "[Event \"old archive\"]\n\n1. e4 e5 2. nf3 \xE2\x99\x9E"
        "c6 3. \xE2\x99\x97"
        "b5 a6 4. o-o Nf6 *\n";
    const json r = import_pgn({{"text", pgn}});
    const json& g = r["games"][0];
    ASSERT_TRUE(g["error"].is_null()) << g.dump();
    EXPECT_EQ(g["moves"][2]["san"], "Nf3");  // standard SAN out
    EXPECT_EQ(g["moves"][6]["san"], "O-O");
    ASSERT_EQ(g["readings"].size(), 4u) << g.dump();
    EXPECT_EQ(g["readings"][0], json::parse(R"({"ply":3,"move":"2.","written":"nf3","read":"Nf3"})"));
    EXPECT_EQ(g["readings"][1]["written"],
              "\xE2\x99\x9E"
              "c6");
    EXPECT_EQ(g["readings"][1]["move"], "2...");
    EXPECT_EQ(g["readings"][3], json::parse(R"({"ply":7,"move":"4.","written":"o-o","read":"O-O"})"));
    // Standard SAN: nothing to note.
    const json plain = import_pgn({{"text", "1. e4 e5 2. Nf3 *"}});
    EXPECT_EQ(plain["games"][0]["readings"], json::array());
}

TEST(PgnImport, ErrorsCarryAReasonAndItsParameters) {
    const json r = import_pgn({{"text",
                                "1. e4 e5 2. Ke3 *\n\n[Event \"b\"]\n\n1. d4 d5 2. Nf3 Nf6 3. nd2 *\n\n"
                                "[Event \"c\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w - - "
                                "0 1\"]\n\n1. e4 *\n\n[Event \"d\"]\n\n1. e4 {open\n"}});
    ASSERT_EQ(r["games"].size(), 4u);
    const json& illegal = r["games"][0];
    EXPECT_EQ(illegal["reason"], "pgn_move_illegal");
    EXPECT_EQ(illegal["params"]["move"], "2.");
    EXPECT_EQ(illegal["params"]["side"], "white");
    EXPECT_EQ(illegal["params"]["text"], "'Ke3'");
    const json& ambiguous = r["games"][1];
    EXPECT_EQ(ambiguous["reason"], "pgn_move_ambiguous");
    EXPECT_EQ(ambiguous["params"]["game"], "2");
    EXPECT_EQ(ambiguous["params"]["text"], "'nd2'");
    const json& fen = r["games"][2];
    EXPECT_EQ(fen["reason"], "pgn_fen_invalid");
    EXPECT_EQ(fen["params"]["problem"], "fen_rank_squares");
    EXPECT_EQ(fen["params"]["squares"], "7");
    const json& syntax = r["games"][3];
    EXPECT_EQ(syntax["reason"], "pgn_syntax");
    EXPECT_EQ(syntax["params"]["problem"], "pgn_comment_unclosed");
}

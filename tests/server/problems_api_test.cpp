// The problems page's routes, PGN import and games from a set-up position,
// over real sockets: a solve queued, polled to its end and its tree served;
// one unfinished solve per address; only its owner stops it; uploads may be
// larger than other bodies, within their own limit.
#include <chrono>
#include <fstream>
#include <thread>

#include "address_quota.h"
#include "core/vocabulary.h"
#include "engine/strength.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

const char* ALICE2 = "3o2r1/bp1Q4/s1OPOp1o/B2P4/P2PP2R/rS1k3s/4SP2/1b1K4 w - - 0 1";

json wait_done(std::uint16_t port, const std::string& id) {
    for (int i = 0; i < 600; ++i) {  // at most 60 s
        json s = get_json(port, "/api/problems/solve/" + id);
        if (s["_status"] != 200 || s["status"] == "done") return s;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return json();
}

}  // namespace

TEST_F(ServerTest, AProblemIsSolvedOnTheServer) {
    const std::string tok = token();
    json r =
        post_json(port_, "/api/problems/solve", {{"variant", "alice"}, {"fen", ALICE2}, {"stipulation", "#2"}}, tok);
    ASSERT_EQ(r["_status"], 202) << r.dump();
    const json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    EXPECT_EQ(done["result"]["status"], "complete");
    ASSERT_EQ(done["result"]["keys"].size(), 1u);
    EXPECT_NE(done["text"].get<std::string>().find("1.Qd7-e8B!"), std::string::npos);
    EXPECT_EQ(get_json(port_, "/api/problems/solve/nosuchjob")["_status"], 404);
}

TEST_F(ServerTest, OneSolveAtATimePerAddressAndOnlyItsOwnerStopsIt) {
    const std::string a = token(), b = token();
    json r =
        post_json(port_, "/api/problems/solve", {{"variant", "avalanche"}, {"fen", START}, {"stipulation", "#5"}}, a);
    ASSERT_EQ(r["_status"], 202) << r.dump();
    json again =
        post_json(port_, "/api/problems/solve", {{"variant", "chess"}, {"fen", START}, {"stipulation", "#2"}}, a);
    EXPECT_EQ(again["_status"], 429);
    EXPECT_EQ(again["error"]["reason"], "solve_pending");
    const std::string target = "/api/problems/solve/" + r["id"].get<std::string>();
    auto other = http_request(port_, http::verb::delete_, target, "", b);
    EXPECT_EQ(other.status, 403);
    EXPECT_EQ(other.j()["error"]["reason"], "not_your_problem");
    auto mine = http_request(port_, http::verb::delete_, target, "", a);
    EXPECT_EQ(mine.status, 200);
    const json done = wait_done(port_, r["id"]);
    EXPECT_EQ(done["result"]["status"], "cancelled") << done.dump();
    // and the address may solve again
    EXPECT_EQ(post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "#1"}}, a)["_status"], 202);
}

TEST_F(ServerTest, BadProblemsAreRefusedWithTheirField) {
    const std::string tok = token();
    json r = post_json(port_, "/api/problems/solve", {{"fen", "8/8 w - - 0 1"}, {"stipulation", "#2"}}, tok);
    EXPECT_EQ(r["_status"], 400);
    EXPECT_EQ(r["error"]["field"], "fen");
    EXPECT_EQ(r["error"]["reason"], "bad_fen");
    // what is wrong, as a key and its parameters the client translates
    EXPECT_EQ(r["error"]["params"]["problem"], "fen_rank_count") << r.dump();
    EXPECT_EQ(r["error"]["params"]["ranks"], "2");
    r = post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "h#2.7"}}, tok);
    EXPECT_EQ(r["error"]["field"], "stipulation");
    EXPECT_EQ(r["error"]["reason"], "bad_stipulation");
    EXPECT_EQ(r["error"]["params"]["problem"], "stip_after_moves") << r.dump();
    EXPECT_EQ(r["error"]["params"]["text"], "h#2.7");
    r = post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "pser-r#2"}}, tok);
    EXPECT_EQ(r["error"]["params"]["problem"], "stip_unsupported") << r.dump();
    EXPECT_EQ(r["error"]["params"]["form"], "pser-r");
    EXPECT_NE(r["error"]["message"].get<std::string>().find("parry series"), std::string::npos);  // English kept
    // no token: forbidden
    EXPECT_EQ(post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "#2"}}, "")["_status"], 403);
    // Popeye round trip through the two routes
    json p =
        post_json(port_, "/api/problems/popeye", {{"variant", "alice"}, {"fen", ALICE2}, {"stipulation", "#2"}}, "");
    ASSERT_EQ(p["_status"], 200) << p.dump();
    json back = post_json(port_, "/api/problems/popeye/read", {{"text", p["popeye"]}}, "");
    EXPECT_EQ(back["problems"][0]["twins"][0]["fen"], ALICE2);
    json bad = post_json(port_, "/api/problems/popeye/read", {{"text", "begin\npieces white kz9\nend\n"}}, "");
    EXPECT_EQ(bad["_status"], 400);
    EXPECT_EQ(bad["error"]["reason"], "bad_popeye");
}

// Popeye's duplex: each twin, then the same with the colours' parts
// exchanged (halfduplex), imported as two twins and solved as the solver
// solves them; Popeye 4.104 gives 1.b3-b4 Rc2-c1# for the exchanged one.
// A problem without a king (Popeye's nowk): imported, then solved from its
// FEN as Popeye solves it; a proof game's diagram still needs both kings.
TEST_F(ServerTest, AProblemWithoutAKingIsSolvedOnTheServer) {
    json read =
        post_json(port_, "/api/problems/popeye/read",
                  {{"text", "begin\npieces white sc8 pc5 bh3 black ka6 pa5a7b7\nstip ser-#2\nopt nowk\nend\n"}}, "");
    ASSERT_EQ(read["_status"], 200) << read.dump();
    const json twin = read["problems"][0]["twins"][0];
    const std::string tok = token();
    json r = post_json(port_, "/api/problems/solve", {{"fen", twin["fen"]}, {"stipulation", twin["stipulation"]}}, tok);
    ASSERT_EQ(r["_status"], 202) << r.dump();
    const json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    const std::string text = done["text"];
    EXPECT_NE(text.find("1.Sc8-b6  2.Bh3-f1#"), std::string::npos) << text;
    EXPECT_NE(text.find("1 solution (complete)"), std::string::npos) << text;
    json proof = post_json(port_, "/api/problems/solve", {{"fen", twin["fen"]}, {"stipulation", "dia2"}}, tok);
    EXPECT_EQ(proof["_status"], 400) << proof.dump();
    EXPECT_EQ(proof["error"]["params"]["problem"], "fen_no_king") << proof.dump();
}

TEST_F(ServerTest, DuplexAndHalfDuplexAreSolvedOnTheServer) {
    json read = post_json(port_, "/api/problems/popeye/read",
                          {{"text", "begin\nstip h#1\nopt duplex\npieces white kh1 pg2h2b3 black ka8 rc2\nend\n"}}, "");
    ASSERT_EQ(read["_status"], 200) << read.dump();
    const json twins = read["problems"][0]["twins"];
    ASSERT_EQ(twins.size(), 2u) << read.dump();
    EXPECT_FALSE(twins[0]["halfduplex"].get<bool>());
    EXPECT_TRUE(twins[1]["halfduplex"].get<bool>());
    EXPECT_EQ(twins[1]["label"], "duplex");
    const json body = {
        {"variant", "chess"}, {"fen", twins[1]["fen"]}, {"stipulation", twins[1]["stipulation"]}, {"halfduplex", true}};
    const std::string tok = token();
    json r = post_json(port_, "/api/problems/solve", body, tok);
    ASSERT_EQ(r["_status"], 202) << r.dump();
    const json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    EXPECT_EQ(done["result"]["status"], "complete");
    const std::string text = done["text"];
    EXPECT_NE(text.find("h#1 halfduplex"), std::string::npos) << text;
    EXPECT_NE(text.find("1.b3-b4 Rc2-c1#"), std::string::npos) << text;
    EXPECT_NE(text.find("1 solution (complete)"), std::string::npos) << text;
    // the export says it again
    json out = post_json(port_, "/api/problems/popeye", body, "");
    ASSERT_EQ(out["_status"], 200) << out.dump();
    EXPECT_NE(out["popeye"].get<std::string>().find("halfduplex"), std::string::npos) << out.dump();
    // not for a proof game: refused, naming the field
    json proof = post_json(port_, "/api/problems/solve",
                           {{"fen", START}, {"stipulation", "dia2"}, {"halfduplex", true}}, token());
    EXPECT_EQ(proof["_status"], 400);
    EXPECT_EQ(proof["error"]["field"], "halfduplex");
    EXPECT_EQ(proof["error"]["reason"], "bad_stipulation");
    json notbool = post_json(port_, "/api/problems/solve",
                             {{"fen", START}, {"stipulation", "h#1"}, {"halfduplex", "yes"}}, token());
    EXPECT_EQ(notbool["_status"], 400);
    EXPECT_EQ(notbool["error"]["field"], "halfduplex");
}

// Reciprocal helpplay through the API: Steudel's reci-h(#)=2 of Popeye's
// BEISPIEL/intell.inp, Popeye 4.104's two lines (Black stalemated, or it mates).
TEST_F(ServerTest, ReciprocalHelpmatesAreSolvedOnTheServer) {
    const json body = {
        {"variant", "chess"}, {"fen", "8/4P3/8/8/8/8/4p3/5k1K b - - 0 1"}, {"stipulation", "reci-h(#)=2"}};
    json r = post_json(port_, "/api/problems/solve", body, token());
    ASSERT_EQ(r["_status"], 202) << r.dump();
    const json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    EXPECT_EQ(done["result"]["help"].size(), 2u) << done.dump();
    const std::string text = done["text"];
    EXPECT_NE(text.find("reci-h(#)=2"), std::string::npos) << text;
    EXPECT_NE(text.find("1.e2-e1=Q e7-e8=Q  2.Qe1-e3 Qe8xe3=\n"), std::string::npos) << text;
    EXPECT_NE(text.find("1.e2-e1=Q e7-e8=Q  2.Qe1-h4#\n"), std::string::npos) << text;
    // Black's own goal between brackets must be one
    json bad = post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "reci-h(+)#2"}}, token());
    EXPECT_EQ(bad["_status"], 400);
    EXPECT_EQ(bad["error"]["field"], "stipulation");
    EXPECT_EQ(bad["error"]["params"]["problem"], "stip_no_goal") << bad.dump();
}

// Popeye's postkeyplay: the diagram is the position after the key; the
// answer is its play (Popeye 4.104 on TESTS/battle_play.inp's "#1.5": zugzwang,
// four knight moves each met by Sd5-c7#, or Sd5xc7#).
TEST_F(ServerTest, PostKeyPlayIsSolvedOnTheServer) {
    json read = post_json(port_, "/api/problems/popeye/read",
                          {{"text", "begin\nstip #2\nopt postkey\npieces white kb6 sd5 pa7 black ka8 se8\nend\n"}}, "");
    ASSERT_EQ(read["_status"], 200) << read.dump();
    const json twin = read["problems"][0]["twins"][0];
    EXPECT_TRUE(twin["postkey"].get<bool>()) << read.dump();
    EXPECT_NE(twin["fen"].get<std::string>().find(" b "), std::string::npos);  // the defender moves first
    const json body = {{"fen", twin["fen"]}, {"stipulation", "#2"}, {"postkey", true}};
    json r = post_json(port_, "/api/problems/solve", body, token());
    ASSERT_EQ(r["_status"], 202) << r.dump();
    const json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    EXPECT_EQ(done["result"]["post_key"]["defences"].size(), 4u) << done.dump();
    EXPECT_TRUE(done["result"]["post_key"]["refutations"].empty());
    const std::string text = done["text"];
    EXPECT_NE(text.find("after the key: zugzwang\n"), std::string::npos) << text;
    EXPECT_NE(text.find("1...Se8-c7 2.Sd5xc7#"), std::string::npos) << text;
    EXPECT_NE(text.find("1 solution (complete)"), std::string::npos) << text;
    // the export says it again, and only battle play has a key to leave out
    json out = post_json(port_, "/api/problems/popeye", body, "");
    EXPECT_NE(out["popeye"].get<std::string>().find("postkeyplay"), std::string::npos) << out.dump();
    json help =
        post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "h#2"}, {"postkey", true}}, token());
    EXPECT_EQ(help["_status"], 400);
    EXPECT_EQ(help["error"]["field"], "postkey");
    EXPECT_EQ(help["error"]["reason"], "bad_stipulation");
}

// Popeye's "threat n" through the API: Morphy's #2, whose key is a zugzwang,
// has none when every attacker's move must threaten mate in one (Popeye 4.104).
TEST_F(ServerTest, ThreatBoundIsReadAndSolvedOnTheServer) {
    json read = post_json(
        port_, "/api/problems/popeye/read",
        {{"text", "begin\npieces white kc8 ra1 pb6 black ka8 bb8 pa7b7\nstip #2\noption threat 1\nend\n"}}, "");
    ASSERT_EQ(read["_status"], 200) << read.dump();
    const json twin = read["problems"][0]["twins"][0];
    EXPECT_EQ(twin["threat"], 1) << read.dump();
    json body = {{"fen", twin["fen"]}, {"stipulation", "#2"}, {"threat", 1}};
    json r = post_json(port_, "/api/problems/solve", body, token());
    ASSERT_EQ(r["_status"], 202) << r.dump();
    json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    EXPECT_NE(done["text"].get<std::string>().find("no solution (complete)"), std::string::npos) << done.dump();
    body["threat"] = 0;  // the key again without the rule
    r = post_json(port_, "/api/problems/solve", body, token());
    ASSERT_EQ(r["_status"], 202) << r.dump();
    done = wait_done(port_, r["id"]);
    EXPECT_NE(done["text"].get<std::string>().find("1.Ra1-a6! zugzwang"), std::string::npos) << done.dump();
    // bounded, and for battle play only
    json far =
        post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "#2"}, {"threat", 61}}, token());
    EXPECT_EQ(far["_status"], 400);
    EXPECT_EQ(far["error"]["field"], "threat");
    EXPECT_EQ(far["error"]["reason"], "out_of_range");
    json help =
        post_json(port_, "/api/problems/solve", {{"fen", START}, {"stipulation", "h#2"}, {"threat", 1}}, token());
    EXPECT_EQ(help["error"]["field"], "threat");
    EXPECT_EQ(help["error"]["reason"], "bad_stipulation");
}

// Popeye's maxflightsquares and castlingmutuallyexclusive through the API: the
// import gives them, the solve takes them (Remling's #2: castling is the key
// only because it takes Black's; Popeye 4.104), and each is checked.
TEST_F(ServerTest, RetroCastlingAndFlightBoundAreReadAndSolvedOnTheServer) {
    json read = post_json(port_, "/api/problems/popeye/read",
                          {{"text",
                            "begin\npieces white ke1 ra1 be6 sf7 pb2b4b6c2c3g2h6 black ke8 rh8 ba5 sa8 pb7c7e7f6g6h7\n"
                            "stip #2\noption castlingmutuallyexclusive a1h8 maxflightsquares 3\nend\n"}},
                          "");
    ASSERT_EQ(read["_status"], 200) << read.dump();
    const json twin = read["problems"][0]["twins"][0];
    EXPECT_EQ(twin["exclusive_castlings"], json::array({"a1h8"})) << read.dump();
    EXPECT_EQ(twin["maxflights"], 3) << read.dump();
    json body = {{"fen", twin["fen"]},
                 {"stipulation", "#2"},
                 {"exclusive_castlings", twin["exclusive_castlings"]},
                 {"maxflights", twin["maxflights"]}};
    json r = post_json(port_, "/api/problems/solve", body, token());
    ASSERT_EQ(r["_status"], 202) << r.dump();
    json done = wait_done(port_, r["id"]);
    ASSERT_EQ(done["status"], "done") << done.dump();
    EXPECT_NE(done["text"].get<std::string>().find("1.0-0-0! threat: 2.Rd1-d8#"), std::string::npos) << done.dump();
    body.erase("exclusive_castlings");  // without the rule Black's castling refutes it
    r = post_json(port_, "/api/problems/solve", body, token());
    ASSERT_EQ(r["_status"], 202) << r.dump();
    done = wait_done(port_, r["id"]);
    EXPECT_NE(done["text"].get<std::string>().find("no solution (complete)"), std::string::npos) << done.dump();
    // the export writes both back
    body["exclusive_castlings"] = json::array({"a1h8"});
    json out = post_json(port_, "/api/problems/popeye", body, "");
    EXPECT_NE(out["popeye"].get<std::string>().find("maxflightsquares 3 castlingmutuallyexclusive a1h8"),
              std::string::npos)
        << out.dump();
    auto refused = [&](json b, const char* field, const char* reason) {
        json e = post_json(port_, "/api/problems/solve", b, token());
        EXPECT_EQ(e["_status"], 400) << e.dump();
        EXPECT_EQ(e["error"]["field"], field) << e.dump();
        EXPECT_EQ(e["error"]["reason"], reason) << e.dump();
    };
    refused({{"fen", START}, {"stipulation", "#2"}, {"exclusive_castlings", json::array({"a1a2"})}},
            "exclusive_castlings", "out_of_range");
    refused({{"fen", START}, {"stipulation", "#2"}, {"exclusive_castlings", "a1h8"}}, "exclusive_castlings",
            "not_text");
    refused({{"fen", START},
             {"stipulation", "#2"},
             {"exclusive_castlings", json::array({"a1h8", "a1h8", "a1h8", "a1h8", "a1h8"})}},
            "exclusive_castlings", "too_long");
    refused({{"fen", START}, {"stipulation", "dia2"}, {"exclusive_castlings", json::array({"a1h8"})}},
            "exclusive_castlings", "bad_stipulation");
    refused({{"fen", START}, {"stipulation", "#2"}, {"maxflights", 65}}, "maxflights", "out_of_range");
    refused({{"fen", START}, {"stipulation", "h#2"}, {"maxflights", 1}}, "maxflights", "bad_stipulation");
}

TEST_F(ServerTest, PgnUploadsMayBeLargerThanOtherBodiesButAreBounded) {
    std::string pgn;
    while (pgn.size() < 100 * 1024) pgn += "[Event \"g\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
    json r = post_json(port_, "/api/pgn/read", {{"text", pgn}}, "");
    ASSERT_EQ(r["_status"], 200) << r.dump().substr(0, 300);
    EXPECT_EQ(r["games"].size(), 200u);
    EXPECT_TRUE(r["truncated"].get<bool>());
    EXPECT_EQ(r["games"][0]["termination"], "checkmate");
    // the same size elsewhere is refused before it is read
    auto other = http_request(port_, http::verb::post, "/api/analysis", json{{"fen", pgn}}.dump());
    EXPECT_EQ(other.status, 413);
    // and an upload over its own limit too
    auto huge =
        http_request(port_, http::verb::post, "/api/pgn/read", json{{"text", std::string(1100 * 1024, ' ')}}.dump());
    EXPECT_EQ(huge.status, 413);
    EXPECT_EQ(huge.j()["error"]["params"]["max"], 1024 * 1024);
    EXPECT_EQ(http_request(port_, http::verb::get, "/api/lobby").status, 200);
}

TEST_F(ServerTest, AGameAgainstTheComputerFromASetUpPosition) {
    const std::string tok = token();
    const std::string fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    json r =
        post_json(port_, "/api/computer", {{"variant", "chess"}, {"level", 1}, {"color", "white"}, {"fen", fen}}, tok);
    ASSERT_EQ(r["_status"], 201) << r.dump();
    json st = get_json(port_, "/api/games/" + r["game"].get<std::string>());
    EXPECT_EQ(st["initial_fen"], fen);
    EXPECT_EQ(st["fen"], fen);
    // a position where the game is over, or not a position, is refused
    json over = post_json(port_, "/api/computer", {{"level", 1}, {"fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}}, tok);
    EXPECT_EQ(over["_status"], 400);
    EXPECT_EQ(over["error"]["reason"], "fen_game_over");
    json bad = post_json(port_, "/api/computer", {{"level", 1}, {"fen", "8/8 w - - 0 1"}}, tok);
    EXPECT_EQ(bad["error"]["reason"], "fen_invalid");
    EXPECT_EQ(bad["error"]["field"], "fen");
    // the board editor's check: which field, which rank, how many squares
    json rank =
        post_json(port_, "/api/analysis",
                  {{"fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"}, {"moves", json::array()}}, "");
    EXPECT_EQ(rank["error"]["reason"], "fen_invalid");
    EXPECT_EQ(rank["error"]["params"]["problem"], "fen_rank_squares") << rank.dump();
    EXPECT_EQ(rank["error"]["params"]["rank"], "1");
    EXPECT_EQ(rank["error"]["params"]["squares"], "7");
    EXPECT_NE(rank["error"]["message"].get<std::string>().find("rank 1 has 7 squares"), std::string::npos);
    json king = post_json(port_, "/api/analysis", {{"fen", "4k3/8/8/8/8/8/8/8 w - - 0 1"}}, "");
    EXPECT_EQ(king["error"]["params"]["problem"], "fen_no_king") << king.dump();
    EXPECT_EQ(king["error"]["params"]["color"], "white");
}

TEST_F(ServerTest, PgnImportSaysItsGuessesAndItsErrorsAsReasons) {
    const std::string pgn =
        "[Event \"a\"]\n\n1. e4 e5 2. nf3 Cc6 *\n\n"  // French C: the game is French
        "[Event \"b\"]\n\n1. e4 e5 2. Nf3 Zc6 *\n";
    json r = post_json(port_, "/api/pgn/read", {{"text", pgn}}, "");
    ASSERT_EQ(r["_status"], 200) << r.dump();
    const json& a = r["games"][0];
    EXPECT_TRUE(a["error"].is_null()) << a.dump();
    EXPECT_TRUE(a["reason"].is_null());
    EXPECT_EQ(a["readings"], json::parse(R"([{"ply":3,"move":"2.","written":"nf3","read":"Nf3"},
                              {"ply":4,"move":"2...","written":"Cc6","read":"Nc6"}])"))
        << a.dump();
    const json& b = r["games"][1];
    EXPECT_EQ(b["reason"], "pgn_move_unreadable") << b.dump();
    EXPECT_EQ(b["params"], json::parse(R"({"game":"2","line":"7","move":"2...","side":"black","text":"'Zc6'"})"));
    EXPECT_NE(b["error"].get<std::string>().find("game 2, line 7, move 2... Zc6: unreadable move"), std::string::npos);
}

// The client draws the games from GET /api/variants; its unit tests use a
// copy of the answer (web/test/variants.json), which must not drift.
TEST_F(ServerTest, TheTableOfTheGamesIsTheClientsFixture) {
    json r = get_json(port_, "/api/variants");
    ASSERT_EQ(r["_status"], 200);
    r.erase("_status");
    std::ifstream in(test_path(ECHECS_WEB_VARIANTS));
    ASSERT_TRUE(in) << "cannot read " << test_path(ECHECS_WEB_VARIANTS);
    const json fixture = json::parse(in);
    EXPECT_EQ(r, fixture) << "update web/test/variants.json to the server's answer:\n" << r.dump(2);
    // One row per game of the core's table, in its order.
    ASSERT_EQ(r["variants"].size(), std::size(VARIANTS));
    for (std::size_t i = 0; i < std::size(VARIANTS); ++i) EXPECT_EQ(r["variants"][i]["name"], VARIANTS[i].name);
}

TEST_F(ServerTest, TheLevelsComeWithTheirRatingsRisingInEachGame) {
    json r = get_json(port_, "/api/levels");
    ASSERT_EQ(r["_status"], 200);
    // As many entries as the game with the most levels; each game has a
    // rating at each of its own levels and none beyond.
    int most = 0;
    for (const Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche})
        most = std::max(most, engine::level_count(v));
    ASSERT_EQ(r["levels"].size(), std::size_t(most));
    for (const Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        const std::string game(variant_name(v));
        for (std::size_t i = 0; i < r["levels"].size(); ++i) {
            EXPECT_EQ(r["levels"][i]["level"], i + 1);
            const json& ratings = r["levels"][i]["ratings"];
            EXPECT_EQ(ratings.contains(game), int(i) < engine::level_count(v)) << game << " level " << i + 1;
            if (i > 0 && ratings.contains(game)) {
                EXPECT_GT(ratings[game].get<int>(), r["levels"][i - 1]["ratings"][game].get<int>())
                    << game << " level " << i + 1;
            }
        }
    }
}

// Reading an upload is heavy work: it runs on the engine's pool, within the
// address's quota, not on the I/O thread where it would delay every game.
// Shown by the quota: while one evaluation of an address holds its single
// place, that address's PGN upload is refused (eval_pending); read on the I/O
// thread, it would be answered at once.
TEST_F(ServerTest, UploadsAreReadOnTheEnginePoolWithinTheAddressQuota) {
    restart([](server::ServerOptions& o) {
        o.engine_threads = 1;
        o.engine_queue_per_client = 1;
        o.eval_max_ms = 4000;
        o.eval_rate_per_second = 1000;
        o.trust_forwarded_for = true;
    });
    const Headers from_a = {{"X-Forwarded-For", "192.0.2.10"}};
    const std::string pgn = json{{"text", "[Event \"g\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"}}.dump();
    auto [running, upload] = hold_address_quota(port_, from_a, 4000);
    ASSERT_EQ(upload.status, 429) << "every upload was answered while the address's evaluation held its place";
    EXPECT_EQ(upload.j()["error"]["reason"], "eval_pending");
    // Another address is not held back by this one's quota.
    const HttpResult other =
        http_request(port_, http::verb::post, "/api/pgn/read", pgn, "", {{"X-Forwarded-For", "192.0.2.20"}});
    EXPECT_EQ(other.status, 200) << other.body;
    EXPECT_EQ(other.j()["games"][0]["termination"], "checkmate");
    ASSERT_EQ(running.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "the evaluation never ended";
}

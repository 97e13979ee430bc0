// Seeks and direct challenges from a set-up position: the FEN is checked by
// the rules core (the errors of POST /api/computer's `fen`), stored with the
// seek (a restart keeps it) and the accepted game starts from it.
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {
const char* ENDGAME = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
}  // namespace

TEST_F(ServerTest, SeeksFromAPosition) {
    const std::string a = token(), b = token();
    json bad = post_json(port_, "/api/seeks",
                         {{"variant", "chess"}, {"time", {{"kind", "unlimited"}}}, {"fen", "8/8 w - - 0 1"}}, a);
    EXPECT_EQ(bad["_status"], 400);
    EXPECT_EQ(bad["error"]["reason"], "fen_invalid");
    EXPECT_EQ(bad["error"]["field"], "fen");
    json over = post_json(
        port_, "/api/seeks",
        {{"variant", "chess"}, {"time", {{"kind", "unlimited"}}}, {"fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}}, a);
    EXPECT_EQ(over["error"]["reason"], "fen_game_over") << over.dump();

    // A private challenge from the position, kept across a restart.
    json seek = post_json(port_, "/api/seeks",
                          {{"variant", "chess"},
                           {"time", {{"kind", "unlimited"}}},
                           {"color", "black"},
                           {"private", true},
                           {"fen", ENDGAME}},
                          a);
    ASSERT_EQ(seek["_status"], 201) << seek.dump();
    EXPECT_EQ(seek["seek"]["fen"], ENDGAME);
    const std::string id = seek["seek"]["id"];
    restart();
    EXPECT_EQ(get_json(port_, "/api/seeks/" + id)["seek"]["fen"], ENDGAME);
    json acc = post_json(port_, "/api/seeks/" + id + "/accept", json::object(), b);
    ASSERT_EQ(acc["_status"], 201) << acc.dump();
    EXPECT_EQ(acc["color"], "white");
    json game = get_json(port_, "/api/games/" + acc["game"].get<std::string>());
    EXPECT_EQ(game["initial_fen"], ENDGAME);
    EXPECT_EQ(game["fen"], ENDGAME);
    EXPECT_EQ(game["legal_moves"].size(), 6u);  // the king's four and the pawn's two
    // Without a FEN: the start position, as before.
    Pair p = new_game("alice");
    EXPECT_EQ(get_json(port_, "/api/games/" + p.game)["ply"], 0);
    json plain = post_json(port_, "/api/seeks", {{"variant", "avalanche"}, {"time", {{"kind", "unlimited"}}}}, a);
    EXPECT_TRUE(plain["seek"]["fen"].is_null());
}

// Game names at the server's entry points: every one reads a game's name
// with the core's one reader (letter case ignored) and refuses an unknown one
// with the same error, `variant_unknown`, naming the accepted names
// (docs/API.md, "Game names").
#include "server/api/game_names.h"

#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

// The refusal's error object, the same at every entry point.
void expect_variant_unknown(const json& error, const std::string& where) {
    EXPECT_EQ(error["code"], "bad_request") << where << ": " << error.dump();
    EXPECT_EQ(error["reason"], "variant_unknown") << where << ": " << error.dump();
    EXPECT_EQ(error["field"], "variant") << where;
    EXPECT_EQ(error["params"]["accepted"], "chess, alice, avalanche") << where;
    EXPECT_NE(error["message"].get<std::string>().find("chess, alice, avalanche"), std::string::npos) << where;
}

}  // namespace

TEST(GameNames, TheAcceptedNamesComeFromTheCoresTable) {
    EXPECT_EQ(server::accepted_variant_names(), "chess, alice, avalanche");
    EXPECT_EQ(server::read_variant("ALICE"), Variant::Alice);
    EXPECT_EQ(server::read_variant("Avalanche"), Variant::Avalanche);
    EXPECT_EQ(server::read_variant("standard"), Variant::Chess);
    try {
        server::read_variant("shogi");
        FAIL() << "shogi accepted";
    } catch (const server::ApiError& e) {
        EXPECT_EQ(e.reason, "variant_unknown");
        EXPECT_EQ(e.params["accepted"], "chess, alice, avalanche");
    }
}

TEST_F(ServerTest, EveryEntryPointAcceptsTheSameGameNames) {
    for (const char* name : {"alice", "Alice", "ALICE"}) {
        json a = post_json(port_, "/api/analysis", {{"variant", name}}, "");
        EXPECT_EQ(a["_status"], 200) << name << " " << a.dump();
        EXPECT_EQ(a["variant"], "alice") << name;
        json p =
            post_json(port_, "/api/problems/popeye", {{"variant", name}, {"fen", START}, {"stipulation", "#2"}}, "");
        EXPECT_EQ(p["_status"], 200) << name << " " << p.dump();
        EXPECT_NE(p["popeye"].get<std::string>().find("condition alice"), std::string::npos) << name;
    }
    for (const char* name : {"Avalanche", "avalanche", "Chess", "standard"}) {
        EXPECT_EQ(post_json(port_, "/api/analysis", {{"variant", name}}, "")["_status"], 200) << name;
        const json s = post_json(port_, "/api/seeks", {{"variant", name}, {"time", {{"kind", "unlimited"}}}}, token());
        EXPECT_EQ(s["_status"], 201) << name << " " << s.dump();
        EXPECT_EQ(s["seek"]["variant"],
                  std::string(name) == "Avalanche" || std::string(name) == "avalanche" ? "avalanche" : "chess");
    }
}

TEST_F(ServerTest, EveryEntryPointRefusesAnUnknownGameNameWithTheSameError) {
    const std::string tok = token();
    for (const char* name : {"shogi", "Alice chess", "aliсe" /* a Cyrillic s */}) {
        const json body = {
            {"variant", name}, {"fen", START}, {"stipulation", "#2"}, {"level", 1}, {"time", {{"kind", "unlimited"}}}};
        for (const char* target : {"/api/analysis", "/api/analysis/eval", "/api/seeks", "/api/computer",
                                   "/api/problems/solve", "/api/problems/popeye"}) {
            const json r = post_json(port_, target, body, tok);
            EXPECT_EQ(r["_status"], 400) << target << " " << name;
            expect_variant_unknown(r["error"], std::string(target) + " " + name);
        }
        WsClient c(port_, tok);
        c.send({{"type", "analyse"}, {"variant", name}});
        expect_variant_unknown(c.error(), std::string("ws analyse ") + name);
    }
}

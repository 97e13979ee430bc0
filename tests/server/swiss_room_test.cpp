// Swiss tournaments through the real server (sockets, SQLite): the refusals
// of creating one, three players playing three rounds (a bye each round) to
// the end with the points and tie-breaks worked by hand, a restart in the
// middle of a round, a forfeit and a late entry.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "accounts_client.h"
#include "json_schema.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

// A first move may wait 10 minutes (no game is forfeited while a slow test
// runs); a minute of starts_in lasts 10 s, time enough to join.
const Tweak SWISS_FAST = [](server::ServerOptions& o) {
    o.fast_password_hash = true;
    o.first_move_ms = 600'000;
    o.tournament_minute_ms = 10'000;
};
const json SWISS_BLITZ = {{"kind", "realtime"}, {"minutes", 3}, {"increment", 2}};
constexpr auto SWISS_WAIT = std::chrono::seconds(60);
// Long enough for a start 10 s away, on busy cores.
constexpr auto SWISS_START_WAIT = std::chrono::seconds(90);

// The errors of a pushed message against docs/protocol/server-messages.schema.json.
std::vector<std::string> schema_errors(const json& message) {
    std::ifstream in(test_path(ECHECS_SOURCE_DIR) + "/docs/protocol/server-messages.schema.json");
    std::ostringstream text;
    text << in.rdbuf();
    return JsonSchema(json::parse(text.str())).errors(message);
}

class SwissRoomTest : public ServerTest {
protected:
    void SetUp() override { start(SWISS_FAST); }

    HttpResult call(http::verb v, const std::string& path, const json& body, const Player& p) {
        return account_call(port_, v, path, body, p);
    }
    std::string create_swiss(const Player& p, int rounds) {
        HttpResult r = call(http::verb::post, "/api/tournaments",
                            {{"kind", "swiss"},
                             {"variant", "chess"},
                             {"time", SWISS_BLITZ},
                             {"rounds", rounds},
                             {"round_interval", 0},
                             {"starts_in", 1}},
                            p);
        EXPECT_EQ(r.status, 201) << r.body;
        return r.j()["tournament"]["id"];
    }
    void join(const std::string& t, const Player& p) {
        HttpResult r = call(http::verb::post, "/api/tournaments/" + t + "/join", json::object(), p);
        ASSERT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.j()["me"]["joined"], true);
    }
    json view(const std::string& t, const std::string& token = "") {
        return get_json(port_, "/api/tournaments/" + t, token);
    }
    static json standing(const json& v, const std::string& name) {
        for (const json& s : v["tournament"]["standings"])
            if (s["name"] == name) return s;
        return nullptr;
    }
    static json paired(WsClient& c, const std::string& t, int round, std::chrono::seconds wait = SWISS_WAIT) {
        return c.recv_until(
            [&](const json& j) {
                return j["type"] == "tournament_paired" && j["tournament"] == t && j["round"] == round;
            },
            wait);
    }
    // A move each, then the loser resigns; waits for the end on both sockets.
    static void play_out(WsClient& white, WsClient& black, const std::string& game, bool white_wins) {
        join_until(white, game, 0, SWISS_WAIT);
        join_until(black, game, 0, SWISS_WAIT);
        play(white, black, game, {"e2e4", "e7e5"});
        (white_wins ? black : white).send({{"type", "resign"}, {"game", game}});
        for (WsClient* c : {&white, &black})
            c->state_where(
                game, [](const json& s) { return s["status"] == "over"; }, SWISS_WAIT);
    }
};

TEST_F(SwissRoomTest, CreationIsCheckedAndAWithdrawalBeforeTheStartRemovesThePlayer) {
    Player ann = sign_up(port_, "AnnSwiss");
    const json body = {
        {"kind", "swiss"}, {"variant", "chess"}, {"time", SWISS_BLITZ}, {"rounds", 5}, {"starts_in", 10}};
    for (const auto& [field, value] : {std::pair{"rounds", 2}, std::pair{"rounds", 16},
                                       std::pair{"round_interval", 301}, std::pair{"round_interval", -1}}) {
        json bad = body;
        bad[field] = value;
        HttpResult r = call(http::verb::post, "/api/tournaments", bad, ann);
        EXPECT_EQ(r.status, 400) << field << value;
        EXPECT_EQ(r.j()["error"]["field"], field) << r.body;
    }
    json corr = body;
    corr["time"] = {{"kind", "correspondence"}, {"days", 3}};
    EXPECT_EQ(call(http::verb::post, "/api/tournaments", corr, ann).j()["error"]["reason"], "tournament_time");

    HttpResult r = call(http::verb::post, "/api/tournaments", body, ann);
    ASSERT_EQ(r.status, 201) << r.body;
    const json t = r.j()["tournament"];
    EXPECT_EQ(t["kind"], "swiss");
    EXPECT_EQ(t["rounds"], 5);
    EXPECT_EQ(t["round"], 0);
    EXPECT_EQ(t["round_interval"], 10) << "the default";
    const std::string id = t["id"];
    join(id, ann);
    EXPECT_EQ(view(id)["tournament"]["players"], 1);
    r = call(http::verb::post, "/api/tournaments/" + id + "/withdraw", json::object(), ann);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.j()["me"]["joined"], false);
    restart(SWISS_FAST);
    EXPECT_EQ(view(id)["tournament"]["players"], 0) << "removed, in storage too";
    json listed = get_json(port_, "/api/tournaments?player=AnnSwiss");
    EXPECT_TRUE(listed["tournaments"].empty()) << listed.dump();
}

// Ann, Bob and Carl (pairing numbers 1, 2, 3: equal ratings, then the
// account's order) play three rounds; the lower pairing number wins each
// game. Round 1: Ann-Bob, Carl the bye; round 2: Ann-Carl, Bob the bye;
// round 3: Bob-Carl, Ann the bye (she met both). The server restarts in the
// middle of round 2.
TEST_F(SwissRoomTest, ThreePlayersPlayThreeRoundsWithAByeEachAndARestartLosesNothing) {
    Player ann = sign_up(port_, "AnnSwiss"), bob = sign_up(port_, "BobSwiss"), carl = sign_up(port_, "CarlSwiss");
    const std::string t = create_swiss(ann, 3);
    for (const Player* p : {&ann, &bob, &carl}) join(t, *p);
    std::string game2;
    bool ann_white2 = false;
    {
        WsClient a(port_, ann.token), b(port_, bob.token), c(port_, carl.token), watcher(port_);
        watcher.send({{"type", "tournament_watch"}, {"tournament", t}});
        json pa = paired(a, t, 1, SWISS_START_WAIT), pb = paired(b, t, 1);
        ASSERT_EQ(pa["game"], pb["game"]);
        json v = view(t, carl.token);
        EXPECT_EQ(v["tournament"]["status"], "started");
        EXPECT_EQ(v["tournament"]["round"], 1);
        EXPECT_EQ(v["tournament"]["bye"], "CarlSwiss");
        EXPECT_EQ(v["me"]["pairing"]["kind"], "bye");
        json mine = view(t, ann.token)["me"]["pairing"];
        EXPECT_EQ(mine["opponent"], "BobSwiss");
        EXPECT_EQ(mine["color"], pa["color"]);
        EXPECT_EQ(mine["game"], pa["game"]);
        // Berserk and abort are refused in a Swiss game.
        const bool ann_white = pa["color"] == "white";
        join_until(a, pa["game"], 0, SWISS_WAIT);
        a.send({{"type", "berserk"}, {"game", pa["game"]}});
        EXPECT_EQ(a.recv_until([](const json& j) { return j["type"] == "error"; }, SWISS_WAIT)["reason"],
                  "berserk_not_tournament");
        a.send({{"type", "abort"}, {"game", pa["game"]}});
        EXPECT_EQ(a.recv_until([](const json& j) { return j["type"] == "error"; }, SWISS_WAIT)["reason"],
                  "abort_swiss");
        play_out(ann_white ? a : b, ann_white ? b : a, pa["game"], ann_white);

        json p2a = paired(a, t, 2), p2c = paired(c, t, 2);
        ASSERT_EQ(p2a["game"], p2c["game"]);
        game2 = p2a["game"];
        ann_white2 = p2a["color"] == "white";
        EXPECT_NE(p2a["color"], pa["color"]) << "Ann's colours alternate";
        json pushed = watcher.recv_until(
            [](const json& j) { return j["type"] == "tournament" && j["tournament"]["round"] == 2; }, SWISS_WAIT);
        EXPECT_EQ(pushed["tournament"]["bye"], "BobSwiss");
        ASSERT_EQ(pushed["tournament"]["games"].size(), 1u);
        EXPECT_EQ(pushed["tournament"]["games"][0]["id"], game2);
        EXPECT_EQ(schema_errors(pushed), std::vector<std::string>{}) << pushed.dump();
    }
    restart(SWISS_FAST);
    json v = view(t);
    EXPECT_EQ(v["tournament"]["round"], 2) << v.dump();
    ASSERT_EQ(v["tournament"]["games"].size(), 1u);
    EXPECT_EQ(v["tournament"]["games"][0]["id"], game2);
    EXPECT_EQ(standing(v, "AnnSwiss")["points"], 1);
    EXPECT_EQ(standing(v, "CarlSwiss")["points"], 1);

    WsClient a(port_, ann.token), b(port_, bob.token), c(port_, carl.token), watcher(port_);
    watcher.send({{"type", "tournament_watch"}, {"tournament", t}});
    play_out(ann_white2 ? a : c, ann_white2 ? c : a, game2, ann_white2);
    json p3b = paired(b, t, 3), p3c = paired(c, t, 3);
    ASSERT_EQ(p3b["game"], p3c["game"]);
    EXPECT_EQ(view(t, ann.token)["me"]["pairing"]["kind"], "bye");
    const bool bob_white = p3b["color"] == "white";
    play_out(bob_white ? b : c, bob_white ? c : b, p3b["game"], bob_white);

    // Finished once the last game is stored: pushed to the watcher.
    watcher.recv_until(
        [](const json& j) { return j["type"] == "tournament" && j["tournament"]["status"] == "finished"; }, SWISS_WAIT);
    v = view(t);
    ASSERT_EQ(v["tournament"]["status"], "finished") << v.dump();
    EXPECT_EQ(schema_errors({{"type", "tournament"}, {"tournament", v["tournament"]}}), std::vector<std::string>{});
    const json& s = v["tournament"]["standings"];
    ASSERT_EQ(s.size(), 3u);
    // Worked by hand (docs/TOURNAMENTS.md, the virtual opponent): opponents'
    // scores count their byes as draws (Ann 2.5, Bob 1.5, Carl 0.5); a bye
    // in round R is an opponent with the player's score before R, 0 for the
    // round and draws after (Ann's round 3: 2; Bob's round 2: 0.5; Carl's round 1: 1).
    const std::vector<std::tuple<std::string, double, double, double, double>> expected = {
        {"AnnSwiss", 3, 4.0, 3.5, 4.0}, {"BobSwiss", 2, 3.5, 3.0, 1.0}, {"CarlSwiss", 1, 5.0, 4.0, 1.0}};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& [name, points, bh, cut1, sb] = expected[i];
        EXPECT_EQ(s[i]["name"], name) << v.dump();
        EXPECT_EQ(s[i]["rank"], int(i) + 1);
        EXPECT_EQ(s[i]["points"], points) << name;
        EXPECT_EQ(s[i]["buchholz"], bh) << name;
        EXPECT_EQ(s[i]["buchholz_cut1"], cut1) << name;
        EXPECT_EQ(s[i]["sonneborn_berger"], sb) << name;
    }
    auto kinds = [](const json& row) {
        std::string k;
        for (const json& r : row["rounds"]) k += r["kind"].get<std::string>() + "/" + r.value("opponent", "") + " ";
        return k;
    };
    EXPECT_EQ(kinds(s[0]), "played/BobSwiss played/CarlSwiss bye/ ");
    EXPECT_EQ(kinds(s[1]), "played/AnnSwiss bye/ played/CarlSwiss ");
    EXPECT_EQ(kinds(s[2]), "bye/ played/AnnSwiss played/BobSwiss ");
    json mine = get_json(port_, "/api/tournaments?player=BobSwiss");
    ASSERT_EQ(mine["tournaments"].size(), 1u) << mine.dump();
    EXPECT_EQ(mine["tournaments"][0]["player"]["results"], "LBW");
    EXPECT_EQ(mine["tournaments"][0]["player"]["rank"], 2);
}

// A player who never makes a first move loses by forfeit and is withdrawn;
// players joining late are paired from the next round, absent before;
// joining after the last round is paired is refused.
TEST_F(SwissRoomTest, AForfeitWithdrawsTheAbsentPlayerAndALateEntryIsAbsentBefore) {
    restart([](server::ServerOptions& o) {
        SWISS_FAST(o);
        // Bob never moves: forfeited in 20 s (the others' first moves come well within it).
        o.first_move_ms = 20'000;
    });
    Player ann = sign_up(port_, "AnnSwiss"), bob = sign_up(port_, "BobSwiss"), carl = sign_up(port_, "CarlSwiss"),
           dave = sign_up(port_, "DaveSwiss");
    const std::string t = create_swiss(ann, 3);
    join(t, ann);
    join(t, bob);
    // Each socket opened when its player joins: one left unread for long is closed by the server.
    WsClient a(port_, ann.token);
    json pa = paired(a, t, 1, SWISS_START_WAIT);
    join(t, carl);  // late: absent in round 1
    WsClient c(port_, carl.token);
    // If Ann has White she moves, and Bob never answers; if Black, Bob never starts.
    if (pa["color"] == "white") {
        join_until(a, pa["game"], 0, SWISS_WAIT);
        a.send({{"type", "move"}, {"game", pa["game"]}, {"move", "e2e4"}, {"ply", 0}});
        a.state(pa["game"], 1, SWISS_WAIT);
    }
    // Round 2: Ann against Carl; Bob forfeited and is withdrawn.
    json p2 = paired(a, t, 2), p2c = paired(c, t, 2);
    ASSERT_EQ(p2["game"], p2c["game"]);
    json v = view(t, bob.token);
    EXPECT_EQ(v["me"]["paused"], true);
    EXPECT_EQ(v["me"]["pairing"], nullptr) << "absent in round 2";
    json bs = standing(v, "BobSwiss"), cs = standing(v, "CarlSwiss"), as = standing(v, "AnnSwiss");
    EXPECT_EQ(bs["withdrawn"], true);
    EXPECT_EQ(bs["rounds"][0]["kind"], "forfeit_loss") << v.dump();
    EXPECT_EQ(bs["rounds"][1]["kind"], "absent");
    EXPECT_EQ(as["rounds"][0]["kind"], "forfeit_win");
    EXPECT_EQ(as["points"], 1);
    EXPECT_EQ(cs["rounds"][0]["kind"], "absent");
    EXPECT_EQ(cs["rounds"][0]["points"], 0);
    EXPECT_EQ(v["tournament"]["bye"], nullptr);

    // Dave joins during round 2; Ann wins it. Round 3: Ann met Carl, so
    // Ann-Dave, and Carl (who had none) the bye.
    join(t, dave);
    WsClient d(port_, dave.token);
    const bool ann_white = p2["color"] == "white";
    play_out(ann_white ? a : c, ann_white ? c : a, p2["game"], ann_white);
    json p3 = paired(a, t, 3), p3d = paired(d, t, 3);
    EXPECT_EQ(p3["game"], p3d["game"]);
    v = view(t, carl.token);
    EXPECT_EQ(v["me"]["pairing"]["kind"], "bye") << v.dump();
    EXPECT_EQ(v["me"]["pairing"]["round"], 3);
    json ds = standing(v, "DaveSwiss");
    EXPECT_EQ(ds["rounds"][0]["kind"], "absent");
    EXPECT_EQ(ds["rounds"][1]["kind"], "absent");
    EXPECT_EQ(ds["rounds"][2]["kind"], "live");
    EXPECT_EQ(standing(v, "AnnSwiss")["points"], 2);
    // The last round is paired: Bob cannot come back.
    HttpResult r = call(http::verb::post, "/api/tournaments/" + t + "/join", json::object(), bob);
    EXPECT_EQ(r.status, 409);
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_entries_closed") << r.body;
}

}  // namespace

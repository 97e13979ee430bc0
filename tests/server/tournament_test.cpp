// Arena tournaments through the real server (sockets, SQLite): the daily
// arena of each game on a fresh server, the refusals of creating and
// joining, players paired as soon as they are free and here, the points of
// lichess's rules (a streak doubles), pause and presence, and a restart in
// the middle that loses no point, game or pairing; an old finished
// tournament's standings read back from the database.
#include <gtest/gtest.h>

#include <ctime>
#include <set>

#include "accounts_client.h"
#include "server/play/tournaments.h"
#include "server/storage/storage.h"
#include "server_fixture.h"

using namespace echecs;
using namespace echecs::test;

namespace {

// A first move may wait 10 minutes: no game is aborted while a slow test runs.
const Tweak FAST = [](server::ServerOptions& o) {
    o.fast_password_hash = true;
    o.first_move_ms = 600'000;
};
const json BLITZ = {{"kind", "realtime"}, {"minutes", 3}, {"increment", 2}};
// Bounded waits, long enough for the sanitizer build on busy cores.
constexpr auto WAIT = std::chrono::seconds(60);

class TournamentTest : public ServerTest {
protected:
    void SetUp() override { start(FAST); }

    HttpResult call(http::verb v, const std::string& path, const json& body, const Player& p) {
        return account_call(port_, v, path, body, p);
    }
    std::string create_arena(const Player& p) {
        HttpResult r = call(http::verb::post, "/api/tournaments",
                            {{"variant", "chess"}, {"time", BLITZ}, {"minutes", 60}, {"starts_in", 0}}, p);
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
    static json paired(WsClient& c, const std::string& t) {
        return c.recv_until([&](const json& j) { return j["type"] == "tournament_paired" && j["tournament"] == t; },
                            WAIT);
    }
    // White and Black each move once, then `loser` resigns; waits for the end on both sockets.
    static void win(WsClient& white, WsClient& black, const std::string& game, bool white_wins) {
        json w = join_until(white, game, 0, WAIT);
        json b = join_until(black, game, 0, WAIT);
        EXPECT_EQ(w["you"], "white");
        EXPECT_EQ(b["you"], "black");
        play(white, black, game, {"e2e4", "e7e5"});
        (white_wins ? black : white).send({{"type", "resign"}, {"game", game}});
        for (WsClient* c : {&white, &black}) {
            json over = c->state_where(
                game, [](const json& s) { return s["status"] == "over"; }, WAIT);
            EXPECT_EQ(over["result"], white_wins ? "1-0" : "0-1");
        }
    }
};

TEST_F(TournamentTest, AFreshServerSchedulesADailyArenaInEachGameOnce) {
    const std::int64_t now = std::int64_t(std::time(nullptr)) * 1000;
    const std::int64_t day = 24 * 3600'000LL, today_18 = now - now % day + 18 * 3600'000LL;
    for (int pass = 0; pass < 2; ++pass) {
        json list = get_json(port_, "/api/tournaments");
        ASSERT_EQ(list["tournaments"].size(), 3u) << list.dump();
        std::set<std::string> variants;
        for (const json& t : list["tournaments"]) {
            variants.insert(t["variant"].get<std::string>());
            EXPECT_EQ(t["kind"], "arena");
            EXPECT_EQ(t["daily"], true);
            EXPECT_EQ(t["status"], "created");
            EXPECT_EQ(t["rated"], true);
            EXPECT_EQ(t["time"], json({{"kind", "realtime"}, {"minutes", 3}, {"increment", 2}}));
            EXPECT_EQ(t["ends_at"].get<std::int64_t>() - t["starts_at"].get<std::int64_t>(), 3600'000);
            const std::int64_t starts = t["starts_at"];
            EXPECT_TRUE(starts == today_18 || starts == today_18 + day) << starts;
            EXPECT_GT(starts, now - 60'000);
        }
        EXPECT_EQ(variants, (std::set<std::string>{"chess", "alice", "avalanche"}));
        restart(FAST);  // read back, not scheduled again
    }
}

TEST_F(TournamentTest, CreatingAndJoiningAreForAccountsWithinTheLimits) {
    Player anon{"", token(), ""};
    const json body = {{"variant", "chess"}, {"time", BLITZ}, {"minutes", 30}};
    HttpResult r = call(http::verb::post, "/api/tournaments", body, anon);
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_needs_account");

    Player ann = sign_up(port_, "AnnArena");
    json swiss = body;
    swiss["kind"] = "knockout";
    r = call(http::verb::post, "/api/tournaments", swiss, ann);
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_kind_unknown") << r.body;
    json corr = body;
    corr["time"] = {{"kind", "correspondence"}, {"days", 3}};
    r = call(http::verb::post, "/api/tournaments", corr, ann);
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_time") << r.body;
    json short_one = body;
    short_one["minutes"] = 5;
    r = call(http::verb::post, "/api/tournaments", short_one, ann);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.j()["error"]["field"], "minutes") << r.body;

    for (int i = 0; i < 2; ++i) {
        r = call(http::verb::post, "/api/tournaments", body, ann);
        ASSERT_EQ(r.status, 201) << r.body;
        EXPECT_EQ(r.j()["tournament"]["name"], "AnnArena");
        EXPECT_EQ(r.j()["tournament"]["status"], "created");
        EXPECT_EQ(r.j()["tournament"]["daily"], false);
    }
    r = call(http::verb::post, "/api/tournaments", body, ann);
    EXPECT_EQ(r.status, 409);
    EXPECT_EQ(r.j()["error"]["reason"], "too_many_tournaments") << r.body;
    EXPECT_EQ(get_json(port_, "/api/tournaments")["tournaments"].size(), 5u);

    const std::string first = get_json(port_, "/api/tournaments")["tournaments"][0]["id"];
    r = call(http::verb::post, "/api/tournaments/" + first + "/join", json::object(), anon);
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_needs_account") << r.body;
    r = call(http::verb::post, "/api/tournaments/" + first + "/withdraw", json::object(), ann);
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_not_joined") << r.body;
    r = call(http::verb::post, "/api/tournaments/nosuch00/join", json::object(), ann);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.j()["error"]["reason"], "tournament_not_found");
    EXPECT_EQ(view("nosuch00")["_status"], 404);
}

TEST_F(TournamentTest, PlayersArePairedWhenFreeAndScoredAsLichessAndARestartLosesNothing) {
    Player ann = sign_up(port_, "AnnArena"), bob = sign_up(port_, "BobArena");
    const std::string t = create_arena(ann);
    std::string game, last_color;
    {
        WsClient a(port_, ann.token), b(port_, bob.token), watcher(port_);
        watcher.send({{"type", "tournament_watch"}, {"tournament", t}});
        json first = watcher.recv_until([](const json& j) { return j["type"] == "tournament"; }, WAIT);
        EXPECT_EQ(first["tournament"]["id"], t);
        join(t, ann);
        join(t, bob);
        EXPECT_EQ(view(t, ann.token)["me"]["name"], "AnnArena");

        // Two wins for Ann; the colours alternate.
        for (int i = 0; i < 2; ++i) {
            json pa = paired(a, t), pb = paired(b, t);
            ASSERT_EQ(pa["game"], pb["game"]);
            EXPECT_NE(pa["color"], pb["color"]);
            if (i == 1) {
                EXPECT_NE(pa["color"], last_color) << "White goes to the one who had it less";
            }
            last_color = pa["color"];
            const bool ann_white = pa["color"] == "white";
            win(ann_white ? a : b, ann_white ? b : a, pa["game"], ann_white);
        }
        // Pushed to the watcher: 2 + 2, on fire.
        json pushed = watcher.recv_until(
            [](const json& j) { return j["type"] == "tournament" && j["tournament"]["standings"][0]["score"] == 4; },
            WAIT);
        EXPECT_EQ(pushed["tournament"]["standings"][0]["name"], "AnnArena");
        EXPECT_EQ(pushed["tournament"]["standings"][0]["fire"], true);
        EXPECT_EQ(pushed["tournament"]["standings"][1]["results"], "LL");
        EXPECT_EQ(pushed["tournament"]["status"], "started");

        // The third pairing, then the server restarts in the middle of it.
        json pa = paired(a, t);
        game = pa["game"];
        last_color = pa["color"];
        EXPECT_EQ(paired(b, t)["game"], game);
    }
    restart(FAST);
    json v = view(t);
    EXPECT_EQ(standing(v, "AnnArena")["score"], 4) << v.dump();
    EXPECT_EQ(standing(v, "AnnArena")["game"], game);
    EXPECT_EQ(standing(v, "BobArena")["score"], 0);
    ASSERT_EQ(v["tournament"]["games"].size(), 1u);
    EXPECT_EQ(v["tournament"]["games"][0]["id"], game);

    // The game goes on after the restart; Ann's third win counts double.
    WsClient a(port_, ann.token), b(port_, bob.token);
    const bool ann_white = last_color == "white";
    win(ann_white ? a : b, ann_white ? b : a, game, ann_white);
    v = view(t);  // counted before the end was sent
    json annv = standing(v, "AnnArena");
    EXPECT_EQ(annv["score"], 8) << v.dump();
    EXPECT_EQ(annv["points"], json::array({2, 2, 4}));
    EXPECT_EQ(annv["results"], "WWW");
    EXPECT_EQ(standing(v, "BobArena")["results"], "LLL");
}

// A berserk win with at least 7 of one's own moves gains a point more.
TEST_F(TournamentTest, ABerserkWinGainsAPointMore) {
    Player ann = sign_up(port_, "AnnArena"), bob = sign_up(port_, "BobArena");
    const std::string t = create_arena(ann);
    join(t, ann);
    join(t, bob);
    WsClient a(port_, ann.token), b(port_, bob.token);
    json pa = paired(a, t);
    const std::string game = pa["game"];
    ASSERT_EQ(paired(b, t)["game"], game);
    const bool ann_white = pa["color"] == "white";
    WsClient& white = ann_white ? a : b;
    WsClient& black = ann_white ? b : a;
    join_until(white, game, 0, WAIT);
    join_until(black, game, 0, WAIT);
    // Ann berserks: her clock is halved, and both see it.
    a.send({{"type", "berserk"}, {"game", game}});
    json s = b.state_where(
        game, [&](const json& j) { return j["players"][ann_white ? "white" : "black"]["berserk"] == true; }, WAIT);
    EXPECT_EQ(s["clock"][ann_white ? "white" : "black"], 90'000);
    EXPECT_EQ(s["tournament"], t);
    play(white, black, game,
         {"e2e4", "a7a6", "d2d4", "b7b6", "g1f3", "c7c6", "b1c3", "h7h6", "f1e2", "g7g6", "c1e3", "a6a5", "d1d2",
          "b6b5"});
    (ann_white ? black : white).send({{"type", "resign"}, {"game", game}});
    a.state_where(
        game, [](const json& j) { return j["status"] == "over"; }, WAIT);
    json v = view(t);
    EXPECT_EQ(standing(v, "AnnArena")["score"], 3) << v.dump();
    EXPECT_EQ(standing(v, "AnnArena")["points"], json::array({3}));
}

TEST_F(TournamentTest, PausedAndAbsentPlayersAreNotPaired) {
    Player ann = sign_up(port_, "AnnArena"), bob = sign_up(port_, "BobArena"), carl = sign_up(port_, "CarlArena"),
           dave = sign_up(port_, "DaveArena");
    const std::string t = create_arena(ann);
    for (const Player* p : {&ann, &bob, &carl, &dave}) join(t, *p);
    // Bob pauses; Dave has no socket open: only Ann and Carl can be paired.
    HttpResult r = call(http::verb::post, "/api/tournaments/" + t + "/withdraw", json::object(), bob);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.j()["me"]["paused"], true);
    WsClient a(port_, ann.token), b(port_, bob.token), c(port_, carl.token);
    json pa = paired(a, t), pc = paired(c, t);
    EXPECT_EQ(pa["game"], pc["game"]);
    json v = view(t);
    EXPECT_EQ(standing(v, "BobArena")["paused"], true);
    EXPECT_TRUE(standing(v, "BobArena")["game"].is_null());
    EXPECT_TRUE(standing(v, "DaveArena")["game"].is_null());
    EXPECT_EQ(v["tournament"]["games"].size(), 1u);
    // Bob comes back: with Ann and Carl playing, he waits; Dave joins him once here.
    join(t, bob);
    WsClient d(port_, dave.token);
    json pb = paired(b, t), pd = paired(d, t);
    EXPECT_EQ(pb["game"], pd["game"]);
}

// A player in a real-time game outside the arena is not paired (their clock
// runs there); a correspondence game does not keep them out.
TEST_F(TournamentTest, APlayerBusyInAnotherRealTimeGameWaits) {
    Player ann = sign_up(port_, "AnnArena"), bob = sign_up(port_, "BobArena"), carl = sign_up(port_, "CarlArena"),
           dave = sign_up(port_, "DaveArena");
    ASSERT_NE(seek_and_accept(port_, bob, dave, {{"variant", "chess"}, {"time", BLITZ}, {"color", "white"}}), "");
    ASSERT_NE(seek_and_accept(
                  port_, ann, dave,
                  {{"variant", "chess"}, {"time", {{"kind", "correspondence"}, {"days", 3}}}, {"color", "white"}}),
              "");
    const std::string t = create_arena(ann);
    for (const Player* p : {&ann, &bob, &carl}) join(t, *p);
    // Free in the standings' order, Ann would meet Bob: Bob plays Dave, so Ann meets Carl.
    WsClient a(port_, ann.token), b(port_, bob.token), c(port_, carl.token);
    json pa = paired(a, t), pc = paired(c, t);
    EXPECT_EQ(pa["game"], pc["game"]);
    EXPECT_TRUE(standing(view(t), "BobArena")["game"].is_null());

    // A player's tournaments (the profile's list), with their place; a
    // name in another case is the same player.
    json mine = get_json(port_, "/api/tournaments?player=bobarena");
    ASSERT_EQ(mine["tournaments"].size(), 1u) << mine.dump();
    EXPECT_EQ(mine["tournaments"][0]["id"], t);
    EXPECT_EQ(mine["tournaments"][0]["player"]["score"], 0);
    EXPECT_EQ(mine["tournaments"][0]["player"]["results"], "");
    EXPECT_TRUE(get_json(port_, "/api/tournaments?player=Nobody")["tournaments"].empty());
    EXPECT_EQ(get_json(port_, "/api/tournaments")["tournaments"].size(), 4u) << "and the 3 daily arenas";
}

}  // namespace

// The server keeps the 50 latest finished tournaments in memory; an older
// one's page is read back from the database, its standings as they ended,
// and its players' profiles list it.
TEST_F(TournamentTest, AnOldFinishedTournamentsStandingsAreReadBack) {
    stop();
    {
        auto st = server::open_storage(db_path());
        std::vector<server::WriteOp> ops;
        const std::size_t n = server::Tournaments::FINISHED_KEPT + 2;
        for (std::size_t i = 0; i < n; ++i) {
            server::TournamentRecord t;
            const std::string num = std::to_string(i);
            t.id = "Old" + std::string(5 - num.size(), '0') + num;  // Old00000 the oldest
            t.name = "Old " + num;
            t.time = server::TimeControl{server::TimeControl::Realtime, 180'000, 2'000, 0};
            t.starts_at = 1'000'000 + std::int64_t(i) * 7'200'000;
            t.duration_ms = 3'600'000;
            t.status = "finished";
            t.created_by = 1;
            t.created_at = t.starts_at - 60'000;
            ops.push_back(server::SaveTournament{t});
        }
        for (std::int64_t account : {1, 2}) {
            server::TournamentPlayerRecord p;
            p.tournament = "Old00000";
            p.account = account;
            p.name = account == 1 ? "OldAnn" : "OldBob";
            p.rating = 1500;
            p.joined_at = 1'000'000 + account;
            ops.push_back(server::SaveTournamentPlayer{p});
        }
        server::GameRecord g;
        g.id = "OldGame1";
        g.initial_fen = g.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.time = server::TimeControl{server::TimeControl::Realtime, 180'000, 2'000, 0};
        g.status = "over";
        g.result = "1-0";
        g.termination = "resignation";
        g.tournament = "Old00000";
        g.white = server::Seat{.name = "OldAnn", .token = "", .level = 0, .account = 1};
        g.black = server::Seat{.name = "OldBob", .token = "", .level = 0, .account = 2};
        g.created_at = 1'100'000;
        g.ended_at = 1'200'000;
        ops.push_back(server::SaveGame{g});
        st->apply(ops);
    }
    start(FAST);

    // Not in memory: the list has the 50 latest finished, not the oldest.
    const json list = get_json(port_, "/api/tournaments");
    std::set<std::string> listed;
    for (const json& t : list["tournaments"]) listed.insert(t["id"].get<std::string>());
    EXPECT_EQ(listed.count("Old00000"), 0u) << list.dump();
    EXPECT_EQ(listed.count("Old00051"), 1u) << list.dump();

    const json v = view("Old00000");
    EXPECT_EQ(v["archived"], true) << v.dump();
    EXPECT_EQ(v["tournament"]["id"], "Old00000");
    EXPECT_EQ(v["tournament"]["status"], "finished");
    ASSERT_EQ(v["tournament"]["standings"].size(), 2u) << v.dump();
    EXPECT_EQ(v["tournament"]["standings"][0]["name"], "OldAnn");
    EXPECT_EQ(v["tournament"]["standings"][0]["score"], 2);
    EXPECT_EQ(v["tournament"]["standings"][0]["results"], "W");
    EXPECT_EQ(standing(v, "OldBob")["results"], "L");
    EXPECT_EQ(v["me"]["joined"], false);
    // OldAnn's profile lists it, after those in memory (none of hers), with her place.
    const json mine = get_json(port_, "/api/tournaments?player=oldann");
    ASSERT_EQ(mine["tournaments"].size(), 1u) << mine.dump();
    EXPECT_EQ(mine["tournaments"][0]["id"], "Old00000");
    EXPECT_EQ(mine["tournaments"][0]["archived"], true);
    EXPECT_EQ(mine["tournaments"][0]["player"]["rank"], 1);
    EXPECT_EQ(mine["tournaments"][0]["player"]["score"], 2);
    EXPECT_EQ(get_json(port_, "/api/tournaments?player=OldBob")["tournaments"][0]["player"]["rank"], 2);
    EXPECT_EQ(get_json(port_, "/api/tournaments?player=Nobody")["tournaments"].size(), 0u);
    // One kept in memory is not marked; an unknown one is still refused.
    EXPECT_FALSE(view("Old00051").contains("archived"));
    HttpResult missing = http_request(port_, http::verb::get, "/api/tournaments/Nope1234");
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.j()["error"]["reason"], "tournament_not_found") << missing.body;
}

// Every server→client message, built through its struct (the `state` through
// LiveGame), against docs/protocol/server-messages.schema.json: a field added
// to or dropped from a message without the schema fails here, and so does a
// message type of the schema that nothing here builds.
#include "server/protocol/server_messages.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "json_schema.h"
#include "server/api/errors.h"
#include "server/play/live_game.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::server;
using nlohmann::json;

namespace {

json read_schema() {
    const std::string path = echecs::test::test_path(ECHECS_SOURCE_DIR) + "/docs/protocol/server-messages.schema.json";
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot read " << path;
    std::ostringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

const echecs::test::JsonSchema& schema() {
    static const echecs::test::JsonSchema s(read_schema());
    return s;
}

LiveGame sample_game(TimeControl tc) {
    Seat white{"Ann", "tokenWhite000000", 0}, black{"Bob", "tokenBlack000000", 0};
    white.account = 7;
    white.rating = 1512;
    GameRecord r = LiveGame::new_record("Gm7Pq2Zx", Variant::Chess, tc, white, black, 1'000'000);
    return LiveGame(std::move(r), GameSettings{30'000, 20});
}

SeekRecord sample_seek() {
    SeekRecord s;
    s.id = "Sk4Lm9Qa";
    s.time = TimeControl{TimeControl::Realtime, 180'000, 2'000, 0};
    s.created_at = 1'000;
    s.rating_min = 1400;
    return s;
}

out::ChatLine line(std::uint64_t id, const char* seat) { return {id, "Guest-3fa2c1", false, seat, "Hello", 1'000}; }

// Samples of every message, optional fields both present and absent.
std::vector<std::string> samples() {
    std::vector<std::string> v;
    v.push_back(out::to_text(out::Pong{"1764424155123", 1764424155130}));
    v.push_back(out::to_text(out::Pong{R"({"any":[1]})", 5}));
    v.push_back(ws_error_text(ApiError(Reason::storage_failed, "storage failed"), "", ""));
    v.push_back(
        ws_error_text(ApiError(Reason::number_range, "out of range", "multipv", {{"max", 3}}), "Gm7Pq2Zx", "17"));
    v.push_back(out::to_text(out::Error{"bad_message", "m", "bad_message", "", json::object(), "", "\"a\""}));
    v.push_back(out::to_text(out::MySeeks{}));
    v.push_back(out::to_text(out::MySeeks{{"Sk4Lm9Qa", "Sk9Zz1Aa"}}));
    v.push_back(out::to_text(out::SeekAccepted{"Sk4Lm9Qa", "Gm7Pq2Zx", "white"}));

    const LiveGame realtime = sample_game(TimeControl{TimeControl::Realtime, 300'000, 3'000, 0});
    SeekRecord seek = sample_seek();
    out::Lobby lobby{41, json::array({seek_json(seek, std::nullopt)}), json::array({summary_json(realtime.record())})};
    v.push_back(out::to_text(lobby));
    v.push_back(out::to_text(out::Lobby{0, json::array(), json::array()}));
    json changes =
        json::array({{{"op", "seek_added"}, {"seek", seek_json(seek, std::nullopt)}},
                     {{"op", "seek_removed"}, {"id", "Sk4Lm9Qa"}},
                     {{"op", "game_started"}, {"game", summary_json(realtime.record())}},
                     {{"op", "game_moved"}, {"id", "Gm7Pq2Zx"}, {"ply", 13}, {"fen", "8/8/8/8/8/8/8/8 w - - 0 1"}},
                     {{"op", "game_ended"}, {"id", "Gm5Dd6Ee"}}});
    v.push_back(out::to_text(out::LobbyDelta{42, changes}));

    v.push_back(out::to_text(out::PoolWaiting{"chess-3+2", true, 1500, 100, "3"}));
    v.push_back(out::to_text(out::PoolWaiting{"chess-3+2", false, std::nullopt, 100, ""}));
    v.push_back(out::to_text(out::PoolLeft{"chess-3+2"}));
    v.push_back(out::to_text(out::PoolLeft{std::nullopt}));
    v.push_back(out::to_text(out::PoolPaired{"chess-3+2", "Gm7Pq2Zx", "black"}));
    v.push_back(out::to_text(out::TournamentPaired{"Tn4Rk8Wq", "Gm7Pq2Zx", "white"}));
    v.push_back(out::to_text(out::TournamentPaired{"Sw4Rk8Wq", "Gm7Pq2Zx", "black", 3}));  // a Swiss round
    // A tournament's view as an arena builds it: two players, one game in progress.
    json standing = {{"rank", 1},       {"name", "Ann"},     {"rating", 1512},  {"provisional", false},
                     {"score", 4},      {"points", {2, 2}},  {"results", "WW"}, {"fire", true},
                     {"paused", false}, {"game", "Gm7Pq2Zx"}};
    json view = {{"id", "Tn4Rk8Wq"},
                 {"kind", "arena"},
                 {"name", ""},
                 {"daily", true},
                 {"variant", "alice"},
                 {"time", time_json(TimeControl{TimeControl::Realtime, 180'000, 2'000, 0})},
                 {"rated", true},
                 {"status", "started"},
                 {"starts_at", 1'000},
                 {"ends_at", 3'601'000},
                 {"players", 2},
                 {"standings", json::array({standing})},
                 {"games", json::array({{{"id", "Gm7Pq2Zx"}, {"white", "Ann"}, {"black", "Bob"}}})}};
    v.push_back(out::to_text(out::TournamentView{view}));
    standing["game"] = nullptr;
    view["standings"] = json::array({standing});
    view["games"] = json::array();
    view["status"] = "finished";
    v.push_back(out::to_text(out::TournamentView{view}));

    v.push_back(out::to_text(out::Chat{"spectators", "Gm7Pq2Zx", line(4, "")}));
    v.push_back(out::to_text(out::Chat{"lobby", "", line(9, "")}));
    v.push_back(out::to_text(out::ChatHistory{"players", "Gm7Pq2Zx", true, 300, {line(1, "white"), line(2, "black")}}));
    v.push_back(out::to_text(out::ChatHistory{"lobby", "", false, 300, {}}));
    v.push_back(out::to_text(out::Reported{"Gm7Pq2Zx", 12, "3"}));
    v.push_back(out::to_text(out::Reported{"", 12, ""}));

    out::AnalysisLine a{1, 35, std::nullopt, 331, 512, 157, 9, {"g1f3,e7e6"}, {"Nf3,e6"}};
    out::AnalysisLine b{2, std::nullopt, -3, 0, 0, 1000, 9, {}, {}};
    v.push_back(out::to_text(out::Analysis{9, 183220, 611000, 300, false, {a, b}, "4"}));
    v.push_back(out::to_text(out::Analysis{0, 0, 0, 0, true, {}, ""}));

    v.push_back(out::to_text(out::Review{"Gm7Pq2Zx", {{"status", "running"}, {"done", 3}, {"total", 5}}}));
    v.push_back(out::to_text(out::Review{
        "Gm7Pq2Zx", {{"status", "done"}, {"done", 5}, {"total", 5}, {"review", {{"positions", json::array()}}}}}));
    v.push_back(out::to_text(out::Review{"Gm7Pq2Zx", {{"status", "failed"}, {"error", "the engine stayed busy"}}}));

    out::YourTurnGame corr{"Gm7Pq2Zx", "alice", "correspondence", "black", "Ann", 7, "fen", 1, 2, std::nullopt};
    out::YourTurnGame rt{"Rt2Yy8Kk", "chess", "realtime", "white", "Computer", 0, "fen", 1, 2, 300'000};
    out::YourTurnGame unlimited{"Un1Xx2Yy", "chess", "unlimited", "white",      "Bob",
                                0,          "fen",   1,           std::nullopt, std::nullopt};
    v.push_back(out::to_text(out::YourTurn{{corr, rt, unlimited}}));
    v.push_back(out::to_text(out::YourTurn{}));

    // The state: a real-time game with a claim, the seats' connections and a
    // spectator's view; an unlimited one seen by a player.
    Presence presence;
    presence.connected[WHITE] = true;
    presence.claim = Presence::Claim{WHITE, 1'030'000};
    v.push_back(realtime.state_json(std::nullopt, 1'000'500, presence).dump());
    LiveGame unlimited_game = sample_game(TimeControl{});
    EXPECT_FALSE(unlimited_game.move(WHITE, "e2e4", 0, 1'001'000));
    int taken = 0;  // and White's takeback offer open
    EXPECT_FALSE(unlimited_game.takeback_offer(WHITE, 1'001'500, taken));
    v.push_back(unlimited_game.state_json(BLACK, 1'002'000).dump());
    // And over: resigned, with a rematch offered.
    LiveGame over = sample_game(TimeControl{TimeControl::Correspondence, 0, 0, 3});
    EXPECT_FALSE(over.resign(BLACK, 1'003'000));
    bool agreed = false;
    EXPECT_FALSE(over.rematch_offer(WHITE, agreed));
    v.push_back(over.state_json(WHITE, 1'004'000).dump());
    // A tournament's game where White went berserk.
    GameRecord arena = realtime.record();
    arena.tournament = "Tn4Rk8Wq";
    LiveGame arena_game(std::move(arena), GameSettings{30'000, 20});
    EXPECT_FALSE(arena_game.berserk(WHITE));
    v.push_back(arena_game.state_json(BLACK, 1'000'500).dump());
    return v;
}

}  // namespace

TEST(ServerMessages, EverySampleMatchesTheSchema) {
    for (const std::string& text : samples()) {
        const json j = json::parse(text);
        const std::vector<std::string> errors = schema().errors(j);
        std::string all;
        for (const std::string& e : errors) all += "\n  " + e;
        EXPECT_TRUE(errors.empty()) << text << all;
    }
}

TEST(ServerMessages, EveryMessageOfTheSchemaHasASample) {
    std::set<std::string> built;
    for (const std::string& text : samples()) built.insert(json::parse(text).at("type").get<std::string>());
    std::set<std::string> described;
    const json root = read_schema();
    for (const json& ref : root.at("oneOf")) {
        const std::string name = ref.at("$ref").get<std::string>().substr(std::string("#/$defs/msg_").size());
        described.insert(name);
        EXPECT_EQ(schema().def("msg_" + name).at("properties").at("type").at("const"), name);
    }
    EXPECT_EQ(built, described);
}

// The checker bites: an extra field, a missing one, a wrong type, a null
// where the schema has none.
TEST(ServerMessages, TheCheckerRejectsDrift) {
    json ok = json::parse(out::to_text(out::PoolPaired{"chess-3+2", "Gm7Pq2Zx", "white"}));
    EXPECT_TRUE(schema().errors(ok).empty());
    json extra = ok;
    extra["rated"] = true;
    EXPECT_FALSE(schema().errors(extra).empty());
    json missing = ok;
    missing.erase("game");
    EXPECT_FALSE(schema().errors(missing).empty());
    json wrong = ok;
    wrong["color"] = "green";
    EXPECT_FALSE(schema().errors(wrong).empty());
    json null_game = ok;
    null_game["game"] = nullptr;
    EXPECT_FALSE(schema().errors(null_game).empty());
    json state = json::parse(samples().back());
    EXPECT_TRUE(schema().errors(state).empty());
    state["players"]["white"].erase("connected");
    EXPECT_FALSE(schema().errors(state).empty());
    json unknown_type = ok;
    unknown_type["type"] = "pool_paired_v2";
    EXPECT_FALSE(schema().errors(unknown_type).empty());
}

// The game state machine without sockets: clocks (with explicit times),
// endings, offers.
#include "server/live_game.h"

#include <gtest/gtest.h>

using namespace echecs;
using namespace echecs::server;

namespace {

constexpr std::int64_t T0 = 1'000'000;

Seat person(const char* name, const char* token) { return Seat{name, token, 0}; }

LiveGame make(Variant v, TimeControl tc, std::string fen = "") {
    GameRecord r = LiveGame::new_record("TestGame", v, tc, person("Ann", "tokenWhite000000"),
                                        person("Bob", "tokenBlack000000"), T0);
    if (!fen.empty()) r.initial_fen = r.fen = fen;
    return LiveGame(std::move(r), 30'000);
}

TimeControl blitz(std::int64_t initial_ms, std::int64_t inc_ms) {
    return TimeControl{TimeControl::Realtime, initial_ms, inc_ms, 0};
}

TEST(LiveGame, FischerIncrementAndClocksStartAfterBothFirstMoves) {
    LiveGame g = make(Variant::Chess, blitz(60'000, 2'000));
    EXPECT_FALSE(g.clock_running());
    EXPECT_EQ(g.next_deadline(), T0 + 30'000);  // first-move deadline
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0 + 5'000));
    EXPECT_EQ(g.record().white_ms, 62'000);  // no time charged before the clocks start
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0 + 9'000));
    EXPECT_EQ(g.record().black_ms, 62'000);
    EXPECT_TRUE(g.clock_running());
    EXPECT_EQ(g.remaining(WHITE, T0 + 12'000), 59'000);
    ASSERT_FALSE(g.move(WHITE, "g1f3", 2, T0 + 12'000));
    EXPECT_EQ(g.record().white_ms, 61'000);
    EXPECT_EQ(g.record().moves.back().white_ms, 61'000);
    EXPECT_EQ(g.record().moves.back().san, "Nf3");
    EXPECT_EQ(g.next_deadline(), T0 + 12'000 + 62'000);
}

TEST(LiveGame, WrongTurnStalePlyAndIllegalMoveChangeNothing) {
    LiveGame g = make(Variant::Chess, {});
    auto before = g.record();
    EXPECT_EQ(g.move(BLACK, "e7e5", std::nullopt, T0)->code, "not_your_turn");
    EXPECT_EQ(g.move(WHITE, "e2e4", 3, T0)->code, "stale");
    EXPECT_EQ(g.move(WHITE, "e2e5", 0, T0)->code, "illegal_move");
    EXPECT_EQ(g.move(WHITE, "zz", 0, T0)->code, "illegal_move");
    EXPECT_EQ(g.move(WHITE, "", 0, T0)->code, "illegal_move");
    EXPECT_EQ(g.record(), before);
    EXPECT_EQ(g.legal_moves().size(), 20u);
}

TEST(LiveGame, FlagFallLosesOnTime) {
    LiveGame g = make(Variant::Chess, blitz(10'000, 0));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0 + 1'000));
    EXPECT_EQ(g.next_deadline(), T0 + 11'000);
    EXPECT_FALSE(g.check_time(T0 + 10'999));
    EXPECT_TRUE(g.check_time(T0 + 11'000));
    EXPECT_EQ(g.record().result, "0-1");
    EXPECT_EQ(g.record().termination, "time forfeit");
    EXPECT_EQ(g.record().white_ms, 0);
    EXPECT_TRUE(g.legal_moves().empty());
    // A move arriving late is refused.
    EXPECT_EQ(g.move(WHITE, "g1f3", 2, T0 + 11'500)->code, "game_over");
}

TEST(LiveGame, FlagFallAgainstALoneKingIsADraw) {
    // Black has only its king: when White's flag falls, Black cannot mate.
    LiveGame g = make(Variant::Chess, blitz(10'000, 0), "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
    ASSERT_FALSE(g.move(WHITE, "e2e3", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e8d7", 1, T0));
    EXPECT_TRUE(g.check_time(T0 + 10'000));
    EXPECT_EQ(g.record().result, "1/2-1/2");
    EXPECT_EQ(g.record().termination, "time forfeit");
}

TEST(LiveGame, MissingTheFirstMoveAbortsTheGame) {
    LiveGame g = make(Variant::Chess, blitz(60'000, 0));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0 + 1'000));
    EXPECT_EQ(g.next_deadline(), T0 + 31'000);
    EXPECT_TRUE(g.check_time(T0 + 31'000));
    EXPECT_EQ(g.record().termination, "aborted");
    EXPECT_EQ(g.record().result, "*");
}

TEST(LiveGame, CorrespondenceGivesDaysPerMove) {
    LiveGame g = make(Variant::Chess, TimeControl{TimeControl::Correspondence, 0, 0, 2});
    const std::int64_t day = 86'400'000;
    EXPECT_EQ(g.next_deadline(), T0 + 2 * day);
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0 + day));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0 + day + 5));
    EXPECT_EQ(g.next_deadline(), T0 + day + 5 + 2 * day);
    EXPECT_EQ(g.remaining(WHITE, T0 + 2 * day + 5), day);
    EXPECT_TRUE(g.check_time(T0 + 3 * day + 5));
    EXPECT_EQ(g.record().result, "0-1");
    EXPECT_EQ(g.record().termination, "time forfeit");
}

TEST(LiveGame, CheckmateInTheThreeGames) {
    struct Case {
        Variant v;
        std::vector<std::string> moves;
        std::string result;
    } cases[] = {
        {Variant::Chess, {"f2f3", "e7e5", "g2g4", "d8h4"}, "0-1"},
        {Variant::Alice, {"e2e4", "d7d5", "f1e2", "d5e4", "e2b5"}, "1-0"},
        {Variant::Avalanche, {"f2f3,e7e6", "a7a6,g2g3", "a2a3,h7h6", "b7b6,g3g4", "b2b3,c7c6", "d8h4,a3a4"}, "0-1"},
    };
    for (const Case& c : cases) {
        LiveGame g = make(c.v, {});
        for (std::size_t i = 0; i < c.moves.size(); ++i) {
            auto err = g.move(i % 2 ? BLACK : WHITE, c.moves[i], int(i), T0 + int(i));
            ASSERT_FALSE(err) << variant_name(c.v) << " " << c.moves[i] << ": " << err->message;
        }
        EXPECT_EQ(g.record().status, "over") << variant_name(c.v);
        EXPECT_EQ(g.record().termination, "checkmate") << variant_name(c.v);
        EXPECT_EQ(g.record().result, c.result) << variant_name(c.v);
        EXPECT_TRUE(g.legal_moves().empty());
        auto state = g.state_json(WHITE, T0, true, false);
        EXPECT_EQ(state["status"], "over");
        EXPECT_EQ(state["check"], true);
        EXPECT_EQ(state["moves"].size(), c.moves.size());
    }
}

TEST(LiveGame, AvalancheLegalMovesAreCompleteTurns) {
    LiveGame g = make(Variant::Avalanche, {});
    EXPECT_EQ(g.legal_moves().size(), 160u);
    EXPECT_EQ(g.legal_moves()[0].find(','), 4u);
    EXPECT_EQ(g.move(WHITE, "e2e4", 0, T0)->code, "illegal_move");  // the push is missing
    ASSERT_FALSE(g.move(WHITE, "e2e4,e7e6", 0, T0));
    EXPECT_EQ(g.record().moves[0].san, "e4,e6");
}

TEST(LiveGame, DrawOfferAcceptDecline) {
    LiveGame g = make(Variant::Chess, {});
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    EXPECT_EQ(g.draw_accept(BLACK, T0)->code, "not_allowed");  // nobody offered
    ASSERT_FALSE(g.draw_offer(WHITE, T0));
    EXPECT_EQ(g.record().draw_offer, "white");
    EXPECT_EQ(g.draw_accept(WHITE, T0)->code, "not_allowed");  // not one's own offer
    ASSERT_FALSE(g.draw_decline(BLACK));
    EXPECT_EQ(g.record().draw_offer, "");
    ASSERT_FALSE(g.draw_offer(WHITE, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));  // playing on declines
    EXPECT_EQ(g.record().draw_offer, "");
    ASSERT_FALSE(g.draw_offer(BLACK, T0));
    ASSERT_FALSE(g.draw_offer(WHITE, T0));  // offering back accepts
    EXPECT_EQ(g.record().result, "1/2-1/2");
    EXPECT_EQ(g.record().termination, "agreement");
}

TEST(LiveGame, AbortOnlyBeforeBothFirstMovesThenResign) {
    LiveGame g = make(Variant::Chess, {});
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));
    EXPECT_EQ(g.abort(WHITE, T0)->code, "not_allowed");
    ASSERT_FALSE(g.resign(WHITE, T0));
    EXPECT_EQ(g.record().result, "0-1");
    EXPECT_EQ(g.record().termination, "resignation");
    EXPECT_EQ(g.resign(BLACK, T0)->code, "game_over");

    LiveGame h = make(Variant::Chess, {});
    ASSERT_FALSE(h.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(h.abort(BLACK, T0));
    EXPECT_EQ(h.record().termination, "aborted");
    EXPECT_EQ(h.record().result, "*");
}

TEST(LiveGame, Rematch) {
    LiveGame g = make(Variant::Chess, {});
    bool agreed = false;
    EXPECT_EQ(g.rematch_offer(WHITE, agreed)->code, "not_allowed");  // still live
    ASSERT_FALSE(g.resign(BLACK, T0));
    ASSERT_FALSE(g.rematch_offer(WHITE, agreed));
    EXPECT_FALSE(agreed);
    EXPECT_EQ(g.rematch_accept(WHITE)->code, "not_allowed");
    ASSERT_FALSE(g.rematch_accept(BLACK));
    g.set_rematch_game("Rematch1");
    EXPECT_EQ(g.record().rematch_game, "Rematch1");
    EXPECT_EQ(g.rematch_offer(BLACK, agreed)->code, "not_allowed");
}

TEST(LiveGame, ResumeDoesNotChargeTheDowntime) {
    LiveGame g = make(Variant::Chess, blitz(60'000, 0));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));
    // White thinks 4 s, the server dies (last heartbeat at +4 s) and comes back at +100 s.
    LiveGame h(g.record(), 30'000);
    h.resume(T0 + 4'000, T0 + 100'000);
    EXPECT_EQ(h.remaining(WHITE, T0 + 100'000), 56'000);
    EXPECT_EQ(h.remaining(BLACK, T0 + 100'000), 60'000);
    EXPECT_EQ(h.record().moves, g.record().moves);
}

TEST(LiveGame, StateMessageCarriesWhatTheClientNeeds) {
    LiveGame g = make(Variant::Alice, blitz(60'000, 1'000));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 0, T0));
    auto s = g.state_json(BLACK, T0 + 10, false, true);
    EXPECT_EQ(s["type"], "state");
    EXPECT_EQ(s["variant"], "alice");
    EXPECT_EQ(s["fen"], "rnbqkbnr/pppppppp/8/8/8/5O2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
    EXPECT_EQ(s["moves"][0]["uci"], "g1f3");
    EXPECT_EQ(s["moves"][0]["san"], "Nf3");
    EXPECT_EQ(s["turn"], "black");
    EXPECT_EQ(s["you"], "black");
    EXPECT_EQ(s["ply"], 1);
    EXPECT_EQ(s["clock"]["white"], 61'000);
    EXPECT_EQ(s["clock"]["running"], nullptr);
    EXPECT_EQ(s["clock"]["server_time"], T0 + 10);
    EXPECT_EQ(s["players"]["white"]["connected"], false);
    EXPECT_EQ(s["players"]["black"]["name"], "Bob");
    EXPECT_EQ(s["time"]["minutes"], 1);
    EXPECT_EQ(s["time"]["increment"], 1);
    EXPECT_EQ(s["can_abort"], true);
    EXPECT_FALSE(s["legal_moves"].empty());
    EXPECT_EQ(s.dump().find("token"), std::string::npos);  // secrets never leave the server
}

TEST(LiveGame, CorruptRecordIsAClearError) {
    GameRecord r = LiveGame::new_record("Broken01", Variant::Chess, {}, person("A", "a"), person("B", "b"), T0);
    r.moves.push_back(MoveRecord{0, "e2e5", "e5", 0, 0, T0});
    EXPECT_THROW(LiveGame(r, 30'000), std::runtime_error);
}

}  // namespace

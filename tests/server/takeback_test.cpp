// Takeback in the game state machine (docs/API.md "Takeback"): which plies
// go, who may propose, the clock rule, the computer and rated games.
#include <gtest/gtest.h>

#include "server/play/live_game.h"

using namespace echecs;
using namespace echecs::server;

namespace {

constexpr std::int64_t T0 = 1'000'000;

LiveGame make(Variant v, TimeControl tc, Seat black = Seat{"Bob", "tokenBlack000000", 0}, bool rated = false) {
    GameRecord r = LiveGame::new_record("TakeBack", v, tc, Seat{"Ann", "tokenWhite000000", 0}, std::move(black), T0);
    r.rated = rated;
    return LiveGame(std::move(r), GameSettings{30'000, 20, 1400});
}

TimeControl blitz() { return TimeControl{TimeControl::Realtime, 60'000, 2'000, 0}; }

void play(LiveGame& g, std::initializer_list<const char*> moves, std::int64_t at) {
    for (const char* m : moves) ASSERT_FALSE(g.move(g.turn(), m, g.ply(), at)) << m;
}

TEST(Takeback, ProposedOnTheOpponentsTurnTakesBackOnePlyAndTheClocksAreNotTurnedBack) {
    LiveGame g = make(Variant::Chess, blitz());
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0 + 5'000));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0 + 9'000));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 2, T0 + 12'000));  // White: 62 - 3 + 2 = 61 s
    ASSERT_FALSE(g.move(BLACK, "b8c6", 3, T0 + 20'000));  // Black: 62 - 8 + 2 = 56 s
    int taken = -1;
    ASSERT_FALSE(g.takeback_offer(BLACK, T0 + 22'000, taken));
    EXPECT_EQ(taken, 0);  // an offer waits for White
    EXPECT_EQ(g.ply(), 4);
    auto st = g.state_json(WHITE, T0 + 22'000)["takeback"];
    EXPECT_EQ(st["offer"], "black");
    EXPECT_EQ(st["white"], false);  // no second proposal while one is open
    EXPECT_EQ(g.takeback_offer(BLACK, T0 + 22'000, taken)->reason, "takeback_offer_pending");
    EXPECT_EQ(g.takeback_accept(BLACK, T0 + 22'000, taken)->reason, "no_takeback_offer");  // not one's own

    ASSERT_FALSE(g.takeback_accept(WHITE, T0 + 25'000, taken));
    EXPECT_EQ(taken, 1);
    EXPECT_EQ(g.ply(), 3);
    EXPECT_EQ(g.turn(), BLACK);
    EXPECT_EQ(g.record().moves.back().san, "Nf3");
    EXPECT_EQ(g.record().fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    // White used 5 s of its turn before accepting: charged; Black's 56 s start now.
    EXPECT_EQ(g.record().white_ms, 56'000);
    EXPECT_EQ(g.record().black_ms, 56'000);
    EXPECT_EQ(g.remaining(BLACK, T0 + 30'000), 51'000);
    EXPECT_EQ(g.remaining(WHITE, T0 + 30'000), 56'000);
    auto state = g.state_json(BLACK, T0 + 30'000);
    EXPECT_EQ(state["moves"].size(), 3u);
    EXPECT_TRUE(state["takeback"]["offer"].is_null());
    EXPECT_TRUE(std::find(g.legal_moves().begin(), g.legal_moves().end(), "b8c6") != g.legal_moves().end());
}

TEST(Takeback, ProposedOnOnesOwnTurnTakesBackTheOpponentsAnswerToo) {
    LiveGame g = make(Variant::Chess, {});
    int taken = 0;
    EXPECT_EQ(g.takeback_offer(WHITE, T0, taken)->reason, "no_takeback_move");
    play(g, {"e2e4"}, T0);
    EXPECT_EQ(g.takeback_offer(BLACK, T0, taken)->reason, "no_takeback_move");  // Black has not moved
    play(g, {"e7e5"}, T0);
    ASSERT_FALSE(g.takeback_offer(WHITE, T0, taken));
    ASSERT_FALSE(g.takeback_offer(BLACK, T0, taken));  // proposing back accepts
    EXPECT_EQ(taken, 2);
    EXPECT_EQ(g.ply(), 0);
    EXPECT_EQ(g.turn(), WHITE);
    EXPECT_EQ(g.legal_moves().size(), 20u);
    EXPECT_EQ(g.state_json(WHITE, T0)["moves"].size(), 0u);
}

TEST(Takeback, ADeclinedProposalWaitsForAMoveAndAMoveDeclinesOne) {
    LiveGame g = make(Variant::Chess, {});
    play(g, {"e2e4", "e7e5", "g1f3"}, T0);
    int taken = 0;
    ASSERT_FALSE(g.takeback_offer(WHITE, T0, taken));
    ASSERT_FALSE(g.takeback_decline(BLACK));
    EXPECT_EQ(g.takeback_decline(BLACK)->reason, "no_takeback_offer");
    EXPECT_EQ(g.takeback_offer(WHITE, T0, taken)->reason, "takeback_declined");
    EXPECT_EQ(g.state_json(WHITE, T0)["takeback"]["white"], false);
    EXPECT_EQ(g.state_json(WHITE, T0)["takeback"]["black"], true);
    play(g, {"b8c6"}, T0);
    ASSERT_FALSE(g.takeback_offer(WHITE, T0, taken));  // a move later: again
    play(g, {"f1c4"}, T0);                             // White plays on: the proposal is gone
    EXPECT_EQ(g.takeback_accept(BLACK, T0, taken)->reason, "no_takeback_offer");
    EXPECT_EQ(g.ply(), 5);
}

TEST(Takeback, NeverInRatedGamesAndFromTheComputerUpToAbout1400) {
    LiveGame rated = make(Variant::Chess, blitz(), Seat{"Bob", "tokenBlack000000", 0}, true);
    play(rated, {"e2e4", "e7e5"}, T0);
    int taken = 0;
    EXPECT_EQ(rated.takeback_offer(WHITE, T0, taken)->reason, "takeback_rated");
    EXPECT_TRUE(rated.state_json(WHITE, T0)["takeback"].is_null());

    LiveGame strong = make(Variant::Chess, {}, Seat{"Computer", "", 9});
    play(strong, {"e2e4", "e7e5"}, T0);
    auto err = strong.takeback_offer(WHITE, T0, taken);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->reason, "takeback_computer_level");
    EXPECT_EQ(err->params["max_level"], 8);

    LiveGame weak = make(Variant::Chess, {}, Seat{"Computer", "", 8});
    play(weak, {"e2e4", "e7e5", "g1f3"}, T0);
    ASSERT_FALSE(weak.takeback_offer(WHITE, T0, taken));  // the computer is thinking: White's move goes
    EXPECT_EQ(taken, 1);
    EXPECT_EQ(weak.ply(), 2);
    play(weak, {"d2d4", "e5d4"}, T0);
    ASSERT_FALSE(weak.takeback_offer(WHITE, T0, taken));  // White to move: the answer goes too
    EXPECT_EQ(taken, 2);
    EXPECT_EQ(weak.ply(), 2);
    EXPECT_EQ(weak.turn(), WHITE);
}

// Each game's own ladder: the last level rated about 1400 or less grants
// takebacks (Alice 1390 at level 7; Avalanche 1346 at 6, 1413 at 7).
TEST(Takeback, TheLevelThatGrantsThemIsEachGamesOwn) {
    int taken = 0;
    for (auto [v, last] : {std::pair{Variant::Chess, 8}, {Variant::Alice, 7}, {Variant::Avalanche, 6}}) {
        const char* first = v == Variant::Avalanche ? "e2e4,e7e6" : "e2e4";
        LiveGame weak = make(v, {}, Seat{"Computer", "", last});
        EXPECT_EQ(weak.takeback_max_level(), last);
        play(weak, {first}, T0);
        EXPECT_FALSE(weak.takeback_offer(WHITE, T0, taken)) << int(v);
        LiveGame strong = make(v, {}, Seat{"Computer", "", last + 1});
        play(strong, {first}, T0);
        auto err = strong.takeback_offer(WHITE, T0, taken);
        ASSERT_TRUE(err) << int(v);
        EXPECT_EQ(err->params["max_level"], last);
    }
}

TEST(Takeback, AnAvalancheMoveGoesWithItsPushAndAnAliceMoveWithItsBoard) {
    LiveGame av = make(Variant::Avalanche, {}, Seat{"Computer", "", 1});
    const std::string start = av.record().fen;
    play(av, {"e2e4,e7e6"}, T0);
    int taken = 0;
    ASSERT_FALSE(av.takeback_offer(WHITE, T0, taken));
    EXPECT_EQ(taken, 1);
    EXPECT_EQ(av.record().fen, start);  // the pushed black pawn is back on e7

    LiveGame alice = make(Variant::Alice, {}, Seat{"Computer", "", 1});
    const std::string alice_start = alice.record().fen;
    play(alice, {"e2e4", "d7d5"}, T0);
    ASSERT_FALSE(alice.takeback_offer(WHITE, T0, taken));
    EXPECT_EQ(taken, 2);
    EXPECT_EQ(alice.record().fen, alice_start);
}

TEST(Takeback, CorrespondenceGivesTheSideToMoveItsDaysAgain) {
    LiveGame g = make(Variant::Chess, TimeControl{TimeControl::Correspondence, 0, 0, 2});
    play(g, {"e2e4", "e7e5"}, T0);
    int taken = 0;
    ASSERT_FALSE(g.takeback_offer(BLACK, T0 + 3'600'000, taken));
    ASSERT_FALSE(g.takeback_accept(WHITE, T0 + 7'200'000, taken));
    EXPECT_EQ(g.turn(), BLACK);
    EXPECT_EQ(g.next_deadline(), T0 + 7'200'000 + 2 * 86'400'000LL);
}

TEST(Takeback, AnOfferEndsWithTheGameAndNoneIsPossibleAfterIt) {
    LiveGame g = make(Variant::Chess, {});
    play(g, {"e2e4", "e7e5"}, T0);
    int taken = 0;
    ASSERT_FALSE(g.takeback_offer(BLACK, T0, taken));
    ASSERT_FALSE(g.resign(WHITE, T0));
    EXPECT_FALSE(g.takeback_offer_by());
    EXPECT_EQ(g.takeback_offer(WHITE, T0, taken)->reason, "game_over");
    EXPECT_TRUE(g.state_json(WHITE, T0)["takeback"].is_null());
}

}  // namespace

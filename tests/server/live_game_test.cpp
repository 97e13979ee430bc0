// The game state machine without sockets: clocks (with explicit times),
// endings, offers.
#include "server/play/live_game.h"

#include <gtest/gtest.h>

#include "core/pgn.h"

using namespace echecs;
using namespace echecs::server;

namespace {

constexpr std::int64_t T0 = 1'000'000;

Seat person(const char* name, const char* token) { return Seat{name, token, 0}; }

LiveGame make(Variant v, TimeControl tc, std::string fen = "") {
    GameRecord r = LiveGame::new_record("TestGame", v, tc, person("Ann", "tokenWhite000000"),
                                        person("Bob", "tokenBlack000000"), T0);
    if (!fen.empty()) r.initial_fen = r.fen = fen;
    return LiveGame(std::move(r), GameSettings{30'000, 20});
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

// Berserk (a tournament's rule): half one's own clock before one's first
// move, and no increment after; the state says who did.
TEST(LiveGame, BerserkHalvesTheClockAndDropsTheIncrementInTournamentGamesOnly) {
    LiveGame casual = make(Variant::Chess, blitz(60'000, 2'000));
    ASSERT_TRUE(casual.berserk(WHITE));
    EXPECT_EQ(casual.berserk(WHITE)->reason, "berserk_not_tournament");
    EXPECT_EQ(casual.record().white_ms, 60'000);

    GameRecord r = LiveGame::new_record("TestGame", Variant::Chess, blitz(60'000, 2'000),
                                        person("Ann", "tokenWhite000000"), person("Bob", "tokenBlack000000"), T0);
    r.tournament = "Tn4Rk8Wq";
    LiveGame g(std::move(r), GameSettings{30'000, 20});
    ASSERT_FALSE(g.berserk(WHITE));
    EXPECT_FALSE(g.berserk(WHITE)) << "twice is once";
    EXPECT_EQ(g.record().white_ms, 30'000);
    EXPECT_EQ(g.record().black_ms, 60'000);
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0 + 1'000));
    EXPECT_EQ(g.record().white_ms, 30'000) << "no increment";
    EXPECT_FALSE(g.berserk(WHITE)) << "berserk already: nothing changes";
    EXPECT_EQ(g.record().white_ms, 30'000);
    ASSERT_FALSE(g.berserk(BLACK)) << "Black has not moved yet";
    EXPECT_EQ(g.record().black_ms, 30'000);
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0 + 2'000));
    EXPECT_EQ(g.record().black_ms, 30'000);
    const json state = g.state_json(WHITE, T0 + 3'000);
    EXPECT_EQ(state["players"]["white"]["berserk"], true);
    EXPECT_EQ(state["players"]["black"]["berserk"], true);
    EXPECT_EQ(state["tournament"], "Tn4Rk8Wq");
    EXPECT_TRUE(casual.state_json(WHITE, T0)["tournament"].is_null());
    EXPECT_EQ(casual.state_json(WHITE, T0)["players"]["white"]["berserk"], false);

    GameRecord r2 = g.record();
    r2.id = "TestGam2", r2.moves.clear(), r2.ply = 0, r2.white_berserk = r2.black_berserk = false;
    r2.white_ms = r2.black_ms = 60'000, r2.fen = r2.initial_fen;
    LiveGame late(std::move(r2), GameSettings{30'000, 20});
    ASSERT_FALSE(late.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(late.move(BLACK, "e7e5", 1, T0 + 1'000));
    ASSERT_TRUE(late.berserk(BLACK));
    EXPECT_EQ(late.berserk(BLACK)->reason, "berserk_too_late");
    ASSERT_TRUE(late.berserk(WHITE));
    EXPECT_EQ(late.berserk(WHITE)->reason, "berserk_too_late");
    EXPECT_EQ(late.record().black_ms, 62'000) << "the increment as usual";
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
        auto state = g.state_json(WHITE, T0);
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
    EXPECT_EQ(g.draw_accept(BLACK, T0)->reason, "no_draw_offer");  // nobody offered
    ASSERT_FALSE(g.draw_offer(WHITE, T0));
    EXPECT_EQ(g.record().draw_offer, "white");
    EXPECT_EQ(g.draw_offer(WHITE, T0)->reason, "draw_offer_pending");  // no re-sending the same offer
    EXPECT_EQ(g.draw_accept(WHITE, T0)->code, "not_allowed");          // not one's own offer
    ASSERT_FALSE(g.draw_decline(BLACK));
    EXPECT_EQ(g.record().draw_offer, "");
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));
    ASSERT_FALSE(g.draw_offer(BLACK, T0));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 2, T0));  // playing on declines
    EXPECT_EQ(g.record().draw_offer, "");
    EXPECT_EQ(g.draw_offer(WHITE, T0)->reason, "draw_offer_too_soon");  // White offered 2 plies ago
    EXPECT_TRUE(g.live());
}

TEST(LiveGame, DrawOffersOfOnePlayerAreTwentyPliesApart) {
    LiveGame g = make(Variant::Chess, {});
    const char* moves[] = {"a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3", "e7e6",
                           "f2f3", "f7f6", "g2g3", "g7g6", "h2h3", "h7h6", "a3a4", "a6a5", "b3b4", "b6b5"};
    int ply = 0;
    auto play = [&](int n) {
        for (int i = 0; i < n; ++i, ++ply) ASSERT_FALSE(g.move(ply % 2 ? BLACK : WHITE, moves[ply], ply, T0));
    };
    ASSERT_FALSE(g.draw_offer(WHITE, T0));  // at ply 0
    ASSERT_FALSE(g.draw_decline(BLACK));
    play(2);
    auto again = g.draw_offer(WHITE, T0);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->code, "not_allowed");
    EXPECT_EQ(again->reason, "draw_offer_too_soon");
    EXPECT_EQ(again->params["next_ply"], 20);
    // Black's own first offer is not limited by White's.
    play(1);
    ASSERT_FALSE(g.draw_offer(BLACK, T0));
    ASSERT_FALSE(g.draw_decline(WHITE));
    play(17);  // ply 20
    ASSERT_FALSE(g.draw_offer(WHITE, T0));
    ASSERT_FALSE(g.draw_offer(BLACK, T0));  // offering back accepts, whatever the spacing
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
    LiveGame h(g.record(), GameSettings{30'000, 20});
    h.resume(T0 + 4'000, T0 + 100'000);
    EXPECT_EQ(h.remaining(WHITE, T0 + 100'000), 56'000);
    EXPECT_EQ(h.remaining(BLACK, T0 + 100'000), 60'000);
    EXPECT_EQ(h.record().moves, g.record().moves);
}

TEST(LiveGame, StateMessageCarriesWhatTheClientNeeds) {
    LiveGame g = make(Variant::Alice, blitz(60'000, 1'000));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 0, T0));
    Presence pr;
    pr.connected[BLACK] = true;
    auto s = g.state_json(BLACK, T0 + 10, pr);
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
    EXPECT_EQ(s["claim"], nullptr);
    EXPECT_EQ(s["moves"][0]["clock"], 61'000);
    EXPECT_EQ(s.dump().find("token"), std::string::npos);  // secrets never leave the server
}

TEST(LiveGame, EachMoveKeepsTheMoversClock) {
    LiveGame rt = make(Variant::Chess, blitz(60'000, 2'000));
    ASSERT_FALSE(rt.move(WHITE, "e2e4", 0, T0 + 5'000));
    ASSERT_FALSE(rt.move(BLACK, "e7e5", 1, T0 + 6'000));
    ASSERT_FALSE(rt.move(WHITE, "g1f3", 2, T0 + 10'000));  // 4 s thought, +2 s
    EXPECT_EQ(rt.record().moves[0].clock, 62'000);
    EXPECT_EQ(rt.record().moves[1].clock, 62'000);
    EXPECT_EQ(rt.record().moves[2].clock, 60'000);

    const std::int64_t day = 86'400'000;
    LiveGame corr = make(Variant::Chess, TimeControl{TimeControl::Correspondence, 0, 0, 2});
    ASSERT_FALSE(corr.move(WHITE, "e2e4", 0, T0 + day / 2));
    EXPECT_EQ(corr.record().moves[0].clock, 2 * day - day / 2);  // what was left of the move's days
    EXPECT_EQ(corr.record().white_ms, 2 * day);

    LiveGame free = make(Variant::Chess, {});
    ASSERT_FALSE(free.move(WHITE, "e2e4", 0, T0));
    EXPECT_FALSE(free.record().moves[0].clock);
    EXPECT_EQ(free.state_json(WHITE, T0)["moves"][0]["clock"], nullptr);
}

TEST(LiveGame, LagCreditIsNeverMoreThanTheTimeThatPassed) {
    LiveGame g = make(Variant::Chess, blitz(60'000, 0));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 2, T0 + 1'000, 100));  // 1 s, 100 ms of it network lag
    EXPECT_EQ(g.record().white_ms, 59'100);
    ASSERT_FALSE(g.move(BLACK, "b8c6", 3, T0 + 1'050, 5'000));  // the credit cannot exceed the 50 ms
    EXPECT_EQ(g.record().black_ms, 60'000);
    // A move that arrives after the flag fell, but within its lag credit, counts.
    LiveGame h = make(Variant::Chess, blitz(10'000, 0));
    ASSERT_FALSE(h.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(h.move(BLACK, "e7e5", 1, T0));
    ASSERT_FALSE(h.move(WHITE, "g1f3", 2, T0 + 10'080, 100));
    EXPECT_EQ(h.record().white_ms, 20);  // charged 9,980 ms of the 10,000
    EXPECT_TRUE(h.live());
    // And the timer's grace is the same bound.
    EXPECT_FALSE(h.check_time(T0 + 10'080 + 10'000 + 99, 100));
    EXPECT_TRUE(h.check_time(T0 + 10'080 + 10'000 + 100, 100));
}

TEST(LiveGame, TheOpponentsClockStartsWhenTheMoveIsStored) {
    LiveGame g = make(Variant::Chess, blitz(60'000, 0));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 2, T0 + 1'000));
    g.start_clock(T0 + 1'300);  // the write took 300 ms
    EXPECT_EQ(g.remaining(BLACK, T0 + 2'300), 59'000);
    g.start_clock(T0);  // never backwards
    EXPECT_EQ(g.remaining(BLACK, T0 + 2'300), 59'000);
}

TEST(LiveGame, ClaimsAndArchive) {
    LiveGame g = make(Variant::Chess, blitz(60'000, 0));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0));
    ASSERT_FALSE(g.claim(WHITE, true, T0 + 5'000));
    EXPECT_EQ(g.record().result, "1-0");
    EXPECT_EQ(g.record().termination, "abandonment");
    EXPECT_EQ(g.claim(BLACK, true, T0)->code, "game_over");

    LiveGame d = make(Variant::Chess, {});
    ASSERT_FALSE(d.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(d.claim(BLACK, false, T0));
    EXPECT_EQ(d.record().result, "1/2-1/2");

    // A claimant who could never mate gets a draw.
    LiveGame k = make(Variant::Chess, {}, "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
    ASSERT_FALSE(k.claim(BLACK, true, T0));
    EXPECT_EQ(k.record().result, "1/2-1/2");

    LiveGame u = make(Variant::Chess, {});
    u.archive(T0 + 1);
    EXPECT_EQ(u.record().status, "over");
    EXPECT_EQ(u.record().result, "*");
    EXPECT_EQ(u.record().termination, "abandonment");
}

TEST(LiveGame, PgnHasClocksAndTheSite) {
    LiveGame g = make(Variant::Chess, blitz(300'000, 3'000));
    ASSERT_FALSE(g.move(WHITE, "e2e4", 0, T0));
    ASSERT_FALSE(g.move(BLACK, "e7e5", 1, T0 + 2'000));
    ASSERT_FALSE(g.move(WHITE, "g1f3", 2, T0 + 64'000));  // 62 s thought: 5:03 - 1:02 + 3 s = 4:04
    ASSERT_FALSE(g.resign(BLACK, T0 + 70'000));
    const std::string pgn = g.pgn("https://echecs.example/game/TestGame");
    EXPECT_NE(pgn.find("[Site \"https://echecs.example/game/TestGame\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("1. e4 {[%clk 0:05:03]} 1... e5 {[%clk 0:05:03]} 2. Nf3 {[%clk 0:04:04]}"), std::string::npos)
        << pgn;
    EXPECT_NE(pgn.find("[Result \"1-0\"]"), std::string::npos) << pgn;
    // The clocks are comments: the PGN reads back as the same game.
    auto games = read_pgn(pgn);
    ASSERT_EQ(games.size(), 1u);
    EXPECT_TRUE(games[0].error.empty()) << games[0].error;
    ASSERT_EQ(games[0].moves.size(), 3u);
    EXPECT_EQ(games[0].moves[2].san, "Nf3");
}

TEST(LiveGame, TerminationsAreTheCoresNames) {
    // Fifty moves without a pawn move or capture: the core's own name.
    LiveGame g = make(Variant::Chess, {}, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    ASSERT_FALSE(g.move(WHITE, "a1a2", 0, T0));
    EXPECT_EQ(g.record().termination, std::string(termination_name(Termination::FiftyMoves)));
}

TEST(LiveGame, CorruptRecordIsAClearError) {
    GameRecord r = LiveGame::new_record("Broken01", Variant::Chess, {}, person("A", "a"), person("B", "b"), T0);
    r.moves.push_back(MoveRecord{0, "e2e5", "e5", 0, 0, T0, std::nullopt});
    EXPECT_THROW(LiveGame(r, GameSettings{}), std::runtime_error);
}

}  // namespace

// Static exchange evaluation in the three games: the orthodox swap, the
// Alice exchange that alternates boards, and the Avalanche push that comes
// before any reply.
#include "engine/see.h"

#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"

namespace echecs::test {
namespace {

int see_of(Variant v, const char* fen, const char* move) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    return engine::see(pos, parse_uci(pos, move));
}

TEST(See, ChessExchanges) {
    // A pawn takes a knight and is taken back: 320 - 100.
    EXPECT_EQ(see_of(Variant::Chess, "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"), 220);
    // A queen takes a pawn defended by a pawn: 100 - 950.
    EXPECT_EQ(see_of(Variant::Chess, "4k3/8/3p4/4p3/8/8/8/4Q1K1 w - - 0 1", "e1e5"), -850);
    // An undefended pawn is simply won.
    EXPECT_EQ(see_of(Variant::Chess, "4k3/8/8/4p3/8/8/8/4Q1K1 w - - 0 1", "e1e5"), 100);
    // A quiet move onto a square a pawn attacks loses the piece.
    EXPECT_EQ(see_of(Variant::Chess, "4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5"), -320);
}

TEST(See, AliceCapturerPassesToTheOtherBoard) {
    // The same queen capture as in chess: the queen passes to board B on e5,
    // where the board-A pawn on d6 cannot take it.
    EXPECT_EQ(see_of(Variant::Alice, "4k3/8/3p4/4p3/8/8/8/4Q1K1 w - - 0 1", "e1e5"), 100);
    // A board-B pawn on d6 (S) can: the exchange is played on the other board.
    EXPECT_EQ(see_of(Variant::Alice, "4k3/8/3s4/4p3/8/8/8/4Q1K1 w - - 0 1", "e1e5"), -850);
}

TEST(See, AvalancheSeesTheMovesOwnPush) {
    // The knight takes e5; pushing Black's f-pawn to f6 makes it attack e5.
    EXPECT_EQ(see_of(Variant::Avalanche, "4k3/p4p2/8/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5,f7f6"), -220);
    // With another push the pawn is simply won.
    EXPECT_EQ(see_of(Variant::Avalanche, "4k3/p4p2/8/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5,a7a6"), 100);
}

TEST(See, ThresholdTestAgreesWithTheExchange) {
    // see_ge answers from the first capture when it can; every legal move of
    // positions with exchanges, promotions, en passant, castling, Alice's
    // two boards and Avalanche's pushes must get see()'s answer.
    const std::pair<Variant, const char*> positions[] = {
        {Variant::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
        {Variant::Chess, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
        {Variant::Chess, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},
        {Variant::Alice, "4k3/8/3s4/4p3/2N5/8/8/4Q1K1 w - - 0 1"},
        {Variant::Alice, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
        {Variant::Avalanche, "4k3/p4p2/8/4p3/8/3N4/8/4K3 w - - 0 1"},
        {Variant::Avalanche, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
    };
    int checked = 0;
    for (const auto& [v, fen] : positions) {
        StateInfo st;
        Position pos;
        pos.set(v, fen, st);
        MoveList list;
        generate_legal(pos, list);
        for (Move m : list)
            for (int t : {-20000, -1000, -320, -221, -100, -30, 0, 1, 100, 220, 320, 1000, 20000}) {
                ASSERT_EQ(engine::see_ge(pos, m, t), engine::see(pos, m) >= t) << fen << " " << to_uci(m) << " " << t;
                ++checked;
            }
    }
    EXPECT_GT(checked, 13 * 100);
}

}  // namespace
}  // namespace echecs::test

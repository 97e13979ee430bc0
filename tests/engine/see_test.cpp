// Static exchange evaluation in the three games: the orthodox swap, the
// Alice exchange that alternates boards, and the Avalanche push that comes
// before any reply.
#include "engine/see.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace echecs::test

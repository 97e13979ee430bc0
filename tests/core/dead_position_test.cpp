// Dead positions (RULES.md, insufficient material): bishops all on squares
// of one colour, on both sides of the rule, in each of the three games.
#include <gtest/gtest.h>

#include "helpers.h"

namespace echecs::test {
namespace {

bool dead(Variant v, const char* fen) {
    Game g(v, fen);
    return g.result().termination == Termination::InsufficientMaterial;
}

TEST(DeadPosition, ChessBishopsOfOneColour) {
    EXPECT_TRUE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"));     // K v K
    EXPECT_TRUE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));    // K+B v K
    EXPECT_TRUE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"));   // K+N v K
    EXPECT_TRUE(dead(Variant::Chess, "4k3/8/8/8/8/3B4/8/4KB2 w - - 0 1"));  // K+B+B (d3, f1: light) v K
    EXPECT_TRUE(dead(Variant::Chess, "2b1k3/8/8/8/8/8/8/3BK3 b - - 0 1"));  // K+B v K+B, both light
    // Three light bishops against two light bishops.
    EXPECT_TRUE(dead(Variant::Chess, "2b1k3/8/4b3/8/8/3B4/8/1B2KB2 w - - 0 1"));
    EXPECT_TRUE(dead(Variant::Chess, "4k3/8/8/8/8/2B5/1B6/B3K3 w - - 0 1"));  // dark bishops a1 b2 c3

    EXPECT_FALSE(dead(Variant::Chess, "3bk3/8/8/8/8/8/8/3BK3 w - - 0 1"));    // d8 dark, d1 light
    EXPECT_FALSE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"));   // c1 dark, f1 light
    EXPECT_FALSE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/1n2KB2 w - - 0 1"));   // K+B v K+N
    EXPECT_FALSE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1"));   // K+B+N v K
    EXPECT_FALSE(dead(Variant::Chess, "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"));   // two knights: not automatic
    EXPECT_FALSE(dead(Variant::Chess, "4k3/8/8/8/8/3B4/P7/4KB2 w - - 0 1"));  // a pawn
    EXPECT_FALSE(dead(Variant::Chess, "4k3/8/8/8/8/3B4/8/R3KB2 w - - 0 1"));  // a rook
}

TEST(DeadPosition, ChessBishopsOfBothColoursCanMate) {
    // Black's dark bishop b8 blocks its king; White's light bishop mates.
    Game g(Variant::Chess, "kb6/8/1K6/3B4/8/8/8/8 b - - 0 1");
    EXPECT_EQ(g.result().termination, Termination::Checkmate);
}

TEST(DeadPosition, ChessCaptureLeavingSameColourBishopsEndsTheGame) {
    Game g(Variant::Chess, "4k3/8/8/1n6/8/3B4/8/4KB2 w - - 0 1");
    EXPECT_FALSE(g.result().over());
    g.play_san("Bxb5+");
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().termination, Termination::InsufficientMaterial);
}

// Random games with K+B+B (one colour) v K+N: the game ends at the ply the
// knight is taken (before this rule such games played on for up to 100
// plies), or the bishops are, and otherwise only by the other rules.
TEST(DeadPosition, RandomGamesEndWhenTheLastOtherPieceGoes) {
    for (Variant v : {Variant::Chess, Variant::Avalanche}) {
        std::uint64_t seed = 20240611;
        int ended_by_capture = 0;
        for (int n = 0; n < 60; ++n) {
            Game g(v, "4k3/8/8/1n6/8/3B4/8/4KB2 w - - 0 1");
            while (!g.result().over()) {
                MoveList list;
                g.legal_moves(list);
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                g.play(list.moves[(seed >> 33) % list.size()]);
                ASSERT_LT(g.moves().size(), 200u);
            }
            const bool knight = g.position().pieces(KNIGHT) != 0;
            const bool bishops = g.position().pieces(BISHOP) != 0;
            const bool is_dead = g.result().termination == Termination::InsufficientMaterial;
            // Dead exactly when a side's last piece is gone (K+B.. v K, or K+N v K).
            EXPECT_EQ(is_dead, !knight || !bishops) << variant_name(v) << ' ' << g.position().fen();
            if (!knight) ++ended_by_capture;
        }
        EXPECT_GT(ended_by_capture, 0) << variant_name(v);
    }
}

// Alice: a single bishop can mate, helped by the other board: the king that
// stands on board B covers squares the bishop cannot and, where it stands,
// bars the mated king's way (a destination must be empty on the other
// board). So no bishops-only position is dead in Alice; kings only are.
TEST(DeadPosition, AliceBishopsCanMateSoOnlyKingsAreDead) {
    EXPECT_TRUE(dead(Variant::Alice, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    EXPECT_FALSE(dead(Variant::Alice, "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
    EXPECT_FALSE(dead(Variant::Alice, "4k3/8/8/8/8/3C4/8/4KB2 w - - 0 1"));  // d3 on board B, f1 on A: light
    EXPECT_FALSE(dead(Variant::Alice, "2c1k3/8/8/8/8/8/8/3BK3 w - - 0 1"));

    // White: king g2 and bishop b1 on board B; Black: king h1 on board A.
    Game g(Variant::Alice, "8/8/8/8/8/8/6L1/1C5k w - - 0 1");
    EXPECT_FALSE(g.result().over());
    EXPECT_EQ(to_uci(g.play_san("Be4")), "b1e4");
    // The bishop passed to board A and checks h1 along the long diagonal;
    // g1 and h2 are covered on board B by the king, g2 is taken there.
    EXPECT_EQ(g.position().board_of(SQ_E4), BOARD_A);
    EXPECT_EQ(g.result().termination, Termination::Checkmate);
    EXPECT_EQ(g.result().outcome, Outcome::WhiteWins);
}

// Avalanche without pawns has no pushes and no pending choice: its moves are
// orthodox moves, no avalanche loss can happen, and the orthodox reasoning
// holds. With any pawn (one waiting for its promotion included) the rule
// does not apply.
TEST(DeadPosition, AvalancheWithoutPawnsAsChess) {
    EXPECT_TRUE(dead(Variant::Avalanche, "4k3/8/8/8/8/3B4/8/4KB2 w - - 0 1"));
    EXPECT_TRUE(dead(Variant::Avalanche, "2b1k3/8/4b3/8/8/3B4/8/1B2KB2 b - - 0 1"));
    EXPECT_FALSE(dead(Variant::Avalanche, "3bk3/8/8/8/8/8/8/3BK3 w - - 0 1"));
    EXPECT_FALSE(dead(Variant::Avalanche, "4k3/p7/8/8/8/3B4/8/4KB2 w - - 0 1"));
    EXPECT_FALSE(dead(Variant::Avalanche, "4k3/8/8/8/8/3B4/8/4KB1p b - - 0 1"));  // h1: waits for its choice
}

}  // namespace
}  // namespace echecs::test

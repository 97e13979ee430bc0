// Positions without a king (a problem's nowk/nobk): the side without one is
// never in check and every move of its men is legal. Judged against the same
// position with the king: each of its non-king moves stays legal, and each
// move gained would have left that king attacked.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "helpers.h"

namespace echecs {
namespace {

// The position's FEN without colour c's king and its castling rights.
std::string without_king(const Position& pos, Color c) {
    std::array<Piece, SQUARE_NB> board{};
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        board[s] = pos.piece_on(s) == make_piece(c, KING) ? NO_PIECE : pos.piece_on(s);
    const int ours = c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    return write_fen(pos.variant(), board, pos.on_board_b(), pos.side_to_move(), pos.castling_rights() & ~ours,
                     pos.ep_square(), 0, 1);
}

TEST(Kingless, FenWithoutKingsOnlyWhenAllowed) {
    StateInfo st;
    Position pos;
    EXPECT_THROW(pos.set(Variant::Chess, "8/8/8/8/8/8/8/R3k3 b - - 0 1", st), FenError);
    pos.set(Variant::Chess, "8/8/8/8/8/8/8/R3k3 b - - 0 1", st, Kings::AtMostOne);
    EXPECT_TRUE(pos.in_check());
    EXPECT_FALSE(pos.has_king(WHITE));
    EXPECT_EQ(pos.king_square(WHITE), SQ_NONE);
    EXPECT_THROW(pos.set(Variant::Chess, "4k3/8/8/8/8/8/8/R7 w Q - 0 1", st, Kings::AtMostOne), FenError);
    EXPECT_THROW(pos.set(Variant::Chess, "8/8/8/8/8/8/8/RK1K4 w - - 0 1", st, Kings::AtMostOne), FenError);
    // Neither king: no check, every move of the men.
    pos.set(Variant::Chess, "8/8/8/8/8/8/r7/R7 w - - 0 1", st, Kings::AtMostOne);
    EXPECT_FALSE(pos.in_check());
    EXPECT_EQ(test::legal_uci(pos).size(), 8u);  // a1-b1..h1 and a1xa2
}

class KinglessTest : public ::testing::TestWithParam<Variant> {};

TEST_P(KinglessTest, MovesAreTheKingsMovesWithoutItsSafety) {
    const Variant v = GetParam();
    const char* starts[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/1P4pp/8/2pP4/8/8/6p1/R3K2R w KQkq c6 0 1",
    };
    std::mt19937 rng(5 + unsigned(v));
    int same = 0, gained = 0, positions = 0;
    for (const char* start : starts)
        for (int game = 0; game < 4; ++game) {
            std::vector<StateInfo> st(41);
            Position pos;
            pos.set(v, start, st[0]);
            for (int ply = 1; ply <= 40; ++ply) {
                const Color us = pos.side_to_move();
                const std::string fen = pos.fen();
                StateInfo kst;
                Position kingless;
                kingless.set(v, without_king(pos, us), kst, Kings::AtMostOne);
                ASSERT_FALSE(kingless.in_check()) << fen;
                MoveList with, without;
                generate_legal(pos, with);
                generate_legal(kingless, without);
                const Square ksq = pos.king_square(us);
                // Avalanche: a move the king left without a push (none was legal, or
                // the king blocked the only pawn) may come with pushes without it.
                auto kept = [&](Move m) {
                    if (without.contains(m)) return true;
                    return !m.has_push() && std::any_of(without.begin(), without.end(), [&](Move x) {
                        return x.has_push() && x.first_part() == m.first_part() && x.choice() == m.choice();
                    });
                };
                for (Move m : with)
                    if (m.from() != ksq) {
                        EXPECT_TRUE(kept(m)) << fen << " " << to_uci(m);
                        ++same;
                    }
                for (Move m : without) {
                    if (with.contains(m)) continue;
                    EXPECT_NE(m.from(), ksq) << fen;
                    // A move over or onto the king's square is no move with the king there.
                    if (m.to() == ksq || (between_bb(m.from(), m.to()) & square_bb(ksq)) ||
                        (m.has_push() && m.push_to() == ksq))
                        continue;
                    // Avalanche: the king must be safe after the move's first part, before the push.
                    if (m.has_push() && pos.pending_promotion() == SQ_NONE) {
                        StateInfo first;
                        pos.do_move(m.first_part(), first);
                        const bool exposed = pos.king_attacked(us);
                        pos.undo_move(m.first_part());
                        if (exposed) {
                            ++gained;
                            continue;
                        }
                    }
                    StateInfo after;
                    pos.do_move(m, after);
                    // Avalanche: a pawn pushed to its last rank attacks as the queen or knight it may become.
                    const Square p = pos.pending_promotion();
                    const bool attacked =
                        pos.king_attacked(us) ||
                        (p != SQ_NONE && ((queen_attacks(p, pos.pieces()) | knight_attacks(p)) & square_bb(ksq)));
                    EXPECT_TRUE(attacked) << fen << " " << to_uci(m);
                    pos.undo_move(m);
                    ++gained;
                }
                ++positions;
                if (with.empty()) break;
                pos.do_move(with.moves[rng() % with.count], st[ply]);
            }
        }
    EXPECT_GT(positions, 200);
    EXPECT_GT(same, 2000);
    EXPECT_GT(gained, 10);  // moves only the king's safety forbade
}

INSTANTIATE_TEST_SUITE_P(Games, KinglessTest, ::testing::Values(Variant::Chess, Variant::Alice, Variant::Avalanche),
                         [](const auto& info) { return std::string(variant_name(info.param)); });

}  // namespace
}  // namespace echecs

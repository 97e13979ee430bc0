// One or more targeted positions for every rule of RULES.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/move_legal.h"
#include "helpers.h"

namespace echecs::test {
namespace {

// ---------------------------------------------------------------- chess §1

TEST(Chess, CastlingNeedsEmptyUnattackedPath) {
    Pos free(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_TRUE(has_move(free.pos, "e1g1"));
    EXPECT_TRUE(has_move(free.pos, "e1c1"));
    // f1 attacked by the rook on f8: no short castling; long castling still fine.
    Pos through(Variant::Chess, "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    EXPECT_FALSE(has_move(through.pos, "e1g1"));
    EXPECT_TRUE(has_move(through.pos, "e1c1"));
    // b1 attacked does not matter for long castling, b1 occupied does.
    Pos b1(Variant::Chess, "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    EXPECT_TRUE(has_move(b1.pos, "e1c1"));
    Pos blocked(Variant::Chess, "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1");
    EXPECT_FALSE(has_move(blocked.pos, "e1c1"));
    // Not out of check.
    Pos check(Variant::Chess, "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    EXPECT_FALSE(has_move(check.pos, "e1g1"));
}

TEST(Chess, CastlingRightsLostWhenKingOrRookMovesOrRookIsTaken) {
    Game g(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    g.play_uci("h1h8");  // takes the rook: white loses K, black loses k
    EXPECT_EQ(g.position().fen(), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
}

// A problem's retro rule (Popeye's castlingmutuallyexclusive, solver/solver.h):
// the castling made takes the excluded right from the other side, in the key
// too, and the undo gives it back; a castling not named takes nothing.
TEST(Chess, ExcludedCastlingIsLostWhenTheOtherIsMade) {
    for (Variant v : {Variant::Chess, Variant::Alice}) {
        Pos p(v, "r3k2r/8/8/8/8/8/3P4/R3K2R w KQkq - 0 1");  // d2: the rook on d1 leaves d8 alone
        p.pos.exclude_castlings(SQ_A1, SQ_H8);
        const Key before = p.pos.key();
        auto find = [&](const char* uci) {
            MoveList list;
            generate_legal(p.pos, list);
            for (Move m : list)
                if (to_uci(m) == uci) return m;
            return Move::none();
        };
        StateInfo st;
        const Move long_castling = find("e1c1");
        ASSERT_TRUE(long_castling);
        p.pos.do_move(long_castling, st);
        EXPECT_EQ(p.pos.castling_rights(), BLACK_OOO) << variant_name(v);
        EXPECT_FALSE(has_move(p.pos, "e8g8"));
        EXPECT_TRUE(has_move(p.pos, "e8c8"));
        EXPECT_EQ(p.pos.key(), Pos(v, p.pos.fen()).pos.key());  // the key knows the lost right
        p.pos.undo_move(long_castling);
        EXPECT_EQ(p.pos.castling_rights(), ALL_CASTLING);
        EXPECT_EQ(p.pos.key(), before);
        const Move short_castling = find("e1g1");
        ASSERT_TRUE(short_castling);
        p.pos.do_move(short_castling, st);
        EXPECT_EQ(p.pos.castling_rights(), BLACK_OO | BLACK_OOO);
        p.pos.undo_move(short_castling);
        // Black's short castling takes White's long one.
        Pos b(v, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        b.pos.exclude_castlings(SQ_A1, SQ_H8);
        MoveList list;
        generate_legal(b.pos, list);
        const Move* black_short = std::find_if(list.begin(), list.end(), [](Move m) { return to_uci(m) == "e8g8"; });
        ASSERT_NE(black_short, list.end());
        b.pos.do_move(*black_short, st);
        EXPECT_EQ(b.pos.castling_rights(), WHITE_OO);
        EXPECT_FALSE(has_move(b.pos, "e1c1"));
    }
}

TEST(Chess, EnPassantOnlyRightAfterTheDoubleStepAndNotWhenPinned) {
    Game g(Variant::Chess, "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    g.play_uci("a2a4");
    EXPECT_EQ(g.position().ep_square(), SQ_A3);
    EXPECT_TRUE(has_move(g.position(), "b4a3"));
    g.play_uci("e8e7");
    g.play_uci("e1e2");
    EXPECT_FALSE(has_move(g.position(), "b4a3"));
    // Horizontal pin through both pawns: the capture would expose the king.
    Pos pinned(Variant::Chess, "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    EXPECT_FALSE(has_move(pinned.pos, "b5c6"));
    Pos free(Variant::Chess, "8/8/8/1Pp4r/K7/8/8/4k3 w - c6 0 1");
    EXPECT_TRUE(has_move(free.pos, "b5c6"));
}

TEST(Chess, PromotionOffersFourPieces) {
    Pos p(Variant::Chess, "8/P6k/8/8/8/8/8/K7 w - - 0 1");
    for (const char* m : {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}) EXPECT_TRUE(has_move(p.pos, m)) << m;
    EXPECT_FALSE(has_move(p.pos, "a7a8"));
}

TEST(Chess, CheckmateAndStalemate) {
    Game mate(Variant::Chess);
    for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) mate.play_uci(m);
    EXPECT_EQ(mate.result().termination, Termination::Checkmate);
    EXPECT_EQ(mate.result().outcome, Outcome::BlackWins);
    Game stale(Variant::Chess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    EXPECT_EQ(stale.result().termination, Termination::Stalemate);
    EXPECT_EQ(stale.result().outcome, Outcome::Draw);
}

TEST(Chess, ThreefoldRepetitionEndsAtTheThirdOccurrence) {
    Game g(Variant::Chess);
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (const char* m : cycle) g.play_uci(m);
    EXPECT_EQ(g.occurrences(), 2);
    EXPECT_FALSE(g.result().over());
    for (const char* m : cycle) g.play_uci(m);
    EXPECT_EQ(g.occurrences(), 3);
    EXPECT_EQ(g.result().termination, Termination::Repetition);
}

TEST(Chess, RepetitionCountsEnPassantOnlyWhenTheCaptureIsLegal) {
    // After 1.e4 the e3 square is written, but no black pawn can take: the
    // position equals one reached without the double step.
    Game a(Variant::Chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    a.play_uci("e2e4");
    Game b(Variant::Chess, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    EXPECT_EQ(a.position().key(), b.position().key());
    EXPECT_NE(a.position().fen(), b.position().fen());
    // With a black pawn on d4 the capture is legal and the keys differ.
    Game c(Variant::Chess, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    c.play_uci("e2e4");
    Game d(Variant::Chess, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    EXPECT_NE(c.position().key(), d.position().key());
}

TEST(Chess, FiftyMoveRuleDrawsAtOnceAtOneHundredHalfMoves) {
    Game g(Variant::Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    EXPECT_FALSE(g.result().over());
    g.play_uci("a1a2");
    EXPECT_EQ(g.result().termination, Termination::FiftyMoves);
    // A pawn move or a capture resets the count.
    Game p(Variant::Chess, "4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
    p.play_uci("a2a3");
    EXPECT_EQ(p.position().rule50(), 0);
}

TEST(Chess, MateOnTheHundredthHalfMoveIsMate) {
    Game g(Variant::Chess, "7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    g.play_uci("a1a8");
    EXPECT_EQ(g.result().termination, Termination::Checkmate);
}

TEST(Chess, InsufficientMaterialCases) {
    auto drawn = [](const char* fen) {
        return Game(Variant::Chess, fen).result().termination == Termination::InsufficientMaterial;
    };
    EXPECT_TRUE(drawn("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));      // K v K
    EXPECT_TRUE(drawn("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"));    // K+B v K
    EXPECT_TRUE(drawn("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"));    // K+N v K
    EXPECT_TRUE(drawn("2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1"));   // bishops c8 and d1: both light
    EXPECT_FALSE(drawn("3bk3/8/8/8/8/8/8/3BK3 w - - 0 1"));   // d8 dark, d1 light
    EXPECT_FALSE(drawn("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"));  // two knights: not automatic
    EXPECT_FALSE(drawn("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));    // a pawn
    EXPECT_FALSE(drawn("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));    // a rook
}

TEST(Chess, CanMateDecidesTimeForfeits) {
    Pos lone(Variant::Chess, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    EXPECT_FALSE(can_mate(lone.pos, WHITE));
    EXPECT_FALSE(can_mate(lone.pos, BLACK));
    Pos helped(Variant::Chess, "4k3/4p3/8/8/8/8/8/1N2K3 w - - 0 1");
    EXPECT_TRUE(can_mate(helped.pos, WHITE));  // a knight can mate a king hemmed in by its pawn
    Pos rook(Variant::Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    EXPECT_TRUE(can_mate(rook.pos, WHITE));
}

// ---------------------------------------------------------------- Alice §2

TEST(Alice, SeedFenAfterNf3d5c4dxc4) {
    Game g(Variant::Alice);
    for (const char* m : {"g1f3", "d7d5", "c2c4", "d5c4"}) g.play_uci(m);
    EXPECT_EQ(g.position().fen(), "rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3");
    EXPECT_EQ(g.position().board_of(SQ_F3), BOARD_B);
    EXPECT_EQ(g.position().board_of(SQ_C4), BOARD_A);  // d5 (board B) took on c4 and came back to A
}

TEST(Alice, SeedMateBe2Bb5) {
    Game g(Variant::Alice);
    for (const char* m : {"e2e4", "d7d5", "f1e2", "d5e4", "e2b5"}) g.play_uci(m);
    EXPECT_TRUE(g.position().in_check());
    // 3...Kd7 would be legal on board B but d7 is attacked on board A, where the king moves.
    EXPECT_FALSE(has_move(g.position(), "e8d7"));
    EXPECT_EQ(g.result().termination, Termination::Checkmate);
    EXPECT_EQ(g.result().outcome, Outcome::WhiteWins);
}

TEST(Alice, DestinationMustBeEmptyOnTheOtherBoard) {
    // A white knight stands on board B at f3 (letter O): the g1 knight cannot go to f3.
    Pos p(Variant::Alice, "4k3/8/8/8/8/5O2/8/4K1N1 w - - 0 1");
    EXPECT_FALSE(has_move(p.pos, "g1f3"));
    EXPECT_TRUE(has_move(p.pos, "g1h3"));
}

TEST(Alice, CapturesOnlyOnTheMoversBoardAndPiecesOnTheOtherBoardDoNotBlock) {
    // White rook a1 on A; black knight a4 on B (letter o) neither blocks nor can be taken.
    Pos p(Variant::Alice, "4k3/8/8/8/o7/8/8/R3K3 w - - 0 1");
    EXPECT_FALSE(has_move(p.pos, "a1a4"));  // a4 holds a piece on board B
    EXPECT_TRUE(has_move(p.pos, "a1a8"));   // passes through a4 on board A
    // Same knight on board A: it can be taken, and blocks.
    Pos q(Variant::Alice, "4k3/8/8/8/n7/8/8/R3K3 w - - 0 1");
    EXPECT_TRUE(has_move(q.pos, "a1a4"));
    EXPECT_FALSE(has_move(q.pos, "a1a8"));
}

TEST(Alice, CheckOnlyFromTheKingsBoard) {
    // Black rook e8 on A, white king e1 on B (letter L): no check.
    Pos p(Variant::Alice, "k3r3/8/8/8/8/8/8/4L3 w - - 0 1");
    EXPECT_FALSE(p.pos.in_check());
    Pos q(Variant::Alice, "k3u3/8/8/8/8/8/8/4L3 w - - 0 1");
    EXPECT_TRUE(q.pos.in_check());
}

TEST(Alice, MovingToTheOtherBoardEscapesCheck) {
    // White king e1 in check on A from the rook e8; stepping to d1/f1 puts it on B.
    Pos p(Variant::Alice, "k3r3/8/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_TRUE(has_move(p.pos, "e1d1"));
    EXPECT_TRUE(has_move(p.pos, "e1d2"));
    EXPECT_FALSE(has_move(p.pos, "e1e2"));  // e2 is attacked on A, where the king moves
}

TEST(Alice, KingMayNotArriveInCheckOnTheOtherBoard) {
    // Black rook on board B on the d-file: d1 is attacked there.
    Pos p(Variant::Alice, "k2u4/8/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_FALSE(has_move(p.pos, "e1d1"));
    EXPECT_TRUE(has_move(p.pos, "e1f1"));
}

TEST(Alice, AMoveMayBlockACheckByLanding) {
    // White king e1 on A checked by the rook e8 (A); the knight on B (letter O) at c3
    // lands on e2 of board A and blocks.
    Pos p(Variant::Alice, "k3r3/8/8/8/8/2O5/8/4K3 w - - 0 1");
    EXPECT_TRUE(has_move(p.pos, "c3e2"));
    EXPECT_FALSE(has_move(p.pos, "c3d5"));
}

TEST(Alice, CapturingOpensALineOnTheKingsBoard) {
    // White rook e2 takes the black bishop e3: both leave board A, the queen e8 then checks.
    Pos p(Variant::Alice, "k3q3/8/8/8/8/4b3/4R3/4K3 w - - 0 1");
    EXPECT_FALSE(has_move(p.pos, "e2e3"));
    Pos q(Variant::Alice, "k7/8/8/8/8/4b3/4R3/4K3 w - - 0 1");
    EXPECT_TRUE(has_move(q.pos, "e2e3"));
}

TEST(Alice, CastlingFromBoardAWithBSquaresEmpty) {
    Game g(Variant::Alice, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_TRUE(has_move(g.position(), "e1g1"));
    g.play_uci("e1g1");
    EXPECT_EQ(g.position().board_of(SQ_G1), BOARD_B);
    EXPECT_EQ(g.position().board_of(SQ_F1), BOARD_B);
    EXPECT_EQ(g.position().fen(), "r3k2r/8/8/8/8/8/8/R4UL1 b kq - 1 1");
    // A piece on board B on g1 forbids the castling.
    Pos b(Variant::Alice, "r3k2r/8/8/8/8/8/8/R3K1OR w KQkq - 0 1");
    EXPECT_FALSE(has_move(b.pos, "e1g1"));
    // The king must not stand in check on board B after castling.
    Pos c(Variant::Alice, "r3k1u1/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    EXPECT_FALSE(has_move(c.pos, "e1g1"));
    EXPECT_TRUE(has_move(c.pos, "e1c1"));
    // A piece on board B between king and rook does not block (b1 is not a destination)...
    Pos d(Variant::Alice, "r3k2r/8/8/8/8/8/8/RO2K2R w KQkq - 0 1");
    EXPECT_TRUE(has_move(d.pos, "e1c1"));
    // ...but one on the rook's destination f1 of board B does.
    Pos e(Variant::Alice, "r3k2r/8/8/8/8/8/8/R3KO1R w KQkq - 0 1");
    EXPECT_FALSE(has_move(e.pos, "e1g1"));
}

TEST(Alice, EnPassantWhateverTheBoards) {
    // White pawn b5 on board B (letter S); black plays c7-c5 on board A: the capture is allowed.
    Game g(Variant::Alice, "4k3/2p5/8/1S6/8/8/8/4K3 b - - 0 1");
    g.play_uci("c7c5");
    EXPECT_EQ(g.position().ep_square(), SQ_C6);
    EXPECT_TRUE(has_move(g.position(), "b5c6"));
    g.play_uci("b5c6");
    EXPECT_TRUE(g.position().empty(SQ_C5));
    EXPECT_EQ(g.position().board_of(SQ_C6), BOARD_A);  // the capturer passes to the other board
    // Not when the skipped square holds a piece on the other board: the black pawn
    // c7 on board B steps over c6, where a white knight stands on board A.
    Game h(Variant::Alice, "4k3/2s5/2N5/1S6/8/8/8/4K3 b - - 0 1");
    h.play_uci("c7c5");
    EXPECT_EQ(h.position().ep_square(), SQ_C6);  // written after every double step
    EXPECT_FALSE(has_move(h.position(), "b5c6"));
}

TEST(Alice, DoubleStepNeedsOnlyItsOwnBoardEmptyOnTheWay) {
    // A piece on board B at e3 does not stop e2-e4; one on board B at e4 does.
    Pos p(Variant::Alice, "4k3/8/8/8/8/4O3/4P3/K7 w - - 0 1");
    EXPECT_TRUE(has_move(p.pos, "e2e4"));
    EXPECT_FALSE(has_move(p.pos, "e2e3"));
    Pos q(Variant::Alice, "4k3/8/8/8/4O3/8/4P3/K7 w - - 0 1");
    EXPECT_FALSE(has_move(q.pos, "e2e4"));
}

TEST(Alice, PromotedPiecePassesToTheOtherBoard) {
    Game g(Variant::Alice, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    g.play_uci("a7a8q");
    EXPECT_EQ(g.position().piece_on(SQ_A8), W_QUEEN);
    EXPECT_EQ(g.position().board_of(SQ_A8), BOARD_B);
    EXPECT_EQ(g.position().fen().substr(0, 4), "T3k3");
}

TEST(Alice, InsufficientMaterialIsKingsOnly) {
    EXPECT_EQ(Game(Variant::Alice, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").result().termination,
              Termination::InsufficientMaterial);
    EXPECT_FALSE(Game(Variant::Alice, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").result().over());
}

TEST(Alice, RepetitionComparesTheBoards) {
    // Same squares, different boards: different positions.
    Pos a(Variant::Alice, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    Pos b(Variant::Alice, "4k3/8/8/8/8/8/8/U3K3 w - - 0 1");
    EXPECT_NE(a.pos.key(), b.pos.key());
    Game g(Variant::Alice, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    const char* cycle[] = {"a1a2", "e8d8", "a2a1", "d8e8"};
    for (const char* m : cycle) g.play_uci(m);
    EXPECT_EQ(g.occurrences(), 2);
}

TEST(Alice, FenCastlingRightNeedsKingAndRookOnBoardA) {
    EXPECT_THROW(Pos(Variant::Alice, "4k3/8/8/8/8/8/8/R3L3 w Q - 0 1"), FenError);
    EXPECT_THROW(Pos(Variant::Alice, "4k3/8/8/8/8/8/8/U3K3 w Q - 0 1"), FenError);
    EXPECT_NO_THROW(Pos(Variant::Alice, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"));
}

// ------------------------------------------------------------ Avalanche §3

TEST(Avalanche, InitialPositionHas160Moves) {
    Pos p(Variant::Avalanche, Position::START_FEN);
    EXPECT_EQ(legal_uci(p.pos).size(), 160u);
    EXPECT_TRUE(has_move(p.pos, "g1f3,e7e6"));
    EXPECT_FALSE(has_move(p.pos, "g1f3,e7e5"));  // never a double step
    EXPECT_FALSE(has_move(p.pos, "g1f3"));       // a push is due
}

TEST(Avalanche, NoEnPassant) {
    Game g(Variant::Avalanche, "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1");
    g.play_uci("a2a4,b4b3");
    EXPECT_EQ(g.position().ep_square(), SQ_NONE);
    Pos p(Variant::Avalanche, "4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1");  // the FEN's square is ignored
    EXPECT_EQ(p.pos.ep_square(), SQ_NONE);
    for (const auto& m : legal_uci(p.pos)) EXPECT_NE(m.substr(0, 4), "b4a3");
}

TEST(Avalanche, PushNeverCapturesAndNeedsAnEmptySquare) {
    // White pushes a black pawn: b6 blocked by a white knight, c6 free.
    Pos p(Variant::Avalanche, "4k3/1pp5/1N6/8/8/8/8/4K3 w - - 0 1");
    EXPECT_TRUE(has_move(p.pos, "e1d1,c7c6"));
    EXPECT_FALSE(has_move(p.pos, "e1d1,b7b6"));
    EXPECT_FALSE(has_move(p.pos, "e1d1,b7a6"));
}

TEST(Avalanche, FirstPartAloneWhenNoPawnCanBePushed) {
    Pos p(Variant::Avalanche, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_TRUE(has_move(p.pos, "e1d1"));
    // The black pawn a3 is blocked by the white knight a2: king moves come alone...
    Pos blocked(Variant::Avalanche, "4k3/8/8/8/8/p7/N7/4K3 w - - 0 1");
    EXPECT_TRUE(has_move(blocked.pos, "e1d1"));
    EXPECT_FALSE(has_move(blocked.pos, "e1d1,a3a2"));
    // ...but a knight move frees the pawn, and then the push is due.
    EXPECT_TRUE(has_move(blocked.pos, "a2c3,a3a2"));
    EXPECT_FALSE(has_move(blocked.pos, "a2c3"));
}

TEST(Avalanche, SeedDiagramC_FirstPartMustBeLegalAlone) {
    // The white king cannot go to f2 because of the bishop a7, although the
    // push c6-c5 would cover the check in the final position.
    Pos p(Variant::Avalanche, "8/b7/2p5/8/8/8/8/4K2k w - - 0 1");
    for (const auto& m : legal_uci(p.pos)) EXPECT_NE(m.substr(0, 4), "e1f2") << m;
    EXPECT_TRUE(has_move(p.pos, "e1d2,c6c5"));
}

TEST(Avalanche, SeedDiagramD_EveryPushIsASelfCheckSoWhiteHasLost) {
    // White to move: f7-f8 (any piece) and Kg1-f2 are the only first parts,
    // and each is followed by c5-c4, which opens the bishop a7 onto the king.
    Game g(Variant::Avalanche, "8/b4P2/8/2p5/8/7q/8/k5K1 w - - 0 1");
    MoveList list;
    g.legal_moves(list);
    EXPECT_TRUE(list.empty());
    Move first[256];
    EXPECT_EQ(generate_first_parts(g.position(), first) - first, 5);  // Kf2, f8=Q/R/B/N
    EXPECT_TRUE(has_first_part(g.position()));
    EXPECT_EQ(g.result().termination, Termination::AvalancheLoss);
    EXPECT_EQ(g.result().outcome, Outcome::BlackWins);
}

TEST(Avalanche, NoFirstPartIsMateInCheckAndStalemateOtherwise) {
    Game mate(Variant::Avalanche, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    EXPECT_EQ(mate.result().termination, Termination::Checkmate);
    EXPECT_EQ(mate.result().outcome, Outcome::WhiteWins);
    Game stale(Variant::Avalanche, "k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    EXPECT_EQ(stale.result().termination, Termination::Stalemate);
    EXPECT_EQ(stale.result().outcome, Outcome::Draw);
}

TEST(Avalanche, OwnPromotionIsChosenByTheMover) {
    Pos p(Variant::Avalanche, "8/P6k/8/8/8/8/8/K7 w - - 0 1");
    for (const char* m : {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}) EXPECT_TRUE(has_move(p.pos, m)) << m;
    EXPECT_FALSE(has_move(p.pos, "q:a7a8q"));  // no pending choice: no prefix
}

TEST(Avalanche, PushSelfCheckByThePawnsNewAttack) {
    // White Kd1, Nh1; black pawn e3. After any knight move the only push e3-e2
    // would attack d1: every push is a self-check, so no knight move exists.
    Pos p(Variant::Avalanche, "4k3/8/8/8/8/4p3/8/3K3N w - - 0 1");
    for (const auto& m : legal_uci(p.pos)) EXPECT_NE(m.substr(0, 2), "h1") << m;
    EXPECT_TRUE(has_move(p.pos, "d1c2,e3e2"));  // c2 is not attacked by a pawn on e2
    EXPECT_TRUE(has_move(p.pos, "d1e2"));       // e2 taken by the king: no push possible
}

TEST(Avalanche, PushToThePromotionRankCountsQueenAndKnightAttacks) {
    // Black pawn h2 pushed to h1: Black will choose, so the queen's and the
    // knight's attacks from h1 both count. White Kf2 (knight attack from h1).
    Pos p(Variant::Avalanche, "4k3/8/8/8/8/8/P4K1p/8 w - - 0 1");
    EXPECT_FALSE(has_move(p.pos, "a2a3,h2h1"));  // knight h1 attacks f2
    EXPECT_FALSE(has_move(p.pos, "a2a3"));       // and a push is due
    EXPECT_FALSE(has_move(p.pos, "f2g3,h2h1"));  // knight h1 attacks g3
    EXPECT_TRUE(has_move(p.pos, "f2e2,h2h1"));   // neither queen nor knight from h1 reaches e2
    // Queen attack along the first rank.
    Pos q(Variant::Avalanche, "4k3/8/8/8/8/8/7p/K7 w - - 0 1");
    EXPECT_FALSE(has_move(q.pos, "a1b1,h2h1"));
    EXPECT_TRUE(has_move(q.pos, "a1a2,h2h1"));
    EXPECT_TRUE(has_move(q.pos, "a1b2,h2h1"));
}

TEST(Avalanche, PushSelfCheckByAnOpenedLine) {
    // The black pawn d4 shields the white king a1 from the bishop h8; pushing it opens the diagonal.
    Pos p(Variant::Avalanche, "4k2b/8/8/8/3p4/8/7P/K7 w - - 0 1");
    EXPECT_FALSE(has_move(p.pos, "h2h3,d4d3"));
    for (const auto& m : legal_uci(p.pos)) EXPECT_NE(m.substr(0, 4), "h2h3") << m;
    EXPECT_TRUE(has_move(p.pos, "a1b1,d4d3"));
}

TEST(Avalanche, PendingPromotionChoiceOfTheOwner) {
    // A black pawn stands on d1 (pushed there by White): Black chooses its piece first.
    Pos p(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1");
    EXPECT_EQ(p.pos.pending_promotion(), SQ_D1);
    const auto moves = legal_uci(p.pos);
    EXPECT_TRUE(has_move(p.pos, "q:d1d4"));
    EXPECT_TRUE(has_move(p.pos, "n:d1c3"));
    EXPECT_TRUE(has_move(p.pos, "r:e8e7"));
    EXPECT_FALSE(has_move(p.pos, "e8e7"));  // the choice comes first
    // The moves of the four choices are added up.
    int per_choice[4] = {0, 0, 0, 0};
    for (const auto& m : moves) per_choice[std::string("qrbn").find(m[0])]++;
    for (int c : per_choice) EXPECT_GT(c, 0);
    // Playing a choice turns the pawn into that piece.
    Game g(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1");
    g.play_uci("r:e8e7");
    EXPECT_EQ(g.position().piece_on(SQ_D1), B_ROOK);
    g.undo();
    EXPECT_EQ(g.position().piece_on(SQ_D1), B_PAWN);
}

TEST(Avalanche, FenPendingPawnsErrors) {
    EXPECT_THROW(Pos(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p1p2 b - - 0 1"), FenError);  // two pending
    EXPECT_THROW(Pos(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 w - - 0 1"), FenError);    // not its turn
    EXPECT_THROW(Pos(Variant::Chess, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1"), FenError);        // chess: never
    // A pawn waiting on d1 whose queen or knight would attack the white king could not have been pushed there.
    EXPECT_THROW(Pos(Variant::Avalanche, "4k3/8/8/8/8/8/8/K2p4 b - - 0 1"), FenError);
    EXPECT_THROW(Pos(Variant::Avalanche, "4k3/8/8/8/8/8/8/3p1K2 b - - 0 1"), FenError);  // queen d1 attacks f1
    EXPECT_THROW(Pos(Variant::Avalanche, "4k3/8/8/8/8/8/5K2/3p4 b - - 0 1"), FenError);  // knight d1 attacks f2
}

TEST(Avalanche, PushResetsTheFiftyMoveCount) {
    Game g(Variant::Avalanche, "4k3/p7/8/8/8/8/8/4K3 w - - 40 60");
    g.play_uci("e1d1,a7a6");
    EXPECT_EQ(g.position().rule50(), 0);
}

TEST(Avalanche, APushMayCheckTheOpponent) {
    // White bishop b5, black pawn d7, black king e8: pushing d7-d6 opens the diagonal.
    Pos p(Variant::Avalanche, "4k3/3p4/8/1B6/8/8/8/K7 w - - 0 1");
    ASSERT_TRUE(has_move(p.pos, "a1a2,d7d6"));
    Game g(Variant::Avalanche, "4k3/3p4/8/1B6/8/8/8/K7 w - - 0 1");
    g.play_uci("a1a2,d7d6");
    EXPECT_TRUE(g.position().in_check());
}

TEST(Avalanche, InsufficientMaterialOnlyWithoutPawns) {
    EXPECT_EQ(Game(Variant::Avalanche, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").result().termination,
              Termination::InsufficientMaterial);
    EXPECT_FALSE(Game(Variant::Avalanche, "4k3/p7/8/8/8/8/8/4K3 w - - 0 1").result().over());
}

// ------------------------------------------------------------- hashing

TEST(Hashing, IncrementalKeyEqualsKeyFromScratch) {
    // Random games in all three variants: after every move the incremental key
    // equals the key of the same position read from its FEN (in Alice and
    // chess only when no en-passant square is written, as that affects the key
    // only when a capture is legal, which both compute the same way).
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        std::uint64_t seed = 12345;
        for (int game = 0; game < 40; ++game) {
            Game g(v);
            for (int ply = 0; ply < 120; ++ply) {
                MoveList list;
                g.legal_moves(list);
                if (list.empty()) break;
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                g.play(list.moves[(seed >> 33) % list.size()]);
                Pos fresh(v, g.position().fen());
                ASSERT_EQ(fresh.pos.key(), g.position().key()) << variant_name(v) << ' ' << g.position().fen();
                ASSERT_EQ(fresh.pos.fen(), g.position().fen());
            }
        }
    }
}

TEST(Hashing, SideCastlingAndPendingChoiceChangeTheKey) {
    EXPECT_NE(Pos(Variant::Chess, "r3k3/8/8/8/8/8/8/4K3 w q - 0 1").pos.key(),
              Pos(Variant::Chess, "r3k3/8/8/8/8/8/8/4K3 w - - 0 1").pos.key());
    EXPECT_NE(Pos(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").pos.key(),
              Pos(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 b - - 0 1").pos.key());
    EXPECT_NE(Pos(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1").pos.key(),
              Pos(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3q4 b - - 0 1").pos.key());
}

// plain_move_legal (one move tried without the generator) says exactly what the generator
// says, for every plain move of every square to every square, along random games from
// positions with pins, checks, castling rights and en passant; and nothing in Alice.
TEST(Chess, PlainMoveLegalAgreesWithTheGenerator) {
    const char* starts[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    };
    std::mt19937 rng(5);
    int positions = 0, legal = 0;
    for (const char* fen : starts)
        for (int game = 0; game < 15; ++game) {
            std::vector<StateInfo> st(61);
            Position pos;
            pos.set(Variant::Chess, fen, st[0]);
            for (int ply = 1; ply <= 60; ++ply) {
                MoveList list;
                generate_legal(pos, list);
                std::vector<bool> listed(64 * 64);
                for (Move m : list)
                    if (m.kind() == NORMAL) listed[m.from() * 64 + m.to()] = true;
                for (Square from = SQ_A1; from <= SQ_H8; ++from)
                    for (Square to = SQ_A1; to <= SQ_H8; ++to) {
                        const Move m(from, to);
                        ASSERT_EQ(plain_move_legal(pos, m), bool(listed[from * 64 + to]))
                            << pos.fen() << " " << to_uci(m);
                        legal += listed[from * 64 + to];
                    }
                ++positions;
                if (list.empty()) break;
                pos.do_move(list.moves[rng() % list.count], st[ply]);
            }
        }
    EXPECT_GT(positions, 2000);
    EXPECT_GT(legal, 40000);
    Pos alice(Variant::Alice, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_FALSE(plain_move_legal(alice.pos, Move(SQ_E2, SQ_E4)));
}

// plain_reply and ReplyProbe (the other side's move judged after ours, neither
// played) say what playing both says: illegal, a check, or neither. Replies
// tried: every legal reply, and every move the other side had before ours (the
// solver's killers), many of which ours makes illegal or a check.
TEST(Chess, PlainReplyAgreesWithPlayingBothMoves) {
    const char* starts[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "KR2N3/4P1P1/6QB/3N1pPB/n6P/rP6/ppkPP2P/3R4 w - - 0 1",
    };
    std::mt19937 rng(11);
    int counts[4] = {};
    for (const char* fen : starts)
        for (int game = 0; game < 6; ++game) {
            std::vector<StateInfo> st(32);
            Position pos;
            pos.set(Variant::Chess, fen, st[0]);
            for (int ply = 1; ply <= 30; ++ply) {
                MoveList ours;
                generate_legal(pos, ours);
                if (ours.empty()) break;
                MoveList before;  // the other side's moves had we passed
                if (!pos.in_check()) {
                    StateInfo null;
                    pos.do_null_move(null);
                    generate_legal(pos, before);
                    pos.undo_null_move();
                }
                for (Move m : ours) {
                    StateInfo after_m;
                    pos.do_move(m, after_m);
                    MoveList replies;
                    generate_legal(pos, replies);
                    std::vector<std::pair<Move, Reply>> expected;
                    for (Move d : replies)
                        if (plain(d)) expected.emplace_back(d, pos.gives_check(d) ? Reply::Check : Reply::Quiet);
                    for (Move d : before)
                        if (plain(d) &&
                            std::none_of(expected.begin(), expected.end(), [&](const auto& e) { return e.first == d; }))
                            expected.emplace_back(d, Reply::Illegal);
                    pos.undo_move(m);
                    for (const auto& [d, want] : expected) {
                        const Reply got = plain_reply(pos, m, d);
                        ASSERT_EQ(got, plain(m) ? want : Reply::Unknown)
                            << pos.fen() << " " << to_uci(m) << " " << to_uci(d);
                        ASSERT_EQ(ReplyProbe(pos, d).after(m), got)
                            << pos.fen() << " " << to_uci(m) << " " << to_uci(d);
                        ++counts[int(got)];
                    }
                }
                pos.do_move(ours.moves[rng() % ours.count], st[ply]);
            }
        }
    EXPECT_GT(counts[int(Reply::Quiet)], 100000);
    EXPECT_GT(counts[int(Reply::Check)], 1000);
    EXPECT_GT(counts[int(Reply::Illegal)], 10000);
    Pos alice(Variant::Alice, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_EQ(plain_reply(alice.pos, Move(SQ_E2, SQ_E4), Move(SQ_E7, SQ_E5)), Reply::Unknown);
}

}  // namespace
}  // namespace echecs::test

// PGN moves as real tools and old archives write them (docs/PGN.md, "Lenient
// spellings"), in the three games: each read to the move it means, noted as
// a guess, and a spelling that names no move or several reported with its
// key and parameters.
#include <gtest/gtest.h>

#include "core/notation.h"
#include "core/pgn.h"
#include "helpers.h"

namespace echecs::test {
namespace {

struct Replayed {
    PgnReplay r;
    std::vector<std::string> uci;
};

Replayed replay_moves(const std::string& text) {
    const auto games = read_pgn(text);
    EXPECT_EQ(games.size(), 1u);
    EXPECT_TRUE(games[0].error.empty()) << games[0].error;
    auto game = start_game(games[0]);
    Replayed out{replay(games[0], *game), {}};
    for (Move m : game->moves()) out.uci.push_back(to_uci(m));
    return out;
}

PgnError replay_error(const std::string& text) {
    const auto games = read_pgn(text);
    EXPECT_EQ(games.size(), 1u);
    EXPECT_TRUE(games[0].error.empty()) << games[0].error;
    try {
        auto game = start_game(games[0]);
        replay(games[0], *game);
    } catch (const PgnError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for " << text;
    return PgnError("");
}

std::string param(const ErrorDetail& d, const std::string& name) {
    for (const auto& [k, v] : d.params)
        if (k == name) return v;
    return "(none)";
}

const std::string VARIANTS[] = {"", "[Variant \"Alice\"]\n\n", "[Variant \"Avalanche\"]\n\n"};

TEST(PgnLenient, LowerCaseLettersCastlingAndFigurinesInTheThreeGames) {
    // Chess and Alice (where each move also changes boards).
    for (int v = 0; v < 2; ++v) {
        const Replayed g = replay_moves(VARIANTS[v] + "1. e4 e5 2. nf3 \u265Ec6 3. \u2657c4 \u265Df8c5 *");
        EXPECT_EQ(g.uci, (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"})) << VARIANTS[v];
        EXPECT_EQ(g.r.readings,
                  (std::vector<PgnReading>{
                      {3, "nf3", "Nf3"}, {4, "\u265Ec6", "Nc6"}, {5, "\u2657c4", "Bc4"}, {6, "\u265Df8c5", "Bc5"}}))
            << VARIANTS[v];
    }
    for (const char* castle : {"o-o", "0-0", "O-O"}) {
        const Replayed g = replay_moves(std::string("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. ") + castle + " d6 5. d3 *");
        ASSERT_EQ(g.uci.size(), 9u) << castle;
        EXPECT_EQ(g.uci[6], "e1g1") << castle;
        // "0-0" and "O-O" are SAN already: only the lower-case o is a guess.
        EXPECT_EQ(g.r.readings.size(), castle[0] == 'o' ? 1u : 0u) << castle;
    }
    try {
        replay_moves("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Qe2 Qe7 5. d3 d6 6. o-o-o *");
        ADD_FAILURE() << "long castling with the queen's side full";
    } catch (const PgnError& e) {
        EXPECT_EQ(e.detail.key, "pgn_move_illegal");
    }
    // Avalanche: every move has its push.
    const Replayed a = replay_moves(VARIANTS[2] + "1. nf3,e6 \u265Ec6,e3 2. \u2657d3,d6 \u265Ef6,g3 3. o-o,h6 *");
    EXPECT_EQ(a.uci, (std::vector<std::string>{"g1f3,e7e6", "b8c6,e2e3", "f1d3,d7d6", "g8f6,g2g3", "e1g1,h7h6"}));
    ASSERT_EQ(a.r.readings.size(), 5u);
    EXPECT_EQ(a.r.readings[4], (PgnReading{5, "o-o,h6", "O-O,h6"}));
}

TEST(PgnLenient, AllTwelveFigurines) {
    // Either colour's figurine names the piece, whoever moves.
    const std::string fen = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/3P4/R1B1K1NQ w - - 0 1\"]\n\n1. ";
    const std::pair<const char*, const char*> piece[] = {{"f2", "e1f2"}, {"h5", "h1h5"}, {"a5", "a1a5"},
                                                         {"b2", "c1b2"}, {"f3", "g1f3"}, {"d4", "d2d4"}};
    for (int i = 0; i < 12; ++i) {
        const std::string figurine = "\xE2\x99" + std::string(1, char(0x94 + i));  // U+2654 + i
        const auto& [to, uci] = piece[i % 6];
        const Replayed g = replay_moves(fen + figurine + to + " *");
        ASSERT_EQ(g.uci.size(), 1u) << i;
        EXPECT_EQ(g.uci[0], uci) << i;
        EXPECT_EQ(g.r.readings.size(), 1u) << i;
    }
}

TEST(PgnLenient, TheBFileStaysAPawnWhenAPawnCanMakeIt) {
    // bxc3: the b-pawn takes (a bishop on a1... none here); strict SAN, no note.
    const Replayed pawn = replay_moves("1. b4 d5 2. b5 Nc6 3. bxc6 *");
    EXPECT_EQ(pawn.uci.back(), "b5c6");
    EXPECT_TRUE(pawn.r.readings.empty());
    // Both a pawn and the bishop can take on c6: the pawn, as written.
    const Replayed both = replay_moves("[SetUp \"1\"]\n[FEN \"4k3/8/2n5/1P6/8/8/8/B3K3 w - - 0 1\"]\n\n1. bxc6 *");
    EXPECT_EQ(both.uci[0], "b5c6");
    EXPECT_TRUE(both.r.readings.empty());
    // Only the bishop can: b is its letter.
    const Replayed bishop = replay_moves("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/2n5/8/B3K3 w - - 0 1\"]\n\n1. bxc3 *");
    EXPECT_EQ(bishop.uci[0], "a1c3");
    EXPECT_EQ(bishop.r.readings, (std::vector<PgnReading>{{1, "bxc3", "Bxc3"}}));
}

TEST(PgnLenient, EnPassantSuffixesAndPromotions) {
    for (const char* ep : {"dxc6ep", "dxc6 e.p.", "dxc6e.p.", "dxc6 ep"}) {
        const Replayed g = replay_moves(std::string("1. d4 a6 2. d5 c5 3. ") + ep + " *");
        EXPECT_EQ(g.uci.back(), "d5c6") << ep;
        EXPECT_TRUE(g.r.readings.empty()) << ep;
    }
    const std::string fen = "[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. ";
    for (const char* promo : {"a8(Q)", "a8/Q", "a8Q", "a8=Q", "a8=\u2655", "a8(\u2655)", "a8=q"}) {
        const Replayed g = replay_moves(fen + promo + "+ *");
        ASSERT_EQ(g.uci.size(), 1u) << promo;
        EXPECT_EQ(g.uci[0], "a7a8q") << promo;
    }
    EXPECT_EQ(replay_moves(fen + "a8(N) *").uci[0], "a7a8n");
    EXPECT_EQ(replay_moves(fen + "a8(Q)+ *").r.readings, (std::vector<PgnReading>{{1, "a8(Q)+", "a8=Q+"}}));
    EXPECT_TRUE(replay_moves(fen + "a8Q+ *").r.readings.empty());  // strict SAN already reads it
}

TEST(PgnLenient, FrenchLettersOnImport) {
    const Replayed g = replay_moves(
        "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fxc6 dxc6 5. O-O Dd6 6. d4 exd4 7. Dxd4 Dxd4 8. Cxd4 Fd7 9. Te1 o-o-o "
        "10. Rf1 *");
    ASSERT_EQ(g.uci.size(), 19u);
    EXPECT_EQ(g.uci[2], "g1f3");
    EXPECT_EQ(g.uci[16], "f1e1");         // T: the rook
    EXPECT_EQ(g.uci[18], "g1f1");         // R: the king (roi) in a French game
    EXPECT_EQ(g.r.readings.size(), 12u);  // all but the pawn moves and O-O
    EXPECT_EQ(g.r.readings[0], (PgnReading{3, "Cf3", "Nf3"}));
    EXPECT_EQ(g.r.readings.back(), (PgnReading{19, "Rf1", "Kf1"}));
    // A French promotion.
    const Replayed p = replay_moves("[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=D+ *");
    EXPECT_EQ(p.uci[0], "a7a8q");
    // Avalanche: the choice prefix too ("D:" for "Q:").
    const Replayed a = replay_moves(VARIANTS[2] + "1. Cf3,e6 Cc6,e3 *");
    EXPECT_EQ(a.uci, (std::vector<std::string>{"g1f3,e7e6", "b8c6,e2e3"}));
    // Alice: C and T stay the seed's board-B letters unless the game has D or F.
    const Replayed alice = replay_moves(VARIANTS[1] + "1. e4 e5 2. Cf3 Cc6 3. Fc4 *");
    EXPECT_EQ(alice.uci, (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"}));
}

TEST(PgnLenient, ErrorsSayWhatWhereAndWhyForAProgram) {
    // Two knights can go to d2: the lenient spelling names two moves.
    const PgnError amb = replay_error("1. d4 d5 2. Nf3 Nf6 3. nd2 *");
    EXPECT_EQ(amb.detail.key, "pgn_move_ambiguous");
    EXPECT_EQ(param(amb.detail, "game"), "1");
    EXPECT_EQ(param(amb.detail, "move"), "3.");
    EXPECT_EQ(param(amb.detail, "side"), "white");
    EXPECT_EQ(param(amb.detail, "text"), "'nd2'");
    EXPECT_NE(std::string(amb.what()).find("b1d2, f3d2"), std::string::npos) << amb.what();
    EXPECT_NE(std::string(amb.what()).find("(written 'nd2')"), std::string::npos) << amb.what();

    const PgnError ill = replay_error("1. e4 e5 2. Ke3 *");
    EXPECT_EQ(ill.detail.key, "pgn_move_illegal");
    EXPECT_EQ(param(ill.detail, "move"), "2.");
    const PgnError black = replay_error("1. e4 Zf6 *");
    EXPECT_EQ(black.detail.key, "pgn_move_unreadable");
    EXPECT_EQ(param(black.detail, "move"), "1...");
    EXPECT_EQ(param(black.detail, "side"), "black");
    EXPECT_EQ(param(black.detail, "text"), "'Zf6'");

    // The reader's own errors carry their key too.
    const auto games = read_pgn("[Event \"x\"]\n\n1. --\n\n[Event \"y\"]\n\n1. e4 {no end\n");
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].error_detail.key, "pgn_null_move");
    EXPECT_EQ(games[1].error_detail.key, "pgn_syntax");
    EXPECT_EQ(param(games[1].error_detail, "problem"), "pgn_comment_unclosed");
    EXPECT_EQ(param(games[1].error_detail, "opened"), "7");
    const auto fen = read_pgn("[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *");
    try {
        start_game(fen[0]);
        ADD_FAILURE();
    } catch (const PgnError& e) {
        EXPECT_EQ(e.detail.key, "pgn_fen_invalid");
        EXPECT_EQ(param(e.detail, "problem"), "fen_rank_count");
        EXPECT_EQ(param(e.detail, "ranks"), "3");
    }
}

TEST(FenErrors, EachSaysItsKeyAndParameters) {
    auto detail = [](const char* fen) {
        StateInfo st;
        Position pos;
        try {
            pos.set(Variant::Chess, fen, st);
        } catch (const FenError& e) {
            return e.detail;
        }
        return ErrorDetail{"(none)", {}};
    };
    const ErrorDetail r = detail("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
    EXPECT_EQ(r.key, "fen_rank_squares");
    EXPECT_EQ(param(r, "rank"), "1");
    EXPECT_EQ(param(r, "squares"), "7");
    EXPECT_EQ(detail("4k3/8/8/8/8/8/8/8 w - - 0 1").key, "fen_no_king");
    EXPECT_EQ(param(detail("4k3/8/8/8/8/8/8/8 w - - 0 1"), "color"), "white");
    EXPECT_EQ(detail("4k3/8/8/8/8/8/8/4K3 x - - 0 1").key, "fen_active_colour");
    EXPECT_EQ(detail("4k3/8/8/8/8/8/8/4K3 w").key, "fen_field_count");
    EXPECT_EQ(detail("4k3/8/8/8/8/8/8/4K3 w X - 0 1").key, "fen_castling_letter");
    EXPECT_EQ(detail("4k3/8/8/8/8/8/8/4K3 w - - x 1").key, "fen_halfmove_clock");
    EXPECT_EQ(detail("4k3/8/8/8/8/8/8/4K2Z w - - 0 1").key, "fen_piece_letter");
}

}  // namespace
}  // namespace echecs::test

// Endgame knowledge on top of the chess network (engine/endgame.h): drawn
// endings scaled towards level, won ones given a way to the mate, every
// other score the network's; the other games untouched.
#include "engine/endgame.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"
#include "engine/nnue.h"
#include "helpers.h"

namespace echecs::test {
namespace {

using engine::Value;

struct Evals {
    Value net;   // the game's network alone
    Value full;  // what the search evaluates with
};

Evals evals(Variant v, const std::string& fen) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    const engine::EvalWeights& w = engine::default_weights(v);
    return {engine::nnue::evaluate(*w.network, pos), engine::evaluate(pos, w)};
}

TEST(Endgame, EndingsWithoutWinningChancesScaleTowardsLevel) {
    // From echecs's games against Stockfish: drawn by the fifty-move rule
    // with the network scoring them as won (its side's view, a knight being
    // about 270 on its scale).
    for (const char* fen : {
             "8/5k1r/2K5/8/1B6/8/8/1R6 w - - 0 1",   // rook and bishop against rook
             "3R4/8/1k6/8/3K1r2/3N4/8/8 w - - 0 1",  // rook and knight against rook
             "5n2/8/7R/8/2k2K2/8/8/8 w - - 0 1",     // rook against knight
             "8/6k1/N7/6K1/7N/8/8/8 w - - 0 1",      // two knights
             "7k/8/7P/8/4B3/4K3/8/8 w - - 0 1",      // rook pawn, bishop of the wrong colour
             "8/8/8/8/5bk1/8/7p/7K b - - 0 1",       // the same for Black
         }) {
        SCOPED_TRACE(fen);
        const Evals e = evals(Variant::Chess, fen);
        EXPECT_GT(e.net, 100) << "the network no longer overrates this ending: pick another";
        EXPECT_LE(std::abs(e.full), e.net * 14 / 64 + 1);
        EXPECT_GE(e.full, 0);
    }
    // Two knights, a lone minor piece, a rook pawn with the defending king
    // in its corner: nothing to win.
    EXPECT_EQ(evals(Variant::Chess, "8/6k1/N7/6K1/7N/8/8/8 w - - 0 1").full, 0);
    EXPECT_EQ(evals(Variant::Chess, "7k/8/7P/8/4B3/4K3/8/8 w - - 0 1").full, 0);
    EXPECT_EQ(evals(Variant::Chess, "k7/P7/8/8/8/8/8/4K3 b - - 0 1").full, 0);
}

TEST(Endgame, WinningChancesThatRemainAreNotScaled) {
    // The bishop of the promotion square's colour; the defending king away
    // from the corner; a rook pawn with a knight; a pawn on another file; a
    // defending pawn on the next file.
    for (const char* fen : {
             "7k/8/7P/2B5/8/4K3/8/8 w - - 0 1", "8/8/4k3/8/7P/4K3/8/1B6 w - - 0 1", "7k/8/7P/8/3N4/4K3/8/8 w - - 0 1",
             "7k/8/6P1/8/4B3/4K3/8/8 w - - 0 1",
             "7k/6p1/7P/8/4B3/4K3/8/8 w - - 0 1",  // the defender's pawn beside it can lock its king in
         }) {
        SCOPED_TRACE(fen);
        const Evals e = evals(Variant::Chess, fen);
        EXPECT_EQ(e.full, e.net);
    }
}

TEST(Endgame, ABareKingAgainstMatingMaterialIsAKnownWinWithAWayToTheMate) {
    const Value right = evals(Variant::Chess, "k7/8/2K5/8/8/8/8/1BN5 w - - 0 1").full;  // a8: the light bishop's corner
    const Value wrong = evals(Variant::Chess, "7k/8/5K2/8/8/8/8/1BN5 w - - 0 1").full;  // h8: not its colour
    const Value centre = evals(Variant::Chess, "8/8/8/3k4/8/3K4/8/1BN5 w - - 0 1").full;
    EXPECT_GT(wrong, engine::VALUE_KNOWN_WIN);
    EXPECT_GT(right, wrong);
    EXPECT_GT(right, centre);
    EXPECT_EQ(evals(Variant::Chess, "k7/8/2K5/8/8/8/8/1BN5 b - - 0 1").full, -right);
    // The fifty-move count changes nothing: the guide says which way is progress.
    EXPECT_EQ(evals(Variant::Chess, "k7/8/2K5/8/8/8/8/1BN5 w - - 80 41").full, right);
    // A rook: the bare king at the edge and the kings close score more.
    const Value edge = evals(Variant::Chess, "3k4/8/3K4/8/8/8/8/R7 w - - 0 1").full;
    const Value middle = evals(Variant::Chess, "8/8/8/3k4/8/8/3K4/R7 w - - 0 1").full;
    EXPECT_GT(edge, middle);
    EXPECT_GT(middle, engine::VALUE_KNOWN_WIN);
    // A queen against a rook: a win with the same guide, on the network's scale.
    const Value qr_edge = evals(Variant::Chess, "3k4/7r/3K4/8/8/8/8/Q7 w - - 0 1").full;
    const Value qr_middle = evals(Variant::Chess, "8/7r/8/3k4/8/8/3K4/Q7 w - - 0 1").full;
    EXPECT_GT(qr_edge, qr_middle);
    EXPECT_GT(qr_middle, 300);
    EXPECT_LT(qr_edge, engine::VALUE_KNOWN_WIN);
}

TEST(Endgame, OtherPositionsKeepTheNetworksScoreAtAnyFiftyMoveCount) {
    const std::string place = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - ";
    for (const char* count : {"0 8", "60 38"}) {
        SCOPED_TRACE(count);
        const Evals e = evals(Variant::Chess, place + count);
        EXPECT_EQ(e.full, e.net);
    }
    const Evals rook_ending = evals(Variant::Chess, "8/5pk1/6p1/8/2R5/6P1/r4PK1/8 w - - 70 60");
    EXPECT_EQ(rook_ending.full, rook_ending.net);
}

TEST(Endgame, AliceAndAvalancheEndingsAreTheirNetworksAlone) {
    // Their endings differ (a piece changes boards; a move pushes a pawn):
    // orthodox endgame knowledge would be wrong there.
    for (Variant v : {Variant::Alice, Variant::Avalanche}) {
        for (const char* fen : {"8/5k1r/2K5/8/1B6/8/8/1R6 w - - 40 1", "7k/8/2K5/8/8/8/8/1BN5 w - - 0 1"}) {
            SCOPED_TRACE(fen);
            const Evals e = evals(v, fen);
            EXPECT_EQ(e.full, e.net);
        }
    }
}

// The engine against itself from a bishop-and-knight ending: mate inside
// the fifty moves, which the network alone did not find (docs/STRENGTH.md).
TEST(Endgame, BishopAndKnightMateAgainstTheEngineItself) {
    engine::AnalysisRequest r;
    r.fen = "8/B7/7k/8/5K2/N7/8/8 w - - 0 1";
    r.nodes = 20000;
    for (int ply = 0; ply < 100; ++ply) {
        const engine::AnalysisUpdate a = engine::analyse(r, nullptr, {});
        if (a.lines.empty()) break;
        r.moves.push_back(a.lines[0].pv[0]);
    }
    StateInfo root;
    Position pos;
    pos.set(Variant::Chess, r.fen, root);
    std::vector<StateInfo> states(r.moves.size());
    for (std::size_t i = 0; i < r.moves.size(); ++i) pos.do_move(parse_uci(pos, r.moves[i]), states[i]);
    SCOPED_TRACE(pos.fen());
    EXPECT_TRUE(mated_now(pos)) << r.moves.size() << " plies played";
    EXPECT_LE(r.moves.size(), 99u);
}

}  // namespace
}  // namespace echecs::test

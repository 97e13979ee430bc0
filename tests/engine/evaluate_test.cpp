// Evaluation: colour symmetry in every game, and the variant terms pulling
// the right way.
#include "engine/evaluate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "core/position.h"

namespace echecs::test {
namespace {

// The same position with colours swapped and the board mirrored top to bottom.
std::string mirror_fen(const std::string& fen) {
    std::istringstream is(fen);
    std::string place, side, castle, ep, half, full;
    is >> place >> side >> castle >> ep >> half >> full;
    std::vector<std::string> ranks;
    std::string r;
    for (char c : place) {
        if (c == '/') {
            ranks.push_back(r);
            r.clear();
        } else
            r += std::isalpha(static_cast<unsigned char>(c))
                     ? char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c))
                     : c;
    }
    ranks.push_back(r);
    std::string out;
    for (int i = int(ranks.size()) - 1; i >= 0; --i) out += ranks[size_t(i)] + (i ? "/" : "");
    std::string c2;
    for (char c : castle)
        c2 += c == '-' ? '-' : char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
    std::sort(c2.begin(), c2.end(), [](char a, char b) {
        auto k = [](char x) { return std::string("KQkq-").find(x); };
        return k(a) < k(b);
    });
    std::string ep2 = ep == "-" ? "-" : std::string{ep[0], char('1' + '8' - ep[1])};
    return out + (side == "w" ? " b " : " w ") + c2 + " " + ep2 + " " + half + " " + full;
}

engine::Value eval_of(Variant v, const std::string& fen) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    return engine::evaluate(pos);
}

TEST(Evaluate, ColourSymmetricInEveryGame) {
    const std::pair<Variant, const char*> cases[] = {
        {Variant::Chess, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"},
        {Variant::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
        {Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
        {Variant::Alice, "rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3"},
        {Variant::Alice, "3u2Rl/2O5/4S2R/p1N2n2/S2SB3/6S1/1PP4P/6L1 w - - 1 45"},
        {Variant::Avalanche, "rnbqkbnr/pppp1ppp/8/4p3/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 2"},
        {Variant::Avalanche, "7k/5r1p/2q4P/4b3/5N2/8/3n2R1/7K b - - 2 37"},
    };
    for (const auto& [v, fen] : cases) {
        SCOPED_TRACE(fen);
        EXPECT_EQ(eval_of(v, fen), eval_of(v, mirror_fen(fen))) << mirror_fen(fen);
    }
}

TEST(Evaluate, MaterialMatters) {
    // White a queen up.
    EXPECT_GT(eval_of(Variant::Chess, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 700);
    EXPECT_LT(eval_of(Variant::Chess, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"), -700);
}

TEST(Evaluate, AvalanchePendingPromotionCountsAsTheChosenQueen) {
    const engine::Value pending = eval_of(Variant::Avalanche, "4k3/8/8/8/8/K7/8/7p b - - 0 1");
    EXPECT_GT(pending, 700);
}

TEST(Evaluate, MaterialOnlyEvaluation) {
    StateInfo st;
    Position pos;
    pos.set(Variant::Chess, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", st);
    EXPECT_EQ(engine::evaluate_material(pos), 900);
    pos.set(Variant::Chess, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", st);
    EXPECT_EQ(engine::evaluate_material(pos), -900);
}

}  // namespace
}  // namespace echecs::test

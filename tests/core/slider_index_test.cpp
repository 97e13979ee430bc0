// Both ways of indexing the slider tables (magic multiply, PEXT) give the same
// attacks and the same perft, whichever one this processor picks at start-up:
// a portable build on a machine with BMI2 would otherwise never run the magic
// path in the tests.
#include <gtest/gtest.h>

#include "core/prng.h"
#include "helpers.h"

namespace echecs::test {
namespace {

// Restores the start-up choice at the end of a test.
struct KeepIndex {
    SliderIndex saved = (Position::init(), slider_index());
    ~KeepIndex() { set_slider_index(saved); }
};

std::uint64_t perft_of(Variant v, std::string_view fen, int depth) {
    Pos p(v, fen);
    return perft(p.pos, depth);
}

TEST(SliderIndex, BothIndexingsGiveTheSameAttacksAndPerft) {
    KeepIndex keep;
    std::vector<SliderIndex> usable;
    for (SliderIndex i : {SliderIndex::Magic, SliderIndex::Pext})
        if (slider_index_available(i)) usable.push_back(i);
    ASSERT_FALSE(usable.empty());
    EXPECT_TRUE(slider_index_available(slider_index()));
    if (usable.size() == 1) GTEST_SKIP() << "only " << slider_index_name(usable[0]) << " in this build or processor";

    // Every square against pseudo-random occupancies, then perft of the three games.
    Prng rng{20261201};
    std::vector<Bitboard> seen[2];
    for (std::size_t k = 0; k < usable.size(); ++k) {
        ASSERT_TRUE(set_slider_index(usable[k]));
        EXPECT_EQ(slider_index(), usable[k]);
        Prng r = rng;
        for (int n = 0; n < 2000; ++n) {
            const Bitboard occ = r.rand64() & r.rand64();
            for (Square s = SQ_A1; s <= SQ_H8; ++s) {
                seen[k].push_back(rook_attacks(s, occ));
                seen[k].push_back(bishop_attacks(s, occ));
            }
        }
    }
    EXPECT_TRUE(seen[0] == seen[1]);
    const char* kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    for (SliderIndex i : usable) {
        ASSERT_TRUE(set_slider_index(i));
        EXPECT_EQ(perft_of(Variant::Chess, kiwipete, 3), 97862u) << slider_index_name(i);
        EXPECT_EQ(perft_of(Variant::Alice, Position::START_FEN, 4), 219236u) << slider_index_name(i);
        EXPECT_EQ(perft_of(Variant::Avalanche, Position::START_FEN, 3), 5077103u) << slider_index_name(i);
    }
}

}  // namespace
}  // namespace echecs::test

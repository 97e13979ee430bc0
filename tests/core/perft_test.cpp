// Perft against trusted figures: RULES.md §4 and tests/data.
#include <gtest/gtest.h>

#include "helpers.h"

namespace echecs::test {
namespace {

struct PerftCase {
    const char* fen;
    int depth;
    std::uint64_t nodes;
};

// The published orthodox suite (chessprogramming wiki, RULES.md §4).
const PerftCase kPublished[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 4, 4085603},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 5, 674624},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3894594},
};

void PrintTo(const PerftCase& c, std::ostream* os) { *os << c.fen << " depth " << c.depth; }

class PublishedPerft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(PublishedPerft, MatchesFigure) {
    const PerftCase& c = GetParam();
    Pos p(Variant::Chess, c.fen);
    EXPECT_EQ(perft(p.pos, c.depth), c.nodes) << c.fen << " depth " << c.depth;
    EXPECT_EQ(p.pos.fen(), Pos(Variant::Chess, c.fen).pos.fen()) << "perft must restore the position";
}

INSTANTIATE_TEST_SUITE_P(Rules, PublishedPerft, ::testing::ValuesIn(kPublished), [](const auto& info) {
    return "position" + std::to_string(info.index) + "_depth" + std::to_string(info.param.depth);
});

Variant variant_of(const std::string& file) {
    if (file.rfind("alice", 0) == 0) return Variant::Alice;
    if (file.rfind("avalanche", 0) == 0) return Variant::Avalanche;
    return Variant::Chess;
}

class TestdataPerft : public ::testing::TestWithParam<std::string> {};

TEST_P(TestdataPerft, EveryFigureMatches) {
    const auto rows = read_tsv(GetParam());
    ASSERT_GT(rows.size(), 10u) << "missing test data " << GetParam();
    const Variant v = variant_of(GetParam());
    for (const auto& r : rows) {
        ASSERT_EQ(r.size(), 3u);
        Pos p(v, r[0]);
        const Key before = p.pos.key();
        EXPECT_EQ(perft(p.pos, std::stoi(r[1])), std::stoull(r[2])) << r[0] << " depth " << r[1];
        EXPECT_EQ(p.pos.key(), before);
    }
}

INSTANTIATE_TEST_SUITE_P(Testdata, TestdataPerft,
                         ::testing::Values("chess_perft.tsv", "alice_perft.tsv", "avalanche_perft.tsv"),
                         [](const auto& info) { return info.param.substr(0, info.param.find('_')); });

class TestdataMoves : public ::testing::TestWithParam<std::string> {};

TEST_P(TestdataMoves, SortedLegalMovesMatch) {
    const auto rows = read_tsv(GetParam());
    ASSERT_GT(rows.size(), 5u);
    const Variant v = variant_of(GetParam());
    for (const auto& r : rows) {
        Pos p(v, r[0]);
        std::vector<std::string> expected;
        if (r.size() > 1) {
            std::stringstream ss(r[1]);
            std::string m;
            while (ss >> m) expected.push_back(m);
        }
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(legal_uci(p.pos), expected) << r[0];
    }
}

INSTANTIATE_TEST_SUITE_P(Testdata, TestdataMoves, ::testing::Values("alice_moves.tsv", "avalanche_moves.tsv"),
                         [](const auto& info) { return info.param.substr(0, info.param.find('_')); });

}  // namespace
}  // namespace echecs::test

// The proof table (solver/hash.h): what is stored is found again, merged per
// position, told apart from another position under the same key, and a full
// bucket gives up its least valuable entry.
#include "solver/hash.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/bitboard.h"
#include "core/movegen.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

struct Stored {
    Key key;
    PositionCode code;
};

// The different positions along a random game from the start, each as its
// key and code.
std::vector<Stored> random_line(int plies, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<Stored> out;
    std::vector<StateInfo> states(plies + 1);
    Position pos;
    pos.set(Variant::Chess, Position::START_FEN, states[0]);
    for (int i = 1; i <= plies; ++i) {
        MoveList list;
        generate_legal(pos, list);
        if (list.count == 0) break;
        pos.do_move(list.moves[rng() % list.count], states[i]);
        Stored s{pos.key(), {}};
        EXPECT_TRUE(encode(pos, s.code));
        bool again = false;  // a position reached twice is kept once
        for (const auto& o : out) again = again || o.code == s.code;
        if (!again) out.push_back(s);
    }
    return out;
}

}  // namespace

TEST(ProofTable, FindsWhatItStoresAndMergesIt) {
    ProofTable t(1);
    const auto line = random_line(60, 7);
    ASSERT_GE(line.size(), 40u);
    for (std::size_t i = 0; i < line.size(); ++i) {
        t.store_help_fail(line[i].key, line[i].code, int(i % 20));
        if (i % 3 == 0) t.store_help_fail(line[i].key, line[i].code, 33);
    }
    for (std::size_t i = 0; i < line.size(); ++i) {
        Proven p;
        ASSERT_TRUE(t.probe(line[i].key, line[i].code, p)) << i;
        const std::uint64_t want = (std::uint64_t(1) << (i % 20)) | (i % 3 == 0 ? std::uint64_t(1) << 33 : 0);
        EXPECT_EQ(p.help_fail, want) << i;
        EXPECT_EQ(p.win_from, 255) << i;
        EXPECT_EQ(p.fail_below, 0) << i;
    }
    // Battle play's bounds: the least win and the greatest failure are kept.
    t.store_win(line[0].key, line[0].code, 5);
    t.store_win(line[0].key, line[0].code, 3);
    t.store_fail(line[0].key, line[0].code, 1);
    Proven p;
    ASSERT_TRUE(t.probe(line[0].key, line[0].code, p));
    EXPECT_EQ(p.win_from, 3);
    EXPECT_EQ(p.fail_below, 2);
    EXPECT_EQ(p.help_fail, 1u | std::uint64_t(1) << 33);  // merged with what was there
    EXPECT_EQ(t.stored(), line.size());
    // A position never stored is not found.
    const auto other = random_line(10, 99);
    EXPECT_FALSE(t.probe(other.back().key, other.back().code, p));
}

TEST(ProofTable, SameKeyOtherPositionIsNeverTakenForIt) {
    // Five positions forced under one key: one bucket of four ways. The whole
    // position tells them apart; the fifth replaces the least valuable one.
    ProofTable t(1);
    const auto line = random_line(5, 3);
    ASSERT_EQ(line.size(), 5u);
    const Key key = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 4; ++i) t.store_help_fail(key, line[i].code, 10 + i);  // worth 11..14
    Proven p;
    for (int i = 0; i < 4; ++i) {
        ASSERT_TRUE(t.probe(key, line[i].code, p)) << i;
        EXPECT_EQ(p.help_fail, std::uint64_t(1) << (10 + i)) << i;
    }
    EXPECT_FALSE(t.probe(key, line[4].code, p));
    t.store_help_fail(key, line[4].code, 20);
    EXPECT_FALSE(t.probe(key, line[0].code, p));  // the least proven went
    for (int i = 1; i < 5; ++i) EXPECT_TRUE(t.probe(key, line[i].code, p)) << i;
    EXPECT_EQ(t.stored(), 4u);
}

TEST(ProofTable, GrowsAsItFillsAndNeverAnswersWrongly) {
    // 64 MiB starts with its first 3/4 MiB and grows twice (12 MiB after
    // 8,192 stores, all after 131,072): what is stored after the last growth
    // is found (but the odd one a full bucket gave up); nothing found is
    // another position's or another number's.
    ProofTable t(64);
    std::vector<Stored> all;
    std::set<std::vector<std::uint64_t>> seen;  // each position once
    for (unsigned seed = 1; all.size() < 150000; ++seed)
        for (const Stored& s : random_line(200, seed))
            if (seen.insert({s.code.w[0], s.code.w[1], s.code.w[2], s.code.w[3]}).second) all.push_back(s);
    for (std::size_t i = 0; i < all.size(); ++i) t.store_help_fail(all[i].key, all[i].code, int(i % 60));
    std::size_t found = 0, recent_found = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        Proven p;
        if (!t.probe(all[i].key, all[i].code, p)) continue;
        ++found;
        if (i >= all.size() - 10000) ++recent_found;
        EXPECT_EQ(p.help_fail, std::uint64_t(1) << (i % 60)) << i;
    }
    EXPECT_GE(recent_found, 9900u);
    EXPECT_LT(found, all.size());  // those of the sizes before were lost to their probes: only speed
    EXPECT_LE(t.stored(), t.entries());
}

TEST(HugePages, ZeroedAlignedAndMoved) {
    echecs::platform::HugePages a(5 * 1024 * 1024 + 3);
    ASSERT_NE(a.data(), nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % (2 * 1024 * 1024), 0u);
    EXPECT_EQ(a.size(), 5u * 1024 * 1024 + 3);
    const auto* bytes = static_cast<const unsigned char*>(a.data());
    for (std::size_t i = 0; i < a.size(); i += 4093) EXPECT_EQ(bytes[i], 0) << i;
    static_cast<unsigned char*>(a.data())[a.size() - 1] = 7;
    echecs::platform::HugePages b = std::move(a);
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.size(), 0u);
    EXPECT_EQ(static_cast<const unsigned char*>(b.data())[b.size() - 1], 7);
    b = echecs::platform::HugePages();
    EXPECT_EQ(b.data(), nullptr);
}

// The code is the same whether the processor's PEXT or the man-by-man loop
// packs it (the table would otherwise miss or, worse, confuse positions), and
// two positions share a code only if they share placement, side and castling:
// along random games in chess and in Alice (whose board B is part of it).
TEST(PositionCode, SameWithEitherPackingAndDistinctPerPosition) {
    Position::init();
    const SliderIndex saved = slider_index();
    std::vector<std::pair<Variant, std::string>> fens;
    std::mt19937 rng(3);
    for (Variant v : {Variant::Chess, Variant::Alice})
        for (int game = 0; game < 8; ++game) {
            std::vector<StateInfo> states(81);
            Position pos;
            pos.set(v, Position::START_FEN, states[0]);
            for (int i = 1; i <= 80; ++i) {
                MoveList list;
                generate_legal(pos, list);
                if (list.count == 0) break;
                pos.do_move(list.moves[rng() % list.count], states[i]);
                fens.emplace_back(v, pos.fen());
            }
        }
    auto codes_with = [&](SliderIndex index) {
        EXPECT_TRUE(set_slider_index(index));
        std::vector<PositionCode> codes;
        for (const auto& [v, fen] : fens) {
            StateInfo st;
            Position pos;
            pos.set(v, fen, st);
            codes.emplace_back();
            EXPECT_TRUE(encode(pos, codes.back()));
        }
        return codes;
    };
    const auto by_loop = codes_with(SliderIndex::Magic);
    if (slider_index_available(SliderIndex::Pext)) {
        EXPECT_EQ(codes_with(SliderIndex::Pext), by_loop);
    }
    set_slider_index(saved);
    // Placement, side to move and castling: a FEN's first three fields (and the variant).
    auto essence = [&](std::size_t i) {
        const std::string& f = fens[i].second;
        std::size_t end = 0;
        for (int spaces = 0; end < f.size() && spaces < 3; ++end) spaces += f[end] == ' ';
        return std::to_string(int(fens[i].first)) + f.substr(0, end);
    };
    std::map<std::string, std::size_t> first_of;
    int distinct = 0;
    for (std::size_t i = 0; i < fens.size(); ++i) {
        const auto [it, fresh] = first_of.emplace(essence(i), i);
        distinct += fresh;
        for (std::size_t j = 0; j < i; ++j)
            if (by_loop[j] == by_loop[i]) {
                ASSERT_EQ(essence(j), essence(i)) << fens[i].second;
            }
    }
    EXPECT_GT(distinct, 1000);
    // Every man's kind (and Alice's board) is in the code: one man of each
    // position changed into each other kind, on either board, gives codes
    // that all differ (random games seldom differ by that alone).
    int variants = 0;
    for (std::size_t i = 0; i < fens.size(); i += 7) {
        const auto& [v, fen] = fens[i];
        const std::string letters = std::string(variant_info(v).board_b_letters) + " PNBRQ  pnbrq";
        std::vector<std::size_t> men;
        for (std::size_t k = 0; k < fen.find(' '); ++k)
            if (std::isalpha(static_cast<unsigned char>(fen[k])) && std::tolower(fen[k]) != 'k' &&
                letters.find(fen[k]) != std::string::npos)
                men.push_back(k);
        if (men.empty()) continue;
        const std::size_t at = men[rng() % men.size()];
        std::vector<PositionCode> seen;
        for (char c : letters) {
            if (c == ' ' || (std::isupper(static_cast<unsigned char>(c)) != 0) !=
                                (std::isupper(static_cast<unsigned char>(fen[at])) != 0))
                continue;
            std::string changed = fen;
            changed[at] = c;
            StateInfo st;
            Position pos;
            try {
                pos.set(v, changed, st);
            } catch (const FenError&) {
                continue;  // a pawn on its first or last rank, a check that cannot be
            }
            PositionCode code;
            ASSERT_TRUE(encode(pos, code));
            for (const auto& other : seen) ASSERT_FALSE(other == code) << changed;
            seen.push_back(code);
            ++variants;
        }
    }
    EXPECT_GT(variants, 500);
}

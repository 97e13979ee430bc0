// Never an illegal move: short searches on thousands of positions reached by
// random play in the three games.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "engine/search.h"

namespace echecs::test {
namespace {

void random_positions(Variant v, int positions, std::uint32_t seed) {
    std::mt19937 rng(seed);
    engine::TranspositionTable tt(4);
    engine::Searcher searcher(tt);
    int checked = 0;
    while (checked < positions) {
        std::deque<StateInfo> states(1);
        Position pos;
        pos.set(v, Position::START_FEN, states.back());
        for (int ply = 0; ply < 200 && checked < positions; ++ply) {
            MoveList legal;
            generate_legal(pos, legal);
            engine::Limits limits;
            limits.nodes = 300 + rng() % 400;
            engine::SearchOptions opt;
            if (ply % 7 == 0) opt.strength = engine::strength_for_skill(v, int(rng() % 20));
            if (ply % 11 == 0) opt.player = ply % 2 ? engine::Player::Greedy1 : engine::Player::Material2;
            opt.seed = rng();
            const std::string before = pos.fen();
            const engine::SearchResult r = searcher.run(pos, limits, opt, nullptr, nullptr);
            ++checked;
            ASSERT_EQ(pos.fen(), before) << "search changed the position";
            if (legal.empty()) {
                ASSERT_FALSE(r.best) << before;
                break;
            }
            ASSERT_TRUE(legal.contains(r.best)) << variant_name(v) << " " << before << " " << to_uci(r.best);
            // Continue the game with a random move (sometimes the engine's).
            const Move next = rng() % 4 == 0 ? r.best : legal.moves[rng() % unsigned(legal.size())];
            states.emplace_back();
            pos.do_move(next, states.back());
        }
    }
}

TEST(RandomPositions, ChessAlwaysLegal) { random_positions(Variant::Chess, 1500, 1); }
TEST(RandomPositions, AliceAlwaysLegal) { random_positions(Variant::Alice, 1500, 2); }
TEST(RandomPositions, AvalancheAlwaysLegal) { random_positions(Variant::Avalanche, 1000, 3); }

}  // namespace
}  // namespace echecs::test

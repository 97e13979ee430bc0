#include <gtest/gtest.h>
#include "core/movegen.h"
using namespace echecs;
TEST(Perft, StartDepth3) {
    StateInfo st;
    Position pos;
    pos.set(Variant::Chess, Position::START_FEN, st);
    EXPECT_EQ(perft(pos, 3), 8902u);
}

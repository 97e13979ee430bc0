// The quick pairing pools' logic (PoolBook), without sockets or clocks: who
// pairs with whom, how the range widens with waiting time, and who never
// pairs (oneself, an account with an anonymous player).
#include "server/play/pool_book.h"

#include <gtest/gtest.h>

#include <set>

using namespace echecs;
using namespace echecs::server;

namespace {

PoolEntry player(std::uint64_t peer, std::int64_t account, int rating, std::int64_t joined_at = 0) {
    PoolEntry e;
    e.peer = peer;
    e.token = std::string("token") + std::to_string(peer);
    e.name = std::string("p") + std::to_string(peer);
    e.account = account;
    e.rating = rating;
    e.joined_at = joined_at;
    return e;
}

TEST(PoolBook, PresetsAreEveryGameTimesSixControls) {
    const auto& specs = PoolBook::presets();
    ASSERT_EQ(specs.size(), 18u);
    std::set<std::string> ids;
    for (const PoolSpec& s : specs) ids.insert(s.id);
    EXPECT_EQ(ids.size(), 18u);
    const PoolSpec* p = PoolBook::find_spec("alice-15+10");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->variant, Variant::Alice);
    EXPECT_EQ(p->time.initial_ms, 15 * 60'000);
    EXPECT_EQ(p->time.increment_ms, 10'000);
    const PoolSpec* c = PoolBook::find_spec("avalanche-corr3");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->time.kind, TimeControl::Correspondence);
    EXPECT_EQ(c->time.days, 3);
    EXPECT_EQ(PoolBook::find_spec("chess-2+1"), nullptr);
    PoolBook book;
    EXPECT_FALSE(book.join("chess-2+1", player(1, 0, 1500)));
    EXPECT_EQ(book.size(), 0u);
}

TEST(PoolBook, PairsTheClosestRatingWithinRange) {
    PoolBook book;
    ASSERT_TRUE(book.join("chess-3+2", player(1, 11, 1500)));
    ASSERT_TRUE(book.join("chess-3+2", player(2, 12, 1590)));
    ASSERT_TRUE(book.join("chess-3+2", player(3, 13, 1530)));
    auto pairs = book.pair(0);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].a.peer, 1u);  // the longest waiting first
    EXPECT_EQ(pairs[0].b.peer, 3u);  // with the closest rating
    EXPECT_EQ(pairs[0].pool, "chess-3+2");
    EXPECT_EQ(book.size(), 1u);
    EXPECT_EQ(book.pool_of(2), "chess-3+2");
}

TEST(PoolBook, TheRangeWidensWithWaitingTime) {
    PoolBook book;  // +-100, 50 more every 5 s
    EXPECT_EQ(book.range_at(0, 0), 100);
    EXPECT_EQ(book.range_at(0, 4'999), 100);
    EXPECT_EQ(book.range_at(0, 5'000), 150);
    EXPECT_EQ(book.range_at(0, 20'000), 300);
    ASSERT_TRUE(book.join("alice-5+3", player(1, 11, 1500, 0)));
    ASSERT_TRUE(book.join("alice-5+3", player(2, 12, 1760, 0)));
    EXPECT_TRUE(book.pair(0).empty()) << "260 apart, range 100";
    EXPECT_TRUE(book.pair(15'000).empty()) << "range 250";
    auto pairs = book.pair(20'000);  // range 300 for both
    ASSERT_EQ(pairs.size(), 1u);
    // Both players' ranges must hold: a newcomer's narrow range is not widened by a long waiter's.
    ASSERT_TRUE(book.join("alice-5+3", player(3, 13, 1500, 0)));
    ASSERT_TRUE(book.join("alice-5+3", player(4, 14, 1700, 60'000)));
    EXPECT_TRUE(book.pair(60'000).empty());
    EXPECT_EQ(book.pair(80'000).size(), 1u);  // the newcomer's range is 300 after 20 s
}

TEST(PoolBook, NeverPairsOneself) {
    PoolBook book;
    PoolEntry a = player(1, 11, 1500), same_token = player(2, 0, 1500), same_account = player(3, 11, 1500);
    same_token.token = a.token;
    ASSERT_TRUE(book.join("chess-1+0", a));
    ASSERT_TRUE(book.join("chess-1+0", same_account));  // the same account in another browser
    EXPECT_TRUE(book.pair(1'000'000).empty());
    // The same browser's other socket replaces its entry: one pool at a time.
    ASSERT_TRUE(book.join("chess-5+3", same_token));
    EXPECT_EQ(book.pool_of(1), std::nullopt);
    EXPECT_EQ(book.pool_of(2), "chess-5+3");
    EXPECT_EQ(book.size(), 2u);
    EXPECT_TRUE(book.pair(1'000'000).empty());
}

TEST(PoolBook, AnonymousPlayersPairOnlyAmongThemselves) {
    PoolBook book;
    ASSERT_TRUE(book.join("avalanche-10+0", player(1, 0, 1500)));
    ASSERT_TRUE(book.join("avalanche-10+0", player(2, 21, 1500)));
    EXPECT_TRUE(book.pair(1'000'000).empty()) << "an account never meets an anonymous player";
    ASSERT_TRUE(book.join("avalanche-10+0", player(3, 0, 2900)));  // anonymous ratings mean nothing
    auto pairs = book.pair(0);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].a.peer, 1u);
    EXPECT_EQ(pairs[0].b.peer, 3u);
    ASSERT_TRUE(book.join("avalanche-10+0", player(4, 22, 1450)));
    pairs = book.pair(0);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].a.account, 21);
    EXPECT_EQ(pairs[0].b.account, 22);
    EXPECT_EQ(book.size(), 0u);
}

TEST(PoolBook, LeavingAndPoolsApart) {
    PoolBook book;
    ASSERT_TRUE(book.join("chess-10+0", player(1, 0, 1500)));
    ASSERT_TRUE(book.join("chess-15+10", player(2, 0, 1500)));
    EXPECT_TRUE(book.pair(0).empty()) << "different pools";
    EXPECT_TRUE(book.leave(1));
    EXPECT_FALSE(book.leave(1));
    EXPECT_EQ(book.waiting("chess-10+0"), 0u);
    EXPECT_EQ(book.waiting("chess-15+10"), 1u);
}

}  // namespace

// The sliding-window attempt limiter: the wait it announces, its window,
// and its memory bound under a flood of distinct keys.
#include <gtest/gtest.h>

#include "server/accounts/attempt_limiter.h"

using echecs::server::accounts::AttemptLimiter;

TEST(AttemptLimiter, AllowsMaxAttemptsPerWindowAndSaysWhenTheNextIsAllowed) {
    AttemptLimiter l(3, 1000);
    EXPECT_FALSE(l.blocked("a", 0));
    l.add("a", 0);
    l.add("a", 100);
    l.add("a", 200);
    EXPECT_EQ(l.blocked("a", 250), 750);  // the oldest attempt leaves the window at 1000
    EXPECT_FALSE(l.blocked("b", 250));    // another key is not slowed
    EXPECT_FALSE(l.blocked("a", 1000));
    l.add("a", 1000);
    EXPECT_EQ(l.blocked("a", 1000), 100);  // now the one at 100 is the oldest
    l.clear("a");
    EXPECT_FALSE(l.blocked("a", 1000));
}

TEST(AttemptLimiter, AFloodOfKeysStaysWithinTheMemoryBound) {
    AttemptLimiter l(2, 60'000, 1000);
    for (int k = 0; k < 20'000; ++k) l.add("ip" + std::to_string(k), k);
    EXPECT_LE(l.size(), 1000u);
    // The latest keys are still counted.
    l.add("ip19999", 20'000);
    EXPECT_TRUE(l.blocked("ip19999", 20'001));
}

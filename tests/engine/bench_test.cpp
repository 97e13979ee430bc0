// The bench signature: any change of the search's behaviour changes the node
// count of `echecs bench`, and must come with a new BENCH_SIGNATURE.
#include "engine/bench.h"

#include <gtest/gtest.h>

#include <sstream>

#include "engine/entry.h"

namespace echecs::test {
namespace {

TEST(Bench, SignatureIsTheCommittedOne) {
    EXPECT_EQ(engine::bench_signature_nodes(), engine::BENCH_SIGNATURE)
        << "the search's behaviour changed: if intended, set BENCH_SIGNATURE in src/engine/bench.h to the new count "
           "and say so in the commit message";
}

TEST(Bench, ThreadsBenchRunsBothSides) {
    std::ostringstream out;
    EXPECT_EQ(bench_main({"threads", "2", "-4"}, out), 0);
    EXPECT_NE(out.str().find("time-to-depth speed-up"), std::string::npos) << out.str();
    std::ostringstream bad;
    EXPECT_EQ(bench_main({"threads", "0"}, bad), 2);
}

}  // namespace
}  // namespace echecs::test

// The analysis call of engine.h: MultiPV lines per iteration, limits, cancel.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>

#include "engine/engine.h"

namespace echecs::test {
namespace {

using engine::AnalysisRequest;
using engine::AnalysisUpdate;

TEST(AnalysisApi, ReportsEachIterationWithDistinctLinesInEachGame) {
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        AnalysisRequest r;
        r.variant = v;
        r.multipv = 3;
        r.depth = 4;
        std::vector<AnalysisUpdate> updates;
        const AnalysisUpdate last = engine::analyse(r, nullptr, [&](const AnalysisUpdate& u) { updates.push_back(u); });
        ASSERT_EQ(updates.size(), 4u) << variant_name(v);
        for (size_t i = 0; i < updates.size(); ++i) {
            EXPECT_EQ(updates[i].depth, int(i) + 1);
            EXPECT_FALSE(updates[i].final);
            ASSERT_EQ(updates[i].lines.size(), 3u);
            std::set<std::string> first;
            for (const auto& l : updates[i].lines) {
                ASSERT_FALSE(l.pv.empty());
                first.insert(l.pv[0]);
                EXPECT_TRUE(l.score_cp.has_value() != l.mate.has_value());
                EXPECT_EQ(l.win + l.draw + l.loss, 1000);
            }
            EXPECT_EQ(first.size(), 3u);
        }
        EXPECT_TRUE(last.final);
        EXPECT_EQ(last.depth, 4);
        EXPECT_EQ(last.lines.size(), 3u);
        EXPECT_EQ(last.lines[0].pv, updates.back().lines[0].pv);
    }
}

TEST(AnalysisApi, MateLinesNoLegalMoveAndBadRequests) {
    AnalysisRequest r;
    r.fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    r.depth = 3;
    r.multipv = 2;
    const AnalysisUpdate a = engine::analyse(r, nullptr, {});
    ASSERT_EQ(a.lines.size(), 2u);
    EXPECT_EQ(a.lines[0].mate, 1);
    EXPECT_EQ(a.lines[0].pv[0], "a1a8");
    EXPECT_EQ(a.lines[0].win, 1000);
    r.moves = {"a1a8"};
    EXPECT_TRUE(engine::analyse(r, nullptr, {}).lines.empty());  // mated: nothing to analyse
    AnalysisRequest unlimited;
    EXPECT_THROW(engine::analyse(unlimited, nullptr, {}), std::invalid_argument);
    AnalysisRequest bad;
    bad.depth = 2;
    bad.moves = {"e2e5"};
    EXPECT_ANY_THROW(engine::analyse(bad, nullptr, {}));
}

TEST(AnalysisApi, CancelEndsAnUnlimitedAnalysisWithTwoThreads) {
    AnalysisRequest r;
    r.variant = Variant::Alice;
    r.multipv = 2;
    r.threads = 2;
    std::atomic<bool> cancel{false};
    std::atomic<int> iterations{0};
    std::thread stopper([&] {
        while (iterations.load() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        cancel = true;
    });
    const AnalysisUpdate a = engine::analyse(r, &cancel, [&](const AnalysisUpdate&) { ++iterations; });
    stopper.join();
    EXPECT_TRUE(a.final);
    EXPECT_GE(a.depth, 3);
    EXPECT_EQ(a.lines.size(), 2u);
}

}  // namespace
}  // namespace echecs::test

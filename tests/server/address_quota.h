// Fills one address's place on the engine's pool (engine_queue_per_client =
// 1): an evaluation of `eval_ms` holds it, and PGN uploads are sent until one
// is refused 429, which shows the place held. Shared by the upload tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "client.h"

namespace echecs::test {

struct HeldQuota {
    std::future<HttpResult> evaluation;  // wait for it before the test ends
    HttpResult refused;                  // the upload refused (status 429 when held)
};

inline HeldQuota hold_address_quota(std::uint16_t port, const Headers& from, int eval_ms) {
    const std::string eval = nlohmann::json{{"fen", START}, {"movetime_ms", eval_ms}}.dump();
    const std::string pgn = nlohmann::json{{"text", "[Event \"g\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"}}.dump();
    auto evaluate = [port, from, eval] {
        return std::async(std::launch::async,
                          [=] { return http_request(port, http::verb::post, "/api/analysis/eval", eval, "", from); });
    };
    HeldQuota h{evaluate(), {}};
    // Bounded: 300 uploads. The evaluation may not hold its place yet (an
    // upload held it first, and the evaluation was refused: sent again).
    for (int i = 0; i < 300; ++i) {
        h.refused = http_request(port, http::verb::post, "/api/pgn/read", pgn, "", from);
        if (h.refused.status == 429) break;
        EXPECT_EQ(h.refused.status, 200) << h.refused.body;
        if (h.refused.status != 200) break;
        if (h.evaluation.wait_for(std::chrono::seconds(0)) == std::future_status::ready) h.evaluation = evaluate();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return h;
}

}  // namespace echecs::test

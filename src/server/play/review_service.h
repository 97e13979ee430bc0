// The computer reviews of finished games, as the server runs them: one per
// game, requested by a player (anyone for a public game), at most one running
// per client address, searched one position per engine job (an analysis job:
// below live games, preempted by them, and taking turns with the other
// clients' analyses), stored with the game when done, and its progress sent
// to whoever watches the game. Everything here runs on the server's I/O
// thread but the searches themselves.
//
// A review is stored `queued` when requested and replaced by its result, so
// one interrupted by a restart is found `queued` with nothing running: it is
// reported `interrupted` and may be requested again.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "core/types.h"
#include "server/api/router.h"
#include "server/protocol/server_messages.h"
#include "server/review/game_review.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Hub;
class LiveGame;

struct ReviewLimits {
    std::uint64_t nodes_per_position = 150'000;  // docs/PERFORMANCE.md: a 60-ply game well under a minute
    std::size_t max_running = 32;                // reviews queued or running, all addresses
    std::size_t cache = 64;                      // finished reviews kept in memory
};

class ReviewService : public std::enable_shared_from_this<ReviewService> {
public:
    ReviewService(Hub& hub, ReviewLimits limits);

    // What a review needs of a game, copied off the room (which may go).
    struct GameInfo {
        std::string id;
        Variant variant = Variant::Chess;
        std::string initial_fen;
        std::vector<std::string> moves;
    };

    // POST /api/games/:id/review, GET /api/games/:id/review.
    void request(const HttpContextPtr& ctx);
    void get(const HttpContextPtr& ctx);
    // POST /api/games/:id/review/try {"ply", "move"}: "learn from your
    // mistakes", a move tried instead of the one of ply `ply`, judged.
    void try_move(const HttpContextPtr& ctx);
    // The game's `review` summary for its JSON (null when never requested):
    // fn runs on the I/O thread, possibly after a storage read.
    void summary(const std::string& game, std::function<void(nlohmann::json)> fn);

private:
    struct Running {
        std::string game, client;
        review::ReviewRequest req;  // `known` grows one position per job
        int total = 0;
        std::int64_t requested_at = 0;
        std::uint64_t nodes = 0;  // searched so far, and the engine's time for them
        double seconds = 0;
    };
    using Stored = std::optional<ReviewRecord>;

    // The review of `game` as known in memory, or as stored (read on the
    // reader thread); fn(record) on the I/O thread, nullopt if never requested.
    void lookup(const std::string& game, std::function<void(const Stored&)> fn);
    void start(const HttpContextPtr& ctx, const GameInfo& g);
    void submit(const std::shared_ptr<Running>& run, int retries = 0);
    void step_done(const std::shared_ptr<Running>& run, review::Review r);
    void failed(const std::shared_ptr<Running>& run, const std::string& why);
    void finish(const std::shared_ptr<Running>& run, ReviewRecord rec);
    void remember(const ReviewRecord& rec);
    void tell(const std::string& game, const out::Review& message);
    nlohmann::json running_json(const Running& run) const;
    static nlohmann::json record_json(const ReviewRecord& rec, bool summary_only);

    Hub& hub_;
    ReviewLimits limits_;
    std::unordered_map<std::string, std::shared_ptr<Running>> running_;  // by game
    std::unordered_map<std::string, std::string> by_client_;             // client address -> game
    std::unordered_map<std::string, ReviewRecord> cache_;                // finished, by game
    std::deque<std::string> cache_order_;
};

}  // namespace echecs::server

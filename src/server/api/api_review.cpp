// HTTP API: the computer review of a finished game (server/review): requested
// once, its progress and result read here and sent to the game's watchers.
#include "server/play/hub.h"
#include "server/play/review_service.h"

namespace echecs::server {

using nlohmann::json;

std::shared_ptr<ReviewService> add_review_routes(Router& r, Hub& hub) {
    ReviewLimits limits;
    limits.nodes_per_position = hub.options().review_nodes;
    auto reviews = std::make_shared<ReviewService>(hub, limits);
    r.add("POST", "/api/games/:id/review", [reviews](const HttpContextPtr& ctx) { reviews->request(ctx); });
    r.add("GET", "/api/games/:id/review", [reviews](const HttpContextPtr& ctx) { reviews->get(ctx); });
    r.add("POST", "/api/games/:id/review/try", [reviews](const HttpContextPtr& ctx) { reviews->try_move(ctx); });
    return reviews;
}

void send_game_with_review(Hub& hub, const HttpContextPtr& ctx, const std::string& game, std::string state_text) {
    hub.reviews().summary(game, [ctx, text = std::move(state_text)](json summary) {
        ctx->run_guarded([&] {
            json state = json::parse(text);
            state["review"] = std::move(summary);
            ctx->json(200, state);
        });
    });
}

}  // namespace echecs::server

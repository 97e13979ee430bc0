// HTTP API: the table of the games, as the web client needs it to draw and
// explain each game (GET /api/variants). The client keeps no list of its
// own: a game added to the core's table appears in every menu.
#include "core/position.h"
#include "core/vocabulary.h"
#include "server/play/hub.h"

namespace echecs::server {

using nlohmann::json;

namespace {

json variants_json() {
    json out = json::array();
    for (const VariantInfo& v : VARIANTS) {
        const bool alice = v.variant == Variant::Alice;
        out.push_back({{"name", v.name},
                       {"pgn", v.pgn},
                       {"boards", alice ? 2 : 1},
                       {"pushes", v.variant == Variant::Avalanche},
                       // The FEN letters of the pieces on board B, in the
                       // order pawn, knight, bishop, rook, queen, king.
                       {"board_b_letters", alice ? "SOCUTL" : ""},
                       {"start_fen", Position::START_FEN},
                       {"rated", true}});
    }
    return {{"variants", std::move(out)}};
}

}  // namespace

void add_variant_routes(Router& r, Hub&) {
    r.add("GET", "/api/variants", [](const HttpContextPtr& ctx) { ctx->json(200, variants_json()); });
}

}  // namespace echecs::server

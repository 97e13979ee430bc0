// HTTP API: the table of the games, as the web client needs it to draw and
// explain each game (GET /api/variants). The client keeps no list of its
// own: a game added to the core's table appears in every menu.
#include "core/vocabulary.h"
#include "server/play/hub.h"

namespace echecs::server {

using nlohmann::json;

namespace {

json variants_json() {
    json out = json::array();
    for (const VariantInfo& v : VARIANTS) {
        // The core indexes board B's letters by Piece (" PNBRQK  pnbrqk");
        // the client needs the six white letters, pawn to king.
        const std::string_view b = v.board_b_letters;
        out.push_back({{"name", v.name},
                       {"pgn", v.pgn},
                       {"boards", v.boards},
                       {"pushes", v.has_pushes},
                       {"board_b_letters", b.empty() ? std::string_view{} : b.substr(1, 6)},
                       {"start_fen", v.start_fen},
                       {"display_key", v.display_key},
                       {"rated", true}});
    }
    return {{"variants", std::move(out)}};
}

}  // namespace

void add_variant_routes(Router& r, Hub&) {
    r.add("GET", "/api/variants", [](const HttpContextPtr& ctx) { ctx->json(200, variants_json()); });
}

}  // namespace echecs::server

#include "server/study/pgn_import.h"

#include <optional>

#include "core/notation.h"
#include "core/pgn.h"
#include "core/vocabulary.h"

namespace echecs::study {

using nlohmann::json;
using server::ApiError;
using server::Reason;

namespace {

// The reason and parameters of a game's error (the core's ErrorDetail; a
// key the table does not hold is a syntax error, its text the detail).
void set_error(json& entry, const std::string& message, const ErrorDetail& d) {
    entry["error"] = message;
    const std::optional<Reason> r = server::reason_from_name(d.key);
    entry["reason"] = std::string(server::reason_name(r ? *r : Reason::pgn_syntax));
    json params = json::object();
    for (const auto& [k, v] : d.params) params[k] = v;
    entry["params"] = std::move(params);
}

}  // namespace

json import_pgn(const json& body) {
    if (!body.is_object()) throw ApiError(Reason::not_object, "the request must be a JSON object");
    auto it = body.find("text");
    if (it == body.end() || !it->is_string()) throw ApiError(Reason::missing, "text: the PGN, as a string", "text");
    const std::string& text = it->get_ref<const std::string&>();
    if (text.size() > MAX_PGN_BYTES)
        throw ApiError(Reason::too_long, "text: longer than " + std::to_string(MAX_PGN_BYTES) + " bytes", "text");
    // read_pgn makes every string valid UTF-8 (Windows-1252 otherwise).
    std::vector<PgnGame> games = read_pgn(text);
    const bool truncated = games.size() > MAX_GAMES;
    if (truncated) games.resize(MAX_GAMES);
    json out = json::array();
    for (const PgnGame& g : games) {
        json tags = json::object();
        for (const auto& [k, v] : g.tags) tags[k] = v;
        json entry = {{"index", g.index},
                      {"tags", std::move(tags)},
                      {"error", nullptr},
                      {"reason", nullptr},
                      {"params", nullptr}};
        if (!g.error.empty()) {
            set_error(entry, g.error, g.error_detail);
            out.push_back(std::move(entry));
            continue;
        }
        try {
            std::unique_ptr<Game> game = start_game(g);
            const std::string initial = game->start_fen();
            const PgnReplay r = replay(g, *game);
            // The moves as played, in coordinates, from a second game (replay
            // keeps only the Move values).
            Game again(game->variant(), initial);
            json moves = json::array();
            for (std::size_t i = 0; i < game->moves().size(); ++i) {
                Position& pos = again.position();
                const Move m = game->moves()[i];
                moves.push_back({{"uci", to_uci(m)},
                                 {"san", to_san(pos, m)},
                                 {"comment", i < g.moves.size() ? g.moves[i].comment : ""}});
                again.play(m);
            }
            entry["variant"] = variant_name(game->variant());
            entry["initial_fen"] = initial;
            entry["moves"] = std::move(moves);
            entry["result"] = pgn_result(r.result.outcome);
            entry["termination"] = r.result.over() ? json(termination_name(r.result.termination)) : json(nullptr);
            entry["summary"] = r.summary();
            json readings = json::array();
            for (const PgnReading& x : r.readings) {
                const PgnMove& m = g.moves[std::size_t(x.ply - 1)];
                const std::string label = std::to_string(m.number) + (m.side == WHITE ? "." : "...");
                readings.push_back({{"ply", x.ply}, {"move", label}, {"written", x.written}, {"read", x.read}});
            }
            entry["readings"] = std::move(readings);
        } catch (const PgnError& e) {
            set_error(entry, e.what(), e.detail);
        }
        out.push_back(std::move(entry));
    }
    return {{"games", std::move(out)}, {"truncated", truncated}};
}

}  // namespace echecs::study

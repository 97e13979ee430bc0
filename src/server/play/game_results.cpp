#include "server/play/game_results.h"

#include "server/accounts/account_service.h"
#include "server/api/api_accounts.h"
#include "server/play/game_room.h"
#include "server/play/hub.h"

namespace echecs::server {

bool result_to_record(const GameRecord& g) {
    if (g.status != "over" || g.result == "*") return false;
    if (!g.white.account && !g.black.account) return false;
    return !(g.rated && (g.white_rating_diff || g.black_rating_diff));
}

namespace {

// The accounts hold the result: the game row says so (and keeps the rating
// changes), and its watchers see them once that is stored.
void mark_recorded(Hub& hub, const std::string& id, std::optional<int> white, std::optional<int> black) {
    hub.with_room(id, [&hub, id, white, black](GameRoom* room) {
        // The game stays pending: the next start records it again (the
        // accounts refuse a second record, and that clears it).
        if (!room) return hub.log("game " + id + ": result recorded, not yet marked (the game is gone)");
        room->game().result_recorded(white, black);
        hub.commit({id}, {SaveGame{room->game().meta()}}, nullptr);
    });
}

}  // namespace

void record_game_result(Hub& hub, const GameRecord& g) {
    if (!g.result_pending) return;
    const std::string id = g.id;
    hub.accounts().record_result(game_end_of(g), [&hub, id](std::optional<accounts::RatingChanges> changes,
                                                            std::optional<accounts::AccountError> error) {
        if (error) {
            // Recorded before a crash or restart cut the marking short: the
            // changes recorded then.
            if (error->reason == "already_recorded")
                return mark_recorded(hub, id, changes ? std::optional(changes->white.diff) : std::nullopt,
                                     changes ? std::optional(changes->black.diff) : std::nullopt);
            // Left pending: the next start tries again.
            return hub.log("game " + id + ": result not recorded for the accounts: " + error->what());
        }
        if (!changes) return mark_recorded(hub, id, std::nullopt, std::nullopt);  // casual: the players' lists
        mark_recorded(hub, id, changes->white.diff, changes->black.diff);
    });
}

}  // namespace echecs::server

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

void record_game_result(Hub& hub, const GameRecord& g) {
    if (!result_to_record(g)) return;
    const std::string id = g.id;
    hub.accounts().record_result(game_end_of(g), [&hub, id](std::optional<accounts::RatingChanges> changes,
                                                            std::optional<accounts::AccountError> error) {
        if (error) {
            if (error->reason != "already_recorded")
                hub.log("game " + id + ": result not recorded for the accounts: " + error->what());
            return;
        }
        if (!changes) return;  // casual: the players' lists only
        const int white = changes->white.diff, black = changes->black.diff;
        hub.with_room(id, [&hub, id, white, black](GameRoom* room) {
            if (!room) return hub.log("game " + id + ": rating changes not stored (the game is gone)");
            room->game().set_rating_diffs(white, black);
            hub.commit({id}, {SaveGame{room->game().meta()}}, nullptr);
        });
    });
}

}  // namespace echecs::server

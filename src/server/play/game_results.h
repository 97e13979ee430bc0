// A finished game's result for the accounts: the players' game rows, and for
// a rated game both new ratings (Glicko-2, in the accounts library). The
// rating changes are then stored with the game and sent to its watchers in
// a `state` whose `rating_diff` is set. Aborted and archived games (no
// result) and games without an account are not recorded. Nothing is lost
// to a crash or a restart: the game row says the result is pending from the
// write that ends the game until the accounts hold it.
#pragma once

#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

// Whether a finished game has something to record (the end of a game sets
// its result_pending from this, in the same write).
bool result_to_record(const GameRecord& g);
// Records a game whose result is pending (once: the library refuses a
// second time, which also clears it); the rating changes of a rated game
// are written to the game, the pending mark cleared, then broadcast. A
// crash in between leaves the mark, and the next start records it.
void record_game_result(Hub& hub, const GameRecord& g);

}  // namespace echecs::server

// A finished game's result for the accounts: the players' game rows, and for
// a rated game both new ratings (Glicko-2, in the accounts library). The
// rating changes are then stored with the game and sent to its watchers in
// a `state` whose `rating_diff` is set. Aborted and archived games (no
// result) and games without an account are not recorded.
#pragma once

#include "server/storage/storage.h"

namespace echecs::server {

class Hub;

// Whether a finished game has something to record.
bool result_to_record(const GameRecord& g);
// Records it (once: the library refuses a second time); the rating changes
// of a rated game are written to the game and broadcast.
void record_game_result(Hub& hub, const GameRecord& g);

}  // namespace echecs::server

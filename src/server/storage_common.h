// Helpers shared by the storage backends.
#pragma once

#include <string>
#include <string_view>

#include "core/types.h"
#include "server/storage.h"

namespace echecs::server {

Variant variant_from(std::string_view s);  // throws StorageError

// The column list of the games table, in the order both backends bind them.
inline constexpr const char* GAME_COLUMNS =
    "id, variant, initial_fen, time_kind, initial_ms, increment_ms, days, "
    "white_name, white_token, white_level, black_name, black_token, black_level, "
    "status, result, termination, created_at, ended_at, white_ms, black_ms, clock_at, "
    "draw_offer, rematch_offer, rematch_game, ply, fen";
inline constexpr int GAME_COLUMN_COUNT = 26;

inline constexpr const char* SEEK_COLUMNS =
    "id, variant, time_kind, initial_ms, increment_ms, days, color, nickname, token, is_private, created_at, game";
inline constexpr int SEEK_COLUMN_COUNT = 12;

}  // namespace echecs::server

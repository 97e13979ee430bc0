// Helpers shared by the storage backends.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/game.h"
#include "core/types.h"
#include "server/storage/storage.h"

namespace echecs::server {

// The core's names read back (the core's name functions are the only table).
std::optional<Variant> variant_named(std::string_view s);
std::optional<Color> color_named(std::string_view s);
Termination termination_named(std::string_view s);  // None when unknown
Variant variant_from(std::string_view s);           // throws StorageError

// The column list of the games table, in the order both backends bind them.
inline constexpr const char* GAME_COLUMNS =
    "id, variant, initial_fen, time_kind, initial_ms, increment_ms, days, "
    "white_name, white_token, white_level, black_name, black_token, black_level, "
    "status, result, termination, created_at, ended_at, white_ms, black_ms, clock_at, "
    "draw_offer, rematch_offer, rematch_game, ply, fen, is_private, white_draw_ply, black_draw_ply, "
    "white_account, white_rating, white_provisional, black_account, black_rating, black_provisional, "
    "rated, white_rating_diff, black_rating_diff";
inline constexpr int GAME_COLUMN_COUNT = 38;

inline constexpr const char* MOVE_COLUMNS = "ply, uci, san, white_ms, black_ms, at, clock";

// The ORDER BY of a listing and the column its keyset compares.
inline const char* list_order_column(const GameFilter& f) { return f.status == "over" ? "ended_at" : "created_at"; }

// Holds "<path>.lock" with flock() for the life of the object; throws
// StorageError naming the process that holds it.
class FileLock {
public:
    explicit FileLock(const std::string& db_path);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int fd_ = -1;
};

inline constexpr const char* SEEK_COLUMNS =
    "id, variant, time_kind, initial_ms, increment_ms, days, color, nickname, token, is_private, created_at, game, "
    "rated, account, rating, provisional, rating_min, rating_max, initial_fen";
inline constexpr int SEEK_COLUMN_COUNT = 19;

}  // namespace echecs::server

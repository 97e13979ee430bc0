// The storage's helpers: the core's names read back, the SQLite lock file.
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

// Holds the database file with flock() for the life of the object (any path
// to it: links included); throws StorageError naming the process that holds it.
class FileLock {
public:
    explicit FileLock(const std::string& db_path);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int fd_ = -1;
};

}  // namespace echecs::server

// Small helpers of the server: time and random identifiers.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace echecs::server {

inline std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// n characters of [A-Za-z0-9] (public identifiers: games, seeks).
std::string random_id(int n = 8);
// 24 characters of [A-Za-z0-9] straight from std::random_device (secrets).
std::string random_token();

// 16-64 characters of [A-Za-z0-9_-].
bool valid_token(const std::string& t);

}  // namespace echecs::server

// Small helpers of the server: its clock and random identifiers.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace echecs::server {

// The server's clock, in milliseconds since the Unix epoch: the wall clock
// read once at start-up plus a monotonic clock, so that a step of the system
// clock (NTP, an operator) never moves a deadline or a player's clock.
inline std::int64_t now_ms() {
    using namespace std::chrono;
    static const std::int64_t wall0 = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    static const steady_clock::time_point mono0 = steady_clock::now();
    return wall0 + duration_cast<milliseconds>(steady_clock::now() - mono0).count();
}

// n characters of [A-Za-z0-9] (public identifiers: games, seeks).
std::string random_id(int n = 8);
// 24 characters of [A-Za-z0-9] straight from std::random_device (secrets).
std::string random_token();

// 16-64 characters of [A-Za-z0-9_-].
bool valid_token(const std::string& t);

// What the server keeps of a browser token ("" for ""): its hash (the
// accounts' secret_hash, BLAKE2b-256 in hex). Seats, seeks and sockets are
// matched by it in memory and it alone is stored, so that a copy of the
// database (or of the server's memory) gives nobody a seat.
std::string token_key(const std::string& token);

}  // namespace echecs::server

// Account names and passwords: what is accepted, how passwords are hashed
// (Argon2id, libsodium) and how session secrets are made and stored (only
// their hash is kept, so a copy of the database opens no session).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace echecs::server::accounts {

// nullopt when acceptable, else the reason (a stable key the client
// translates): username_length (3-20), username_chars ([A-Za-z0-9_-]),
// username_reserved.
std::optional<std::string_view> check_username(std::string_view name);
// password_short (< 8 characters), password_long (> 256 bytes),
// password_utf8 (not valid UTF-8), password_common (one of the most common
// passwords), password_is_username.
std::optional<std::string_view> check_password(std::string_view password, std::string_view username);

// The name in the form that must be unique: ASCII lower case.
std::string canonical_username(std::string_view name);

struct HashCost {
    unsigned long long ops;
    std::size_t mem_bytes;
    // OWASP's Password Storage Cheat Sheet: Argon2id, 7 MiB, 5 passes, 1
    // lane, one of its five configurations of equal defence (ACCOUNTS.md:
    // the fastest of them here, which a log-in flood is measured against).
    static HashCost owasp();
    static HashCost interactive();  // libsodium's interactive limits (64 MiB, 2 passes): the cost before
    static HashCost minimal();      // for tests only
};

// Argon2id in libsodium's string format ("$argon2id$v=19$m=...").
// Throws std::runtime_error when out of memory.
std::string hash_password(std::string_view password, const HashCost& cost);
// Constant-time check. A malformed stored hash is simply "no".
bool verify_password(std::string_view password, const std::string& stored);
// A check that costs what verify_password costs, for unknown user names, so
// that the answer's timing does not tell which names exist.
void verify_dummy(std::string_view password, const HashCost& cost);
// The hash verify_dummy checks against (made once per cost).
const std::string& dummy_hash(const HashCost& cost);
// Whether a stored hash was made at another cost than `cost` (libsodium's
// crypto_pwhash_str_needs_rehash): it is hashed again at the next log-in.
bool needs_rehash(const std::string& stored, const HashCost& cost);

// A new session secret (32 random bytes, base64url) and the hash under which
// it is stored (hex BLAKE2b-256 of the secret).
std::string new_secret();
std::string secret_hash(std::string_view secret);

// 16 random bytes, base64url (a device cookie's id).
std::string random_id();
// Keyed BLAKE2b-256 of `message` (base64url), the key derived from
// `key_material` (a device cookie is signed with its account's password
// hash: nothing to store, and a new password voids the old cookies).
std::string keyed_mac(std::string_view key_material, std::string_view message);

}  // namespace echecs::server::accounts

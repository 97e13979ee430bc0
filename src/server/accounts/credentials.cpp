#include "server/accounts/credentials.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <stdexcept>

#include "core/utf8.h"
#include "server/accounts/names.h"

namespace echecs::server::accounts {

namespace {

// Names that would mislead (the computer, staff, deleted accounts) or clash
// with the site's own paths; compared in lower case.
constexpr std::array<std::string_view, 28> RESERVED = {
    "admin",     "administrator", "root",      "system",    "echecs",    "computer", "ordinateur",
    "anonymous", "anonyme",       "deleted",   "supprime",  "moderator", "mod",      "moderateur",
    "staff",     "support",       "server",    "serveur",   "api",       "www",      "guest",
    "invite",    "null",          "undefined", "stockfish", "engine",    "moteur",   "official"};

// Passwords of 8 characters or more that lead the published lists of leaked
// passwords (English and French), in lower case; with the repeated-character
// rule below, what a guesser tries first.
constexpr std::array<std::string_view, 96> COMMON = {
    "password", "password1", "password12", "password123", "passw0rd",   "p@ssw0rd",    "passwort",   "motdepasse",
    "12345678", "123456789", "1234567890", "0123456789",  "87654321",   "987654321",   "12341234",   "11223344",
    "12344321", "123123123", "147258369",  "123456789a",  "1234567a",   "123qweasd",   "1q2w3e4r",   "1q2w3e4r5t",
    "1qaz2wsx", "zaq12wsx",  "qazwsxedc",  "q1w2e3r4",    "qwertyuiop", "qwerty123",   "qwerty12",   "qwer1234",
    "1234qwer", "asdfghjkl", "asdf1234",   "asdfasdf",    "azertyuiop", "azerty123",   "azerty12",   "1234azer",
    "abc12345", "abcd1234",  "abcdefgh",   "iloveyou",    "iloveyou1",  "jetaime1",    "sunshine",   "princess",
    "football", "baseball",  "basketball", "welcome1",    "welcome123", "superman",    "batman123",  "trustno1",
    "starwars", "whatever",  "michelle",   "jennifer",    "computer",   "internet",    "corvette",   "mercedes",
    "maverick", "samantha",  "jordan23",   "letmein1",    "master12",   "football1",   "charlie1",   "shadow12",
    "monkey12", "dragon12",  "chocolat",   "marseille",   "soleil123",  "bonjour1",    "doudou12",   "loulou12",
    "nicolas1", "alexandre", "chess123",   "echecs123",   "checkmate",  "grandmaster", "qwerty1234", "1234abcd",
    "a1b2c3d4", "aa123456",  "zxcvbnm1",   "zxcvbnm123",  "changeme",   "secret123",   "admin123",   "test1234"};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

// Code points of valid UTF-8, or -1.
long utf8_length(std::string_view s) {
    long n = 0;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + std::size_t(len) > s.size()) return -1;
        for (int k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 2) return -1;
        if (len == 2 && c < 0xC2) return -1;  // overlong
        i += std::size_t(len);
        ++n;
    }
    return n;
}

void init_sodium() {
    static const bool ok = sodium_init() >= 0;
    if (!ok) throw std::runtime_error("libsodium could not be initialised");
}

// N random bytes from the system's source, base64url without padding.
template <std::size_t N>
std::string random_base64url() {
    init_sodium();
    unsigned char raw[N];
    randombytes_buf(raw, sizeof raw);
    char out[sodium_base64_ENCODED_LEN(N, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(out, sizeof out, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return out;
}

}  // namespace

std::optional<std::string_view> check_username(std::string_view name) {
    if (name.size() < 3 || name.size() > 20) return "username_length";
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return "username_chars";
    const std::string l = lower(name);
    if (std::find(RESERVED.begin(), RESERVED.end(), l) != RESERVED.end()) return "username_reserved";
    // Chat names anonymous people "Guest-..." (server/chat.h); and the
    // server's own names in any look-alike spelling ("adrnin", "Stockfish9").
    if (l.starts_with("guest-") || l.starts_with("guest_") || reserved_name(name)) return "username_reserved";
    return std::nullopt;
}

namespace {

// "éééééééé" as well as "aaaaaaaa": characters, not bytes (valid UTF-8 here).
bool one_character_repeated(std::string_view s) {
    std::size_t i = 0;
    const char32_t first = utf8_decode(s, i);
    while (i < s.size())
        if (utf8_decode(s, i) != first) return false;
    return true;
}

}  // namespace

std::optional<std::string_view> check_password(std::string_view password, std::string_view username) {
    if (password.size() > 256) return "password_long";
    const long chars = utf8_length(password);
    if (chars < 0) return "password_utf8";
    if (chars < 8) return "password_short";
    const std::string l = lower(password);
    if (std::find(COMMON.begin(), COMMON.end(), l) != COMMON.end()) return "password_common";
    if (one_character_repeated(password)) return "password_common";
    if (!username.empty() && l.find(lower(username)) != std::string::npos) return "password_is_username";
    return std::nullopt;
}

std::string canonical_username(std::string_view name) { return lower(name); }

HashCost HashCost::owasp() { return {5, std::size_t(7) * 1024 * 1024}; }
HashCost HashCost::interactive() { return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE}; }
HashCost HashCost::minimal() { return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN}; }

std::string hash_password(std::string_view password, const HashCost& cost) {
    init_sodium();
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.ops, cost.mem_bytes,
                              crypto_pwhash_ALG_ARGON2ID13) != 0)
        throw std::runtime_error("password hashing ran out of memory");
    return out;
}

bool verify_password(std::string_view password, const std::string& stored) {
    init_sodium();
    if (stored.size() >= crypto_pwhash_STRBYTES) return false;
    return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

const std::string& dummy_hash(const HashCost& cost) {
    // One hash per cost, made once (several threads ask). Made outside the
    // lock: the accounts thread never waits for a hash another thread makes.
    static std::mutex m;
    static std::map<std::pair<unsigned long long, std::size_t>, std::string> made;
    const auto key = std::make_pair(cost.ops, cost.mem_bytes);
    {
        std::lock_guard lock(m);
        if (auto it = made.find(key); it != made.end()) return it->second;
    }
    std::string h = hash_password("echecs-dummy-password", cost);
    std::lock_guard lock(m);
    return made.try_emplace(key, std::move(h)).first->second;
}

void verify_dummy(std::string_view password, const HashCost& cost) {
    // Verifying against the dummy costs a real check.
    (void)verify_password(password, dummy_hash(cost));
}

bool needs_rehash(const std::string& stored, const HashCost& cost) {
    init_sodium();
    if (stored.size() >= crypto_pwhash_STRBYTES) return false;
    return crypto_pwhash_str_needs_rehash(stored.c_str(), cost.ops, cost.mem_bytes) == 1;
}

std::string random_id() { return random_base64url<16>(); }

std::string keyed_mac(std::string_view key_material, std::string_view message) {
    init_sodium();
    unsigned char key[32], mac[32];
    static constexpr std::string_view PURPOSE = "echecs device cookie v1";
    crypto_generichash_state st;
    crypto_generichash_init(&st, nullptr, 0, sizeof key);
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(PURPOSE.data()), PURPOSE.size());
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(key_material.data()), key_material.size());
    crypto_generichash_final(&st, key, sizeof key);
    crypto_generichash(mac, sizeof mac, reinterpret_cast<const unsigned char*>(message.data()), message.size(), key,
                       sizeof key);
    char out[sodium_base64_ENCODED_LEN(sizeof mac, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(out, sizeof out, mac, sizeof mac, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(key, sizeof key);
    return out;
}

std::string new_secret() { return random_base64url<32>(); }

std::string secret_hash(std::string_view secret) {
    init_sodium();
    unsigned char h[32];
    crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), nullptr, 0);
    char hex[2 * sizeof h + 1];
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    return hex;
}

}  // namespace echecs::server::accounts

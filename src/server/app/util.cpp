#include "server/app/util.h"

#include <random>

#include "server/accounts/credentials.h"

namespace echecs::server {

namespace {
std::mt19937_64& rng() {
    thread_local std::mt19937_64 gen = [] {
        std::random_device rd;
        std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
        return std::mt19937_64(seq);
    }();
    return gen;
}
}  // namespace

std::string random_id(int n) {
    static constexpr char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::uniform_int_distribution<int> d(0, 61);
    std::string s;
    s.reserve(n);
    for (int i = 0; i < n; ++i) s += ALPHABET[d(rng())];
    return s;
}

std::string random_token() {
    // Secrets come straight from the system's random source.
    static constexpr char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    thread_local std::random_device rd;
    std::uniform_int_distribution<int> d(0, 61);
    std::string s;
    for (int i = 0; i < 24; ++i) s += ALPHABET[d(rd)];
    return s;
}

std::string token_key(const std::string& token) { return token.empty() ? "" : accounts::secret_hash(token); }

bool valid_token(const std::string& t) {
    if (t.size() < 16 || t.size() > 64) return false;
    for (char c : t)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    return true;
}

}  // namespace echecs::server

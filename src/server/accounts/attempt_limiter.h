// Counts attempts per key (a client address, an account name) in a sliding
// window: at most `max` in any `window_ms`. Memory is bounded: at most
// `max_keys` keys are tracked; past that the stalest half is forgotten.
// Not thread-safe (the accounts worker alone uses it).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

namespace echecs::server::accounts {

class AttemptLimiter {
public:
    AttemptLimiter(int max, std::int64_t window_ms, std::size_t max_keys = 100'000)
        : max_(max), window_(window_ms), max_keys_(max_keys) {}

    // nullopt when another attempt is allowed now, else the milliseconds to
    // wait until one is.
    std::optional<std::int64_t> blocked(const std::string& key, std::int64_t now);
    void add(const std::string& key, std::int64_t now);
    void clear(const std::string& key) { keys_.erase(key); }
    std::size_t size() const { return keys_.size(); }

private:
    void prune(std::deque<std::int64_t>& times, std::int64_t now) const;
    void evict(std::int64_t now);

    int max_;
    std::int64_t window_;
    std::size_t max_keys_;
    std::unordered_map<std::string, std::deque<std::int64_t>> keys_;
};

}  // namespace echecs::server::accounts

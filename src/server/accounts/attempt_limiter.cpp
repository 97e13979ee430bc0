#include "server/accounts/attempt_limiter.h"

#include <algorithm>

namespace echecs::server::accounts {

void AttemptLimiter::prune(std::deque<std::int64_t>& times, std::int64_t now) const {
    while (!times.empty() && times.front() <= now - window_) times.pop_front();
}

std::optional<std::int64_t> AttemptLimiter::blocked(const std::string& key, std::int64_t now) {
    auto it = keys_.find(key);
    if (it == keys_.end()) return std::nullopt;
    prune(it->second, now);
    if (int(it->second.size()) < max_) return std::nullopt;
    return std::max<std::int64_t>(1, it->second.front() + window_ - now);
}

void AttemptLimiter::add(const std::string& key, std::int64_t now) {
    if (keys_.size() >= max_keys_ && !keys_.count(key)) evict(now);
    auto& times = keys_[key];
    prune(times, now);
    times.push_back(now);
    // Only the last `max` attempts matter.
    while (int(times.size()) > max_) times.pop_front();
}

void AttemptLimiter::evict(std::int64_t now) {
    // Forget the keys whose attempts have all left the window; if none have,
    // the one with the oldest last attempt (an attacker filling the table
    // with keys can only make it forget its own oldest ones first).
    for (auto it = keys_.begin(); it != keys_.end();) {
        prune(it->second, now);
        it = it->second.empty() ? keys_.erase(it) : std::next(it);
    }
    if (keys_.size() < max_keys_) return;
    auto oldest = std::min_element(keys_.begin(), keys_.end(),
                                   [](const auto& a, const auto& b) { return a.second.back() < b.second.back(); });
    keys_.erase(oldest);
}

}  // namespace echecs::server::accounts

#include "server/accounts/attempt_limiter.h"

#include <algorithm>
#include <vector>

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
    // Forget the keys whose attempts have all left the window; if that is
    // not enough, the stalest half (by last attempt), so that a flood of
    // distinct keys costs amortised constant time per attempt and can only
    // make the limiter forget the flood's own oldest keys first.
    for (auto it = keys_.begin(); it != keys_.end();) {
        prune(it->second, now);
        it = it->second.empty() ? keys_.erase(it) : std::next(it);
    }
    if (keys_.size() < max_keys_) return;
    std::vector<std::pair<std::int64_t, std::string>> last;
    last.reserve(keys_.size());
    for (const auto& [key, times] : keys_) last.emplace_back(times.back(), key);
    const auto middle = last.begin() + std::ptrdiff_t(last.size() / 2);
    std::nth_element(last.begin(), middle, last.end());
    for (auto it = last.begin(); it != middle; ++it) keys_.erase(it->second);
}

}  // namespace echecs::server::accounts

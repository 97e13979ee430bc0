#include "server/net/limits.h"

#include <algorithm>

#include "server/app/options.h"

namespace echecs::server {

bool TokenBucket::take(std::int64_t now) {
    if (now > last_) {
        tokens_ = std::min(burst_, tokens_ + double(now - last_) / 1000.0 * rate_);
        last_ = now;
    }
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
}

bool TokenBucket::full(std::int64_t now) const {
    return std::min(burst_, tokens_ + double(std::max<std::int64_t>(0, now - last_)) / 1000.0 * rate_) >= burst_;
}

ClientLimits::Entry& ClientLimits::entry(const std::string& ip) { return by_ip_[ip]; }

bool ClientLimits::open_connection(const std::string& ip, int total_limit) {
    std::lock_guard lock(mutex_);
    Entry& e = entry(ip);
    if (opt_.max_connections_per_ip > 0 && e.connections >= opt_.max_connections_per_ip) return false;
    // At the cap, an idle connection makes room. The count goes over the cap
    // until the closed ones are released (their descriptors are closed at
    // once): by at most EVICTION_SLACK, within the descriptors' reserve.
    constexpr int EVICTION_SLACK = 32;
    if (total_limit > 0 && total_ >= total_limit && (total_ >= total_limit + EVICTION_SLACK || !evict_one()))
        return false;
    ++e.connections;
    ++total_;
    return true;
}

void ClientLimits::close_connection(const std::string& ip) {
    std::lock_guard lock(mutex_);
    auto it = by_ip_.find(ip);
    if (it == by_ip_.end() || it->second.connections == 0) return;
    --it->second.connections;
    --total_;
}

bool ClientLimits::evict_one() {
    Entry* victim = nullptr;
    for (auto& [ip, e] : by_ip_)
        if (!e.idle.empty() && (!victim || e.idle.size() > victim->idle.size())) victim = &e;
    if (!victim) return false;
    ConnectionSlot* slot = victim->idle.front();
    victim->idle.pop_front();
    slot->idle_at_.reset();
    if (slot->close_) slot->close_();
    ++evicted_;
    return true;
}

void ClientLimits::set_idle(ConnectionSlot& slot, bool idle) {
    std::lock_guard lock(mutex_);
    if (slot.idle_at_.has_value() == idle) return;
    auto it = by_ip_.find(slot.ip());
    if (it == by_ip_.end()) return;
    std::list<ConnectionSlot*>& list = it->second.idle;
    if (idle) {
        slot.idle_at_ = list.insert(list.end(), &slot);
    } else {
        list.erase(*slot.idle_at_);
        slot.idle_at_.reset();
    }
}

std::uint64_t ClientLimits::evicted() const {
    std::lock_guard lock(mutex_);
    return evicted_;
}

int ClientLimits::connections() const {
    std::lock_guard lock(mutex_);
    return total_;
}

bool ClientLimits::take_http(const std::string& ip, std::int64_t now) {
    std::lock_guard lock(mutex_);
    Entry& e = entry(ip);
    if (!e.http) e.http = std::make_unique<TokenBucket>(opt_.http_rate_per_second, opt_.http_burst, now);
    return e.http->take(now);
}

bool ClientLimits::take_eval(const std::string& ip, std::int64_t now) {
    std::lock_guard lock(mutex_);
    Entry& e = entry(ip);
    if (!e.eval) e.eval = std::make_unique<TokenBucket>(opt_.eval_rate_per_second, opt_.eval_burst, now);
    return e.eval->take(now);
}

int ClientLimits::engine_games(const std::string& ip) const {
    std::lock_guard lock(mutex_);
    auto it = by_ip_.find(ip);
    return it == by_ip_.end() ? 0 : it->second.engine_games;
}

void ClientLimits::add_engine_game(const std::string& ip, int delta) {
    std::lock_guard lock(mutex_);
    Entry& e = entry(ip);
    e.engine_games = std::max(0, e.engine_games + delta);
}

int ClientLimits::seeks(const std::string& ip) const {
    std::lock_guard lock(mutex_);
    auto it = by_ip_.find(ip);
    return it == by_ip_.end() ? 0 : it->second.seeks;
}

void ClientLimits::add_seek(const std::string& ip, int delta) {
    std::lock_guard lock(mutex_);
    Entry& e = entry(ip);
    e.seeks = std::max(0, e.seeks + delta);
}

void ClientLimits::sweep(std::int64_t now) {
    std::lock_guard lock(mutex_);
    for (auto it = by_ip_.begin(); it != by_ip_.end();) {
        const Entry& e = it->second;
        const bool idle = e.connections == 0 && e.engine_games == 0 && e.seeks == 0 && (!e.http || e.http->full(now)) &&
                          (!e.eval || e.eval->full(now));
        it = idle ? by_ip_.erase(it) : std::next(it);
    }
}

std::size_t ClientLimits::size() const {
    std::lock_guard lock(mutex_);
    return by_ip_.size();
}

}  // namespace echecs::server

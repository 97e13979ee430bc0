// The messages between the nodes of a cluster (docs/CLUSTER.md): Redis
// publish/subscribe through hiredis. One thread subscribes and hands each
// message to the I/O thread; one thread publishes what the I/O thread
// queued, pipelined, so that the I/O thread never waits on the network.
// Delivery is at most once, as Redis's: a message published while a node is
// away is lost to it. Nothing a player earns travels only here: moves,
// results and leases are in PostgreSQL first.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace echecs::server {

class Bus {
public:
    using Post = std::function<void(std::function<void()>)>;
    // on_message(channel, payload) and on_link(up) run on the I/O thread (via post).
    using OnMessage = std::function<void(const std::string&, std::string)>;
    // `address`: host:port. Connects in the background, and again after a loss.
    Bus(const std::string& address, std::vector<std::string> channels, Post post, OnMessage on_message,
        std::function<void(bool)> on_link);
    ~Bus();
    Bus(const Bus&) = delete;
    Bus& operator=(const Bus&) = delete;

    // Queued; sent in order by the publishing thread. Past MAX_QUEUED
    // waiting (Redis is down or slow), dropped and counted.
    void publish(std::string channel, std::string payload);
    static constexpr std::size_t MAX_QUEUED = 100'000;

    std::uint64_t published() const { return published_.load(); }
    std::uint64_t received() const { return received_.load(); }
    std::uint64_t dropped() const { return dropped_.load(); }

private:
    void subscribe_loop();
    void publish_loop();

    std::string host_;
    int port_ = 6379;
    std::vector<std::string> channels_;
    Post post_;
    OnMessage on_message_;
    std::function<void(bool)> on_link_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::pair<std::string, std::string>> queue_;
    bool stopping_ = false;
    int sub_fd_ = -1;  // the subscriber's socket, shut down to wake it at exit (under mutex_)
    std::atomic<std::uint64_t> published_{0}, received_{0}, dropped_{0};
    std::thread subscriber_, publisher_;
};

}  // namespace echecs::server

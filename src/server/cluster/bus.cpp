#include "server/cluster/bus.h"

#include <hiredis/hiredis.h>
#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <stdexcept>

namespace echecs::server {

namespace {

using Context = std::unique_ptr<redisContext, decltype(&redisFree)>;
using Reply = std::unique_ptr<redisReply, decltype(&freeReplyObject)>;

Context connect(const std::string& host, int port) {
    const timeval tv{2, 0};
    Context c(redisConnectWithTimeout(host.c_str(), port, tv), &redisFree);
    if (!c || c->err) return Context(nullptr, &redisFree);
    redisSetTimeout(c.get(), timeval{0, 0});  // the connect's timeout, not the reads'
    return c;
}

}  // namespace

Bus::Bus(const std::string& address, std::vector<std::string> channels, Post post, OnMessage on_message,
         std::function<void(bool)> on_link)
    : channels_(std::move(channels)),
      post_(std::move(post)),
      on_message_(std::move(on_message)),
      on_link_(std::move(on_link)) {
    const auto colon = address.rfind(':');
    host_ = address.substr(0, colon);
    if (colon != std::string::npos) {
        try {
            port_ = std::stoi(address.substr(colon + 1));
        } catch (const std::exception&) {
            throw std::runtime_error("redis: " + address + " is not host:port");
        }
    }
    if (host_.empty() || port_ <= 0 || port_ > 65535)
        throw std::runtime_error("redis: " + address + " is not host:port");
    subscriber_ = std::thread([this] { subscribe_loop(); });
    publisher_ = std::thread([this] { publish_loop(); });
}

Bus::~Bus() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        if (sub_fd_ >= 0) ::shutdown(sub_fd_, SHUT_RDWR);  // wakes the blocked read
    }
    cv_.notify_all();
    subscriber_.join();
    publisher_.join();
}

void Bus::publish(std::string channel, std::string payload) {
    {
        std::lock_guard lock(mutex_);
        if (queue_.size() >= MAX_QUEUED) {
            dropped_++;
            return;
        }
        queue_.emplace_back(std::move(channel), std::move(payload));
    }
    cv_.notify_all();
}

void Bus::subscribe_loop() {
    std::chrono::milliseconds backoff(100);
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            if (stopping_) return;
        }
        Context c = connect(host_, port_);
        if (c) {
            std::vector<const char*> argv{"SUBSCRIBE"};
            for (const std::string& ch : channels_) argv.push_back(ch.c_str());
            Reply r(static_cast<redisReply*>(redisCommandArgv(c.get(), int(argv.size()), argv.data(), nullptr)),
                    &freeReplyObject);
            bool ok = r != nullptr;
            // One confirmation per channel; the first came as r.
            for (std::size_t i = 1; ok && i < channels_.size(); ++i) {
                void* more = nullptr;
                ok = redisGetReply(c.get(), &more) == REDIS_OK;
                if (more) freeReplyObject(more);
            }
            if (ok) {
                {
                    std::lock_guard lock(mutex_);
                    if (stopping_) return;
                    sub_fd_ = c->fd;
                }
                backoff = std::chrono::milliseconds(100);
                post_([this] { on_link_(true); });
                for (;;) {
                    void* raw = nullptr;
                    if (redisGetReply(c.get(), &raw) != REDIS_OK) break;
                    Reply m(static_cast<redisReply*>(raw), &freeReplyObject);
                    // ["message", channel, payload]
                    if (m && m->type == REDIS_REPLY_ARRAY && m->elements == 3 &&
                        m->element[2]->type == REDIS_REPLY_STRING) {
                        received_++;
                        post_([this, ch = std::string(m->element[1]->str, m->element[1]->len),
                               text = std::string(m->element[2]->str, m->element[2]->len)]() mutable {
                            on_message_(ch, std::move(text));
                        });
                    }
                }
                {
                    std::lock_guard lock(mutex_);
                    sub_fd_ = -1;
                    if (stopping_) return;
                }
                post_([this] { on_link_(false); });
            }
        }
        std::unique_lock lock(mutex_);
        cv_.wait_for(lock, backoff, [this] { return stopping_; });
        backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
    }
}

void Bus::publish_loop() {
    Context c(nullptr, &redisFree);
    for (;;) {
        std::deque<std::pair<std::string, std::string>> batch;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            batch.swap(queue_);
        }
        if (!c) c = connect(host_, port_);
        if (!c) {
            dropped_ += batch.size();
            std::unique_lock lock(mutex_);
            cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; });
            continue;
        }
        // Pipelined: every command written, then every reply read.
        for (const auto& [ch, text] : batch)
            redisAppendCommand(c.get(), "PUBLISH %b %b", ch.data(), ch.size(), text.data(), text.size());
        std::size_t done = 0;
        for (; done < batch.size(); ++done) {
            void* raw = nullptr;
            if (redisGetReply(c.get(), &raw) != REDIS_OK) break;
            freeReplyObject(raw);
        }
        published_ += done;
        if (done < batch.size()) {
            dropped_ += batch.size() - done;
            c.reset();
        }
    }
}

}  // namespace echecs::server

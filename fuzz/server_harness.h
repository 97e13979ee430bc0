// The whole server without sockets, for the fuzz targets: a Hub on a fresh
// SQLite file, driven through its router (HTTP) or its message entry point
// (WebSocket), with every answer checked to be valid UTF-8 JSON.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "server/net/peer.h"
#include "server/play/hub.h"
#include "server/protocol/text.h"

namespace echecs::fuzz {

inline void check(bool cond, const char* what) {
    if (!cond) {
        std::fprintf(stderr, "invariant broken: %s\n", what);
        std::abort();
    }
}

// Every text the server sends must be valid UTF-8 and a JSON object.
inline void check_message(const std::string& text) {
    check(server::valid_utf8(text), "the server sent invalid UTF-8");
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    check(!j.is_discarded() && j.is_object(), "the server sent something that is not a JSON object");
}

// The records of an input, split at `sep`, at most `max` of them, each with
// "$G" replaced by `game` (the id of the target's live game).
template <class F>
void for_each_record(const std::uint8_t* data, std::size_t size, char sep, int max, const std::string& game, F f) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::size_t start = 0;
    int records = 0;
    while (start < input.size() && records++ < max) {
        std::size_t end = input.find(sep, start);
        if (end == std::string::npos) end = input.size();
        std::string text = input.substr(start, end - start);
        start = end + 1;
        for (std::size_t at; (at = text.find("$G")) != std::string::npos;) text.replace(at, 2, game);
        f(std::move(text));
    }
}

class Peer : public server::Peer {
public:
    Peer(std::uint64_t id, std::string ip) : server::Peer(id, std::move(ip), 1e9, 1e9, 0) {}
    void send(std::shared_ptr<const std::string> text) override {
        check_message(*text);
        ++received;
    }
    void close_later(const char*) override {}
    using server::Peer::send;
    int received = 0;
};

class Harness {
public:
    // `configure` may change the options before the hub starts (the cluster target).
    explicit Harness(const std::function<void(server::ServerOptions&)>& configure = nullptr) {
        dir_ = std::filesystem::temp_directory_path() / ("echecs-fuzz-" + std::to_string(getpid()));
        std::filesystem::create_directories(dir_);
        opt_.db = (dir_ / "fuzz.db").string();
        opt_.web_root = (dir_ / "web").string();
        opt_.log = false;
        // Fast engine answers, no rate limit in the way of coverage.
        opt_.eval_min_ms = 1;
        opt_.eval_max_ms = 2;
        opt_.http_rate_per_second = opt_.http_burst = 1e9;
        opt_.eval_rate_per_second = opt_.eval_burst = 1e9;
        opt_.max_engine_games_per_ip = 1;
        opt_.first_move_ms = 1'000'000;
        opt_.fast_password_hash = true;  // sign-ups and log-ins at libsodium's minimum Argon2id cost
        if (configure) configure(opt_);
        hub_ = std::make_unique<server::Hub>(ioc_, opt_, server::open_storage(opt_.db, false, false));
        hub_->start();
    }
    ~Harness() {
        hub_.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }

    server::Hub& hub() { return *hub_; }
    // Runs what is ready (and what storage completes meanwhile) until
    // `busy()` says nothing is in flight, within a bounded time.
    template <class Busy>
    void settle(Busy busy, std::chrono::milliseconds limit = std::chrono::milliseconds(200)) {
        const auto end = std::chrono::steady_clock::now() + limit;
        for (;;) {
            ioc_.restart();
            const std::size_t ran = ioc_.poll();
            if ((ran == 0 && !busy()) || std::chrono::steady_clock::now() >= end) return;
            if (ran == 0) std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }

    // Runs the I/O context until `done` or a bounded time has passed.
    template <class Done>
    void run_until(Done done, std::chrono::milliseconds limit = std::chrono::milliseconds(2000)) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (!done() && std::chrono::steady_clock::now() < end) {
            ioc_.restart();
            if (ioc_.poll() == 0) std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }

    // One HTTP request through the router; the answer, checked.
    server::HttpResponse http(const std::string& method, const std::string& target, const std::string& body,
                              const std::string& token, const std::string& ip = "10.0.0.1") {
        server::HttpRequest r;
        r.method = method;
        r.target = target;
        r.body = body;
        r.ip = ip;
        r.headers["content-type"] = "application/json";
        if (!token.empty()) r.headers["x-echecs-token"] = token;
        return dispatch(std::move(r));
    }

    // A game between `white` and `black`: a seek (`seek_body`) and its
    // acceptance over HTTP; its id, or "" when either was refused.
    std::string start_game(const std::string& seek_body, const std::string& white, const std::string& black) {
        auto seek = nlohmann::json::parse(http("POST", "/api/seeks", seek_body, white).body, nullptr, false);
        if (!seek.is_object() || !seek.contains("seek")) return "";
        const std::string id = seek["seek"]["id"];
        auto acc =
            nlohmann::json::parse(http("POST", "/api/seeks/" + id + "/accept", "{}", black).body, nullptr, false);
        if (!acc.is_object() || !acc.contains("game")) return "";
        return acc["game"];
    }

    server::HttpResponse dispatch(server::HttpRequest r) {
        auto answer = std::make_shared<std::optional<server::HttpResponse>>();
        auto ctx = std::make_shared<server::HttpContext>(
            std::move(r), [answer](server::HttpResponse res) { *answer = std::move(res); });
        hub_->router().dispatch(ctx);
        ctx.reset();
        run_until([&] { return answer->has_value(); });
        if (!answer->has_value()) return {};  // still running: the engine or storage will answer into nothing
        const server::HttpResponse& res = **answer;
        check(res.status >= 200 && res.status < 600, "HTTP status out of range");
        check(server::valid_utf8(res.body) || res.content_type.find("json") == std::string::npos,
              "a JSON answer with invalid UTF-8");
        if (res.content_type == "application/json") check_message(res.body);
        return res;
    }

private:
    std::filesystem::path dir_;
    boost::asio::io_context ioc_;
    server::ServerOptions opt_;
    std::unique_ptr<server::Hub> hub_;
};

}  // namespace echecs::fuzz

// The bounded attacks of the attack suite (attack_test.cpp, in the test
// command) and of the attack benchmark (bench/server/attack.cpp, with larger
// numbers): a bystander game that keeps moving while one attack runs, and
// the attacks themselves. Loopback only; every loop bounded in count and time.
// (Over 400 lines: one small class per kind of hostile client.)
#pragma once

#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "client.h"

namespace echecs::attack {

using namespace echecs::test;
using Clock = std::chrono::steady_clock;

inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::size_t k = std::min(v.size() - 1, std::size_t(p / 100.0 * double(v.size())));
    std::nth_element(v.begin(), v.begin() + long(k), v.end());
    return v[k];
}

inline std::string token_for(int i) {
    std::string t = "attackToken" + std::to_string(i);
    while (t.size() < 20) t += 'x';
    return t;
}

// Two players who move as fast as their moves are acknowledged, game after
// game; every round trip (move sent -> the state with it received) is kept.
class Bystander {
public:
    // `pause`: the players' thinking time between moves (a game lasts a while).
    explicit Bystander(std::uint16_t port, std::chrono::milliseconds pause = 10ms, std::string variant = "chess")
        : port_(port), pause_(pause), variant_(std::move(variant)) {}
    ~Bystander() { stop(); }

    void start() {
        new_game();
        thread_ = std::thread([this] { loop(); });
    }
    void stop() {
        stopping_ = true;
        if (thread_.joinable()) thread_.join();
    }
    // Round trips (ms) since the last call.
    std::vector<double> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(rtt_, {});
    }
    int moves() const { return moves_; }
    int lost() const { return lost_; }
    std::string error() const {
        std::lock_guard lock(mutex_);
        return error_;
    }

private:
    void new_game() {
        const std::string a = "bystanderWhite" + std::to_string(games_), b = "bystanderBlack" + std::to_string(games_);
        ++games_;
        json seek =
            post_json(port_, "/api/seeks",
                      {{"variant", variant_}, {"time", {{"kind", "unlimited"}}}, {"color", "white"}, {"private", true}},
                      a + "tokenpad");
        json acc = post_json(port_, "/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", json::object(),
                             b + "tokenpad");
        game_ = acc["game"];
        white_ = std::make_unique<WsClient>(port_, a + "tokenpad");
        black_ = std::make_unique<WsClient>(port_, b + "tokenpad");
        for (WsClient* c : {white_.get(), black_.get()}) c->send({{"type", "join"}, {"game", game_}});
        state_ = white_->state(game_, 0);
        black_->state(game_, 0);
    }

    void loop() {
        std::mt19937 rng(1);
        while (!stopping_) {
            // Games of at most 80 plies: a state (it carries the moves) stays a few KiB.
            if (state_["status"] != "live" || state_["legal_moves"].empty() || state_["ply"] >= 80) {
                try {
                    new_game();  // may fail while the server refuses connections: try again
                } catch (const std::exception&) {
                    std::this_thread::sleep_for(100ms);
                }
                continue;
            }
            std::this_thread::sleep_for(pause_);
            try {
                const int ply = state_["ply"];
                const json& legal = state_["legal_moves"];
                const std::string move = legal[rng() % legal.size()];
                WsClient& mover = ply % 2 ? *black_ : *white_;
                WsClient& other = ply % 2 ? *white_ : *black_;
                const auto t0 = Clock::now();
                mover.send({{"type", "move"}, {"game", game_}, {"move", move}, {"ply", ply}});
                json ack = mover.state(game_, ply + 1, 10s);
                const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
                other.state(game_, ply + 1, 10s);
                {
                    std::lock_guard lock(mutex_);
                    rtt_.push_back(ms);
                }
                ++moves_;
                state_ = std::move(ack);
            } catch (const std::exception& e) {
                ++lost_;  // a move never acknowledged: what the suite must never see
                std::lock_guard lock(mutex_);
                error_ = e.what();
                state_ = json::object();  // a new game next
            }
        }
    }

    std::uint16_t port_;
    std::chrono::milliseconds pause_;
    std::string variant_;
    std::string game_;
    int games_ = 0;
    std::unique_ptr<WsClient> white_, black_;
    json state_;
    std::atomic<bool> stopping_{false};
    std::atomic<int> moves_{0}, lost_{0};
    mutable std::mutex mutex_;
    std::vector<double> rtt_;
    std::string error_;
    std::thread thread_;
};

// Many WebSocket clients on one thread: they connect, send their first
// messages, then read everything (readers) or nothing at all (silent: a
// frozen tab; their receive buffers are made small so the server's sends
// back up at once).
class Crowd {
public:
    enum Mode { Read, Silent };
    // `count_types`: count the messages received by type too (each is parsed).
    Crowd(std::uint16_t port, int n, Mode mode, std::function<std::vector<json>(int)> first, bool count_types = false)
        : mode_(mode), first_(std::move(first)), count_types_(count_types) {
        for (int i = 0; i < n; ++i) {
            auto c = std::make_shared<Client>(ioc_);
            clients_.push_back(c);
            connect(c, port, i);
        }
        thread_ = std::thread([this] {
            while (!stopping_) ioc_.run_for(50ms);
        });
    }
    ~Crowd() { close(); }
    void close() {
        if (stopping_.exchange(true)) return;
        thread_.join();
        for (auto& c : clients_) {
            beast::error_code ec;
            beast::get_lowest_layer(c->ws).socket().close(ec);
        }
        ioc_.restart();
        ioc_.poll();
    }
    std::uint64_t received() const { return received_; }
    // The messages received of one type (with count_types).
    std::uint64_t received(const std::string& type) const {
        std::lock_guard lock(types_mutex_);
        auto it = types_.find(type);
        return it == types_.end() ? 0 : it->second;
    }
    std::map<std::string, std::uint64_t> received_by_type() const {
        std::lock_guard lock(types_mutex_);
        return types_;
    }
    int open() const { return open_; }
    int refused() const { return refused_; }
    int dropped() const { return dropped_; }  // closed by the server while reading

    // Sends one more message from each client (from any thread).
    void each_send(const std::function<json(int)>& msg) {
        for (std::size_t i = 0; i < clients_.size(); ++i) {
            auto c = clients_[i];
            auto text = std::make_shared<std::string>(msg(int(i)).dump());
            asio::post(ioc_, [this, c, text] { queue(c, text); });
        }
    }

private:
    struct Client {
        explicit Client(asio::io_context& ioc) : ws(ioc) {}
        websocket::stream<beast::tcp_stream> ws;
        beast::flat_buffer buf;
        std::deque<std::shared_ptr<std::string>> out;
        bool ready = false;
    };
    using ClientPtr = std::shared_ptr<Client>;

    void connect(const ClientPtr& c, std::uint16_t port, int i) {
        auto& sock = beast::get_lowest_layer(c->ws).socket();
        sock.open(tcp::v4());
        if (mode_ == Silent) sock.set_option(asio::socket_base::receive_buffer_size(4096));
        beast::get_lowest_layer(c->ws).async_connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), [this, c, port, i](beast::error_code ec) {
                if (ec) return void(++refused_);
                c->ws.read_message_max(64 * 1024 * 1024);
                c->ws.async_handshake("127.0.0.1:" + std::to_string(port), "/ws", [this, c, i](beast::error_code ec) {
                    if (ec) return void(++refused_);
                    ++open_;
                    c->ready = true;
                    for (const json& m : first_ ? first_(i) : std::vector<json>{})
                        queue(c, std::make_shared<std::string>(m.dump()));
                    if (mode_ == Read) read(c);
                });
            });
    }
    void queue(const ClientPtr& c, std::shared_ptr<std::string> text) {
        if (!c->ready) return;
        c->out.push_back(std::move(text));
        if (c->out.size() == 1) write(c);
    }
    void write(const ClientPtr& c) {
        c->ws.async_write(asio::buffer(*c->out.front()), [this, c](beast::error_code ec, std::size_t) {
            if (ec) return;
            c->out.pop_front();
            if (!c->out.empty()) write(c);
        });
    }
    void read(const ClientPtr& c) {
        c->ws.async_read(c->buf, [this, c](beast::error_code ec, std::size_t) {
            if (ec) {
                if (!stopping_) ++dropped_;
                return;
            }
            if (count_types_) {
                std::lock_guard lock(types_mutex_);
                ++types_[type_of(c->buf)];
            }
            ++received_;
            c->buf.consume(c->buf.size());
            read(c);
        });
    }

    static std::string type_of(const beast::flat_buffer& buf) {
        const json j = json::parse(beast::buffers_to_string(buf.data()), nullptr, false);
        return j.is_object() && j.contains("type") && j["type"].is_string() ? j["type"].get<std::string>() : "?";
    }

    asio::io_context ioc_;
    Mode mode_;
    std::function<std::vector<json>(int)> first_;
    bool count_types_;
    std::vector<ClientPtr> clients_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::uint64_t> received_{0};
    std::atomic<int> open_{0}, refused_{0}, dropped_{0};
    mutable std::mutex types_mutex_;
    std::map<std::string, std::uint64_t> types_;
    std::thread thread_;
};

// Runs `fn` repeatedly on `threads` threads for `seconds` (or `count` calls in
// all); returns how many calls were made.
inline int flood(int threads, double seconds, int count, const std::function<void(int)>& fn) {
    std::atomic<int> made{0};
    const auto end = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
            while (Clock::now() < end) {
                const int i = made++;
                if (i >= count) return;
                try {
                    fn(t);
                } catch (const std::exception&) {
                    // refused, closed, timed out: the attacker's problem
                }
            }
        });
    for (auto& t : ts) t.join();
    return std::min(made.load(), count);
}

// TCP connections that send nothing, or half a request head, and wait.
class HalfOpen {
public:
    // `source`: the address they come from (any of 127/8 on loopback).
    HalfOpen(std::uint16_t port, int n, const std::string& source = "127.0.0.1") {
        for (int i = 0; i < n; ++i) {
            auto s = std::make_unique<tcp::socket>(ioc_);
            beast::error_code ec;
            s->open(tcp::v4(), ec);
            if (!ec) s->bind(tcp::endpoint(asio::ip::make_address(source), 0), ec);
            if (!ec) s->connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
            if (ec) {
                ++failed_;
                continue;
            }
            if (i % 2) asio::write(*s, asio::buffer(std::string("GET /api/lobby HTTP/1.1\r\nHost: x\r\n")), ec);
            sockets_.push_back(std::move(s));
        }
    }
    int opened() const { return int(sockets_.size()); }
    int failed() const { return failed_; }

private:
    asio::io_context ioc_;
    std::vector<std::unique_ptr<tcp::socket>> sockets_;
    int failed_ = 0;
};

// An evaluation request (any position) from this process's address.
inline int post_eval(std::uint16_t port, int movetime_ms) {
    return http_request(port, http::verb::post, "/api/analysis/eval",
                        json{{"variant", "chess"}, {"moves", {"e2e4"}}, {"movetime_ms", movetime_ms}}.dump())
        .status;
}

// A human against the computer: the time from the human's move to the
// computer's answer, for each of `moves` moves.
inline std::vector<double> play_computer(std::uint16_t port, int level, int moves) {
    const std::string t = "computerPlayer0000000";
    json g = post_json(port, "/api/computer", {{"variant", "chess"}, {"level", level}, {"color", "white"}}, t);
    const std::string id = g["game"];
    WsClient w(port, t);
    w.send({{"type", "join"}, {"game", id}});
    json s = w.state(id, 0);
    std::vector<double> out;
    for (int i = 0; i < moves && s["status"] == "live"; ++i) {
        const int ply = s["ply"];
        const auto t0 = Clock::now();
        w.send({{"type", "move"}, {"game", id}, {"move", s["legal_moves"][0]}, {"ply", ply}});
        s = w.state(id, ply + 2, 30s);
        out.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return out;
}

}  // namespace echecs::attack

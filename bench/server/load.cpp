// Load benchmark of the game server (not a test): N scripted client pairs play
// concurrent games over loopback WebSockets; reports games, moves per second
// and the move round trip (send -> the mover receives the state with its
// move), p50/p99/max.
//
//   server_load [--pairs 1000] [--seconds 20] [--think-ms 1000] [--max-ply 80]
//               [--variant chess] [--db PATH] [--port P]
//               [--lobby-viewers 0] [--public 0|1] [--timeline 0|1]
//
// Without --port the program starts the server itself in a child process
// (`server_load --serve ...`, bench_common.h: the server with the limits per
// address opened, since every client comes from 127.0.0.1) on a fresh
// SQLite database, so that server and clients each have their own file
// descriptors. Each pair plays random legal moves (fixed seed), thinking
// --think-ms between receiving a state and moving; a game that reaches
// --max-ply is resigned, and every finished game is followed by a rematch
// (offer + accept), so N games stay live. --public 1 makes the games public
// (listed in the lobby); --lobby-viewers N adds N sockets subscribed to the
// lobby, reading every snapshot and delta. --timeline 1 also prints, for each
// second of the measurement, its moves and their slowest round trip: a tail
// made of one stall reads differently from one spread over the run.
// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench_common.h"

extern char** environ;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Options {
    int pairs = 1000;
    double seconds = 20;
    int think_ms = 1000;
    int max_ply = 80;
    std::string variant = "chess";
    std::string db;
    int port = 0;
    int lobby_viewers = 0;
    bool is_public = false;
    bool timeline = false;
};

struct Stats {
    std::vector<double> rtt_ms;
    std::vector<double> rtt_at_s;  // when each round trip ended, from the start of the measurement
    Clock::time_point t0;
    long moves = 0;
    long games_finished = 0;
    long errors = 0;
    bool measuring = false;
    long lobby_messages = 0;  // while measuring
    long lobby_bytes = 0;
    long lobby_viewers = 0;  // subscribed
};

std::string make_token(std::mt19937_64& rng) {
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::string t;
    for (int i = 0; i < 24; ++i) t += A[rng() % 62];
    return t;
}

// One keep-alive HTTP connection for the setup requests.
class HttpClient {
public:
    HttpClient(asio::io_context& ioc, int port) : stream_(ioc) {
        stream_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), std::uint16_t(port)));
    }
    json post(const std::string& target, const json& body, const std::string& token) {
        http::request<http::string_body> req{http::verb::post, target, 11};
        req.set(http::field::host, "127.0.0.1");
        req.set("X-Echecs-Token", token);
        req.set(http::field::content_type, "application/json");
        req.keep_alive(true);
        req.body() = body.dump();
        req.prepare_payload();
        http::write(stream_, req);
        http::response<http::string_body> res;
        http::read(stream_, buf_, res);
        return json::parse(res.body());
    }

private:
    beast::tcp_stream stream_;
    beast::flat_buffer buf_;
};

class Player;

struct Pair {
    std::string game;
    std::shared_ptr<Player> white, black;  // seats of the current game
};

class Player : public std::enable_shared_from_this<Player> {
public:
    Player(asio::io_context& ioc, Stats& stats, const Options& opt, std::string token, std::uint64_t seed)
        : ws_(ioc), timer_(ioc), stats_(stats), opt_(opt), token_(std::move(token)), rng_(seed) {}

    void start(int port, std::string game, std::function<void()> ready) {
        game_ = std::move(game);
        ready_ = std::move(ready);
        auto self = shared_from_this();
        beast::get_lowest_layer(ws_).async_connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), std::uint16_t(port)), [self](beast::error_code ec) {
                if (ec) return self->fail("connect", ec);
                beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
                self->ws_.async_handshake("127.0.0.1", "/ws", [self](beast::error_code ec) {
                    if (ec) return self->fail("handshake", ec);
                    self->ws_.read_message_max(16 * 1024 * 1024);
                    self->send({{"type", "hello"}, {"token", self->token_}});
                    self->send({{"type", "join"}, {"game", self->game_}});
                    self->read();
                    if (self->ready_) self->ready_();
                });
            });
    }

private:
    void fail(const char* what, beast::error_code ec) {
        std::cerr << "server_load: " << what << ": " << ec.message() << "\n";
        stats_.errors++;
    }

    void send(const json& j) {
        queue_.push_back(std::make_shared<std::string>(j.dump()));
        if (queue_.size() == 1) write_next();
    }
    void write_next() {
        auto self = shared_from_this();
        ws_.async_write(asio::buffer(*queue_.front()), [self](beast::error_code ec, std::size_t) {
            if (ec) return self->fail("write", ec);
            self->queue_.pop_front();
            if (!self->queue_.empty()) self->write_next();
        });
    }
    void read() {
        auto self = shared_from_this();
        ws_.async_read(buf_, [self](beast::error_code ec, std::size_t) {
            if (ec) {
                if (ec != asio::error::operation_aborted) self->fail("read", ec);
                return;
            }
            // The scripted player needs no move list: skip it while parsing.
            static const json::parser_callback_t skip_moves = [](int depth, json::parse_event_t event, json& parsed) {
                return !(depth == 1 && event == json::parse_event_t::key && parsed == "moves");
            };
            json j = json::parse(beast::buffers_to_string(self->buf_.data()), skip_moves, false);
            self->buf_.consume(self->buf_.size());
            self->on_message(j);
            self->read();
        });
    }

    void on_message(const json& j) {
        const std::string type = j.value("type", "");
        if (type == "error") {
            if (stats_.errors++ < 5) std::cerr << "server_load: error message: " << j.dump() << "\n";
            return;
        }
        if (type != "state" || j["game"] != game_) return;
        int ply = j["ply"];
        if (pending_ply_ >= 0 && ply > pending_ply_) {
            double ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at_).count();
            if (stats_.measuring) {
                stats_.rtt_ms.push_back(ms);
                stats_.rtt_at_s.push_back(std::chrono::duration<double>(Clock::now() - stats_.t0).count());
                stats_.moves++;
            }
            pending_ply_ = -1;
        }
        if (j["you"].is_null()) return;
        bool mine = j["you"] == j["turn"];
        if (j["status"] == "over") {
            if (!j["rematch_game"].is_null()) {
                if (!switched_) {
                    switched_ = true;
                    if (j["you"] == "white" && stats_.measuring) stats_.games_finished++;
                    game_ = j["rematch_game"];
                    pending_ply_ = -1;
                    send({{"type", "join"}, {"game", game_}});
                }
                return;
            }
            switched_ = false;
            if (j["you"] == "white" && j["rematch_offer"].is_null()) send({{"type", "rematch_offer"}, {"game", game_}});
            if (j["you"] == "black" && j["rematch_offer"] == "white")
                send({{"type", "rematch_accept"}, {"game", game_}});
            return;
        }
        switched_ = false;
        if (!mine || pending_ply_ >= 0 || ply == scheduled_ply_) return;
        const json& legal = j["legal_moves"];
        if (legal.empty()) return;
        std::string move = legal[rng_() % legal.size()];
        scheduled_ply_ = ply;
        bool resign = ply >= opt_.max_ply;
        auto self = shared_from_this();
        auto act = [self, move, ply, resign] {
            if (resign) {
                self->send({{"type", "resign"}, {"game", self->game_}});
                return;
            }
            self->pending_ply_ = ply;
            self->sent_at_ = Clock::now();
            self->send({{"type", "move"}, {"game", self->game_}, {"move", move}, {"ply", ply}});
        };
        if (opt_.think_ms <= 0) return act();
        // Think a random time around --think-ms so that moves spread out.
        int ms = int(opt_.think_ms / 2 + rng_() % std::max(1, opt_.think_ms));
        timer_.expires_after(std::chrono::milliseconds(ms));
        timer_.async_wait([act](beast::error_code ec) {
            if (!ec) act();
        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    asio::steady_timer timer_;
    beast::flat_buffer buf_;
    std::deque<std::shared_ptr<std::string>> queue_;
    Stats& stats_;
    const Options& opt_;
    std::string token_;
    std::string game_;
    std::function<void()> ready_;
    std::mt19937_64 rng_;
    int pending_ply_ = -1;
    int scheduled_ply_ = -1;
    bool switched_ = false;
    Clock::time_point sent_at_;
};

// A socket subscribed to the lobby that reads everything it is sent.
class LobbyViewer : public std::enable_shared_from_this<LobbyViewer> {
public:
    LobbyViewer(asio::io_context& ioc, Stats& stats) : ws_(ioc), stats_(stats) {}
    void start(int port, std::function<void()> done) {
        auto self = shared_from_this();
        beast::get_lowest_layer(ws_).async_connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), std::uint16_t(port)),
            [self, port, done](beast::error_code ec) {
                if (ec) return self->fail(done);
                self->ws_.read_message_max(16 * 1024 * 1024);
                self->ws_.async_handshake(
                    "127.0.0.1:" + std::to_string(port), "/ws", [self, done](beast::error_code ec) {
                        if (ec) return self->fail(done);
                        self->ws_.async_write(asio::buffer(SUBSCRIBE), [self, done](beast::error_code ec, std::size_t) {
                            if (ec) return self->fail(done);
                            self->stats_.lobby_viewers++;
                            done();
                            self->read();
                        });
                    });
            });
    }

private:
    static constexpr std::string_view SUBSCRIBE = R"({"type":"lobby_subscribe"})";
    void fail(const std::function<void()>& done) {
        stats_.errors++;
        done();
    }
    void read() {
        auto self = shared_from_this();
        ws_.async_read(buf_, [self](beast::error_code ec, std::size_t n) {
            if (ec) {
                if (ec != asio::error::operation_aborted) self->stats_.errors++;
                return;
            }
            if (self->stats_.measuring) {
                self->stats_.lobby_messages++;
                self->stats_.lobby_bytes += long(n);
            }
            self->buf_.consume(self->buf_.size());
            self->read();
        });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buf_;
    Stats& stats_;
};

double percentile(std::vector<double>& v, double p) {
    if (v.empty()) return 0;
    std::size_t k = std::min(v.size() - 1, std::size_t(p / 100.0 * double(v.size())));
    std::nth_element(v.begin(), v.begin() + long(k), v.end());
    return v[k];
}

}  // namespace

int main(int argc, char** argv) {
    echecs::bench::raise_fd_limit();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "--serve") return echecs::bench::serve({args.begin() + 1, args.end()});

    Options opt;
    for (std::size_t i = 0; i < args.size(); i += 2) {
        if (i + 1 >= args.size()) {
            std::cerr << "server_load: " << args[i] << " needs a value\n";
            return 2;
        }
        const std::string& k = args[i];
        const std::string& v = args[i + 1];
        if (k == "--pairs")
            opt.pairs = std::stoi(v);
        else if (k == "--seconds")
            opt.seconds = std::stod(v);
        else if (k == "--think-ms")
            opt.think_ms = std::stoi(v);
        else if (k == "--max-ply")
            opt.max_ply = std::stoi(v);
        else if (k == "--variant")
            opt.variant = v;
        else if (k == "--db")
            opt.db = v;
        else if (k == "--port")
            opt.port = std::stoi(v);
        else if (k == "--lobby-viewers")
            opt.lobby_viewers = std::stoi(v);
        else if (k == "--public")
            opt.is_public = v != "0";
        else if (k == "--timeline")
            opt.timeline = v != "0";
        else {
            std::cerr << "server_load: unknown option " << k << "\n";
            return 2;
        }
    }

    pid_t child = -1;
    std::filesystem::path tmp;
    if (opt.port == 0) {
        if (opt.db.empty()) {
            tmp = std::filesystem::temp_directory_path() / ("echecs-load-" + std::to_string(getpid()));
            std::filesystem::create_directories(tmp);
            opt.db = (tmp / "load.db").string();
        }
        std::tie(child, opt.port) = echecs::bench::spawn_server({"--db", opt.db});
    }

    asio::io_context ioc;
    Stats stats;
    std::mt19937_64 rng(42);
    std::vector<Pair> pairs(std::size_t(opt.pairs));
    auto setup_start = Clock::now();
    {
        HttpClient http(ioc, opt.port);
        for (Pair& p : pairs) {
            std::string a = make_token(rng), b = make_token(rng);
            json seek = http.post("/api/seeks",
                                  {{"variant", opt.variant},
                                   {"time", {{"kind", "realtime"}, {"minutes", 10}, {"increment", 5}}},
                                   {"color", "white"},
                                   {"private", !opt.is_public}},
                                  a);
            json acc = http.post("/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", json::object(), b);
            p.game = acc["game"];
            p.white = std::make_shared<Player>(ioc, stats, opt, a, rng());
            p.black = std::make_shared<Player>(ioc, stats, opt, b, rng());
        }
    }
    int connected = 0;
    for (Pair& p : pairs) {
        p.white->start(opt.port, p.game, [&] { ++connected; });
        p.black->start(opt.port, p.game, [&] { ++connected; });
    }
    while (connected < 2 * opt.pairs && stats.errors == 0) ioc.run_one_for(std::chrono::seconds(10));
    // The lobby's audience, 200 handshakes at a time.
    std::vector<std::shared_ptr<LobbyViewer>> viewers;
    int viewers_done = 0, viewers_started = 0;
    std::function<void()> next_viewer = [&] {
        ++viewers_done;
        if (viewers_started < opt.lobby_viewers) {
            ++viewers_started;
            viewers.push_back(std::make_shared<LobbyViewer>(ioc, stats));
            viewers.back()->start(opt.port, next_viewer);
        }
    };
    for (int i = 0; i < std::min(200, opt.lobby_viewers); ++i) {
        ++viewers_started;
        viewers.push_back(std::make_shared<LobbyViewer>(ioc, stats));
        viewers.back()->start(opt.port, next_viewer);
    }
    while (viewers_done < opt.lobby_viewers && stats.errors == 0) ioc.run_one_for(std::chrono::seconds(10));
    double setup_s = std::chrono::duration<double>(Clock::now() - setup_start).count();
    if (stats.errors) {
        std::cerr << "server_load: connection errors\n";
        if (child > 0) kill(child, SIGKILL);
        return 1;
    }
    // Warm up (games get going), then measure.
    ioc.run_for(std::chrono::milliseconds(std::max(2000, 2 * opt.think_ms)));
    stats.measuring = true;
    stats.t0 = Clock::now();
    double server_cpu0 = child > 0 ? echecs::bench::cpu_seconds(child) : 0,
           client_cpu0 = echecs::bench::cpu_seconds(getpid());
    auto t0 = Clock::now();
    ioc.run_for(std::chrono::milliseconds(long(opt.seconds * 1000)));
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    stats.measuring = false;
    double server_cpu = child > 0 ? echecs::bench::cpu_seconds(child) - server_cpu0 : 0;
    double client_cpu = echecs::bench::cpu_seconds(getpid()) - client_cpu0;
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 1) load[0] = -1;

    if (opt.timeline) {
        // Before the percentiles, which reorder rtt_ms.
        std::vector<std::pair<long, double>> per_second;  // moves, slowest
        for (std::size_t i = 0; i < stats.rtt_ms.size(); ++i) {
            const auto s = std::size_t(stats.rtt_at_s[i]);
            if (s >= per_second.size()) per_second.resize(s + 1);
            per_second[s].first++;
            per_second[s].second = std::max(per_second[s].second, stats.rtt_ms[i]);
        }
        for (std::size_t s = 0; s < per_second.size(); ++s)
            std::printf("  second %2zu: %5ld moves, slowest %8.2f ms\n", s, per_second[s].first, per_second[s].second);
    }
    std::vector<double>& r = stats.rtt_ms;
    double p50 = percentile(r, 50), p99 = percentile(r, 99), mx = r.empty() ? 0 : *std::max_element(r.begin(), r.end());
    std::printf("server_load: %d concurrent games (%d WebSocket clients), variant %s, think %d ms, setup %.1f s\n",
                opt.pairs, 2 * opt.pairs, opt.variant.c_str(), opt.think_ms, setup_s);
    std::printf("  measured %.1f s: %ld moves, %.0f moves/s, %ld games finished, %ld errors\n", elapsed, stats.moves,
                double(stats.moves) / elapsed, stats.games_finished, stats.errors);
    std::printf("  move round trip: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", p50, p99, mx);
    if (opt.lobby_viewers)
        std::printf("  lobby: %ld viewers subscribed, %.0f messages/s received (%.1f per viewer per s), %.1f MB/s\n",
                    stats.lobby_viewers, double(stats.lobby_messages) / elapsed,
                    double(stats.lobby_messages) / elapsed / double(std::max(1L, stats.lobby_viewers)),
                    double(stats.lobby_bytes) / elapsed / 1e6);
    if (child > 0)
        std::printf(
            "  server CPU %.0f%% of one core (%.0f us per move, all threads), load generator %.0f%%; "
            "load average %.2f\n",
            100 * server_cpu / elapsed, stats.moves ? 1e6 * server_cpu / double(stats.moves) : 0.0,
            100 * client_cpu / elapsed, load[0]);

    echecs::bench::stop_server(child);
    if (!tmp.empty()) std::filesystem::remove_all(tmp);
    return 0;
}

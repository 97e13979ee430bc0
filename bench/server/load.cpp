// Load benchmark of the game server (not a test): N scripted client pairs play
// concurrent games over loopback WebSockets; reports games, moves per second
// and the move round trip (send -> the mover receives the state with its
// move), p50/p99/max.
//
//   server_load [--pairs 1000] [--seconds 20] [--think-ms 1000] [--max-ply 80]
//               [--variant chess] [--db PATH] [--port P]
//               [--lobby-viewers 0] [--public 0|1] [--timeline 0|1]
//               [--games-per-pair 1] [--viewer-process 1|0] [--viewer-nice 0]
//               [--setting key=value ...] [--arena 0]
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
// --arena N adds an arena tournament of N players (accounts) beside the
// pairs, who are then the bystanders: the arena pairs its players as soon
// as they are free, they play as the pairs do (a game reaching --max-ply is
// resigned, and the arena pairs them again), and their round trips are
// reported apart from the bystanders'.
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
    int games_per_pair = 1;
    bool viewer_process = true;
    int viewer_nice = 0;
    int arena = 0;
    std::vector<std::string> settings;  // --setting key=value: the server's (bench_common.h)
};

struct Stats {
    std::vector<double> rtt_ms;
    std::vector<double> arena_rtt_ms;  // the arena's players (rtt_ms: the pairs)
    long arena_games_started = 0, arena_games_finished = 0;
    std::vector<double> rtt_at_s;  // when each round trip ended, from the start of the measurement
    Clock::time_point t0;
    long moves = 0;
    long games_finished = 0;
    long errors = 0;
    bool measuring = false;
    long lobby_messages = 0;  // while measuring
    long lobby_bytes = 0;
    long lobby_viewers = 0;  // subscribed
    long viewer_errors = 0;  // viewer sockets lost while reading (closed by the server: over its send budget)
    std::string first_viewer_error;
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

// One socket per player; with --games-per-pair G the two players of a pair
// play G games at once over their two sockets (colours alternating), so that
// 5,000 games need 5,000 sockets instead of 10,000 (the descriptor limit of
// this machine is 20,000 per process, lobby viewers included).
class Player : public std::enable_shared_from_this<Player> {
public:
    Player(asio::io_context& ioc, Stats& stats, const Options& opt, std::string token, std::uint64_t seed,
           bool arena = false)
        : ioc_(ioc), ws_(ioc), stats_(stats), opt_(opt), token_(std::move(token)), rng_(seed), arena_(arena) {}

    void add_game(const std::string& game) { games_.emplace(game, std::make_unique<Seat>(ioc_)); }

    void start(int port, std::function<void()> ready) {
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
                    for (const auto& [game, seat] : self->games_) self->send({{"type", "join"}, {"game", game}});
                    self->read();
                    if (self->ready_) self->ready_();
                });
            });
    }

private:
    // This player's seat in one game.
    struct Seat {
        explicit Seat(asio::io_context& ioc) : timer(ioc) {}
        asio::steady_timer timer;
        int pending_ply = -1;
        int scheduled_ply = -1;
        bool switched = false;
        Clock::time_point sent_at;
    };

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
        if (arena_ && type == "tournament_paired") {
            // The arena paired this player: join the game (its state starts the play).
            if (stats_.measuring && j["color"] == "white") stats_.arena_games_started++;
            add_game(j["game"]);
            send({{"type", "join"}, {"game", j["game"]}});
            return;
        }
        if (type != "state" || !j["game"].is_string()) return;
        const std::string game = j["game"];
        auto found = games_.find(game);
        if (found == games_.end()) return;
        Seat& seat = *found->second;
        int ply = j["ply"];
        if (seat.pending_ply >= 0 && ply > seat.pending_ply) {
            double ms = std::chrono::duration<double, std::milli>(Clock::now() - seat.sent_at).count();
            if (stats_.measuring && arena_) {
                stats_.arena_rtt_ms.push_back(ms);
            } else if (stats_.measuring) {
                stats_.rtt_ms.push_back(ms);
                stats_.rtt_at_s.push_back(std::chrono::duration<double>(Clock::now() - stats_.t0).count());
                stats_.moves++;
            }
            seat.pending_ply = -1;
        }
        if (j["you"].is_null()) return;
        bool mine = j["you"] == j["turn"];
        if (j["status"] == "over" && arena_) {
            // No rematch: the arena pairs the player again.
            if (j["you"] == "white" && stats_.measuring) stats_.arena_games_finished++;
            seat.timer.cancel();
            games_.erase(found);
            send({{"type", "leave"}, {"game", game}});
            return;
        }
        if (j["status"] == "over") {
            if (!j["rematch_game"].is_null()) {
                if (!seat.switched) {
                    if (j["you"] == "white" && stats_.measuring) stats_.games_finished++;
                    const std::string next = j["rematch_game"];
                    seat.timer.cancel();
                    games_.erase(found);  // the seat now plays the rematch
                    add_game(next);
                    games_.at(next)->switched = true;
                    send({{"type", "join"}, {"game", next}});
                }
                return;
            }
            seat.switched = false;
            if (j["you"] == "white" && j["rematch_offer"].is_null()) send({{"type", "rematch_offer"}, {"game", game}});
            if (j["you"] == "black" && j["rematch_offer"] == "white")
                send({{"type", "rematch_accept"}, {"game", game}});
            return;
        }
        seat.switched = false;
        if (!mine || seat.pending_ply >= 0 || ply == seat.scheduled_ply) return;
        const json& legal = j["legal_moves"];
        if (legal.empty()) return;
        std::string move = legal[rng_() % legal.size()];
        seat.scheduled_ply = ply;
        bool resign = ply >= opt_.max_ply;
        std::weak_ptr<Player> weak = shared_from_this();
        auto act = [weak, game, move, ply, resign] {
            auto self = weak.lock();
            if (!self) return;
            auto it = self->games_.find(game);
            if (it == self->games_.end()) return;  // switched to a rematch meanwhile
            if (resign) {
                self->send({{"type", "resign"}, {"game", game}});
                return;
            }
            it->second->pending_ply = ply;
            it->second->sent_at = Clock::now();
            self->send({{"type", "move"}, {"game", game}, {"move", move}, {"ply", ply}});
        };
        if (opt_.think_ms <= 0) return act();
        // Think a random time around --think-ms so that moves spread out.
        int ms = int(opt_.think_ms / 2 + rng_() % std::max(1, opt_.think_ms));
        seat.timer.expires_after(std::chrono::milliseconds(ms));
        seat.timer.async_wait([act](beast::error_code ec) {
            if (!ec) act();
        });
    }

    asio::io_context& ioc_;
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buf_;
    std::deque<std::shared_ptr<std::string>> queue_;
    Stats& stats_;
    const Options& opt_;
    std::string token_;
    std::unordered_map<std::string, std::unique_ptr<Seat>> games_;
    std::function<void()> ready_;
    std::mt19937_64 rng_;
    bool arena_;
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
                if (ec != asio::error::operation_aborted && self->stats_.viewer_errors++ == 0)
                    self->stats_.first_viewer_error = ec.message();
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

// Connects the lobby's audience, 200 handshakes at a time; false on a connection error.
bool connect_viewers(asio::io_context& ioc, Stats& stats, int port, int n,
                     std::vector<std::shared_ptr<LobbyViewer>>& viewers) {
    int done = 0, started = 0;
    std::function<void()> next = [&] {
        ++done;
        if (started < n) {
            ++started;
            viewers.push_back(std::make_shared<LobbyViewer>(ioc, stats));
            viewers.back()->start(port, next);
        }
    };
    for (int i = 0; i < std::min(200, n); ++i) {
        ++started;
        viewers.push_back(std::make_shared<LobbyViewer>(ioc, stats));
        viewers.back()->start(port, next);
    }
    while (done < n && stats.errors == 0) ioc.run_one_for(std::chrono::seconds(10));
    return stats.errors == 0;
}

// `--viewers-only N --port P`: the lobby viewers in a process of their own,
// so that reading their traffic does not delay the players whose round trips
// are measured (on a real site the viewers are other machines). Prints
// "ready" once all are subscribed; counts from SIGUSR1 to SIGUSR2, then
// prints "viewers S messages M bytes B lost L" and exits.
int viewers_only(int n, int port, int niceness) {
    if (niceness > 0 && setpriority(PRIO_PROCESS, 0, niceness) != 0) std::perror("setpriority");
    asio::io_context ioc;
    Stats stats;
    std::vector<std::shared_ptr<LobbyViewer>> viewers;
    if (!connect_viewers(ioc, stats, port, n, viewers)) {
        std::cout << "failed" << std::endl;
        return 1;
    }
    asio::signal_set signals(ioc, SIGUSR1, SIGUSR2);  // before "ready": no signal may be lost
    std::function<void(beast::error_code, int)> on_signal = [&](beast::error_code ec, int sig) {
        if (ec) return;
        if (sig == SIGUSR1) {
            stats.measuring = true;
            signals.async_wait(on_signal);
            return;
        }
        stats.measuring = false;
        std::cout << "viewers " << stats.lobby_viewers << " messages " << stats.lobby_messages << " bytes "
                  << stats.lobby_bytes << " lost " << stats.viewer_errors << std::endl;
        ioc.stop();
    };
    signals.async_wait(on_signal);
    std::cout << "ready" << std::endl;
    ioc.run();
    return 0;
}

// One line from a child's pipe ("" if it ends first).
std::string read_line(int fd, int timeout_ms) {
    std::string line;
    return echecs::bench::read_line(fd, timeout_ms, line) ? line : "";
}

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
    if (args.size() == 6 && args[0] == "--viewers-only" && args[2] == "--port" && args[4] == "--nice")
        return viewers_only(std::stoi(args[1]), std::stoi(args[3]), std::stoi(args[5]));

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
        else if (k == "--viewer-process")
            opt.viewer_process = v != "0";
        else if (k == "--viewer-nice")
            opt.viewer_nice = std::stoi(v);
        else if (k == "--setting")
            opt.settings.push_back(v);
        else if (k == "--games-per-pair")
            opt.games_per_pair = std::max(1, std::stoi(v));
        else if (k == "--timeline")
            opt.timeline = v != "0";
        else if (k == "--arena")
            opt.arena = std::stoi(v);
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
        std::vector<std::string> serve_args = {"--db", opt.db};
        serve_args.insert(serve_args.end(), opt.settings.begin(), opt.settings.end());
        std::tie(child, opt.port) = echecs::bench::spawn_server(serve_args);
    }

    asio::io_context ioc;
    Stats stats;
    std::mt19937_64 rng(42);
    const int pair_count = (opt.pairs + opt.games_per_pair - 1) / opt.games_per_pair;
    std::vector<std::pair<std::shared_ptr<Player>, std::shared_ptr<Player>>> players;
    auto setup_start = Clock::now();
    {
        HttpClient http(ioc, opt.port);
        for (int i = 0; i < pair_count; ++i) {
            std::string a = make_token(rng), b = make_token(rng);
            auto pa = std::make_shared<Player>(ioc, stats, opt, a, rng());
            auto pb = std::make_shared<Player>(ioc, stats, opt, b, rng());
            for (int k = 0; k < opt.games_per_pair && i * opt.games_per_pair + k < opt.pairs; ++k) {
                const std::string& white = k % 2 ? b : a;
                const std::string& black = k % 2 ? a : b;
                json seek = http.post("/api/seeks",
                                      {{"variant", opt.variant},
                                       {"time", {{"kind", "realtime"}, {"minutes", 10}, {"increment", 5}}},
                                       {"color", "white"},
                                       {"private", !opt.is_public}},
                                      white);
                json acc =
                    http.post("/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", json::object(), black);
                pa->add_game(acc["game"]);
                pb->add_game(acc["game"]);
            }
            players.emplace_back(std::move(pa), std::move(pb));
        }
    }
    // The arena: its players sign up, the first creates it (starting now), all join.
    std::vector<std::shared_ptr<Player>> arena;
    if (opt.arena > 0) {
        HttpClient http(ioc, opt.port);
        std::string tournament;
        for (int i = 0; i < opt.arena && stats.errors == 0; ++i) {
            const std::string token = make_token(rng);
            char name[16];
            std::snprintf(name, sizeof name, "Arena%05d", i);
            json made = http.post("/api/account", {{"username", name}, {"password", "a fine passphrase"}}, token);
            if (i == 0) {
                json t = http.post("/api/tournaments",
                                   {{"variant", opt.variant},
                                    {"time", {{"kind", "realtime"}, {"minutes", 10}, {"increment", 5}}},
                                    {"minutes", 180},
                                    {"starts_in", 0}},
                                   token);
                if (!t.contains("tournament") || !t["tournament"].is_object()) {
                    std::cerr << "server_load: arena not created: " << made.dump() << " " << t.dump() << "\n";
                    stats.errors++;
                    break;
                }
                tournament = t["tournament"]["id"];
            }
            json joined = http.post("/api/tournaments/" + tournament + "/join", json::object(), token);
            if (!joined.contains("me") || joined["me"]["joined"] != true) {
                if (stats.errors++ < 3) std::cerr << "server_load: join refused: " << joined.dump() << "\n";
                continue;
            }
            arena.push_back(std::make_shared<Player>(ioc, stats, opt, token, rng(), true));
        }
    }
    int connected = 0;
    for (auto& [a, b] : players) {
        a->start(opt.port, [&] { ++connected; });
        b->start(opt.port, [&] { ++connected; });
    }
    for (auto& p : arena) p->start(opt.port, [&] { ++connected; });
    while (connected < 2 * pair_count + int(arena.size()) && stats.errors == 0)
        ioc.run_one_for(std::chrono::seconds(10));
    // The lobby's audience: in a process of its own (--viewer-process 1, the
    // default) or in this one.
    std::vector<std::shared_ptr<LobbyViewer>> viewers;
    pid_t viewer_pid = -1;
    int viewer_out = -1;
    if (opt.lobby_viewers > 0 && opt.viewer_process) {
        std::tie(viewer_pid, viewer_out) =
            echecs::bench::spawn_self({"--viewers-only", std::to_string(opt.lobby_viewers), "--port",
                                       std::to_string(opt.port), "--nice", std::to_string(opt.viewer_nice)});
        if (read_line(viewer_out, 300000) != "ready") stats.errors++;
    } else if (opt.lobby_viewers > 0) {
        connect_viewers(ioc, stats, opt.port, opt.lobby_viewers, viewers);
    }
    double setup_s = std::chrono::duration<double>(Clock::now() - setup_start).count();
    if (stats.errors) {
        std::cerr << "server_load: connection errors\n";
        if (child > 0) kill(child, SIGKILL);
        if (viewer_pid > 0) kill(viewer_pid, SIGKILL);
        return 1;
    }
    // Warm up (games get going), then measure.
    ioc.run_for(std::chrono::milliseconds(std::max(2000, 2 * opt.think_ms)));
    stats.measuring = true;
    stats.t0 = Clock::now();
    if (viewer_pid > 0) kill(viewer_pid, SIGUSR1);
    double server_cpu0 = child > 0 ? echecs::bench::cpu_seconds(child) : 0,
           client_cpu0 = echecs::bench::cpu_seconds(getpid());
    auto t0 = Clock::now();
    ioc.run_for(std::chrono::milliseconds(long(opt.seconds * 1000)));
    double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    stats.measuring = false;
    if (viewer_pid > 0) {
        kill(viewer_pid, SIGUSR2);
        std::istringstream in(read_line(viewer_out, 60000));
        std::string word;
        in >> word >> stats.lobby_viewers >> word >> stats.lobby_messages >> word >> stats.lobby_bytes >> word >>
            stats.viewer_errors;
        close(viewer_out);
        int status;
        waitpid(viewer_pid, &status, 0);
    }
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
                opt.pairs, 2 * pair_count, opt.variant.c_str(), opt.think_ms, setup_s);
    std::printf("  measured %.1f s: %ld moves, %.0f moves/s, %ld games finished, %ld errors\n", elapsed, stats.moves,
                double(stats.moves) / elapsed, stats.games_finished, stats.errors);
    std::printf("  move round trip%s: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
                opt.arena ? " of the pairs (bystanders)" : "", p50, p99, mx);
    if (opt.arena) {
        std::vector<double>& ar = stats.arena_rtt_ms;
        std::printf(
            "  arena of %d players: %zu moves measured, %ld games paired and %ld finished while measuring; "
            "round trip p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
            opt.arena, ar.size(), stats.arena_games_started, stats.arena_games_finished, percentile(ar, 50),
            percentile(ar, 99), ar.empty() ? 0 : *std::max_element(ar.begin(), ar.end()));
    }
    if (opt.lobby_viewers)
        std::printf(
            "  lobby: %ld viewers subscribed, %.0f messages/s received (%.1f per viewer per s), %.1f MB/s; "
            "%ld viewer sockets lost%s%s\n",
            stats.lobby_viewers, double(stats.lobby_messages) / elapsed,
            double(stats.lobby_messages) / elapsed / double(std::max(1L, stats.lobby_viewers)),
            double(stats.lobby_bytes) / elapsed / 1e6, stats.viewer_errors, stats.viewer_errors ? ", first: " : "",
            stats.first_viewer_error.c_str());
    const long all_moves = stats.moves + long(stats.arena_rtt_ms.size());  // the arena's too
    if (child > 0)
        std::printf(
            "  server CPU %.0f%% of one core (%.0f us per move, all threads), load generator %.0f%%; "
            "load average %.2f\n",
            100 * server_cpu / elapsed, all_moves ? 1e6 * server_cpu / double(all_moves) : 0.0,
            100 * client_cpu / elapsed, load[0]);

    echecs::bench::stop_server(child);
    if (!tmp.empty()) std::filesystem::remove_all(tmp);
    return 0;
}

// Attack benchmark (not a test): a bystander game's move round trip, p50/p99,
// while each attack of the attack suite runs at a larger scale, the server in
// a child process. docs/PERFORMANCE.md, "Server under attack".
//
//   server_attack [--seconds 5] [--only NAME]...
//
// The scenarios of issue 24 (heavy work from many addresses: computer games,
// uploads, listings, log-ins) come from loopback addresses of their own
// (attack_issue24.h), with the limits per address as served.
// The attacks come from 127.0.0.1 like the bystander; unless the scenario
// says "limits on", the limits per address are opened wide so that what is
// measured is how the server absorbs the attack, not the limit refusing it.
#include <cstdio>
#include <set>

#include "attack_issue24.h"
#include "attacks.h"
#include "bench_common.h"
#include "engine/strength.h"
#include "server/storage/storage.h"

using namespace echecs;
using namespace echecs::attack;

namespace {

const int FULL_LEVEL = engine::level_count(Variant::Chess);
constexpr int HUMANS_LEVEL = 7;

struct Scenario {
    const char* name;
    std::vector<std::string> settings;                                      // for the server child
    std::function<std::string(std::uint16_t port, double seconds)> attack;  // returns a note
    std::function<void(const std::string& db)> before;                      // prepares the database
};

std::string seed_finished_games(const std::string& db, int n) {
    auto st = server::open_storage(db);
    std::vector<server::WriteOp> ops;
    for (int i = 0; i < n; ++i) {
        server::GameRecord g;
        std::string num = std::to_string(i);
        g.id = "Old" + std::string(5 - num.size(), '0') + num;
        g.initial_fen = g.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.status = "over";
        g.result = "1-0";
        g.termination = "resignation";
        g.created_at = 1000 + i;
        g.ended_at = 2000 + i;
        ops.push_back(server::SaveGame{g});
    }
    st->apply(ops);
    return "";
}

std::vector<json> lobby_subscribe(int) { return {{{"type", "lobby_subscribe"}}}; }

std::string lobby_viewers(std::uint16_t port, double seconds) {
    Crowd readers(port, 1000, Crowd::Read, lobby_subscribe), frozen(port, 100, Crowd::Silent, lobby_subscribe);
    std::this_thread::sleep_for(1s);
    // Seeks come and go: each is removed 20 seeks later, so that it lives
    // through a lobby batch (a seek added and removed within one is no change).
    int i = 0;
    std::deque<std::pair<std::string, std::string>> open;  // id, token
    flood(1, seconds, 1 << 30, [&](int) {
        const std::string t = token_for(i++ % 10);
        json s = post_json(port, "/api/seeks", {{"time", {{"kind", "unlimited"}}}}, t);
        if (s.contains("seek")) open.emplace_back(s["seek"]["id"], t);
        if (open.size() > 20) {
            http_request(port, http::verb::delete_, "/api/seeks/" + open.front().first, "", open.front().second);
            open.pop_front();
        }
        std::this_thread::sleep_for(40ms);
    });
    char note[160];
    std::snprintf(note, sizeof note, "%d readers (%d dropped), 100 frozen; %llu messages read", readers.open(),
                  readers.dropped(), static_cast<unsigned long long>(readers.received()));
    return note;
}

std::string evaluation_flood(std::uint16_t port, double seconds) {
    std::atomic<int> ok{0}, refused{0};
    std::thread flooders(
        [&] { flood(40, seconds, 1 << 30, [&](int) { (post_eval(port, 3000) == 200 ? ok : refused)++; }); });
    std::this_thread::sleep_for(500ms);
    std::vector<double> replies = play_computer(port, HUMANS_LEVEL, 6);
    flooders.join();
    char note[200];
    std::snprintf(note, sizeof note, "%d answered, %d refused; computer (level %d) replies p50 %.0f ms, max %.0f ms",
                  ok.load(), refused.load(), HUMANS_LEVEL, percentile(replies, 50),
                  replies.empty() ? 0.0 : *std::max_element(replies.begin(), replies.end()));
    return note;
}

std::string listing_flood(std::uint16_t port, double seconds) {
    std::atomic<int> answered{0}, busy{0};
    flood(16, seconds, 1 << 30, [&](int t) {
        const std::string q = t % 2 ? "/api/games?status=finished&limit=100&offset=1000"
                                    : "/api/games?status=finished&limit=100&before=Old00500";
        (http_request(port, http::verb::get, q).status == 200 ? answered : busy)++;
    });
    return std::to_string(answered.load()) + " listings of 100 answered, " + std::to_string(busy.load()) +
           " refused (busy)";
}

std::string big_frames(std::uint16_t port, double seconds) {
    std::atomic<int> sent{0};
    flood(8, seconds, 1 << 30, [&](int t) {
        WsClient big(port);
        sent++;
        if (t % 2) {
            big.send_raw(std::string(900 * 1024, 'x'));
            big.error();
        } else {
            try {
                big.send_raw(std::string(2 * 1024 * 1024, 'x'));
            } catch (const std::exception&) {
            }
            big.wait_closed();
        }
    });
    return std::to_string(sent.load()) + " frames of 0.9 or 2 MiB";
}

std::string half_open(std::uint16_t port, double seconds) {
    HalfOpen h(port, 1100);
    std::this_thread::sleep_for(std::chrono::milliseconds(long(seconds * 1000)));
    return std::to_string(h.opened()) + " connections held open";
}

// An unlimited game between two tokens (White first), by a seek and its acceptance.
std::string start_game(std::uint16_t port, const std::string& white, const std::string& black) {
    json seek = post_json(port, "/api/seeks", {{"time", {{"kind", "unlimited"}}}, {"color", "white"}}, white);
    return post_json(port, "/api/seeks/" + seek["seek"]["id"].get<std::string>() + "/accept", json::object(),
                     black)["game"];
}

std::string hello_amplification(std::uint16_t port, double seconds) {
    std::vector<std::string> games, whites;
    for (int i = 0; i < 50; ++i) {
        const std::string a = token_for(1000 + i), b = token_for(2000 + i);
        games.push_back(start_game(port, a, b));
        whites.push_back(a);
    }
    auto joins = [&](int) {
        std::vector<json> m;
        for (const std::string& g : games) m.push_back({{"type", "join"}, {"game", g}});
        return m;
    };
    Crowd watchers(port, 50, Crowd::Read, joins);
    std::this_thread::sleep_for(500ms);
    const std::uint64_t before = watchers.received();
    Crowd senders(port, 20, Crowd::Read, joins);
    const auto end = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    int round = 0;
    while (Clock::now() < end) {
        senders.each_send([&](int i) { return json{{"type", "hello"}, {"token", whites[(i + round) % 50]}}; });
        ++round;
        std::this_thread::sleep_for(50ms);
    }
    return std::to_string(round * 20) + " hellos from sockets watching 50 games; the 50 watchers received " +
           std::to_string(watchers.received() - before) + " messages";
}

std::string never_reading(std::uint16_t port, double seconds) {
    std::vector<std::array<std::string, 3>> games;  // id, white, black
    for (int i = 0; i < 50; ++i) {
        const std::string a = token_for(3000 + i), b = token_for(4000 + i);
        games.push_back({start_game(port, a, b), a, b});
    }
    Crowd frozen(port, 200, Crowd::Silent, [&](int) {
        std::vector<json> m;
        for (const auto& g : games) m.push_back({{"type", "join"}, {"game", g[0]}});
        return m;
    });
    std::this_thread::sleep_for(500ms);
    // The 50 games move on and on: a state to every frozen socket each time.
    std::vector<std::unique_ptr<WsClient>> players;
    for (const auto& g : games) {
        players.push_back(std::make_unique<WsClient>(port, g[1]));
        players.push_back(std::make_unique<WsClient>(port, g[2]));
        for (int k = 0; k < 2; ++k) {
            players[players.size() - 2 + k]->send({{"type", "join"}, {"game", g[0]}});
            players[players.size() - 2 + k]->state(g[0], 0);
        }
    }
    const char* line[] = {"g1f3", "g8f6", "b1c3", "b8c6", "c3b1", "c6b8", "f3g1", "f6g8"};
    const auto end = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    int moves = 0;
    for (int ply = 0; Clock::now() < end && ply < 8; ++ply)
        for (std::size_t i = 0; i < games.size(); ++i) {
            WsClient& mover = *players[2 * i + ply % 2];
            mover.send({{"type", "move"}, {"game", games[i][0]}, {"move", line[ply]}, {"ply", ply}});
            mover.state(games[i][0], ply + 1);
            ++moves;
        }
    return std::to_string(moves) + " moves in 50 games watched by 200 sockets that never read";
}

// The chat flood of ChatTest.FloodNeverDelaysABystanderGame, for longer:
// 16 sockets in a game's spectators' room and the lobby send a 300-character
// line every 20 ms each, all refused past the address's burst.
std::string chat_flood(std::uint16_t port, double seconds) {
    const std::string game = start_game(port, token_for(5000), token_for(5001));
    Crowd flooders(
        port, 16, Crowd::Read,
        [&](int i) {
            return std::vector<json>{{{"type", "hello"}, {"token", token_for(5100 + i)}},
                                     {{"type", "join"}, {"game", game}},
                                     {{"type", "lobby_subscribe"}}};
        },
        true);
    std::this_thread::sleep_for(500ms);
    const auto end = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    int rounds = 0;
    for (; Clock::now() < end; ++rounds) {
        flooders.each_send([&](int i) {
            return i % 2 ? json{{"type", "chat"}, {"game", game}, {"text", std::string(300, 'x')}}
                         : json{{"type", "chat"}, {"room", "lobby"}, {"text", std::string(300, 'y')}};
        });
        std::this_thread::sleep_for(20ms);
    }
    return std::to_string(rounds * 16) + " lines sent; " + std::to_string(flooders.received("chat")) +
           " chat lines and " + std::to_string(flooders.received("error")) + " refusals received";
}

}  // namespace

int main(int argc, char** argv) {
    bench::raise_fd_limit();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "--serve") return bench::serve({args.begin() + 1, args.end()});
    double seconds = 5;
    std::set<std::string> only;
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
        if (args[i] == "--seconds") seconds = std::stod(args[i + 1]);
        if (args[i] == "--only") only.insert(args[i + 1]);
    }
    using namespace echecs::bench24;
    // As served: the limits per address of the options' defaults (the
    // benchmark's server opens them wide otherwise).
    const std::vector<std::string> served = {"max_connections_per_ip=64", "max_engine_games_per_ip=40", "http_rate=20",
                                             "http_burst=100"};
    std::vector<std::string> real_hashes = served;  // Argon2id at its served cost
    real_hashes.push_back("fast_password_hash=0");
    const std::vector<Scenario> scenarios = {
        {"none (baseline)",
         {},
         [](std::uint16_t, double s) {
             std::this_thread::sleep_for(std::chrono::milliseconds(long(s * 1000)));
             return std::string();
         },
         nullptr},
        {"lobby viewers", {"ws_send_budget=65536"}, lobby_viewers, nullptr},
        {"evaluation flood", {"eval_rate=1000000", "engine_queue_per_client=1000"}, evaluation_flood, nullptr},
        {"evaluation flood, limits on",
         {"eval_rate=1", "engine_queue_per_client=2", "max_connections_per_ip=64"},
         evaluation_flood,
         nullptr},
        {"listing flood", {}, listing_flood, [](const std::string& db) { seed_finished_games(db, 20000); }},
        {"big frames", {}, big_frames, nullptr},
        {"half-open, limits on", {"--fd-limit", "1024", "max_connections_per_ip=64"}, half_open, nullptr},
        {"half-open, out of fds", {"--fd-limit", "1024", "max_connections=100000"}, half_open, nullptr},
        {"hello amplification", {}, hello_amplification, nullptr},
        {"never-reading sockets", {"ws_send_budget=262144"}, never_reading, nullptr},
        {"chat flood, limits on", {}, chat_flood, nullptr},
        // The flood plays full strength (1.5 s a move), the human a modest
        // level (chess level 7, the point the ten-level ladder's level 4 was).
        {"computer alone", served, [](std::uint16_t port, double s) { return computer_alone(port, s, HUMANS_LEVEL); },
         nullptr},
        {"computer games, 1 address", served,
         [](std::uint16_t port, double s) { return computer_flood(port, s, 1, 10, 4, FULL_LEVEL, HUMANS_LEVEL); },
         nullptr},
        {"computer games, 30 addresses", served,
         [](std::uint16_t port, double s) { return computer_flood(port, s, 30, 2, 4, FULL_LEVEL, HUMANS_LEVEL); },
         nullptr},
        {"PGN import flood, 1 address", served,
         [](std::uint16_t port, double s) {
             return upload_flood(port, s, "/api/pgn/read", json{{"text", long_pgn(900 * 1024)}}.dump(), 8);
         },
         nullptr},
        {"Popeye import flood, 1 address", served,
         [](std::uint16_t port, double s) {
             return upload_flood(port, s, "/api/problems/popeye/read", json{{"text", long_popeye(800 * 1024)}}.dump(),
                                 8);
         },
         nullptr},
        {"listing flood, 8 addresses", served,
         [](std::uint16_t port, double s) { return listing_flood_from(port, s, 8, 2); },
         [](const std::string& db) { seed_finished_games(db, 20000); }},
        {"log-in flood, 60 addresses", real_hashes,
         [](std::uint16_t port, double s) { return login_flood(port, s, 60, 4); }, nullptr},
    };
    std::printf("server_attack: %.0f s per attack; load average %.2f at start\n", seconds, bench::load_average());
    std::printf("| attack | bystander moves | p50 ms | p99 ms | max ms | lost | server CPU | note |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const Scenario& sc : scenarios) {
        if (!only.empty() && !only.count(sc.name)) continue;
        const auto dir = std::filesystem::temp_directory_path() / ("echecs-attack-" + std::to_string(getpid()));
        std::filesystem::create_directories(dir);
        const std::string db = (dir / "attack.db").string();
        if (sc.before) sc.before(db);
        std::vector<std::string> settings = {"--db", db};
        settings.insert(settings.end(), sc.settings.begin(), sc.settings.end());
        auto [pid, port] = bench::spawn_server(settings);
        std::string note;
        std::vector<double> rtt;
        int moves = 0, lost = 0;
        double cpu = 0;
        {
            Bystander bystander(std::uint16_t(port), 20ms);
            bystander.start();
            std::this_thread::sleep_for(1s);
            bystander.take();
            const int moves0 = bystander.moves();
            const double cpu0 = bench::cpu_seconds(pid);
            const auto t0 = Clock::now();
            try {
                note = sc.attack(std::uint16_t(port), seconds);
            } catch (const std::exception& e) {
                note = std::string("attack stopped: ") + e.what();
            }
            const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
            cpu = 100 * (bench::cpu_seconds(pid) - cpu0) / wall;
            rtt = bystander.take();
            bystander.stop();
            moves = bystander.moves() - moves0;
            lost = bystander.lost();
        }
        std::printf("| %s | %d | %.2f | %.2f | %.2f | %d | %.0f%% | %s |\n", sc.name, moves, percentile(rtt, 50),
                    percentile(rtt, 99), rtt.empty() ? 0.0 : *std::max_element(rtt.begin(), rtt.end()), lost, cpu,
                    note.c_str());
        std::fflush(stdout);
        bench::stop_server(pid);
        std::filesystem::remove_all(dir);
    }
    std::printf("load average %.2f at the end\n", bench::load_average());
    return 0;
}

// The attacks of issue 24's benchmarks (docs/PERFORMANCE.md, "Server under
// attack", "Heavy work from many addresses"): each client address a loopback
// address of its own (client.h's FromAddress), so that the server's fairness
// and limits per address are what is measured. The victims measure: another
// player's computer reply, a real log-in and a logged-in player's request.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "attacks.h"

namespace echecs::bench24 {

using namespace echecs::attack;

inline std::string address(int a, int b) { return "127.0." + std::to_string(a) + "." + std::to_string(b); }

inline double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline std::string figures(const std::vector<double>& v) {
    char out[120];
    std::snprintf(out, sizeof out, "n %zu, p50 %.0f ms, p99 %.0f ms, max %.0f ms", v.size(), percentile(v, 50),
                  percentile(v, 99), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
    return out;
}

// A human (from 127.0.0.1) playing the computer at `level` for `seconds`: the
// time from each of the human's moves to the computer's answer (a new game
// when one ends).
inline std::vector<double> computer_replies(std::uint16_t port, int level, double seconds) {
    const std::string token = "computerVictim0000000";
    const auto end = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    std::vector<double> out;
    WsClient w(port, token);
    while (Clock::now() < end) {
        json g = post_json(port, "/api/computer", {{"variant", "chess"}, {"level", level}, {"color", "white"}}, token);
        if (!g.contains("game")) throw std::runtime_error("no computer game: " + g.dump());
        const std::string id = g["game"];
        w.send({{"type", "join"}, {"game", id}});
        json s = w.state(id, 0);
        while (Clock::now() < end && s["status"] == "live" && !s["legal_moves"].empty()) {
            // A human's pause: the socket's message rate limit (30/s) refuses a faster player.
            std::this_thread::sleep_for(100ms);
            const int ply = s["ply"];
            const auto t0 = Clock::now();
            w.send({{"type", "move"}, {"game", id}, {"move", s["legal_moves"][0]}, {"ply", ply}});
            // The computer's answer, or the end of the game by the human's move.
            try {
                s = w.state_where(
                    id, [&](const json& j) { return j["ply"] >= ply + 2 || (j["status"] != "live" && j["ply"] > ply); },
                    120s);
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string(e.what()) + " after ply " + std::to_string(ply) + " of " +
                                         s["moves"].dump() + " " + s["status"].dump());
            }
            if (s["ply"] >= ply + 2) out.push_back(ms_since(t0));
        }
        if (s["status"] == "live") w.send({{"type", "resign"}, {"game", id}});
    }
    return out;
}

// One player (a token) of an address with `games` live games against the
// computer at `level`, moving at once whenever it is its turn, until `end`;
// an ended game is replaced. Returns the moves it made.
inline int computer_games_player(std::uint16_t port, const std::string& source, const std::string& token, int games,
                                 int level, Clock::time_point end) {
    FromAddress from(source);
    WsClient w(port, token);
    auto start_game = [&] {
        json g = post_json(port, "/api/computer", {{"variant", "chess"}, {"level", level}, {"color", "white"}}, token);
        if (g.contains("game")) w.send({{"type", "join"}, {"game", g["game"]}});
        return g.contains("game");
    };
    int started = 0, moves = 0;
    for (int i = 0; i < games; ++i) started += start_game();
    while (Clock::now() < end) {
        json m;
        try {
            // Until the end: a read cut short by its timeout closes the socket (Beast).
            m = w.recv(std::max<std::chrono::milliseconds>(
                1000ms, std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now())));
        } catch (const std::exception&) {
            break;
        }
        if (m["type"] != "state") continue;
        if (m["status"] != "live") {
            start_game();
            continue;
        }
        const int ply = m["ply"];
        if (ply % 2 || m["legal_moves"].empty()) continue;
        w.send({{"type", "move"}, {"game", m["game"]}, {"move", m["legal_moves"][0]}, {"ply", ply}});
        ++moves;
    }
    return started ? moves : -1;
}

// `addresses` addresses (127.0.1.x), each with `players` players of `games`
// level-`level` games, while another player (127.0.0.1) plays the computer
// at level `victim_level`.
inline std::string computer_flood(std::uint16_t port, double seconds, int addresses, int players, int games, int level,
                                  int victim_level) {
    const auto end = Clock::now() + std::chrono::milliseconds(long(seconds * 1000) + 3000);
    std::atomic<int> moves{0}, failed{0};
    std::vector<std::thread> ts;
    for (int a = 0; a < addresses; ++a)
        for (int p = 0; p < players; ++p)
            ts.emplace_back([&, a, p] {
                try {
                    const int n =
                        computer_games_player(port, address(1, a + 1), token_for(100 * a + p), games, level, end);
                    n < 0 ? ++failed : moves += n;
                } catch (const std::exception&) {
                    ++failed;
                }
            });
    std::this_thread::sleep_for(3s);  // the games started and every one thinking
    std::vector<double> replies;
    std::string error;
    try {
        replies = computer_replies(port, victim_level, seconds);
    } catch (const std::exception& e) {
        error = std::string("; victim stopped: ") + e.what();
    }
    for (auto& t : ts) t.join();
    return std::to_string(addresses) + " addresses x " + std::to_string(players * games) + " level-" +
           std::to_string(level) + " games (" + std::to_string(moves.load()) + " moves, " +
           std::to_string(failed.load()) + " players refused); another player's level-" + std::to_string(victim_level) +
           " computer replies: " + figures(replies) + error;
}

// The victim alone: its computer replies with nothing else asking for the engine.
inline std::string computer_alone(std::uint16_t port, double seconds, int victim_level) {
    return "level-" + std::to_string(victim_level) +
           " computer replies: " + figures(computer_replies(port, victim_level, seconds));
}

// Byrne-Fischer, New York 1956: a PGN game of 41 moves to read, again and again.
inline std::string long_pgn(std::size_t bytes) {
    const std::string game =
        "[Event \"Rosenwald\"]\n[White \"Byrne\"]\n[Black \"Fischer\"]\n[Result \"0-1\"]\n\n"
        "1. Nf3 Nf6 2. c4 g6 3. Nc3 Bg7 4. d4 O-O 5. Bf4 d5 6. Qb3 dxc4 7. Qxc4 c6 8. e4 Nbd7 9. Rd1 Nb6 "
        "10. Qc5 Bg4 11. Bg5 Na4 12. Qa3 Nxc3 13. bxc3 Nxe4 14. Bxe7 Qb6 15. Bc4 Nxc3 16. Bc5 Rfe8+ 17. Kf1 Be6 "
        "18. Bxb6 Bxc4+ 19. Kg1 Ne2+ 20. Kf1 Nxd4+ 21. Kg1 Ne2+ 22. Kf1 Nc3+ 23. Kg1 axb6 24. Qb4 Ra4 "
        "25. Qxb6 Nxd1 26. h3 Rxa2 27. Kh2 Nxf2 28. Re1 Rxe1 29. Qd8+ Bf8 30. Nxe1 Bd5 31. Nf3 Ne4 32. Qb8 b5 "
        "33. h4 h5 34. Ne5 Kg7 35. Kg1 Bc5+ 36. Kf1 Ng3+ 37. Ke1 Bb4+ 38. Kd1 Bb3+ 39. Kc1 Ne2+ 40. Kb1 Nc3+ "
        "41. Kc1 Rc2# 0-1\n\n";
    std::string out;
    while (out.size() + game.size() < bytes) out += game;
    return out;
}

// Popeye problems (the classics of fuzz/seeds/popeye/classic.inp), one after another.
inline std::string long_popeye(std::size_t bytes) {
    const std::string problem =
        "author Paul Morphy\npieces white kc8 ra1 pb6 black ka8 bb8 pa7b7\nstipulation #2\noption vari try\nnext\n"
        "author Sam Loyd\npieces white kf5 rg7 se1 pg2h2 black kh5 bf2 pg3h6\nstipulation #3\noption vari\n"
        "twin remove e1 stipulation #4\ntwin remove e1 remove h2 stipulation #5\nnext\n";
    std::string out = "begin\n";
    // The reader takes 1,000 problems at most (two a chunk, one at the end).
    for (int n = 0; n < 499 && out.size() + problem.size() + 200 < bytes; ++n) out += problem;
    out +=
        "author Sam Loyd\npieces white ke1 qb6 ra1c4 pf2h2 black ka4 qa2 rb2b4 ba3 sg1 pb3f3g2h3\n"
        "stipulation s#1\nend\n";
    return out;
}

// `threads` connections of one address (127.0.1.1) posting `body` to `target` without pause.
inline std::string upload_flood(std::uint16_t port, double seconds, const std::string& target, const std::string& body,
                                int threads) {
    std::atomic<int> ok{0}, refused{0}, other{0};
    std::atomic<std::int64_t> ok_ms{0};
    {
        FromAddress from(address(1, 2));
        const HttpResult first = http_request(port, http::verb::post, target, body);
        if (first.status != 200) return "the upload is refused: " + first.body.substr(0, 200);
    }
    flood(threads, seconds, 1 << 30, [&](int) {
        FromAddress from(address(1, 1));
        const auto t0 = Clock::now();
        const int status = http_request(port, http::verb::post, target, body).status;
        if (status == 200) ok_ms += std::int64_t(ms_since(t0));
        (status == 200 ? ok : status == 429 || status == 503 ? refused : other)++;
    });
    char note[200];
    std::snprintf(note, sizeof note, "%d uploads of %zu KiB read (mean %.0f ms), %d refused (busy), %d other",
                  ok.load(), body.size() / 1024, ok ? double(ok_ms.load()) / ok.load() : 0.0, refused.load(),
                  other.load());
    return note;
}

// `addresses` addresses, `per_address` threads each, listing 100 finished
// games deep in the seeded 20,000.
inline std::string listing_flood_from(std::uint16_t port, double seconds, int addresses, int per_address) {
    std::atomic<int> answered{0}, busy{0};
    flood(addresses * per_address, seconds, 1 << 30, [&](int t) {
        FromAddress from(address(1, 1 + t % addresses));
        const std::string q = t % 2 ? "/api/games?status=finished&limit=100&offset=1000"
                                    : "/api/games?status=finished&limit=100&before=Old00500";
        (http_request(port, http::verb::get, q).status == 200 ? answered : busy)++;
    });
    return std::to_string(addresses) + " addresses: " + std::to_string(answered.load()) +
           " listings of 100 answered, " + std::to_string(busy.load()) + " refused";
}

// `addresses` addresses x `concurrent` connections logging in to names that
// do not exist (each hashes as a real one does), within the limits: a
// connection stops at its address's first 429, and waits the Retry-After of
// a 503 (the queue full) before trying again. Meanwhile, every second, two
// real players log in, each to an account of their own from a new address:
// one for the first time in that browser, one with the device cookie of an
// earlier log-in (its sign-up); and a logged-in player asks GET /api/account
// every 200 ms.
inline std::string login_flood(std::uint16_t port, double seconds, int addresses, int concurrent) {
    const std::string token = http_request(port, http::verb::post, "/api/session").j()["token"];
    const HttpResult up = http_request(port, http::verb::post, "/api/account",
                                       json{{"username", "victim"}, {"password", "a fine passphrase"}}.dump(), token);
    const std::string set_cookie = up.header("Set-Cookie");
    if (up.status != 201) throw std::runtime_error("sign-up: " + up.body);
    const Headers session = {{"Cookie", set_cookie.substr(0, set_cookie.find(';'))}};
    // The real players, one account each (a player logs in once, not every
    // second): signed up before the flood, 5 an address (the sign-up limit).
    // The first half will log in from a browser that never logged in; the
    // others from the browser they signed up in, with its device cookie
    // (none before device cookies).
    const int players = int(seconds) + 2;
    std::vector<std::string> names;
    std::vector<Headers> devices;
    for (int i = 0; i < 2 * players; ++i) {
        FromAddress from(address(4, i / 5 + 1));
        names.push_back("player" + std::to_string(i));
        const HttpResult d = http_request(port, http::verb::post, "/api/account",
                                          json{{"username", names.back()}, {"password", "a fine passphrase"}}.dump());
        if (d.status != 201) throw std::runtime_error("sign-up: " + d.body);
        Headers device;
        for (const std::string& c : d.set_cookies)
            if (c.starts_with("echecs_device=")) device = {{"Cookie", c.substr(0, c.find(';'))}};
        devices.push_back(device);
    }
    const bool have_devices = !devices.back().empty();
    std::atomic<int> attempts{0}, hashed{0}, busy{0}, refused{0}, other{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> ts;
    for (int a = 0; a < addresses; ++a)
        for (int c = 0; c < concurrent; ++c)
            ts.emplace_back([&, a, c] {
                FromAddress from(address(1, a + 1));
                for (int i = 0; !stop; ++i) {
                    const std::string name =
                        "nobody" + std::to_string(a) + "x" + std::to_string(c) + "x" + std::to_string(i);
                    try {
                        const HttpResult r =
                            http_request(port, http::verb::post, "/api/login",
                                         json{{"username", name}, {"password", "wrong password 1"}}.dump());
                        ++attempts;
                        if (r.status == 429) {
                            ++refused;
                            break;  // within the limits: this connection stops
                        }
                        if (r.status == 503) {  // the queue full: again when the server says
                            ++busy;
                            const std::string after = r.header("Retry-After");
                            const int s = after.empty() ? 1 : std::clamp(std::atoi(after.c_str()), 1, 5);
                            for (int k = 0; k < 10 * s && !stop; ++k) std::this_thread::sleep_for(100ms);
                        } else {
                            (r.status == 401 ? hashed : other)++;
                        }
                    } catch (const std::exception&) {
                    }
                }
            });
    std::this_thread::sleep_for(1s);  // the queue full
    std::vector<double> mine;
    std::mutex m;
    std::vector<std::pair<double, double>> logins, known;  // (sent at, s into the flood; ms)
    std::atomic<int> failed{0};
    std::thread me([&] {
        while (!stop) {
            const auto t0 = Clock::now();
            try {
                const int s = http_request(port, http::verb::get, "/api/account", "", token, session).status;
                if (s == 200) mine.push_back(ms_since(t0));
            } catch (const std::exception&) {
            }
            std::this_thread::sleep_for(200ms);
        }
    });
    // Every second, each on its own thread from a new address: a real
    // log-in without a device cookie, and one with (when the server gave one).
    const auto start = Clock::now(), end = start + std::chrono::milliseconds(long(seconds * 1000));
    std::vector<std::thread> real;
    auto log_in = [&](const std::string& from_address, const std::string& user, const Headers& h,
                      std::vector<std::pair<double, double>>& into) {
        FromAddress from(from_address);
        const auto t0 = Clock::now();
        try {
            const int s = http_request(port, http::verb::post, "/api/login",
                                       json{{"username", user}, {"password", "a fine passphrase"}}.dump(), "", h)
                              .status;
            std::lock_guard lock(m);
            if (s == 200)
                into.emplace_back(std::chrono::duration<double>(t0 - start).count(), ms_since(t0));
            else
                ++failed;
        } catch (const std::exception&) {
            ++failed;
        }
    };
    for (int k = 0; Clock::now() < end && k < players; ++k) {
        real.emplace_back([&, k] { log_in(address(2, k % 250 + 1), names[std::size_t(k)], {}, logins); });
        if (have_devices)
            real.emplace_back([&, k] {
                const std::size_t i = std::size_t(players + k);
                log_in(address(3, k % 250 + 1), names[i], devices[i], known);
            });
        std::this_thread::sleep_for(1s);
    }
    for (auto& t : real) t.join();
    stop = true;
    me.join();
    // Each flooding address's first hash makes a round in which every
    // address, a new one too, is equal: the log-ins sent in it, and after.
    const double round_s = 12;
    auto split = [&](const std::vector<std::pair<double, double>>& v) {
        std::vector<double> early, late;
        for (const auto& [at, ms] : v) (at < round_s ? early : late).push_back(ms);
        return "sent in the first " + std::to_string(int(round_s)) + " s: " + figures(early) +
               ", later: " + figures(late);
    };
    for (auto& t : ts) t.join();
    return std::to_string(addresses) + " addresses x " + std::to_string(concurrent) + ": " +
           std::to_string(attempts.load()) + " log-ins answered (" + std::to_string(hashed.load()) + " hashed, " +
           std::to_string(busy.load()) + " busy 503, " + std::to_string(refused.load()) + " refused 429, " +
           std::to_string(other.load()) + " other); a first-time real log-in " + split(logins) +
           (!have_devices ? std::string("; no device cookie given")
                          : "; a real log-in with its device cookie " + split(known)) +
           (failed ? " (" + std::to_string(failed) + " failed)" : "") +
           "; GET /api/account with a session: " + figures(mine);
}

}  // namespace echecs::bench24

// Rated games ended while the server is killed (SIGKILL) or stopped
// (SIGTERM) at random moments, on one database (a SQLite file or a
// PostgreSQL URL): every end a player was told of (a state with status
// "over" received) has its rating changes after the restart, on the game,
// in both players' lists and rating histories, once; and every stored rating
// is what Glicko-2 (the project's library) gives from the recorded rated
// games, in their recorded order. The body of RatedKill.* (SQLite,
// rated_kill_test.cpp) and ServerOnPostgres.RatedEndsSurviveKills.
//
// The random moments come from one seed, printed first; replay a failure
// with ECHECS_TEST_SEED=<seed>.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "accounts_client.h"
#include "server/accounts/glicko2.h"
#include "server/accounts/sql_conn.h"
#include "server_fixture.h"

namespace echecs::test::rated_kill {

constexpr int ACCOUNTS = 10;        // 45 pairs
constexpr int GAMES_PER_ROUND = 5;  // a round: one game for each account, pairs of a round-robin
constexpr int MAX_ROUNDS = 45;      // each pair at most 5 games (the rule against farming)
constexpr int WANTED_ENDS = 50;     // acknowledged rated ends, at least
constexpr auto ROUND_WAIT = std::chrono::seconds(60);
constexpr auto RECORD_WAIT = std::chrono::seconds(30);

inline const json BLITZ5 = {{"kind", "realtime"}, {"minutes", 5}, {"increment", 3}};  // chess blitz

// The round-robin's pairs of round r (circle method, 10 players, 9 rounds).
inline std::vector<std::pair<int, int>> pairs_of_round(int r) {
    std::vector<std::pair<int, int>> p;
    const int n = ACCOUNTS - 1, k = r % n;
    p.emplace_back(ACCOUNTS - 1, k);
    for (int i = 1; i < ACCOUNTS / 2; ++i) p.emplace_back((k + i) % n, (k - i + n) % n);
    // Colours alternate with the round.
    if (r % 2)
        for (auto& [a, b] : p) std::swap(a, b);
    return p;
}

struct Game {
    std::string id;
    int white = 0, black = 0;
    bool acked = false;
};

// The server: a child process on `db`, started again until it is up (a
// PostgreSQL connection of a killed server may hold its lock a moment).
inline std::unique_ptr<ServerProcess> start_server(const std::string& db, const std::string& web) {
    std::string last;
    for (int i = 0; i < 40; ++i) {
        try {
            return std::make_unique<ServerProcess>(std::vector<std::string>{"--port", "0", "--db", db, "--web-root",
                                                                            web, "--http-rate", "10000", "--quiet",
                                                                            "--fast-password-hash"});
        } catch (const std::exception& e) {
            last = e.what();
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    }
    ADD_FAILURE() << "the server did not start within 10 s: " << last;
    return nullptr;
}

// One rated game from seek to end, on its own sockets; `acked` is called
// when a player is told the game is over. Throws when the server goes away.
inline void play_one(std::uint16_t port, const Player& w, const Player& b, int plan, Game& g, std::mutex& m,
                     const std::function<void()>& acked) {
    const std::string id =
        seek_and_accept(port, w, b, {{"variant", "chess"}, {"time", BLITZ5}, {"color", "white"}, {"rated", true}});
    if (id.empty()) throw std::runtime_error("no game");
    {
        std::lock_guard lock(m);
        g.id = id;
    }
    WsClient cw(port, w.token), cb(port, b.token);
    for (WsClient* c : {&cw, &cb}) {
        c->send({{"type", "join"}, {"game", id}});
        c->recv_until([&](const json& j) { return j["type"] == "state" && j["game"] == id; });
    }
    // plan 0: the fool's mate; 1: White resigns after 1.e4 e5; 2: Black does.
    const std::vector<std::string> moves =
        plan == 0 ? std::vector<std::string>{"f2f3", "e7e5", "g2g4", "d8h4"} : std::vector<std::string>{"e2e4", "e7e5"};
    json last;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        WsClient& mover = i % 2 ? cb : cw;
        mover.send({{"type", "move"}, {"game", id}, {"move", moves[i]}, {"ply", int(i)}});
        last = mover.state(id, int(i) + 1);  // the mover's acknowledgement
    }
    if (plan != 0) {
        WsClient& resigner = plan == 1 ? cw : cb;
        resigner.send({{"type", "resign"}, {"game", id}});
        last = resigner.state_where(id, [](const json& s) { return s["status"] == "over"; });
    }
    if (last["status"] != "over") throw std::runtime_error("game " + id + " not over: " + last.dump());
    acked();
}

// What Glicko-2 gives from the recorded rated games, checked against the
// stored ratings and each recorded game's before and after; the rated
// games' ids (each recorded exactly once).
inline std::map<std::string, std::pair<double, double>> check_ratings_recomputed(const std::string& db, int round) {
    using namespace server::accounts;
    SCOPED_TRACE("recomputing the ratings after round " + std::to_string(round));
    auto conn = sql_conn(db);
    struct Row {
        std::int64_t account, opponent, ended_at;
        std::string color, result;
        double before, after;
    };
    std::map<std::string, std::vector<Row>> games;  // rated games by id
    for (const SqlRow& r :
         conn->query("SELECT game_id, account_id, opponent_id, ended_at, color, result, rating_before, rating_after "
                     "FROM account_games WHERE rated = ? AND variant = 'chess' AND speed = 'blitz'",
                     {true}))
        games[r.s(0)].push_back({r.i(1), r.i(2), r.i(3), r.s(4), r.s(5), r.d(6), r.d(7)});
    // Each rated game: two rows, one per colour, the same end, one history point each.
    std::map<std::string, int> history;
    for (const SqlRow& r :
         conn->query("SELECT game_id, COUNT(*) FROM account_rating_history WHERE variant = 'chess' AND speed = 'blitz' "
                     "GROUP BY game_id"))
        history[r.s(0)] = int(r.i(1));
    std::vector<std::pair<std::int64_t, std::string>> order;
    for (const auto& [id, rows] : games) {
        EXPECT_EQ(rows.size(), 2u) << "game " << id << " recorded for " << rows.size() << " players";
        if (rows.size() != 2) continue;
        EXPECT_NE(rows[0].color, rows[1].color) << id;
        EXPECT_EQ(rows[0].ended_at, rows[1].ended_at) << id;
        EXPECT_EQ(history[id], 2) << "game " << id << ": history points";
        order.emplace_back(rows[0].ended_at, id);
    }
    for (const auto& [id, n] : history) EXPECT_TRUE(games.count(id)) << "a history point of no rated game: " << id;
    // The recorded order: by end (the games of a round have disjoint players).
    std::sort(order.begin(), order.end());
    const GlickoParams p;
    struct State {
        Glicko g;
        int games = 0;
        std::int64_t last = 0;
    };
    std::map<std::int64_t, State> st;
    std::map<std::string, std::pair<double, double>> diffs;  // game -> white, black before/after shown diff
    for (const auto& [t, id] : order) {
        const auto& rows = games[id];
        const Row& wr = rows[0].color == "white" ? rows[0] : rows[1];
        const Row& br = rows[0].color == "white" ? rows[1] : rows[0];
        State& w = st.try_emplace(wr.account, State{new_rating(p)}).first->second;
        State& b = st.try_emplace(br.account, State{new_rating(p)}).first->second;
        const double ws = wr.result == "win" ? 1 : wr.result == "draw" ? 0.5 : 0;
        const Glicko wa = rate_game(w.g, w.games ? double(t - w.last) / 86400000.0 : 0.0, b.g, ws, p);
        const Glicko ba = rate_game(b.g, b.games ? double(t - b.last) / 86400000.0 : 0.0, w.g, 1 - ws, p);
        EXPECT_NEAR(wr.before, w.g.rating, 1e-6) << "game " << id << ": white's rating before";
        EXPECT_NEAR(br.before, b.g.rating, 1e-6) << "game " << id << ": black's rating before";
        EXPECT_NEAR(wr.after, wa.rating, 1e-6) << "game " << id << ": white's rating after";
        EXPECT_NEAR(br.after, ba.rating, 1e-6) << "game " << id << ": black's rating after";
        diffs[id] = {double(std::lround(wa.rating) - std::lround(w.g.rating)),
                     double(std::lround(ba.rating) - std::lround(b.g.rating))};
        w.g = wa, b.g = ba;
        w.games += 1, b.games += 1;
        w.last = b.last = t;
    }
    std::size_t rated_accounts = 0;
    for (const SqlRow& r : conn->query("SELECT account_id, rating, deviation, volatility, games FROM account_ratings "
                                       "WHERE variant = 'chess' AND speed = 'blitz'")) {
        const auto it = st.find(r.i(0));
        if (it == st.end()) {
            EXPECT_EQ(r.i(4), 0) << "account " << r.i(0) << " has games but no rated game recorded";
            continue;
        }
        ++rated_accounts;
        EXPECT_NEAR(r.d(1), it->second.g.rating, 1e-6) << "account " << r.i(0);
        EXPECT_NEAR(r.d(2), it->second.g.deviation, 1e-6) << "account " << r.i(0);
        EXPECT_NEAR(r.d(3), it->second.g.volatility, 1e-9) << "account " << r.i(0);
        EXPECT_EQ(r.i(4), it->second.games) << "account " << r.i(0);
    }
    EXPECT_EQ(rated_accounts, st.size()) << "accounts with rated games but no stored rating";
    return diffs;
}

inline void rated_ends_survive_kills(const std::string& db) {
    TempDir dir;
    const std::string web = (dir.path() / "web").string();
    const char* seed_env = std::getenv("ECHECS_TEST_SEED");
    const unsigned seed = seed_env ? unsigned(std::strtoul(seed_env, nullptr, 10)) : std::random_device{}();
    std::cout << "rated kill test: seed " << seed << " (replay: ECHECS_TEST_SEED=" << seed << ")" << std::endl;
    std::mt19937 rng(seed);
    const auto started = std::chrono::steady_clock::now();

    auto srv = start_server(db, web);
    ASSERT_TRUE(srv);
    // At most 5 sign-ups an hour from one address, counted in memory: a
    // restart between each five.
    std::vector<Player> players;
    for (int i = 0; i < ACCOUNTS; ++i) {
        if (i && i % 5 == 0) {
            srv->kill9();
            srv = start_server(db, web);
            ASSERT_TRUE(srv);
        }
        players.push_back(sign_up(srv->port(), "Killer" + std::to_string(i)));
    }
    ASSERT_FALSE(::testing::Test::HasFailure()) << "the accounts were not all created";

    std::vector<Game> acked;  // every acknowledged end, all rounds
    int kills[2] = {0, 0};    // SIGKILL, SIGTERM
    int ended_unacked = 0, round = 0;
    for (; round < MAX_ROUNDS && (int(acked.size()) < WANTED_ENDS || !kills[0] || !kills[1]); ++round) {
        SCOPED_TRACE("round " + std::to_string(round) + ", seed " + std::to_string(seed));
        const auto pairs = pairs_of_round(round);
        // The moment of the kill: after `wanted` acknowledgements and `delay_ms`
        // more; with none wanted, `delay_ms` (up to 500) after the round's
        // start, while games are created and played.
        const int wanted = std::uniform_int_distribution<int>(0, GAMES_PER_ROUND)(rng);
        const int delay_ms = std::uniform_int_distribution<int>(0, wanted ? 40 : 500)(rng);
        const bool sigterm = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
        std::vector<int> plans;
        for (std::size_t i = 0; i < pairs.size(); ++i) plans.push_back(std::uniform_int_distribution<int>(0, 2)(rng));

        std::vector<Game> games(pairs.size());
        std::mutex m;
        std::condition_variable cv;
        int acks = 0;
        std::atomic<bool> killing{false};
        std::vector<std::string> errors;
        std::vector<std::thread> threads;
        const std::uint16_t port = srv->port();
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            games[i].white = pairs[i].first, games[i].black = pairs[i].second;
            threads.emplace_back([&, i] {
                try {
                    play_one(port, players[pairs[i].first], players[pairs[i].second], plans[i], games[i], m, [&] {
                        std::lock_guard lock(m);
                        if (killing) return;  // told after the kill began: not counted
                        games[i].acked = true;
                        ++acks;
                        cv.notify_all();
                    });
                } catch (const std::exception& e) {
                    std::lock_guard lock(m);
                    if (!killing) errors.push_back(std::string(e.what()));
                    cv.notify_all();
                }
            });
        }
        {
            std::unique_lock lock(m);
            const bool reached = cv.wait_for(lock, ROUND_WAIT, [&] { return acks >= wanted || !errors.empty(); });
            EXPECT_TRUE(reached) << wanted << " acknowledged ends not received within 60 s (" << acks << ")";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));  // a random moment, not a wait for anything
        {
            std::lock_guard lock(m);
            killing = true;
        }
        if (sigterm) {
            EXPECT_EQ(srv->terminate(), 0) << "the server's exit status after SIGTERM";
        } else {
            srv->kill9();
        }
        ++kills[sigterm];
        for (auto& t : threads) t.join();
        for (const auto& e : errors) ADD_FAILURE() << "before the kill: " << e;
        if (!errors.empty()) break;
        int round_acked = 0;
        for (const Game& g : games)
            if (g.acked) acked.push_back(g), ++round_acked;

        srv = start_server(db, web);
        ASSERT_TRUE(srv);
        const std::uint16_t p2 = srv->port();
        // The pending-result recorder: every game of the round that is over
        // (acknowledged or not) gets its rating changes. Bounded: 60 s.
        std::string missing;
        int ended = 0;
        const bool recorded = wait_until(
            [&] {
                missing.clear();
                ended = 0;
                for (const Game& g : games) {
                    if (g.id.empty()) continue;
                    json s = get_json(p2, "/api/games/" + g.id);
                    if (g.acked && s["status"] != "over")
                        missing += " " + g.id + " (acknowledged over, now " + s.dump().substr(0, 300) + ")";
                    if (s["status"] != "over") continue;
                    ++ended;
                    if (s["rated"] != true || s["rating_diff"].is_null())
                        missing +=
                            " " + g.id + " (rating_diff " + s["rating_diff"].dump() + "; the accounts hold " +
                            std::to_string(server::accounts::sql_conn(db)
                                               ->query("SELECT COUNT(*) FROM account_games WHERE game_id = ?", {g.id})
                                               .at(0)
                                               .i(0)) +
                            " rows of it)";
                }
                if (!missing.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return missing.empty();
            },
            RECORD_WAIT);
        ASSERT_TRUE(recorded) << (sigterm ? "SIGTERM" : "SIGKILL") << " after " << wanted << " + " << delay_ms
                              << " ms: the restarted server did not record the results within 30 s:" << missing;
        ended_unacked += ended - round_acked;
        std::cout << "round " << round << ": " << (sigterm ? "SIGTERM" : "SIGKILL") << " after " << wanted
                  << " acknowledged ends + " << delay_ms << " ms; acknowledged " << round_acked << ", over " << ended
                  << " of " << games.size() << std::endl;

        // Every acknowledged end so far: its changes on the game equal to
        // Glicko-2's from the recorded games, in both players' lists and
        // histories, once.
        const auto diffs = check_ratings_recomputed(db, round);
        std::vector<std::set<std::string>> listed(ACCOUNTS), in_history(ACCOUNTS);
        for (int i = 0; i < ACCOUNTS; ++i) {
            json list = get_json(p2, "/api/users/" + players[i].name + "/games?limit=100");
            for (json& g : list["games"]) {
                EXPECT_TRUE(listed[i].insert(g["id"].get<std::string>()).second)
                    << players[i].name << " lists " << g["id"] << " twice";
                EXPECT_EQ(g["rated"], true) << g.dump();
                EXPECT_TRUE(g.contains("rating_diff")) << g.dump();
            }
            json prof = profile(p2, players[i].name);
            for (json& h : prof["history"]["chess"]["blitz"])
                EXPECT_TRUE(in_history[i].insert(h["game"].get<std::string>()).second)
                    << players[i].name << "'s history has " << h["game"] << " twice";
            EXPECT_EQ(prof["ratings"]["chess"]["blitz"]["games"], int(in_history[i].size())) << players[i].name;
            EXPECT_EQ(listed[i].size(), in_history[i].size()) << players[i].name << ": every listed game rated";
        }
        for (const Game& g : acked) {
            for (int seat : {g.white, g.black}) {
                EXPECT_TRUE(listed[seat].count(g.id)) << g.id << " not in " << players[seat].name << "'s games";
                EXPECT_TRUE(in_history[seat].count(g.id)) << g.id << " not in " << players[seat].name << "'s history";
            }
            EXPECT_TRUE(diffs.count(g.id)) << "acknowledged end " << g.id << " is not a recorded rated game";
        }
        // The shown changes of the round's games, against the recomputed ones.
        for (const Game& g : games) {
            const auto d = diffs.find(g.id);
            if (g.id.empty() || d == diffs.end()) continue;
            json s = get_json(p2, "/api/games/" + g.id);
            EXPECT_EQ(s["rating_diff"]["white"], int(d->second.first)) << g.id;
            EXPECT_EQ(s["rating_diff"]["black"], int(d->second.second)) << g.id;
        }
        if (::testing::Test::HasFailure()) break;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << "rated kill test: " << acked.size() << " acknowledged rated ends (" << ended_unacked
              << " more ended unacknowledged) in " << round << " rounds; kills: " << kills[0] << " SIGKILL, "
              << kills[1] << " SIGTERM; " << seconds << " s; seed " << seed << std::endl;
    EXPECT_GE(int(acked.size()), WANTED_ENDS);
    EXPECT_GT(kills[0], 0);
    EXPECT_GT(kills[1], 0);
}

}  // namespace echecs::test::rated_kill

// Broker benchmark (not a test): the two candidates for the messages between
// the nodes of a site (docs/CLUSTER.md), under the same load, side by side in
// one run: PostgreSQL LISTEN/NOTIFY and Redis publish/subscribe. One
// publisher sends game-state-sized messages at a fixed rate to one channel
// that three subscribers (the three nodes) listen to; each subscriber measures
// the delay from publishing to delivery. The broker's CPU time is read from
// /proc (Redis: its process; PostgreSQL: every process named "postgres",
// so run it with only the throwaway cluster up). docs/PERFORMANCE.md,
// "Messages between nodes".
//
//   PG_URL=$(sh scripts/postgres-test.sh start | tail -n 1)
//   server_broker --pg "$PG_URL" [--seconds 3] [--rates 1000,5000,20000] [--bytes 600]
//
// Redis: a throwaway redis-server (Debian redis-server) on 127.0.0.1:26379,
// started and stopped by the benchmark, without persistence.
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
constexpr int SUBSCRIBERS = 3;
constexpr int REDIS_PORT = 26379;
constexpr const char* CHANNEL = "echecs_bench";

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// The message: its send time, then filler to the size of a game's state.
std::string message(std::size_t bytes) {
    std::string m = std::to_string(now_ns()) + " ";
    if (m.size() < bytes) m.append(bytes - m.size(), 'x');
    return m;
}

// CPU seconds (user + system) of the processes whose name is `comm`, or of `pid`.
double cpu_seconds(const std::string& comm, pid_t pid = 0) {
    const double tick = double(sysconf(_SC_CLK_TCK));
    double total = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        if (pid && name != std::to_string(pid)) continue;
        std::ifstream f(e.path() / "stat");
        std::string line;
        if (!std::getline(f, line)) continue;
        const auto open = line.find('('), close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos) continue;
        if (!pid && line.substr(open + 1, close - open - 1) != comm) continue;
        std::istringstream rest(line.substr(close + 2));
        std::string field;
        double utime = 0, stime = 0;
        for (int k = 3; k <= 15 && rest >> field; ++k) {
            if (k == 14) utime = std::stod(field);
            if (k == 15) stime = std::stod(field);
        }
        total += (utime + stime) / tick;
    }
    return total;
}

struct Result {
    std::vector<double> delays_ms;  // every delivery to every subscriber
    std::size_t sent = 0;
    double broker_cpu = 0, seconds = 0;
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

// One subscriber's loop: `receive(timeout_ms)` returns the next message or "".
void collect(const std::function<std::string(int)>& receive, std::size_t expected, std::atomic<bool>& stop,
             std::vector<double>& out, std::mutex& m) {
    std::vector<double> mine;
    while (mine.size() < expected && !stop) {
        const std::string msg = receive(100);
        if (msg.empty()) continue;
        mine.push_back(double(now_ns() - std::stoll(msg)) / 1e6);
    }
    std::lock_guard lock(m);
    out.insert(out.end(), mine.begin(), mine.end());
}

// Publishes `rate` messages a second for `seconds` while SUBSCRIBERS threads
// collect them; `subscribe` makes a receive function on its own connection.
Result run(int rate, double seconds, std::size_t bytes,
           const std::function<std::function<std::string(int)>()>& subscribe,
           const std::function<void(const std::string&)>& publish, const std::function<double()>& cpu) {
    Result r;
    const std::size_t n = std::size_t(rate * seconds);
    std::vector<std::function<std::string(int)>> receivers;
    for (int i = 0; i < SUBSCRIBERS; ++i) receivers.push_back(subscribe());
    std::atomic<bool> stop = false;
    std::mutex m;
    std::vector<std::thread> threads;
    for (auto& rec : receivers) threads.emplace_back([&, rec] { collect(rec, n, stop, r.delays_ms, m); });
    const double cpu0 = cpu();
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < n; ++i) {
        std::this_thread::sleep_until(t0 + std::chrono::nanoseconds(std::int64_t(1e9 * double(i) / rate)));
        publish(message(bytes));
        ++r.sent;
    }
    // The deliveries still in flight: at most 5 s more.
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < deadline) {
        {
            std::lock_guard lock(m);
            if (r.delays_ms.size() >= n * SUBSCRIBERS) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (Clock::now() > deadline) break;
    }
    stop = true;
    for (auto& t : threads) t.join();
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.broker_cpu = cpu() - cpu0;
    return r;
}

void report(const char* broker, int rate, const Result& r) {
    const std::size_t expected = r.sent * SUBSCRIBERS;
    std::printf("| %s | %d | %zu | %zu | %.2f | %.2f | %.2f | %.1f |\n", broker, rate, r.sent,
                expected - std::min(expected, r.delays_ms.size()), percentile(r.delays_ms, 0.5),
                percentile(r.delays_ms, 0.99), percentile(r.delays_ms, 1.0),
                r.sent ? 1e6 * r.broker_cpu / double(r.sent) : 0.0);
    std::fflush(stdout);
}

// ---- PostgreSQL LISTEN/NOTIFY ----

struct PgListener : pqxx::notification_receiver {
    std::vector<std::string> inbox;
    PgListener(pqxx::connection_base& c) : pqxx::notification_receiver(c, CHANNEL) {}
    void operator()(const std::string& payload, int) override { inbox.push_back(payload); }
};

std::function<std::string(int)> pg_subscriber(const std::string& url) {
    auto conn = std::make_shared<pqxx::connection>(url);
    auto listener = std::make_shared<PgListener>(*conn);
    auto next = std::make_shared<std::size_t>(0);
    return [conn, listener, next](int timeout_ms) -> std::string {
        if (*next == listener->inbox.size()) {
            listener->inbox.clear(), *next = 0;
            conn->await_notification(0, timeout_ms * 1000);
            if (listener->inbox.empty()) return "";
        }
        return listener->inbox[(*next)++];
    };
}

// ---- Redis publish/subscribe ----

using RedisPtr = std::shared_ptr<redisContext>;

RedisPtr redis_connect() {
    for (int attempt = 0; attempt < 100; ++attempt) {  // the server starting: up to 5 s
        redisContext* c = redisConnect("127.0.0.1", REDIS_PORT);
        if (c && !c->err) return RedisPtr(c, redisFree);
        if (c) redisFree(c);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("redis-server did not answer on 127.0.0.1:" + std::to_string(REDIS_PORT) + " within 5 s");
}

std::function<std::string(int)> redis_subscriber() {
    RedisPtr c = redis_connect();
    freeReplyObject(redisCommand(c.get(), "SUBSCRIBE %s", CHANNEL));
    return [c](int timeout_ms) -> std::string {
        timeval tv{0, timeout_ms * 1000};
        redisSetTimeout(c.get(), tv);
        void* reply = nullptr;
        if (redisGetReply(c.get(), &reply) != REDIS_OK || !reply) {
            c->err = 0;  // a timeout: the connection stays usable
            return "";
        }
        auto* r = static_cast<redisReply*>(reply);
        std::string out;
        if (r->type == REDIS_REPLY_ARRAY && r->elements == 3) out.assign(r->element[2]->str, r->element[2]->len);
        freeReplyObject(r);
        return out;
    };
}

pid_t start_redis() {
    std::vector<std::string> args = {
        "redis-server", "--port", std::to_string(REDIS_PORT), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t quiet;  // its log is not the benchmark's output
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int err = posix_spawnp(&pid, "redis-server", &quiet, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&quiet);
    if (err != 0) throw std::runtime_error("redis-server could not be started (apt-get install redis-server)");
    return pid;
}

}  // namespace

int main(int argc, char** argv) {
    std::string pg;
    double seconds = 3;
    std::size_t bytes = 600;
    std::vector<int> rates = {1000, 5000, 20000};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--pg") pg = v;
        if (a == "--seconds") seconds = std::stod(v);
        if (a == "--bytes") bytes = std::stoul(v);
        if (a == "--rates") {
            rates.clear();
            std::istringstream s(v);
            for (std::string r; std::getline(s, r, ',');) rates.push_back(std::stoi(r));
        }
    }
    if (pg.empty()) {
        std::fprintf(stderr, "usage: server_broker --pg URL [--seconds S] [--rates R1,R2] [--bytes B]\n");
        return 2;
    }
    std::printf("%d subscribers, messages of %zu bytes, %.0f s a rate\n\n", SUBSCRIBERS, bytes, seconds);
    std::printf("| broker | messages/s | sent | lost | p50 ms | p99 ms | max ms | broker CPU µs/message |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    const pid_t redis = start_redis();
    int status = 0;
    try {
        pqxx::connection pub_pg(pg);
        RedisPtr pub_redis = redis_connect();
        for (int rate : rates) {
            report("PostgreSQL NOTIFY", rate,
                   run(
                       rate, seconds, bytes, [&] { return pg_subscriber(pg); },
                       [&](const std::string& m) {
                           pqxx::nontransaction w(pub_pg);
                           w.exec_params("SELECT pg_notify($1, $2)", CHANNEL, m);
                       },
                       [] { return cpu_seconds("postgres"); }));
            report("Redis PUBLISH", rate,
                   run(
                       rate, seconds, bytes, redis_subscriber,
                       [&](const std::string& m) {
                           freeReplyObject(redisCommand(pub_redis.get(), "PUBLISH %s %b", CHANNEL, m.data(), m.size()));
                       },
                       [&] { return cpu_seconds("", redis); }));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "server_broker: %s\n", e.what());
        status = 1;
    }
    kill(redis, SIGTERM);
    waitpid(redis, nullptr, 0);
    return status;
}

// `echecs serve`: the options come from a configuration file (--config FILE,
// plain `key = value` lines) and from the command line (--key VALUE or
// --key=VALUE), which overrides the file. The table OPTIONS below is the one
// list of them: a config key is its flag without "--", and adding an option is
// one line there. Hand-written rather than CLI11's INI reader so that an error
// names the file's line and the key (docs/SERVER.md).
#include "server/app/entry.h"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "platform/paths.h"

namespace echecs {

namespace serve {
namespace {

using server::ServerOptions;
// Reads a value into the options; returns what is wrong with it, or "".
using Setter = std::function<std::string(ServerOptions&, std::string_view)>;

struct Option {
    const char* key;
    const char* value;  // placeholder in --help; nullptr: a switch (`--key` alone means true)
    const char* help;
    Setter set;
};

// A value in an error message, quoted, control characters escaped.
std::string shown(std::string_view v) {
    std::string out = "'";
    for (unsigned char c : v) {
        if (c < 0x20 || c == 0x7f) {
            static constexpr char hex[] = "0123456789abcdef";
            out += {'\\', 'x', hex[c >> 4], hex[c & 15]};
        } else {
            out += char(c);
        }
    }
    return out + "'";
}

template <class T>
Setter integer(T ServerOptions::*field, long long lo, long long hi, long long scale = 1) {
    return [=](ServerOptions& o, std::string_view v) -> std::string {
        long long n = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec != std::errc() || end != v.data() + v.size() || n < lo || n > hi)
            return shown(v) + " is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
        o.*field = T(n * scale);
        return "";
    };
}

Setter decimal(double ServerOptions::*field, double lo, double hi) {
    return [=](ServerOptions& o, std::string_view v) -> std::string {
        double x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc() || end != v.data() + v.size() || !(x >= lo && x <= hi)) {
            std::ostringstream msg;
            msg << shown(v) << " is not a number from " << lo << " to " << hi;
            return msg.str();
        }
        o.*field = x;
        return "";
    };
}

Setter text(std::string ServerOptions::*field) {
    return [=](ServerOptions& o, std::string_view v) -> std::string {
        if (v.empty()) return "empty value";
        o.*field = std::string(v);
        return "";
    };
}

// http:// or https://, a host, then an optional port and path: the Origin
// check compares browsers' Origin headers with its scheme://host[:port].
Setter url(std::string ServerOptions::*field) {
    return [=](ServerOptions& o, std::string_view v) -> std::string {
        const std::size_t sep = v.find("://");
        const std::string_view scheme = v.substr(0, sep == std::string_view::npos ? 0 : sep);
        if (scheme != "http" && scheme != "https") return shown(v) + " is not an http:// or https:// address";
        const std::string_view host = v.substr(sep + 3, v.find_first_of("/:", sep + 3) - (sep + 3));
        if (host.empty() || v.find_first_of(" \t?#@") != std::string_view::npos)
            return shown(v) + " is not an address (scheme://host[:port][/path])";
        o.*field = std::string(v);
        return "";
    };
}

// Comma-separated, spaces around the commas ignored.
Setter list(std::vector<std::string> ServerOptions::*field) {
    return [=](ServerOptions& o, std::string_view v) -> std::string {
        std::vector<std::string> items;
        while (!v.empty()) {
            const auto comma = v.find(',');
            std::string_view item = v.substr(0, comma);
            while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
            while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
            if (item.empty()) return "an empty item in " + shown(v);
            items.emplace_back(item);
            if (comma == std::string_view::npos) break;
            v.remove_prefix(comma + 1);
        }
        if (items.empty()) return "empty value";
        o.*field = std::move(items);
        return "";
    };
}

// true/yes/on/1 or false/no/off/0; `negate` stores the opposite (quiet -> log).
Setter boolean(bool ServerOptions::*field, bool negate = false) {
    return [=](ServerOptions& o, std::string_view v) -> std::string {
        bool b;
        if (v == "true" || v == "yes" || v == "on" || v == "1")
            b = true;
        else if (v == "false" || v == "no" || v == "off" || v == "0")
            b = false;
        else
            return shown(v) + " is not true or false";
        o.*field = b != negate;
        return "";
    };
}

const std::vector<Option>& options() {
    static const std::vector<Option> table = {
        {"host", "ADDRESS", "address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every interface)",
         text(&ServerOptions::host)},
        {"port", "PORT", "TCP port, 0 for any free one (default 8080)", integer(&ServerOptions::port, 0, 65535)},
        {"db", "PATH|URL", "SQLite database file, or postgresql://user@host/dbname (default echecs.db)",
         text(&ServerOptions::db)},
        {"durable", nullptr, "SQLite: sync every commit to disk, so a power cut loses nothing (slower)",
         boolean(&ServerOptions::durable)},
        {"web-root", "DIR", "the built web client (default: share/echecs/web of the installation or build tree)",
         text(&ServerOptions::web_root)},
        {"engine-threads", "N", "threads computing the computer's moves and analyses at once (default 1)",
         integer(&ServerOptions::engine_threads, 1, 64)},
        {"work-threads", "N",
         "threads for heavy work in all: the engine's, and password hashing on the others (default 0: one per core, "
         "at most 8; at least engine-threads + 1)",
         integer(&ServerOptions::work_threads, 0, 64)},
        {"engine-nice", "N",
         "how much lower the heavy work's threads' priority is than the server's (nice, 0-19; default 5): searches "
         "and password hashes yield the cores to the players' moves",
         integer(&ServerOptions::engine_nice, 0, 19)},
        {"engine-queue", "N", "engine requests waiting at most; beyond, new games against it are refused (default 256)",
         integer(&ServerOptions::engine_queue, 1, 100000)},
        {"tournament-minute-seconds", "S",
         "how long a minute of a new tournament's starts_in lasts (default 60; shorter for tests and demonstrations)",
         integer(&ServerOptions::tournament_minute_ms, 1, 60, 1000)},
        {"first-move-seconds", "S", "real-time games: time each side has for its first move (default 30)",
         integer(&ServerOptions::first_move_ms, 1, 3600, 1000)},
        {"max-message", "BYTES", "largest WebSocket message accepted (default 16384)",
         integer(&ServerOptions::max_message, 256, 16 << 20)},
        {"rate-per-second", "N", "WebSocket messages per second allowed per connection (default 30)",
         decimal(&ServerOptions::rate_per_second, 0.1, 100000)},
        {"rate-burst", "N", "WebSocket messages allowed at once above that rate (default 60)",
         decimal(&ServerOptions::rate_burst, 1, 100000)},
        {"heartbeat-ms", "MS", "how often the server notes it is up, to pause clocks while it is down (default 1000)",
         integer(&ServerOptions::heartbeat_ms, 100, 600000)},
        {"public-url", "URL",
         "the address players reach the server at: PGN Site tags, and the only origin browsers may act from "
         "(default http:// and Host, when Host is an address or localhost)",
         url(&ServerOptions::public_url)},
        {"allowed-origins", "LIST",
         "other origins (scheme://host[:port], comma-separated, * for any) allowed to open "
         "WebSockets and send API requests (default: the served host only)",
         list(&ServerOptions::allowed_origins)},
        {"trust-forwarded-for", nullptr,
         "take the client address from X-Forwarded-For (only behind a proxy setting it)",
         boolean(&ServerOptions::trust_forwarded_for)},
        {"max-connections-per-ip", "N", "sockets open at once per client address (default 64)",
         integer(&ServerOptions::max_connections_per_ip, 1, 1000000)},
        {"max-connections", "N", "sockets open at once in all; 0: the descriptor limit minus a reserve (default 0)",
         integer(&ServerOptions::max_connections, 0, 10000000)},
        {"max-finished-rooms", "N",
         "finished games kept in memory for their watchers; the least used leave first; 0: no cap (default 2000)",
         integer(&ServerOptions::max_finished_rooms, 0, 10000000)},
        {"max-analysis-streams", "N",
         "continuous analyses running at once, all clients together (each holds a 16 MB table; default 16)",
         integer(&ServerOptions::max_streams, 1, 100000)},
        {"http-rate-per-second", "N", "API requests per second per client address (default 20)",
         decimal(&ServerOptions::http_rate_per_second, 0.1, 1e9)},
        {"http-burst", "N", "API requests allowed at once above that rate (default 100)",
         decimal(&ServerOptions::http_burst, 1, 1e9)},
        {"eval-rate-per-second", "N", "evaluations (/api/analysis/eval) per second per client address (default 1)",
         decimal(&ServerOptions::eval_rate_per_second, 0.01, 1e9)},
        {"eval-burst", "N", "evaluations allowed at once above that rate (default 10)",
         decimal(&ServerOptions::eval_burst, 1, 1e9)},
        {"engine-queue-per-client", "N", "evaluations waiting or running per client address (default 2)",
         integer(&ServerOptions::engine_queue_per_client, 1, 100000)},
        {"max-engine-games-per-player", "N",
         "live games against the computer per player: browser, or account when logged in (default 4)",
         integer(&ServerOptions::max_engine_games_per_player, 1, 100000)},
        {"max-engine-games-per-ip", "N", "live games against the computer per client address (default 40)",
         integer(&ServerOptions::max_engine_games_per_ip, 1, 100000)},
        {"max-seeks-per-ip", "N", "open seeks per client address (default 20)",
         integer(&ServerOptions::max_seeks_per_ip, 1, 100000)},
        {"seek-grace-seconds", "S", "a seek lasts this long after its creator's last connection closed (default 20)",
         integer(&ServerOptions::seek_grace_ms, 1, 86400, 1000)},
        {"claim-seconds", "S", "a real-time player gone this long: the opponent may claim the game (default 30)",
         integer(&ServerOptions::claim_realtime_ms, 5, 86400, 1000)},
        {"ws-send-budget", "BYTES",
         "bytes queued to a WebSocket that does not read before it is dropped (default "
         "2097152)",
         integer(&ServerOptions::ws_send_budget, 16384, 1LL << 30)},
        {"no-chat", nullptr, "no chat in games or in the lobby (the web client hides it)",
         boolean(&ServerOptions::chat, true)},
        {"quiet", nullptr, "no log lines on the standard error", boolean(&ServerOptions::log, true)},
        {"cluster-node", "NAME",
         "run as one node of several on one PostgreSQL database, joined by Redis (docs/CLUSTER.md); NAME: letters, "
         "digits, - and _",
         text(&ServerOptions::cluster_node)},
        {"redis", "HOST:PORT", "cluster: the Redis server between the nodes (default 127.0.0.1:6379)",
         text(&ServerOptions::redis)},
        {"lease-ms", "MS",
         "cluster: how long a node's hold on a game lasts unrenewed; renewed every fifth (default 3000)",
         integer(&ServerOptions::lease_ms, 500, 600000)},
    };
    return table;
}

const Option* find_option(std::string_view key) {
    for (const Option& o : options())
        if (key == o.key) return &o;
    return nullptr;
}

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// A key as written in a file: web_root and web-root are the same key.
std::string normal_key(std::string_view k) {
    std::string s(k);
    for (char& c : s)
        if (c == '_') c = '-';
    return s;
}

}  // namespace

std::string apply_config(std::string_view text, const std::string& name, Settings& s) {
    std::map<std::string, int> seen;  // key -> line
    int line_no = 0;
    for (std::size_t pos = 0; pos <= text.size();) {
        const std::size_t nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++line_no;
        const std::string where = name + ":" + std::to_string(line_no) + ": ";
        line = trim(line);
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        if (line.find('\0') != std::string_view::npos) return where + "NUL byte in the line";
        const auto eq = line.find('=');
        if (eq == std::string_view::npos)
            return where + "not a `key = value` line: " + shown(line.substr(0, 80)) +
                   (line[0] == '[' ? " (sections are not used)" : "");
        const std::string key = normal_key(trim(line.substr(0, eq)));
        std::string_view value = trim(line.substr(eq + 1));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        if (key.empty()) return where + "no key before '='";
        const Option* o = find_option(key);
        if (!o) return where + "unknown key " + shown(key.substr(0, 80)) + " (echecs serve --help lists them)";
        if (auto [it, fresh] = seen.emplace(key, line_no); !fresh)
            return where + key + ": set twice (first on line " + std::to_string(it->second) + ")";
        if (std::string err = o->set(s.options, value); !err.empty()) return where + key + ": " + err;
        if (key == "web-root") s.web_root_from = name + ":" + std::to_string(line_no);
    }
    return "";
}

std::string parse_args(const std::vector<std::string>& args, Settings& s) {
    // Split --key=value, and find --config first: the file's values are
    // overridden by the flags, wherever --config stands.
    struct Arg {
        std::string key;
        std::optional<std::string> value;
    };
    std::vector<Arg> flags;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            s.help = true;
            return "";
        }
        if (a.rfind("--", 0) != 0 || a.size() == 2) return "unknown argument " + shown(a);
        Arg f;
        const auto eq = a.find('=');
        f.key = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        if (eq != std::string::npos) f.value = a.substr(eq + 1);
        const Option* o = find_option(f.key);
        if (!o && f.key != "config")
            return "unknown option " + shown("--" + f.key) + " (echecs serve --help lists them)";
        const bool needs_value = f.key == "config" || o->value;
        if (needs_value && !f.value) {
            if (i + 1 >= args.size()) return "--" + f.key + " needs a value";
            f.value = args[++i];
        }
        if (f.key == "config") {
            if (!s.config.empty()) return "--config given twice";
            s.config = *f.value;
        } else {
            flags.push_back(std::move(f));
        }
    }
    if (!s.config.empty()) {
        std::error_code ec;
        if (std::filesystem::is_directory(s.config, ec))
            return "the configuration file " + shown(s.config) + " is a directory";
        std::ifstream in(s.config, std::ios::binary);
        if (!in) return "cannot read the configuration file " + shown(s.config);
        // Bounded: a configuration is a few lines, not /dev/zero.
        constexpr std::size_t kMaxConfig = 1 << 20;
        std::string text(kMaxConfig + 1, '\0');
        in.read(text.data(), std::streamsize(text.size()));
        text.resize(std::size_t(in.gcount()));
        if (text.size() > kMaxConfig) return "the configuration file " + shown(s.config) + " is over 1 MiB";
        if (std::string err = apply_config(text, s.config, s); !err.empty()) return err;
    }
    for (const Arg& f : flags) {
        const Option* o = find_option(f.key);
        if (std::string err = o->set(s.options, f.value.value_or("true")); !err.empty())
            return "--" + f.key + ": " + err;
        if (f.key == "web-root") s.web_root_from = "--web-root";
    }
    return "";
}

std::string usage() {
    std::ostringstream out;
    out << "usage: echecs serve [--config FILE] [--KEY VALUE ...]\n"
           "Runs the game server. Every option is a flag --KEY (--KEY=VALUE also works) and a\n"
           "`KEY = VALUE` line of the configuration file; flags override the file.\n\n"
           "  --config FILE              read options from FILE first (see docs/SERVER.md)\n";
    for (const Option& o : options()) {
        std::string flag = std::string("--") + o.key + (o.value ? std::string(" ") + o.value : "");
        out << "  " << flag << std::string(flag.size() < 25 ? 27 - flag.size() : 2, ' ') << o.help << "\n";
    }
    out << "Switches (no VALUE) take true/false in the file: `durable = true`.\n";
    return out.str();
}

std::vector<std::string> option_keys() {
    std::vector<std::string> keys;
    for (const Option& o : options()) keys.emplace_back(o.key);
    return keys;
}

}  // namespace serve

namespace {

// The web client: --web-root or the configuration file, else share/echecs/web
// of the installation or build tree (src/cli/paths.h). Says which.
std::string choose_web_root(serve::Settings& s) {
    if (!s.web_root_from.empty()) return s.options.web_root + " (from " + s.web_root_from + ")";
    std::vector<std::filesystem::path> tried;
    if (auto found = paths::find_share("web", "index.html", &tried)) {
        s.options.web_root = found->path.string();
        return s.options.web_root + (found->build_tree ? " (build tree)" : " (installed)");
    }
    s.options.web_root = tried.empty() ? "web" : tried.front().string();
    std::string where;
    for (const auto& t : tried) where += "\n  " + t.string();
    return "none: no built web client found, only the API is served; looked in:" + where +
           "\n  (build it with `cd web && npm ci && npm run build`, or pass --web-root DIR)";
}

// The database's URL as printed (a log is read by more people than the
// configuration file): a password in it is replaced by ***.
std::string without_password(const std::string& url) {
    const auto scheme = url.find("://");
    if (scheme == std::string::npos) return url;
    const auto at = url.find('@', scheme + 3);
    const auto colon = url.find(':', scheme + 3);
    if (at == std::string::npos || colon == std::string::npos || colon > at) return url;
    return url.substr(0, colon + 1) + "***" + url.substr(at);
}

}  // namespace

int serve_main(const std::vector<std::string>& args) {
    serve::Settings s;
    if (std::string err = serve::parse_args(args, s); !err.empty()) {
        std::cerr << "echecs serve: " << err << "\n";
        return 2;
    }
    if (s.help) {
        std::cout << serve::usage();
        return 0;
    }
    if (!s.options.cluster_node.empty()) {
        const std::string& n = s.options.cluster_node;
        const bool name_ok = n.size() <= 32 && std::all_of(n.begin(), n.end(), [](char c) {
                                 return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
                             });
        std::string err;
        if (!name_ok)
            err = "cluster-node " + serve::shown(n.substr(0, 40)) + ": at most 32 letters, digits, - and _";
        else if (!s.options.db.starts_with("postgresql://") && !s.options.db.starts_with("postgres://"))
            err = "cluster-node needs a PostgreSQL database (db = postgresql://...): SQLite takes one server only";
        if (!err.empty()) {
            std::cerr << "echecs serve: " << err << "\n";
            return 2;
        }
    }
    // Sockets are descriptors: the soft limit (often 1024) rises to the hard one.
    if (rlimit rl{}; getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    const std::string web = choose_web_root(s);
    try {
        server::Server srv(s.options);
        std::cout << "echecs server listening on http://" << s.options.host << ":" << srv.port() << "/\n"
                  << "  database: " << without_password(s.options.db) << "\n"
                  << "  web root: " << web << "\n";
        if (!s.config.empty()) std::cout << "  configuration: " << s.config << "\n";
        std::cout << std::flush;
        srv.run(true);
        std::cout << "echecs server stopped" << std::endl;
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "echecs serve: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace echecs

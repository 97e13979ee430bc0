#include "server/play/chat_reports.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "server/app/util.h"
#include "server/storage/storage.h"

namespace echecs::server {

namespace {

constexpr const char* USAGE =
    "usage: echecs reports [--db PATH|URL] [--all] [--limit N] [--json]\n"
    "       echecs reports [--db PATH|URL] --resolve ID [--note TEXT]\n"
    "\n"
    "The chat lines players reported, newest first: the open ones, or all with --all.\n"
    "  --db PATH|URL   the server's database: a SQLite file, or postgresql://... (default echecs.db)\n"
    "  --all           resolved reports too\n"
    "  --limit N       at most N reports (1-10000, default 50)\n"
    "  --json          one JSON object per line instead of text\n"
    "  --resolve ID    mark report ID resolved (with --note, the operator's words)\n";

struct Args {
    std::string db = "echecs.db";
    bool all = false, as_json = false, help = false;
    int limit = 50;
    std::int64_t resolve = 0;
    std::string note;
};

// Whole numbers in [lo, hi] only; throws std::invalid_argument naming the option.
std::int64_t whole(const std::string& option, const std::string& v, std::int64_t lo, std::int64_t hi) {
    std::size_t used = 0;
    std::int64_t x = 0;
    try {
        x = std::stoll(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != v.size() || x < lo || x > hi)
        throw std::invalid_argument(option + ": '" + v + "' is not a whole number from " + std::to_string(lo) + " to " +
                                    std::to_string(hi));
    return x;
}

Args parse(const std::vector<std::string>& args) {
    Args a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& k = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw std::invalid_argument(k + " needs a value");
            return args[++i];
        };
        if (k == "--help" || k == "-h")
            a.help = true;
        else if (k == "--db")
            a.db = value();
        else if (k == "--all")
            a.all = true;
        else if (k == "--json")
            a.as_json = true;
        else if (k == "--limit")
            a.limit = int(whole(k, value(), 1, 10000));
        else if (k == "--resolve")
            a.resolve = whole(k, value(), 1, std::numeric_limits<std::int64_t>::max());
        else if (k == "--note")
            a.note = value();
        else
            throw std::invalid_argument("unknown argument '" + k + "'");
    }
    if (a.db.empty()) throw std::invalid_argument("--db is empty");
    if (!a.note.empty() && !a.resolve) throw std::invalid_argument("--note goes with --resolve");
    if (a.note.size() > 1000) throw std::invalid_argument("--note: at most 1000 bytes");
    return a;
}

bool is_postgres(const std::string& db) { return db.starts_with("postgresql://") || db.starts_with("postgres://"); }

std::string utc(std::int64_t ms) {
    const std::time_t t = std::time_t(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

nlohmann::json report_json(const StoredReport& r) {
    return {{"id", r.id},
            {"at", r.at},
            {"game", r.game_id},
            {"room", r.room},
            {"author", r.author},
            {"author_key", r.author_key},
            {"reporter", r.reporter},
            {"text", r.text},
            {"reason", r.reason},
            {"resolved_at", r.resolved_at ? nlohmann::json(r.resolved_at) : nlohmann::json(nullptr)},
            {"resolution", r.resolution}};
}

// Text shown as JSON strings: quoted and escaped, so that a reported line
// never writes control sequences to the operator's terminal.
std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

void print(std::ostream& out, const StoredReport& r) {
    out << "report " << r.id << "  " << utc(r.at) << "  "
        << (r.game_id.empty() ? std::string("lobby") : "game " + r.game_id + " (" + r.room + ")") << "  "
        << (r.resolved_at ? "resolved " + utc(r.resolved_at) : std::string("open")) << "\n"
        << "  author:   " << quoted(r.author) << " [" << r.author_key << "]\n"
        << "  line:     " << quoted(r.text) << "\n"
        << "  reporter: [" << r.reporter << "]" << (r.reason.empty() ? "" : "  reason: " + quoted(r.reason)) << "\n";
    if (r.resolved_at && !r.resolution.empty()) out << "  note:     " << quoted(r.resolution) << "\n";
}

}  // namespace

int reports_main(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    Args a;
    try {
        a = parse(argv);
    } catch (const std::invalid_argument& e) {
        err << "reports: " << e.what() << "\n" << USAGE;
        return 2;
    }
    if (a.help) {
        out << USAGE;
        return 0;
    }
    if (!is_postgres(a.db) && !std::filesystem::exists(a.db)) {
        err << "reports: no database " << a.db << " (give the server's --db)\n";
        return 2;
    }
    try {
        std::unique_ptr<Storage> st = open_storage(a.db, false, false);
        if (a.resolve) {
            if (!st->resolve_report(a.resolve, a.note, now_ms())) {
                err << "reports: no open report " << a.resolve << " (unknown, or resolved already)\n";
                return 2;
            }
            out << "report " << a.resolve << " resolved\n";
            return 0;
        }
        const std::vector<StoredReport> reports = st->list_reports(a.limit, !a.all);
        for (const StoredReport& r : reports) {
            if (a.as_json)
                out << report_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            else
                print(out, r);
        }
        if (!a.as_json && reports.empty()) out << (a.all ? "no reports\n" : "no open reports\n");
        return 0;
    } catch (const std::exception& e) {
        err << "reports: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace echecs::server

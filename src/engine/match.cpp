// `echecs match`: games between two UCI engines with a time control, an
// opening set, adjudication by the rules of the game (game.h), PGN output,
// a progress line and the result as score and Elo with a 95% error bar.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

#include "core/game.h"
#include "core/notation.h"
#include "core/pgn.h"
#include "elo.h"
#include "entry.h"
#include "protocol_util.h"
#include "uci_process.h"

namespace echecs {

using namespace engine;

namespace {

constexpr const char* USAGE =
    "usage: echecs match --engine cmd=CMD [name=NAME] [option.NAME=VALUE ...] --engine cmd=CMD [...]\n"
    "                    [--variant chess|alice|avalanche] [--games N] [--tc BASE+INC (seconds)]\n"
    "                    [--movetime MS] [--depth N] [--concurrency N] [--openings FILE] [--pgn FILE]\n"
    "                    [--maxplies N] [--margin MS] [--no-en-passant] [--verbose]\n"
    "                    [--sprt [elo0=E0] [elo1=E1] [alpha=A] [beta=B]]\n"
    "Plays N games (each opening twice, colours swapped) between the two engines.\n"
    "--sprt stops early once the test of Elo E0 (default 0) against E1 (default 10) decides\n"
    "(alpha, beta default 0.05), over game pairs; N is then the most games played.\n"
    "--no-en-passant: for an engine whose rules have no en passant (the Fairy-Stockfish alice branch):\n"
    "a game stops at the first en passant capture and is not counted (PGN result *).\n";

struct EngineSpec {
    std::string cmd, name;
    std::vector<std::pair<std::string, std::string>> options;
};

struct Opening {
    std::string fen;
    std::vector<std::string> moves;
};

struct Settings {
    EngineSpec engines[2];
    Variant variant = Variant::Chess;
    int games = 2;
    std::int64_t base_ms = 10000, inc_ms = 100;
    std::int64_t movetime = 0;
    int depth = 0;
    int concurrency = 1;
    int max_plies = 600;
    std::int64_t margin_ms = 100;
    bool verbose = false;        // each move's time on stderr
    bool no_en_passant = false;  // stop, uncounted, at the first en passant capture
    std::optional<Sprt> sprt;
    std::string openings_path, pgn_path;
    std::vector<Opening> openings;
};

struct GameRecord {
    int white = 0;  // engine index playing White
    Outcome outcome = Outcome::Ongoing;
    std::string reason;
    std::string pgn;
    bool counted = true;  // false: stopped where the engines' rules differ (--no-en-passant)
};

std::string today() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    return buf;
}

std::optional<std::int64_t> parse_seconds_ms(const std::string& s) {
    // "10", "0.1", "2.5" seconds -> ms
    try {
        size_t used = 0;
        const double v = std::stod(s, &used);
        if (used != s.size() || v < 0 || v > 1e6) return std::nullopt;
        return std::int64_t(v * 1000 + 0.5);
    } catch (...) {
        return std::nullopt;
    }
}

// Reads one opening per line: UCI moves from the start position, or
// "fen <FEN> [moves ...]". '#' starts a comment.
std::vector<Opening> read_openings(const std::string& path, Variant v, std::string& error) {
    std::ifstream f(path);
    std::vector<Opening> out;
    if (!f) {
        error = "cannot read openings file '" + path + "'";
        return out;
    }
    int n = 0;
    for (std::string line; std::getline(f, line);) {
        ++n;
        if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
        auto w = split_words(line);
        if (w.empty()) continue;
        Opening o;
        o.fen = std::string(Position::START_FEN);
        size_t i = 0;
        if (w[0] == "fen") {
            o.fen.clear();
            for (i = 1; i < w.size() && w[i] != "moves"; ++i) o.fen += (o.fen.empty() ? "" : " ") + w[i];
            if (i < w.size()) ++i;
        }
        o.moves.assign(w.begin() + long(i), w.end());
        try {
            Game g(v, o.fen);
            for (const auto& m : o.moves) g.play_uci(m);
        } catch (const std::exception& e) {
            error = path + ":" + std::to_string(n) + ": " + e.what();
            return {};
        }
        out.push_back(std::move(o));
    }
    if (out.empty()) error = "no openings in '" + path + "'";
    return out;
}

class Worker {
public:
    Worker(const Settings& s) : s_(s) {}

    // Starts both engines; false with `error` set on failure.
    bool start(std::string& error) {
        for (int i = 0; i < 2; ++i) {
            try {
                p_[i] = std::make_unique<UciProcess>(s_.engines[i].cmd);
            } catch (const std::exception& e) {
                error = e.what();
                return false;
            }
            UciProcess& p = *p_[i];
            p.send("uci");
            bool ok = false;
            while (auto l = p.read_line(10000)) {
                if (l->rfind("id name ", 0) == 0 && s_.engines[i].name.empty()) names_[i] = l->substr(8);
                if (*l == "uciok") {
                    ok = true;
                    break;
                }
            }
            if (!ok) {
                error = "engine '" + s_.engines[i].cmd + "' did not answer 'uci' with 'uciok'";
                return false;
            }
            if (!s_.engines[i].name.empty()) names_[i] = s_.engines[i].name;
            if (names_[i].empty()) names_[i] = s_.engines[i].cmd;
            for (const auto& [k, v] : s_.engines[i].options) p.send("setoption name " + k + " value " + v);
            if (s_.variant != Variant::Chess)
                p.send("setoption name UCI_Variant value " + std::string(variant_name(s_.variant)));
            p.send("isready");
            if (!p.wait_for("readyok", 10000)) {
                error = "engine '" + s_.engines[i].cmd + "' did not answer 'isready'";
                return false;
            }
        }
        return true;
    }
    const std::string& name(int i) const { return names_[i]; }

    GameRecord play(int round, const Opening& o, int white) {
        GameRecord rec;
        rec.white = white;
        Game game(s_.variant, o.fen);
        for (const auto& m : o.moves) game.play_uci(m);
        const std::string start_fen = game.start_fen();
        std::string moves_text;
        for (const auto& m : o.moves) moves_text += " " + m;
        for (auto& p : p_) {
            p->send("ucinewgame");
            p->send("isready");
            p->wait_for("readyok", 10000);
        }
        std::int64_t clock[2] = {s_.base_ms, s_.base_ms};  // by colour
        GameResult result;
        std::string reason;
        for (int ply = 0;; ++ply) {
            result = game.result();
            if (result.over()) {
                reason = std::string(termination_name(result.termination));
                break;
            }
            if (int(game.moves().size()) >= s_.max_plies) {
                result = {Outcome::Draw, Termination::Aborted};
                reason = "adjudication: " + std::to_string(s_.max_plies) + " plies";
                break;
            }
            const Color stm = game.position().side_to_move();
            const int e = stm == WHITE ? white : 1 - white;
            UciProcess& p = *p_[e];
            p.send("position fen " + start_fen + (moves_text.empty() ? "" : " moves" + moves_text));
            std::int64_t wait_ms;
            if (s_.movetime > 0) {
                p.send("go movetime " + std::to_string(s_.movetime));
                wait_ms = s_.movetime + 5000;
            } else if (s_.depth > 0) {
                p.send("go depth " + std::to_string(s_.depth));
                wait_ms = 600000;
            } else {
                p.send("go wtime " + std::to_string(std::max<std::int64_t>(1, clock[WHITE])) + " btime " +
                       std::to_string(std::max<std::int64_t>(1, clock[BLACK])) + " winc " + std::to_string(s_.inc_ms) +
                       " binc " + std::to_string(s_.inc_ms));
                wait_ms = clock[stm] + s_.margin_ms + 1000;
            }
            const auto t0 = std::chrono::steady_clock::now();
            auto line = p.wait_for("bestmove", wait_ms);
            const std::int64_t used =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
            if (s_.verbose)
                std::fprintf(stderr, "round %d ply %d %s: %lld ms (clock %lld) %s\n", round, ply, names_[e].c_str(),
                             static_cast<long long>(used), static_cast<long long>(clock[stm]),
                             line ? line->c_str() : "(none)");
            const Outcome loss = stm == WHITE ? Outcome::BlackWins : Outcome::WhiteWins;
            if (s_.movetime == 0 && s_.depth == 0) {
                clock[stm] -= used;
                if (clock[stm] < -s_.margin_ms || !line) {
                    result = {can_mate(game.position(), ~stm) ? loss : Outcome::Draw, Termination::TimeForfeit};
                    reason = "time forfeit";
                    if (line) p.send("stop");
                    break;
                }
                clock[stm] += s_.inc_ms;
            }
            if (!line) {
                result = {loss, Termination::Aborted};
                reason = p.alive() ? "no bestmove in time" : "engine exited";
                break;
            }
            const auto w = split_words(*line);
            const std::string mv = w.size() >= 2 ? w[1] : "";
            try {
                const Move played = game.play_uci(mv);
                moves_text += " " + mv;
                if (s_.no_en_passant && played.kind() == EN_PASSANT) {
                    // The other engine would not know the position any more.
                    result = {Outcome::Ongoing, Termination::None};
                    reason = "not counted: en passant " + mv + " by " + names_[e];
                    rec.counted = false;
                    break;
                }
            } catch (const NotationError& err) {
                result = {loss, Termination::Aborted};
                reason = "illegal move '" + mv + "' by " + names_[e];
                break;
            }
        }
        rec.outcome = result.outcome;
        rec.reason = reason;
        std::vector<std::pair<std::string, std::string>> tags = {
            {"Event", "echecs match"},        {"Site", "echecs"},       {"Date", today()},
            {"Round", std::to_string(round)}, {"White", names_[white]}, {"Black", names_[1 - white]},
            {"EchecsTermination", reason},
        };
        if (s_.movetime == 0 && s_.depth == 0) {
            std::ostringstream tc;
            tc << s_.base_ms / 1000.0 << "+" << s_.inc_ms / 1000.0;
            tags.emplace_back("TimeControl", tc.str());
        }
        try {
            rec.pgn = write_pgn(game, tags, result);
        } catch (const std::exception& ex) {
            rec.pgn = std::string("; PGN not written: ") + ex.what() + "\n";
        }
        return rec;
    }

private:
    const Settings& s_;
    std::unique_ptr<UciProcess> p_[2];
    std::string names_[2];
};

bool parse_args(const std::vector<std::string>& args, Settings& s, std::string& error) {
    int engines = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) {
                error = a + " needs a value";
                return "";
            }
            return args[++i];
        };
        auto int_value = [&](int lo, int hi, int& out) {
            const std::string v = value();
            auto n = parse_int(v);
            if (!n || *n < lo || *n > hi) {
                error = a + ": '" + v + "' is not a number in " + std::to_string(lo) + ".." + std::to_string(hi);
                return false;
            }
            out = int(*n);
            return true;
        };
        if (a == "--engine") {
            if (engines == 2) {
                error = "exactly two --engine are needed";
                return false;
            }
            EngineSpec& e = s.engines[engines++];
            while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
                const std::string kv = args[++i];
                const auto eq = kv.find('=');
                if (eq == std::string::npos) {
                    error = "--engine: '" + kv + "' is not KEY=VALUE";
                    return false;
                }
                const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
                if (k == "cmd")
                    e.cmd = v;
                else if (k == "name")
                    e.name = v;
                else if (k.rfind("option.", 0) == 0)
                    e.options.emplace_back(k.substr(7), v);
                else {
                    error = "--engine: unknown key '" + k + "' (cmd, name, option.NAME)";
                    return false;
                }
            }
            if (e.cmd.empty()) {
                error = "--engine needs cmd=COMMAND";
                return false;
            }
        } else if (a == "--variant") {
            const std::string v = value();
            auto var = variant_from_name(v);
            if (!var) {
                error = "--variant: " + unknown_variant_message(v);
                return false;
            }
            s.variant = *var;
        } else if (a == "--games") {
            if (!int_value(1, 100000, s.games)) return false;
        } else if (a == "--concurrency") {
            if (!int_value(1, 64, s.concurrency)) return false;
        } else if (a == "--maxplies") {
            if (!int_value(10, 100000, s.max_plies)) return false;
        } else if (a == "--depth") {
            if (!int_value(1, 100, s.depth)) return false;
        } else if (a == "--movetime") {
            int ms = 0;
            if (!int_value(1, 3600000, ms)) return false;
            s.movetime = ms;
        } else if (a == "--margin") {
            int ms = 0;
            if (!int_value(0, 60000, ms)) return false;
            s.margin_ms = ms;
        } else if (a == "--tc") {
            const std::string v = value();
            const auto plus = v.find('+');
            auto base = parse_seconds_ms(v.substr(0, plus));
            auto inc =
                plus == std::string::npos ? std::optional<std::int64_t>(0) : parse_seconds_ms(v.substr(plus + 1));
            if (!base || !inc || *base <= 0) {
                error = "--tc: '" + v + "' is not BASE+INC in seconds (e.g. 10+0.1)";
                return false;
            }
            s.base_ms = *base, s.inc_ms = *inc;
        } else if (a == "--sprt") {
            Sprt t;
            while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
                const std::string kv = args[++i];
                const auto eq = kv.find('=');
                const std::string k = kv.substr(0, eq == std::string::npos ? 0 : eq);
                double* field = k == "elo0"    ? &t.elo0
                                : k == "elo1"  ? &t.elo1
                                : k == "alpha" ? &t.alpha
                                : k == "beta"  ? &t.beta
                                               : nullptr;
                std::optional<double> v;
                if (field && eq != std::string::npos) {
                    try {
                        size_t used = 0;
                        const std::string text = kv.substr(eq + 1);
                        const double d = std::stod(text, &used);
                        if (used == text.size() && std::isfinite(d)) v = d;
                    } catch (...) {
                    }
                }
                if (!field || !v) {
                    error = "--sprt: '" + kv + "' is not elo0=, elo1=, alpha= or beta= with a number";
                    return false;
                }
                *field = *v;
            }
            if (!(t.elo1 > t.elo0) || !(t.alpha > 0 && t.alpha < 0.5) || !(t.beta > 0 && t.beta < 0.5)) {
                error = "--sprt: needs elo1 > elo0 and alpha, beta in (0, 0.5)";
                return false;
            }
            s.sprt = t;
        } else if (a == "--no-en-passant") {
            s.no_en_passant = true;
        } else if (a == "--verbose") {
            s.verbose = true;
        } else if (a == "--openings") {
            s.openings_path = value();
        } else if (a == "--pgn") {
            s.pgn_path = value();
        } else {
            error = "unknown argument '" + a + "'";
            return false;
        }
        if (!error.empty()) return false;
    }
    if (engines != 2) {
        error = "exactly two --engine are needed";
        return false;
    }
    return true;
}

std::string elo_text(const MatchScore& m) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << std::showpos;
    if (m.perfect())
        os << (m.wins ? "+inf" : "-inf") << " (95% bound " << m.elo_bound95() << ")";
    else
        os << m.elo() << std::noshowpos << " +/- " << m.elo_error95();
    return os.str();
}

}  // namespace

int match_main(const std::vector<std::string>& args, std::ostream& out) {
    Settings s;
    std::string error;
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        out << USAGE;
        return args.empty() ? 2 : 0;
    }
    if (!parse_args(args, s, error)) {
        out << "match: " << error << "\n" << USAGE;
        return 2;
    }
    if (s.openings_path.empty()) {
        const std::string def = "data/openings/" + std::string(variant_name(s.variant)) + ".txt";
        if (std::ifstream(def)) s.openings_path = def;
    }
    if (!s.openings_path.empty()) {
        s.openings = read_openings(s.openings_path, s.variant, error);
        if (!error.empty()) {
            out << "match: " << error << "\n";
            return 2;
        }
    } else {
        out << "match: no opening set found (data/openings/" << variant_name(s.variant)
            << ".txt); every game starts from the initial position\n";
        s.openings.push_back({std::string(Position::START_FEN), {}});
    }
    std::ofstream pgn;
    if (!s.pgn_path.empty()) {
        pgn.open(s.pgn_path, std::ios::app);
        if (!pgn) {
            out << "match: cannot write '" << s.pgn_path << "'\n";
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);  // an engine that exits must not end the match

    std::mutex m;
    MatchScore score;  // from the first engine's point of view
    std::atomic<int> next{0};
    int done = 0;
    int uncounted = 0;  // games stopped by --no-en-passant
    std::string names[2];
    std::string failure;
    struct GamePair {
        int games = 0;
        double points = 0;    // the first engine's
        bool counted = true;  // false: one of its games was not counted (the SPRT skips the pair)
    };
    std::vector<GamePair> pair_games(size_t(s.games + 1) / 2);
    Sprt sprt = s.sprt ? *s.sprt : Sprt{};
    int sprt_decision = 0;
    auto run = [&]() {
        Worker w(s);
        std::string err;
        if (!w.start(err)) {
            std::lock_guard<std::mutex> lock(m);
            failure = err;
            return;
        }
        {
            std::lock_guard<std::mutex> lock(m);
            names[0] = w.name(0), names[1] = w.name(1);
        }
        for (;;) {
            const int g = next++;
            if (g >= s.games) return;
            {
                std::lock_guard<std::mutex> lock(m);
                if (!failure.empty()) return;
            }
            const Opening& o = s.openings[size_t(g / 2) % s.openings.size()];
            const GameRecord r = w.play(g + 1, o, g % 2);
            std::lock_guard<std::mutex> lock(m);
            const bool first_white = r.white == 0;
            if (!r.counted)
                ++uncounted;
            else if (r.outcome == Outcome::Draw)
                ++score.draws;
            else if ((r.outcome == Outcome::WhiteWins) == first_white)
                ++score.wins;
            else
                ++score.losses;
            ++done;
            if (pgn) pgn << r.pgn << "\n" << std::flush;
            out << "game " << g + 1 << " " << w.name(r.white) << " - " << w.name(1 - r.white) << " "
                << pgn_result(r.outcome) << " (" << r.reason << ") | " << done << "/" << s.games << " " << names[0]
                << " " << score.wins << "-" << score.losses << "-" << score.draws << " Elo " << elo_text(score);
            auto& pg = pair_games[size_t(g / 2)];
            ++pg.games;
            pg.counted = pg.counted && r.counted;
            pg.points += r.outcome == Outcome::Draw ? 0.5 : ((r.outcome == Outcome::WhiteWins) == first_white ? 1 : 0);
            if (s.sprt && pg.games == 2 && pg.counted) {
                sprt.add_pair(pg.points);
                sprt_decision = sprt.decision();
            }
            if (s.sprt)
                out << " LLR " << std::fixed << std::setprecision(2) << sprt.llr() << " [" << sprt.lower() << ", "
                    << sprt.upper() << "]" << std::defaultfloat;
            out << "\n" << std::flush;
            if (sprt_decision != 0) next = s.games;  // decided: no new game starts
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < std::min(s.concurrency, s.games); ++i) threads.emplace_back(run);
    for (auto& t : threads) t.join();
    if (!failure.empty() && done == 0) {
        out << "match: " << failure << "\n";
        return 1;
    }
    out << "\nScore of " << names[0] << " vs " << names[1] << ": " << score.wins << " - " << score.losses << " - "
        << score.draws << " [" << std::fixed << std::setprecision(3) << score.score() << "] " << score.games() << "\n";
    if (s.no_en_passant) out << "Not counted (stopped at an en passant capture): " << uncounted << "\n";
    out << "Elo difference: " << elo_text(score) << (score.perfect() ? "" : " (95%)") << "\n";
    if (s.sprt) {
        out << "SPRT elo0=" << sprt.elo0 << " elo1=" << sprt.elo1 << " alpha=" << sprt.alpha << " beta=" << sprt.beta
            << ": LLR " << std::fixed << std::setprecision(2) << sprt.llr() << " [" << sprt.lower() << ", "
            << sprt.upper() << "] " << std::defaultfloat
            << (sprt_decision > 0   ? "H1 accepted"
                : sprt_decision < 0 ? "H0 accepted"
                                    : "no decision")
            << "; pairs";
        for (int k = 0; k < 5; ++k) out << " " << sprt.pairs[k];
        out << " (0, 1/2, 1, 3/2, 2 points)\n";
    }
    return 0;
}

}  // namespace echecs

// The UCI loop (the default mode of `echecs`): options, go/ponder/stop and the
// info lines. Longer than most files: one command table and its session state.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <istream>
#include <memory>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "entry.h"
#include "evaluate.h"
#include "kpk.h"
#include "nnue.h"
#include "platform/version.h"
#include "protocol_util.h"
#include "thread.h"

namespace echecs {

using namespace engine;

namespace {

class UciSession {
public:
    explicit UciSession(std::ostream& out) : out_(out) {
        game_ = std::make_unique<Game>(variant_, Position::START_FEN);
    }
    ~UciSession() { finish(true); }

    // Returns false on quit.
    bool command(const std::string& line);
    // End of input: a search with limits is allowed to finish; an infinite one is
    // stopped.
    void finish(bool stop_infinite) {
        if (stop_infinite && infinite_) search_.stop();
        search_.wait();
    }

private:
    void info(const std::string& s) { out_("info string " + s); }
    void set_option(const std::vector<std::string>& w);
    void position(const std::vector<std::string>& w);
    void go(const std::vector<std::string>& w);
    void perft(int depth);
    // Level, UCI_Elo (with UCI_LimitStrength) and Skill Level all pick a
    // point of the levels' ladder (strength.h), in that order of precedence.
    Strength strength() const {
        if (level_ > 0) return level_strength(variant_, level_);
        if (limit_strength_) return strength_for_elo(variant_, elo_);
        return skill_ < 20 ? strength_for_skill(variant_, skill_) : Strength{};
    }

    LineWriter out_;
    Variant variant_ = Variant::Chess;
    std::unique_ptr<Game> game_;
    SearchThread search_;
    bool infinite_ = false;
    int skill_ = 20;
    int level_ = 0;  // 0: not set; 1..MAX_LEVELS: the server's computer levels (clamped to the game's count)
    int multipv_ = 1;
    bool analyse_mode_ = false;
    bool show_wdl_ = false;
    bool limit_strength_ = false;
    int elo_ = 2800;
    Player player_ = Player::Engine;
    std::uint32_t search_off_ = 0;
    // The weights the options ask for; null: the game's committed weights.
    // `Eval Weights` and `Variant Eval Terms` are the hand-written
    // evaluation's: setting either plays with it, network or not (with the
    // network on they would change nothing).
    std::shared_ptr<const EvalWeights> session_weights() const {
        const bool hand_options = !variant_terms_ || !weight_overrides_.empty();
        const bool own_net = use_nnue_ && !hand_options && eval_file_ && eval_file_->shape.variant == variant_;
        if (!hand_options && use_nnue_ && !own_net) return nullptr;
        auto w = std::make_shared<EvalWeights>(default_weights(variant_));
        if (!variant_terms_) *w = without_variant_terms(*w);
        w->apply(weight_overrides_);  // validated by setoption
        if (!use_nnue_ || hand_options) w->network.reset();
        if (own_net) w->network = eval_file_;
        return w;
    }

    // The clock's lag: what the GUI charged for our last move beyond the
    // time we measured (and beyond the budget, when the search overran it).
    struct LagTracker {
        bool valid = false;
        int ply = -1;
        Color us = WHITE;
        std::int64_t time_before = 0, inc = 0, hard = 0;
        std::atomic<std::int64_t> used{0};  // written by the search thread
        std::int64_t estimate = 0;
    } lag_;

    bool variant_terms_ = true;
    std::string weight_overrides_;                    // `Eval Weights`: NAME=VALUE,... over the game's weights
    bool use_nnue_ = true;                            // `Use NNUE`: the game's adopted network, or EvalFile's
    std::shared_ptr<const nnue::Network> eval_file_;  // `EvalFile`: a network for its own game
    std::uint64_t seed_ = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
};

bool UciSession::command(const std::string& line) {
    const std::vector<std::string> w = split_words(line);
    if (w.empty()) return true;
    const std::string& cmd = w[0];
    if (cmd == "quit") {
        search_.stop();
        search_.wait();
        return false;
    }
    if (cmd == "stop") {
        search_.stop();
        return true;
    }
    if (cmd == "isready") {
        out_("readyok");
        return true;
    }
    if (cmd == "ponderhit") {
        // The move we pondered on was played: the search goes on, now on the clock.
        if (search_.pondering())
            search_.ponderhit();
        else
            info("ponderhit: no ponder search running");
        return true;
    }
    // Everything else works on the position: let a running search end first
    // (said only of a search that has not answered and was not told to stop).
    search_.interrupt([&] { info("search running; stopping it before '" + cmd + "'"); });
    search_.wait();

    if (cmd == "uci") {
        out_(std::string("id name ") + version::ENGINE_NAME);
        out_("id author the echecs developers");
        out_("option name Hash type spin default 16 min 1 max 4096");
        out_("option name Threads type spin default 1 min 1 max " + std::to_string(MAX_SEARCH_THREADS));
        out_("option name MultiPV type spin default 1 min 1 max " + std::to_string(MAX_MULTIPV));
        out_("option name Ponder type check default false");
        out_("option name UCI_AnalyseMode type check default false");
        out_("option name UCI_ShowWDL type check default false");
        out_("option name Clear Hash type button");
        std::string combo = "option name UCI_Variant type combo default " + std::string(variant_name(Variant::Chess));
        for (const VariantInfo& g : VARIANTS) combo += " var " + std::string(g.name);
        out_(combo);
        out_("option name Skill Level type spin default 20 min 0 max 20");
        out_("option name UCI_LimitStrength type check default false");
        out_("option name Level type spin default 0 min 0 max " + std::to_string(MAX_LEVELS));
        out_("option name UCI_Elo type spin default 2800 min 400 max 2800");
        out_("option name Fixed Player type combo default none var none var greedy1 var material2");
        out_("option name Search Off type string default <empty>");
        out_("option name Variant Eval Terms type check default true");
        out_("option name Eval Weights type string default <empty>");
        out_("option name Use NNUE type check default true");
        out_("option name EvalFile type string default <empty>");
        out_("uciok");
    } else if (cmd == "ucinewgame") {
        search_.clear_hash();
        kpk::init();
        search_.searcher().clear();
    } else if (cmd == "setoption") {
        set_option(w);
    } else if (cmd == "position") {
        position(w);
    } else if (cmd == "go") {
        go(w);
    } else if (cmd == "d") {
        Position& pos = game_->position();
        std::string s = pos.pretty();
        if (!s.empty() && s.back() == '\n') s.pop_back();
        out_(s);
    } else if (cmd == "eval") {
        const auto w = session_weights();
        const Value v = evaluate(game_->position(), w ? *w : default_weights(game_->position().variant()));
        out_("info string eval " + std::to_string(v) + " cp (side to move)");
    } else {
        info("unknown command '" + cmd + "'");
    }
    return true;
}

void UciSession::set_option(const std::vector<std::string>& w) {
    // setoption name <name words> [value <value words>]
    std::string name, value;
    bool in_value = false;
    if (w.size() < 3 || w[1] != "name") {
        info("setoption: expected 'setoption name <option> [value <value>]'");
        return;
    }
    for (size_t i = 2; i < w.size(); ++i) {
        if (!in_value && w[i] == "value") {
            in_value = true;
            continue;
        }
        std::string& s = in_value ? value : name;
        if (!s.empty()) s += ' ';
        s += w[i];
    }
    const std::string key = lower(name);
    auto spin = [&](int lo, int hi) -> std::optional<int> {
        auto v = parse_int(value);
        if (!v || *v < lo || *v > hi) {
            info("option " + name + ": value '" + value + "' is not a number in " + std::to_string(lo) + ".." +
                 std::to_string(hi));
            return std::nullopt;
        }
        return int(*v);
    };
    auto check = [&]() -> std::optional<bool> {
        const std::string l = lower(value);
        if (l == "true") return true;
        if (l == "false") return false;
        info("option " + name + ": value '" + value + "' is not true or false");
        return std::nullopt;
    };
    if (key == "uci_variant") {
        auto v = variant_from_name(value);
        if (!v) {
            info("option UCI_Variant: " + unknown_variant_message(value));
            return;
        }
        variant_ = *v;
        game_ = std::make_unique<Game>(variant_, Position::START_FEN);
    } else if (key == "hash") {
        if (auto v = spin(1, 4096)) try {
                search_.set_hash(std::size_t(*v));
            } catch (const std::bad_alloc&) {
                info("option Hash: cannot allocate " + value + " MB; the table is now 1 MB");
            }
    } else if (key == "threads") {
        if (auto v = spin(1, MAX_SEARCH_THREADS)) search_.searcher().set_threads(*v);
    } else if (key == "multipv") {
        if (auto v = spin(1, MAX_MULTIPV)) multipv_ = *v;
    } else if (key == "ponder") {
        check();  // the GUI decides when to ponder; nothing to change here
    } else if (key == "uci_analysemode") {
        if (auto v = check()) analyse_mode_ = *v;
    } else if (key == "uci_showwdl") {
        if (auto v = check()) show_wdl_ = *v;
    } else if (key == "clear hash") {
        search_.clear_hash();
    } else if (key == "skill level") {
        if (auto v = spin(0, 20)) skill_ = *v;
    } else if (key == "level") {
        if (auto v = spin(0, MAX_LEVELS)) level_ = *v;
    } else if (key == "uci_limitstrength") {
        if (auto v = check()) limit_strength_ = *v;
    } else if (key == "variant eval terms") {
        if (auto v = check()) variant_terms_ = *v;
    } else if (key == "eval weights") {
        // Checked now so that a mistake is reported where it was made.
        const std::string text = value == "<empty>" ? std::string() : value;
        EvalWeights trial = default_weights(variant_);
        if (const std::string error = trial.apply(text); !error.empty())
            info("option Eval Weights: " + error + "; weights unchanged");
        else
            weight_overrides_ = text;
    } else if (key == "use nnue") {
        if (auto v = check()) use_nnue_ = *v;
    } else if (key == "evalfile") {
        try {
            eval_file_ = value.empty() || value == "<empty>" ? nullptr : nnue::load_file(value);
        } catch (const nnue::NnueError& e) {
            info(std::string("option EvalFile: ") + e.what() + "; network unchanged");
        }
    } else if (key == "uci_elo") {
        if (auto v = spin(400, 2800)) elo_ = *v;
    } else if (key == "fixed player") {
        const std::string l = lower(value);
        if (l == "none")
            player_ = Player::Engine;
        else if (l == "greedy1")
            player_ = Player::Greedy1;
        else if (l == "material2")
            player_ = Player::Material2;
        else
            info("option Fixed Player: unknown player '" + value + "' (none, greedy1, material2)");
    } else if (key == "search off") {
        std::string unknown;
        const std::uint32_t bits = parse_search_features(value == "<empty>" ? "" : value, unknown);
        if (!unknown.empty())
            info("option Search Off: unknown feature '" + unknown +
                 "' (lmr_adjust, futility, lmp, see_prune, singular, cont_hist, aspiration, iir, hist_prune); "
                 "unchanged");
        else
            search_off_ = bits;
    } else {
        info("unknown option '" + name + "'");
    }
}

void UciSession::position(const std::vector<std::string>& w) {
    std::string fen;
    size_t i = 1;
    if (i < w.size() && w[i] == "startpos") {
        fen = std::string(Position::START_FEN);
        ++i;
    } else if (i < w.size() && w[i] == "fen") {
        for (++i; i < w.size() && w[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + w[i];
    } else {
        info("position: expected 'startpos' or 'fen <FEN>'; position unchanged");
        return;
    }
    std::vector<std::string> moves;
    if (i < w.size()) {
        if (w[i] != "moves") {
            info("position: unexpected '" + w[i] + "'; position unchanged");
            return;
        }
        moves.assign(w.begin() + long(i) + 1, w.end());
    }
    try {
        game_ = std::make_unique<Game>(variant_, fen, moves);
    } catch (const FenError& e) {
        info(std::string(e.what()) + "; position unchanged");
    } catch (const NotationError& e) {
        info(std::string("illegal move: ") + e.what() + "; position unchanged");
    }
}

void UciSession::perft(int depth) {
    Position& pos = game_->position();
    MoveList list;
    generate_legal(pos, list);
    std::uint64_t total = 0;
    StateInfo st;
    for (Move m : list) {
        std::uint64_t n = 1;
        if (depth > 1) {
            pos.do_move(m, st);
            n = echecs::perft(pos, depth - 1);
            pos.undo_move(m);
        }
        total += n;
        out_(to_uci(m) + ": " + std::to_string(n));
    }
    out_("\nNodes searched: " + std::to_string(total) + "\n");
}

bool is_go_keyword(const std::string& t) {
    static const char* keywords[] = {"searchmoves", "ponder", "wtime", "btime",    "winc",     "binc", "movestogo",
                                     "depth",       "nodes",  "mate",  "movetime", "infinite", "perft"};
    return std::find(std::begin(keywords), std::end(keywords), t) != std::end(keywords);
}

void UciSession::go(const std::vector<std::string>& w) {
    Limits limits;
    bool ponder = false;
    for (size_t i = 1; i < w.size(); ++i) {
        const std::string& t = w[i];
        if (t == "infinite") {
            limits.infinite = true;
            continue;
        }
        if (t == "ponder") {
            ponder = true;
            continue;
        }
        if (t == "searchmoves") {
            // Moves up to the next keyword; an illegal one is reported and left out.
            while (i + 1 < w.size() && !is_go_keyword(w[i + 1])) {
                const std::string& ms = w[++i];
                try {
                    const Move m = parse_uci(game_->position(), ms);
                    if (std::find(limits.searchmoves.begin(), limits.searchmoves.end(), m) == limits.searchmoves.end())
                        limits.searchmoves.push_back(m);
                } catch (const NotationError& e) {
                    info("go searchmoves: '" + ms + "' is not a legal move here; left out");
                }
            }
            if (limits.searchmoves.empty()) info("go searchmoves: no legal move given; searching all moves");
            continue;
        }
        static const char* numeric[] = {"wtime",    "btime", "winc",  "binc",  "movestogo",
                                        "movetime", "depth", "nodes", "perft", "mate"};
        bool known = false;
        for (const char* n : numeric) known = known || t == n;
        if (!known) {
            info("go: unknown parameter '" + t + "'");
            return;
        }
        // The clock's fields take any number: a GUI sends a negative time
        // when the flag has fallen or a move overran inside its margin, and
        // still waits for a move.
        const bool clock =
            t == "wtime" || t == "btime" || t == "winc" || t == "binc" || t == "movestogo" || t == "movetime";
        auto v = i + 1 < w.size() ? parse_int(w[i + 1]) : std::nullopt;
        if (!v || (*v < 0 && !clock)) {
            info("go: '" + t + "' needs a " + (clock ? "number" : "non-negative number"));
            return;
        }
        ++i;
        if (t == "perft") {
            if (*v < 1 || *v > 12) {
                info("go perft: depth must be 1..12");
                return;
            }
            perft(int(*v));
            return;
        }
        // No time left (zero or negative): 1 ms, the minimum search, which
        // still answers a legal move at once.
        if (t == "wtime")
            limits.time[WHITE] = std::max<std::int64_t>(1, *v);
        else if (t == "btime")
            limits.time[BLACK] = std::max<std::int64_t>(1, *v);
        else if (t == "winc")
            limits.inc[WHITE] = std::max<std::int64_t>(0, *v);
        else if (t == "binc")
            limits.inc[BLACK] = std::max<std::int64_t>(0, *v);
        else if (t == "movestogo")
            limits.movestogo = int(std::clamp<std::int64_t>(*v, 0, 1000));
        else if (t == "movetime")
            limits.movetime = std::max<std::int64_t>(1, *v);
        else if (t == "depth")
            limits.depth = int(std::clamp<std::int64_t>(*v, 1, SEARCH_MAX_PLY - 1));
        else if (t == "nodes")
            limits.nodes = std::uint64_t(std::max<std::int64_t>(1, *v));
        else if (t == "mate")
            limits.mate = int(std::clamp<std::int64_t>(*v, 1, SEARCH_MAX_PLY / 2));
    }
    SearchOptions opt;
    opt.strength = strength();
    opt.player = player_;
    opt.off = search_off_;
    opt.weights = session_weights();
    opt.seed = ++seed_ * 0x9E3779B97F4A7C15ULL;
    opt.multipv = multipv_;
    opt.analyse = analyse_mode_;
    infinite_ = limits.infinite || ponder;
    const Color us = game_->position().side_to_move();
    const int ply = game_->position().game_ply();
    if (limits.use_clock() && !ponder && limits.time[us] > 0) {
        // Our previous move in this game: what the GUI charged for it.
        if (lag_.valid && lag_.us == us && lag_.ply + 2 == ply) {
            const std::int64_t charged = lag_.time_before - limits.time[us] + lag_.inc;
            const std::int64_t used = lag_.used.load();
            const std::int64_t sample =
                std::max<std::int64_t>(0, charged - used) + std::max<std::int64_t>(0, used - lag_.hard);
            lag_.estimate = std::clamp<std::int64_t>(std::max(sample, lag_.estimate * 3 / 4), 0, 1000);
        } else if (lag_.ply + 2 != ply) {
            lag_.estimate = 0;
        }
        limits.lag = lag_.estimate;
        lag_.valid = true;
        lag_.us = us;
        lag_.ply = ply;
        lag_.time_before = limits.time[us];
        lag_.inc = limits.inc[us];
        lag_.hard = allocate_time(limits, us).hard;
        lag_.used = 0;
    } else {
        lag_.valid = false;
    }
    const auto go_received = std::chrono::steady_clock::now();
    search_.start(
        game_->position(), limits, opt,
        [this, wdl = show_wdl_](const SearchInfo& i) {
            std::ostringstream os;
            const std::uint64_t nps = i.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, i.time_ms));
            os << "info depth " << i.depth;
            if (i.kind == SearchInfo::Kind::CurrMove) {
                os << " currmove " << to_uci(i.currmove) << " currmovenumber " << i.currmovenumber;
            } else if (i.kind == SearchInfo::Kind::Progress) {
                os << " seldepth " << i.seldepth << " nodes " << i.nodes << " nps " << nps << " hashfull " << i.hashfull
                   << " time " << i.time_ms;
                if (i.currmove) os << " currmove " << to_uci(i.currmove) << " currmovenumber " << i.currmovenumber;
            } else {
                os << " seldepth " << i.seldepth << " multipv " << i.multipv << " score " << uci_score(i.score);
                if (wdl) os << " wdl " << i.wdl.win << ' ' << i.wdl.draw << ' ' << i.wdl.loss;
                os << " nodes " << i.nodes << " nps " << nps << " hashfull " << i.hashfull << " time " << i.time_ms
                   << " pv";
                for (Move m : i.pv) os << ' ' << to_uci(m);
            }
            out_(os.str());
        },
        [this, go_received](const SearchResult& r) {
            lag_.used = elapsed_ms(go_received);
            if (!r.best) {
                out_("info depth 0 score " + uci_score(r.score));
                out_("bestmove (none)");
                return;
            }
            out_("bestmove " + to_uci(r.best) + (r.ponder ? " ponder " + to_uci(r.ponder) : ""));
        },
        ponder);
}

}  // namespace

int uci_loop(std::istream& in, std::ostream& out) {
    std::string line;
    // The first command decides the protocol.
    while (std::getline(in, line)) {
        const auto w = split_words(line);
        if (w.empty()) continue;
        if (w[0] == "xboard") return xboard_loop(in, out);
        break;
    }
    UciSession session(out);
    if (!in && line.empty()) return 0;
    if (!session.command(line)) return 0;
    while (std::getline(in, line))
        if (!session.command(line)) return 0;
    session.finish(true);
    return 0;
}

}  // namespace echecs

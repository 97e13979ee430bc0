// The CECP (xboard/WinBoard) loop, protocol version 2: playing (with
// pondering under `hard`), analysis mode, time controls, options, and the
// Alice and Avalanche variants as XBoard sees them (xboard_moves.h).
// Longer than most files: one command table and its session state.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <istream>
#include <memory>
#include <mutex>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "entry.h"
#include "kpk.h"
#include "platform/version.h"
#include "protocol_util.h"
#include "thread.h"
#include "xboard_moves.h"

namespace echecs {

using namespace engine;

namespace {

constexpr const char* FEATURES =
    "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 "
    "colors=0 name=0 nps=0 debug=1 memory=1 smp=1 exclude=0 setscore=0 highlight=1 pause=0";

// Seconds with an optional fraction ("0.2", "5") -> ms; -1 when unreadable.
std::int64_t seconds_ms(const std::string& s) {
    if (s.empty() || s.size() > 12) return -1;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !(v >= 0) || v > 1e7) return -1;
    return std::int64_t(std::llround(v * 1000));
}

class XboardSession {
public:
    explicit XboardSession(std::ostream& out) : out_(out) { reset(Variant::Chess, Position::START_FEN); }
    // End of input: a search of our move finishes and plays it; analysis and
    // pondering stop.
    ~XboardSession() {
        if (analyze_ || search_.pondering()) search_.stop();
        search_.wait();
    }
    bool command(const std::string& line);  // false on quit

private:
    void reset(Variant v, std::string_view fen) {
        game_ = std::make_unique<Game>(v, fen);
        variant_ = v;
    }
    void stop_search(bool discard) {
        if (!search_.busy()) {
            search_.wait();
            return;
        }
        discard_ = discard;
        search_.stop();
        search_.wait();
        discard_ = false;
    }
    void user_move(const std::string& s);
    void think();
    void analyse();
    void ponder_after(const SearchResult& r);  // on the search thread, after our move
    SearchOptions options();
    Limits clock_limits(Color us);
    InfoCallback thinking_output();
    void on_search_done(const SearchResult& r, std::chrono::steady_clock::time_point start);
    bool report_result();
    std::int64_t parse_level_time(const std::string& s);
    void set_option(const std::string& name, const std::string& value);
    void pong(const std::string& n);

    LineWriter out_;
    Variant variant_ = Variant::Chess;
    std::unique_ptr<Game> game_;
    std::unique_ptr<Game> ponder_game_;  // game_ plus the move we ponder on
    Move ponder_move_ = Move::none();
    Move hint_ = Move::none();  // guarded by pong_mutex_
    SearchThread search_;
    std::atomic<bool> discard_{false};
    // Read by the search thread when it has moved (whether to ponder).
    std::atomic<bool> force_{false};
    bool analyze_ = false;
    std::atomic<bool> ponder_on_{false};  // hard / easy
    Color engine_color_ = BLACK;
    std::atomic<bool> post_{false};  // read by the search thread
    int mps_ = 0;                    // moves per session, 0 = whole game
    std::int64_t base_ms_ = 60000;   // level base
    std::int64_t inc_ms_ = 0;
    std::int64_t st_ms_ = 0;  // st: fixed time per move
    int sd_ = 0;              // sd: depth limit
    int skill_ = 20, multipv_ = 1;
    // Written by `time`/`otim` while the search thread may update them.
    std::atomic<std::int64_t> my_time_ms_{60000}, opp_time_ms_{60000};
    std::uint64_t seed_ = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    // ping while thinking on our move: pong after the move (the protocol's order).
    std::mutex pong_mutex_;
    bool own_move_ = false;  // guarded by pong_mutex_, as game_ is while a search may change it
    std::vector<std::string> pending_pongs_;
    // The last progress report, for `.` in analysis.
    std::mutex stat_mutex_;
    SearchInfo last_progress_;
    int root_moves_ = 0;
    std::string lifted_;  // Alice: the square of the piece the human holds
};

std::int64_t XboardSession::parse_level_time(const std::string& s) {
    // "5" minutes, "0:30" min:sec, "2.5" minutes.
    const auto colon = s.find(':');
    if (colon == std::string::npos) {
        const std::int64_t ms = seconds_ms(s);
        return ms < 0 ? -1 : ms * 60;
    }
    auto m = parse_int(s.substr(0, colon));
    const std::int64_t sec = seconds_ms(s.substr(colon + 1));
    return m && *m >= 0 && sec >= 0 ? *m * 60000 + sec : -1;
}

bool XboardSession::report_result() {
    const GameResult r = game_->result();
    if (!r.over()) return false;
    std::string why;
    switch (r.termination) {
        case Termination::Checkmate: why = r.outcome == Outcome::WhiteWins ? "White mates" : "Black mates"; break;
        case Termination::AvalancheLoss:
            why = r.outcome == Outcome::WhiteWins ? "Black cannot complete a move" : "White cannot complete a move";
            break;
        default: why = std::string(termination_info(r.termination).reason); break;  // "fifty-move rule"
    }
    out_(std::string(pgn_result(r.outcome)) + " {" + why + "}");
    return true;
}

SearchOptions XboardSession::options() {
    SearchOptions opt;
    opt.seed = ++seed_ * 0x9E3779B97F4A7C15ULL;
    opt.strength = skill_ < 20 ? strength_for_skill(variant_, skill_) : Strength{};
    opt.multipv = multipv_;
    return opt;
}

Limits XboardSession::clock_limits(Color us) {
    Limits limits;
    if (st_ms_ > 0)
        limits.movetime = st_ms_;
    else {
        limits.time[us] = std::max<std::int64_t>(1, my_time_ms_.load());
        limits.time[~us] = std::max<std::int64_t>(1, opp_time_ms_.load());
        limits.inc[us] = limits.inc[~us] = inc_ms_;
        if (mps_ > 0) {
            const int played = int(game_->moves().size() / 2);
            limits.movestogo = mps_ - played % mps_;
        }
    }
    if (sd_ > 0) limits.depth = sd_;
    return limits;
}

InfoCallback XboardSession::thinking_output() {
    return [this](const SearchInfo& i) {
        if (i.kind == SearchInfo::Kind::Progress) {
            std::lock_guard<std::mutex> lock(stat_mutex_);
            last_progress_ = i;
            return;
        }
        if (!post_ || i.kind != SearchInfo::Kind::Line) return;
        int score = i.score;
        if (is_mate_score(i.score))
            score = mate_moves(i.score) > 0 ? 100000 + mate_moves(i.score) : -100000 + mate_moves(i.score);
        std::ostringstream os;
        os << i.depth << ' ' << score << ' ' << i.time_ms / 10 << ' ' << i.nodes;
        for (Move m : i.pv) os << ' ' << to_uci(m);
        out_(os.str());
    };
}

void XboardSession::pong(const std::string& n) {
    std::lock_guard<std::mutex> lock(pong_mutex_);
    if (own_move_)
        pending_pongs_.push_back(n);
    else
        out_("pong " + n);
}

void XboardSession::on_search_done(const SearchResult& r, std::chrono::steady_clock::time_point start) {
    if (discard_) return;
    my_time_ms_ -= elapsed_ms(start);
    std::lock_guard<std::mutex> lock(pong_mutex_);
    if (r.best) {
        const std::string text = xboard_move(game_->position(), r.best);
        game_->play(r.best);
        hint_ = r.ponder;  // before the move: `hint` may follow it at once
        out_("move " + text);
    }
    report_result();
    own_move_ = false;
    for (const std::string& n : pending_pongs_) out_("pong " + n);
    pending_pongs_.clear();
    if (r.best && !force_ && ponder_on_ && r.ponder) ponder_after(r);
}

void XboardSession::ponder_after(const SearchResult& r) {
    // Think on the opponent's time about the position after the reply we
    // expect; if that reply comes, the search becomes our move (usermove).
    if (game_->result().over()) return;
    std::vector<std::string> moves;
    for (Move m : game_->moves()) moves.push_back(to_uci(m));
    moves.push_back(to_uci(r.ponder));
    try {
        ponder_game_ = std::make_unique<Game>(variant_, game_->start_fen(), moves);
    } catch (const std::exception&) {
        return;
    }
    if (ponder_game_->result().over()) return;
    ponder_move_ = r.ponder;
    const Color us = ponder_game_->position().side_to_move();
    const auto start = std::chrono::steady_clock::now();
    search_.then(
        ponder_game_->position(), clock_limits(us), options(), thinking_output(),
        [this, start](const SearchResult& res) { on_search_done(res, start); }, true);
}

void XboardSession::think() {
    if (report_result()) return;
    const Color us = game_->position().side_to_move();
    engine_color_ = us;
    {
        std::lock_guard<std::mutex> lock(pong_mutex_);
        own_move_ = true;
    }
    ponder_move_ = Move::none();
    const auto start = std::chrono::steady_clock::now();
    search_.start(game_->position(), clock_limits(us), options(), thinking_output(),
                  [this, start](const SearchResult& r) { on_search_done(r, start); });
}

void XboardSession::analyse() {
    MoveList l;
    generate_legal(game_->position(), l);
    root_moves_ = l.count;
    {
        std::lock_guard<std::mutex> lock(stat_mutex_);
        last_progress_ = SearchInfo{};
    }
    if (l.empty()) return;
    Limits limits;
    limits.infinite = true;
    SearchOptions opt = options();
    opt.analyse = true;
    search_.start(game_->position(), limits, opt, thinking_output(), nullptr);
}

void XboardSession::user_move(const std::string& s) {
    // A ponder hit: the search on that position goes on, now as our move.
    if (search_.pondering() && ponder_game_) {
        bool hit = false;
        try {
            hit = parse_xboard_move(game_->position(), s) == ponder_move_;
        } catch (const NotationError&) {
        }
        if (hit) {
            game_->play(ponder_move_);
            {
                std::lock_guard<std::mutex> lock(pong_mutex_);
                own_move_ = true;
            }
            search_.ponderhit();
            return;
        }
    }
    stop_search(true);
    Move m;
    try {
        m = parse_xboard_move(game_->position(), s);
    } catch (const NotationError& e) {
        out_("Illegal move: " + s);
        return;
    }
    game_->play(m);
    if (analyze_) {
        analyse();
        return;
    }
    if (report_result()) return;
    if (!force_ && game_->position().side_to_move() == engine_color_) think();
}

void XboardSession::set_option(const std::string& name, const std::string& value) {
    auto v = parse_int(value);
    if (name == "Skill Level" && v && *v >= 0 && *v <= 20)
        skill_ = int(*v);
    else if (name == "MultiPV" && v && *v >= 1 && *v <= MAX_MULTIPV)
        multipv_ = int(*v);
    else if (name == "Clear Hash")
        search_.clear_hash();
    else
        out_("Error (bad option): option " + name + (value.empty() ? "" : "=" + value));
}

bool XboardSession::command(const std::string& line) {
    const std::vector<std::string> w = split_words(line);
    if (w.empty()) return true;
    const std::string& cmd = w[0];
    auto arg = [&](size_t i) { return i < w.size() ? w[i] : std::string(); };

    // Commands answered while the engine thinks.
    if (cmd == "quit") {
        stop_search(true);
        return false;
    }
    if (cmd == "?") {  // move now
        if (!search_.pondering() && !analyze_) {
            search_.stop();
            search_.wait();
        }
        return true;
    }
    if (cmd == "ping") {
        pong(arg(1));
        return true;
    }
    if (cmd == "time" || cmd == "otim") {
        auto v = parse_int(arg(1));
        if (!v) {
            out_("Error (bad number): " + line);
            return true;
        }
        (cmd == "time" ? my_time_ms_ : opp_time_ms_) = *v * 10;
        return true;
    }
    if (cmd == "post" || cmd == "nopost") {
        post_ = cmd == "post";
        return true;
    }
    if (cmd == ".") {
        if (!analyze_) return true;
        std::lock_guard<std::mutex> lock(stat_mutex_);
        const SearchInfo& i = last_progress_;
        std::ostringstream os;
        os << "stat01: " << i.time_ms / 10 << ' ' << i.nodes << ' ' << i.depth << ' '
           << std::max(0, root_moves_ - i.currmovenumber) << ' ' << root_moves_;
        if (i.currmove) os << ' ' << to_uci(i.currmove);
        out_(os.str());
        return true;
    }
    if (cmd == "hint") {
        std::lock_guard<std::mutex> lock(pong_mutex_);  // hint_ is written by the search thread
        if (hint_) out_("Hint: " + to_uci(hint_));
        return true;
    }
    if (cmd == "bk") {
        out_("\techecs has no opening book");
        out_("");
        return true;
    }
    if (cmd == "hard" || cmd == "easy") {
        ponder_on_ = cmd == "hard";
        if (!ponder_on_ && search_.pondering()) stop_search(true);
        return true;
    }
    if (cmd == "lift" || cmd == "put" || cmd == "hover") {
        // Alice: mark the held piece's legal destinations, then say which
        // piece (of which board) arrives where it is put.
        if (variant_info(variant_).boards == 1) return true;
        // game_ is the search's own position while the engine thinks on its move:
        // nothing to mark then (the human cannot move yet).
        std::lock_guard<std::mutex> lock(pong_mutex_);
        if (own_move_) return true;
        if (cmd == "lift") {
            lifted_ = arg(1);
            const std::string h = xboard_highlight(game_->position(), lifted_);
            if (!h.empty()) out_("highlight " + h);
        } else if (cmd == "put") {
            if (const char c = xboard_choice(game_->position(), lifted_, arg(1))) out_(std::string("choice ") + c);
        }
        return true;
    }
    if (cmd == "xboard" || cmd == "accepted" || cmd == "rejected" || cmd == "random" || cmd == "computer" ||
        cmd == "name" || cmd == "rating" || cmd == "ics" || cmd == "draw" || cmd == "otherclock")
        return true;
    if (cmd == "protover") {
        std::string variants;
        for (const VariantInfo& g : VARIANTS) variants += (variants.empty() ? "" : ",") + std::string(g.xboard);
        out_(std::string(FEATURES) + " myname=\"" + version::ENGINE_NAME + "\" variants=\"" + variants + "\"");
        out_("feature option=\"Skill Level -spin " + std::to_string(skill_) + " 0 20\"");
        out_("feature option=\"MultiPV -spin " + std::to_string(multipv_) + " 1 " + std::to_string(MAX_MULTIPV) + "\"");
        out_("feature option=\"Clear Hash -button\"");
        out_("feature done=1");
        return true;
    }

    // Everything else changes the game or the settings: a running search
    // (our move, pondering, analysis) ends first, without moving.
    if (cmd == "usermove" || (cmd.size() >= 4 && std::islower(static_cast<unsigned char>(cmd[0])) &&
                              (std::isdigit(static_cast<unsigned char>(cmd[1])) || cmd[1] == ':'))) {
        user_move(cmd == "usermove" ? arg(1) : cmd);  // protocol 1 style: a bare move
        return true;
    }
    stop_search(true);
    if (cmd == "new") {
        reset(Variant::Chess, Position::START_FEN);
        force_ = false;
        engine_color_ = BLACK;
        st_ms_ = 0;
        sd_ = 0;
        hint_ = Move::none();
        search_.clear_hash();
        kpk::init();
        search_.searcher().clear();
    } else if (cmd == "variant") {
        auto v = variant_from_name(arg(1));
        if (!v) {
            out_("Error (unknown variant): " + arg(1));
            return true;
        }
        reset(*v, Position::START_FEN);
        if (const std::string s = xboard_setup(*v); !s.empty()) out_(s);
        // XBoard 4.9.1 takes the push for a leg of the moving piece that
        // removes the pawn (docs/PROTOCOLS.md): the engine plays on, but the
        // user is told plainly where the game can be seen.
        if (*v == Variant::Avalanche)
            out_(
                "telluser XBoard cannot show or enter Avalanche's pawn push (the pushed pawn vanishes from its "
                "board); play Avalanche in the echecs web client (echecs serve) or a UCI GUI");
    } else if (cmd == "setboard") {
        const std::string fen = line.substr(line.find("setboard") + 8);
        try {
            game_ = std::make_unique<Game>(variant_, fen);
        } catch (const FenError& e) {
            out_(std::string("Error (") + e.what() + "): setboard");
            out_("tellusererror Illegal position");
        }
    } else if (cmd == "go") {
        force_ = false;
        analyze_ = false;
        think();
        return true;
    } else if (cmd == "analyze") {
        analyze_ = true;
    } else if (cmd == "exit") {
        analyze_ = false;
    } else if (cmd == "playother") {
        force_ = false;
        engine_color_ = ~game_->position().side_to_move();
    } else if (cmd == "force" || cmd == "result") {
        force_ = true;
    } else if (cmd == "white" || cmd == "black") {  // protocol 1
        engine_color_ = cmd == "white" ? BLACK : WHITE;
    } else if (cmd == "level") {
        // level MPS BASE INC: BASE in minutes or min:sec, INC in seconds (fractions allowed).
        auto mps = parse_int(arg(1));
        const std::int64_t base = parse_level_time(arg(2)), inc = seconds_ms(arg(3));
        if (!mps || *mps < 0 || base < 0 || inc < 0 || w.size() != 4) {
            out_("Error (bad level, expected 'level MPS BASE INC'): " + line);
            return true;
        }
        mps_ = int(*mps), base_ms_ = base, inc_ms_ = inc;
        my_time_ms_ = base_ms_;
        opp_time_ms_ = base_ms_;
        st_ms_ = 0;
    } else if (cmd == "st") {
        const std::int64_t ms = seconds_ms(arg(1));
        if (ms <= 0) {
            out_("Error (bad number): " + line);
            return true;
        }
        st_ms_ = ms;
    } else if (cmd == "sd") {
        auto v = parse_int(arg(1));
        if (!v || *v <= 0) {
            out_("Error (bad number): " + line);
            return true;
        }
        sd_ = int(std::min<std::int64_t>(*v, SEARCH_MAX_PLY - 1));
    } else if (cmd == "memory") {
        auto v = parse_int(arg(1));
        if (!v || *v < 1) {
            out_("Error (bad number): " + line);
            return true;
        }
        try {
            search_.set_hash(std::size_t(std::min<std::int64_t>(*v, 4096)));
        } catch (const std::bad_alloc&) {
            out_("Error (cannot allocate the table; it is now 1 MB): " + line);
        }
    } else if (cmd == "cores") {
        auto v = parse_int(arg(1));
        if (!v || *v < 1) {
            out_("Error (bad number): " + line);
            return true;
        }
        search_.searcher().set_threads(int(std::min<std::int64_t>(*v, MAX_SEARCH_THREADS)));
    } else if (cmd == "option") {
        const std::string rest = line.substr(line.find("option") + 6);
        const auto b = rest.find_first_not_of(' '), eq = rest.find('=');
        const std::string name =
            rest.substr(b == std::string::npos ? 0 : b, eq == std::string::npos ? std::string::npos : eq - b);
        set_option(name, eq == std::string::npos ? "" : rest.substr(eq + 1));
    } else if (cmd == "undo") {
        if (!game_->undo()) out_("Error (no move to undo): undo");
    } else if (cmd == "remove") {
        if (!game_->undo() || !game_->undo()) out_("Error (no moves to remove): remove");
    } else if (cmd == "d") {
        out_(game_->position().pretty());
    } else {
        out_("Error (unknown command): " + cmd);
    }
    // Analysis follows the board: after new, setboard, undo... it goes on.
    if (analyze_) analyse();
    return true;
}

}  // namespace

int xboard_loop(std::istream& in, std::ostream& out) {
    XboardSession session(out);
    std::string line;
    while (std::getline(in, line))
        if (!session.command(line)) return 0;
    return 0;
}

}  // namespace echecs

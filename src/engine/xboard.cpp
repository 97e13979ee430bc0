// The CECP (xboard/WinBoard) loop, protocol version 2.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <istream>
#include <memory>
#include <sstream>

#include "core/game.h"
#include "core/notation.h"
#include "entry.h"
#include "game_state.h"
#include "protocol_util.h"
#include "thread.h"

namespace echecs {

using namespace engine;

namespace {

class XboardSession {
public:
    explicit XboardSession(std::ostream& out) : out_(out) { reset(Variant::Chess, Position::START_FEN); }
    // End of input: a search in progress finishes and plays its move.
    ~XboardSession() { search_.wait(); }
    bool command(const std::string& line);  // false on quit

private:
    void reset(Variant v, std::string_view fen) {
        game_ = GameState::make(v, fen, {});
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
    // Prints the result line when the game is over; true if it is.
    bool report_result();
    std::int64_t parse_level_time(const std::string& s);

    LineWriter out_;
    Variant variant_ = Variant::Chess;
    std::unique_ptr<GameState> game_;
    SearchThread search_;
    std::atomic<bool> discard_{false};
    bool force_ = false;
    Color engine_color_ = BLACK;
    std::atomic<bool> post_{false};  // read by the search thread
    int mps_ = 0;                    // moves per session, 0 = whole game
    std::int64_t base_ms_ = 60000;   // level base
    std::int64_t inc_ms_ = 0;
    std::int64_t st_ms_ = 0;  // st: fixed time per move
    int sd_ = 0;              // sd: depth limit
    // Written by `time`/`otim` while the search thread may update them.
    std::atomic<std::int64_t> my_time_ms_{60000}, opp_time_ms_{60000};
    std::uint64_t seed_ = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
};

std::int64_t XboardSession::parse_level_time(const std::string& s) {
    const auto colon = s.find(':');
    if (colon == std::string::npos) {
        auto m = parse_int(s);
        return m ? *m * 60000 : -1;
    }
    auto m = parse_int(s.substr(0, colon)), sec = parse_int(s.substr(colon + 1));
    return m && sec ? (*m * 60 + *sec) * 1000 : -1;
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
        default: why = std::string(termination_name(r.termination)); break;
    }
    out_(std::string(pgn_result(r.outcome)) + " {" + why + "}");
    return true;
}

void XboardSession::think() {
    if (report_result()) return;
    Limits limits;
    const Color us = game_->pos().side_to_move();
    engine_color_ = us;
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
    SearchOptions opt;
    opt.seed = ++seed_ * 0x9E3779B97F4A7C15ULL;
    const auto start = std::chrono::steady_clock::now();
    search_.start(
        game_->pos(), limits, opt,
        [this](const SearchInfo& i) {
            if (!post_ || i.kind != SearchInfo::Kind::Line) return;
            int score = i.score;
            if (i.score >= VALUE_MATE_IN_MAX_PLY)
                score = 100000 + (VALUE_MATE - i.score + 1) / 2;
            else if (i.score <= -VALUE_MATE_IN_MAX_PLY)
                score = -100000 - (VALUE_MATE + i.score) / 2;
            std::ostringstream os;
            os << i.depth << ' ' << score << ' ' << i.time_ms / 10 << ' ' << i.nodes;
            for (Move m : i.pv) os << ' ' << to_uci(m);
            out_(os.str());
        },
        [this, start](const SearchResult& r) {
            if (discard_) return;
            my_time_ms_ -= elapsed_ms(start);
            if (!r.best) {
                report_result();
                return;
            }
            game_->play(r.best);
            out_("move " + to_uci(r.best));
            report_result();
        });
}

void XboardSession::user_move(const std::string& s) {
    Move m;
    try {
        m = parse_uci(game_->pos(), s);
    } catch (const NotationError& e) {
        out_("Illegal move: " + s);
        return;
    }
    game_->play(m);
    if (report_result()) return;
    if (!force_ && game_->pos().side_to_move() == engine_color_) think();
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
        search_.stop();
        search_.wait();
        return true;
    }
    if (cmd == "ping") {
        out_("pong " + arg(1));
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
    if (cmd == "xboard" || cmd == "accepted" || cmd == "rejected" || cmd == "hard" || cmd == "easy" ||
        cmd == "random" || cmd == "computer" || cmd == "name" || cmd == "rating" || cmd == "ics" || cmd == "." ||
        cmd == "hint" || cmd == "bk" || cmd == "draw" || cmd == "otherclock" || cmd == "cores" || cmd == "memory")
        return true;
    if (cmd == "protover") {
        out_(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 "
            "analyze=0 colors=0 name=0 nps=0 debug=0 memory=0 smp=0 exclude=0 setscore=0 highlight=0 "
            "myname=\"echecs 0.1\" variants=\"normal,alice,avalanche\"");
        out_("feature done=1");
        return true;
    }

    // Everything else changes the game: a running search ends first, without moving.
    stop_search(true);
    if (cmd == "new") {
        reset(Variant::Chess, Position::START_FEN);
        force_ = false;
        engine_color_ = BLACK;
        st_ms_ = 0;
        sd_ = 0;
        search_.tt().clear();
        search_.searcher().clear();
    } else if (cmd == "variant") {
        auto v = parse_variant(arg(1));
        if (!v) {
            out_("Error (unknown variant): " + arg(1));
            return true;
        }
        reset(*v, Position::START_FEN);
    } else if (cmd == "setboard") {
        const std::string fen = line.substr(line.find("setboard") + 8);
        try {
            game_ = GameState::make(variant_, fen, {});
        } catch (const FenError& e) {
            out_(std::string("Error (") + e.what() + "): setboard");
            out_("tellusererror Illegal position");
        }
    } else if (cmd == "usermove") {
        user_move(arg(1));
    } else if (cmd == "go") {
        force_ = false;
        think();
    } else if (cmd == "playother") {
        force_ = false;
        engine_color_ = ~game_->pos().side_to_move();
    } else if (cmd == "force" || cmd == "result") {
        force_ = true;
    } else if (cmd == "white" || cmd == "black") {  // protocol 1
        engine_color_ = cmd == "white" ? BLACK : WHITE;
    } else if (cmd == "level") {
        auto mps = parse_int(arg(1));
        const std::int64_t base = parse_level_time(arg(2));
        auto inc = parse_int(arg(3));
        if (!mps || *mps < 0 || base < 0 || !inc || *inc < 0) {
            out_("Error (bad level, expected 'level MPS BASE INC'): " + line);
            return true;
        }
        mps_ = int(*mps), base_ms_ = base, inc_ms_ = *inc * 1000;
        my_time_ms_ = base_ms_;
        opp_time_ms_ = base_ms_;
        st_ms_ = 0;
    } else if (cmd == "st") {
        auto v = parse_int(arg(1));
        if (!v || *v <= 0) {
            out_("Error (bad number): " + line);
            return true;
        }
        st_ms_ = *v * 1000;
    } else if (cmd == "sd") {
        auto v = parse_int(arg(1));
        if (!v || *v <= 0) {
            out_("Error (bad number): " + line);
            return true;
        }
        sd_ = int(std::min<std::int64_t>(*v, SEARCH_MAX_PLY - 1));
    } else if (cmd == "undo") {
        if (!game_->undo()) out_("Error (no move to undo): undo");
    } else if (cmd == "remove") {
        if (!game_->undo() || !game_->undo()) out_("Error (no moves to remove): remove");
    } else if (cmd == "d") {
        out_(game_->pos().pretty());
    } else if (cmd.size() >= 6 && cmd[1] == ':') {
        user_move(cmd);  // an Avalanche move with a pending choice, sent without usermove
    } else if (cmd.size() >= 4 && cmd[0] >= 'a' && cmd[0] <= 'h' && cmd[1] >= '1' && cmd[1] <= '8') {
        user_move(cmd);  // protocol 1 style: a bare move
    } else {
        out_("Error (unknown command): " + cmd);
    }
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

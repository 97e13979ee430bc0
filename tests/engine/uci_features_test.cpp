// UCI sessions for the analysis and GUI features: MultiPV, Threads, ponder,
// searchmoves, go mate, UCI_ShowWDL, UCI_AnalyseMode, currmove and progress
// reports, a large Hash. Live sessions (ponder) talk to the engine as a child
// process, waiting with generous timeouts; nothing here measures time.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>

#include "engine/uci_process.h"
#include "helpers.h"

namespace echecs::test {
namespace {

Variant variant_of(const std::string& v) {
    return v == "alice" ? Variant::Alice : v == "avalanche" ? Variant::Avalanche : Variant::Chess;
}

bool legal_in(Variant v, const std::string& fen, const std::string& move) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    try {
        parse_uci(pos, move);
        return true;
    } catch (const NotationError&) {
        return false;
    }
}

// The value after `key ` in an info line, or "".
std::string field(const std::string& line, const std::string& key) {
    const auto w = split(line);
    for (size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == key) return w[i + 1];
    return "";
}

struct PvLine {
    int multipv = 0;
    std::string score;  // "cp 12" or "mate 3"
    std::vector<std::string> pv;
};

// The lines of the last depth reported with a pv.
std::vector<PvLine> last_depth_lines(const std::string& out) {
    std::vector<PvLine> lines;
    std::string depth;
    for (const std::string& l : lines_of(out)) {
        if (l.rfind("info depth ", 0) != 0 || !contains(l, " pv ")) continue;
        const std::string d = field(l, "depth");
        if (d != depth) lines.clear(), depth = d;
        PvLine p;
        p.multipv = std::stoi(field(l, "multipv"));
        p.score = field(l, "score") + " " + field(l, field(l, "score"));
        const auto w = split(l);
        auto it = std::find(w.begin(), w.end(), "pv");
        p.pv.assign(it + 1, w.end());
        lines.push_back(p);
    }
    return lines;
}

int cp_of(const PvLine& l) {
    const auto w = split(l.score);
    if (w[0] == "mate") return std::stoi(w[1]) > 0 ? 100000 - std::stoi(w[1]) : -100000 - std::stoi(w[1]);
    return std::stoi(w[1]);
}

TEST(UciFeatures, OptionsAreAnnounced) {
    const std::string out = uci_session("uci\n");
    for (const char* o :
         {"option name Threads type spin default 1 min 1 max 64", "option name MultiPV type spin default 1 min 1 max 5",
          "option name Ponder type check", "option name UCI_AnalyseMode type check default false",
          "option name UCI_ShowWDL type check default false"})
        EXPECT_TRUE(contains(out, o)) << o;
}

TEST(UciFeatures, MultiPvGivesDistinctLegalLinesBestFirstInEachGame) {
    for (const std::string v : {"chess", "alice", "avalanche"}) {
        const std::string out = uci_session("setoption name UCI_Variant value " + v +
                                            "\nsetoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
        SCOPED_TRACE(v + "\n" + out);
        const auto lines = last_depth_lines(out);
        ASSERT_EQ(lines.size(), 3u);
        std::set<std::string> first;
        for (size_t k = 0; k < lines.size(); ++k) {
            EXPECT_EQ(lines[k].multipv, int(k) + 1);
            ASSERT_FALSE(lines[k].pv.empty());
            EXPECT_TRUE(legal_in(variant_of(v), std::string(Position::START_FEN), lines[k].pv[0]));
            first.insert(lines[k].pv[0]);
            if (k > 0) {
                EXPECT_GE(cp_of(lines[k - 1]), cp_of(lines[k]));
            }
        }
        EXPECT_EQ(first.size(), 3u);
        EXPECT_EQ(last_bestmove(out), lines[0].pv[0]);
    }
}

TEST(UciFeatures, MultiPvNeverExceedsTheLegalMoves) {
    // Black, in check, has exactly two legal moves (Kg8, Kh7).
    const std::string out =
        uci_session("setoption name MultiPV value 5\nposition fen 7k/8/5Q2/8/8/8/8/K7 b - - 0 1\ngo depth 3\n");
    const auto lines = last_depth_lines(out);
    ASSERT_EQ(lines.size(), 2u) << out;
    EXPECT_NE(lines[0].pv[0], lines[1].pv[0]);
}

TEST(UciFeatures, SearchmovesIsHonouredInEachGame) {
    const std::string out = uci_session("position startpos\ngo depth 6 searchmoves a2a3 h2h3\n");
    const std::string b = last_bestmove(out);
    EXPECT_TRUE(b == "a2a3" || b == "h2h3") << out;
    // With MultiPV, one line per allowed move, no more.
    const std::string multi =
        uci_session("setoption name MultiPV value 4\nposition startpos\ngo depth 4 searchmoves g1f3 b1c3\n");
    const auto lines = last_depth_lines(multi);
    ASSERT_EQ(lines.size(), 2u) << multi;
    EXPECT_EQ(std::set<std::string>({lines[0].pv[0], lines[1].pv[0]}), std::set<std::string>({"g1f3", "b1c3"}));
    // Avalanche moves with their push; an illegal move is reported and left out.
    const std::string ava = uci_session(
        "setoption name UCI_Variant value avalanche\nposition startpos\ngo depth 3 searchmoves e2e4,d7d6 z9z9 "
        "g1f3,a7a6\n");
    const std::string a = last_bestmove(ava);
    EXPECT_TRUE(a == "e2e4,d7d6" || a == "g1f3,a7a6") << ava;
    EXPECT_TRUE(contains(ava, "info string go searchmoves: 'z9z9' is not a legal move here")) << ava;
    // The move that wins the queen is not among those allowed.
    const std::string q = uci_session("position fen 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1\ngo depth 5 searchmoves e1e2\n");
    EXPECT_EQ(last_bestmove(q), "e1e2");
}

TEST(UciFeatures, GoMateFindsTheMateAndEndsByItself) {
    const std::string out =
        uci_session("position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1\ngo mate 2\n");
    EXPECT_TRUE(contains(out, "score mate 2")) << out;
    EXPECT_EQ(last_bestmove(out), "d5f6") << out;
    // Avalanche mate in two (the engine's own mate test position).
    const std::string ava = uci_session(
        "setoption name UCI_Variant value avalanche\nposition fen 8/2k5/3b4/2p5/2Pp3K/3q4/8/1p6 b - - 0 32\ngo mate "
        "2\n");
    EXPECT_TRUE(contains(ava, "score mate 2")) << ava;
}

TEST(UciFeatures, ShowWdlPrintsPerMilleSummingToAThousand) {
    for (const std::string v : {"chess", "alice", "avalanche"}) {
        const std::string out = uci_session("setoption name UCI_Variant value " + v +
                                            "\nsetoption name UCI_ShowWDL value true\nposition startpos\ngo depth 5\n");
        int seen = 0;
        for (const std::string& l : lines_of(out)) {
            if (!contains(l, " pv ")) continue;
            const auto w = split(l);
            auto it = std::find(w.begin(), w.end(), "wdl");
            ASSERT_TRUE(it != w.end() && it + 3 < w.end()) << l;
            const int win = std::stoi(*(it + 1)), draw = std::stoi(*(it + 2)), loss = std::stoi(*(it + 3));
            EXPECT_EQ(win + draw + loss, 1000) << l;
            EXPECT_GE(std::min({win, draw, loss}), 0) << l;
            ++seen;
        }
        EXPECT_EQ(seen, 5) << out;
    }
    // Off by default; a mate is a certain win.
    EXPECT_FALSE(contains(uci_session("position startpos\ngo depth 3\n"), " wdl "));
    EXPECT_TRUE(contains(uci_session("setoption name UCI_ShowWDL value true\n"
                                     "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\n"),
                         "score mate 1 wdl 1000 0 0"));
}

TEST(UciFeatures, AnalyseModeSearchesAtFullStrength) {
    // Skill Level 0 stops at one ply; analysis mode ignores the level.
    const std::string out = uci_session(
        "setoption name Skill Level value 0\nsetoption name UCI_AnalyseMode value true\nposition startpos\n"
        "go depth 5\n");
    EXPECT_TRUE(contains(out, "info depth 5 ")) << out;
}

TEST(UciFeatures, ThreadsGiveLegalMovesAndTheSameForcedMoves) {
    for (const std::string v : {"chess", "alice", "avalanche"}) {
        const std::string out = uci_session("setoption name UCI_Variant value " + v +
                                            "\nsetoption name Threads value 2\nposition startpos\ngo depth 6\n");
        EXPECT_TRUE(legal_in(variant_of(v), std::string(Position::START_FEN), last_bestmove(out))) << out;
    }
    // A mate in one and a queen left hanging: one or four threads, the same answer.
    for (const char* threads : {"1", "4"}) {
        const std::string set = std::string("setoption name Threads value ") + threads + "\n";
        EXPECT_EQ(last_bestmove(uci_session(set + "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 6\n")),
                  "a1a8");
        EXPECT_EQ(last_bestmove(uci_session(set + "position fen 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1\ngo depth 8\n")),
                  "d1d5");
    }
    // Threads are changed between searches, any number of times.
    const std::string out = uci_session(
        "setoption name Threads value 3\nposition startpos\ngo nodes 20000\nsetoption name Threads value 1\ngo nodes "
        "20000\nsetoption name Threads value 64\ngo depth 3\nisready\n");
    EXPECT_TRUE(contains(out, "readyok"));
    int bestmoves = 0;
    for (const std::string& l : lines_of(out)) bestmoves += l.rfind("bestmove ", 0) == 0;
    EXPECT_EQ(bestmoves, 3);
}

TEST(UciFeatures, LargeHashIsUsable) {
    // 1024 MB, not the maximum: the table is written when set, and 4 GB
    // resident would make the test machine's memory the test.
    const std::string out =
        uci_session("setoption name Hash value 1024\nisready\nposition startpos\ngo depth 6\nucinewgame\nisready\n");
    EXPECT_TRUE(contains(out, "readyok"));
    EXPECT_FALSE(last_bestmove(out).empty());
    EXPECT_FALSE(contains(out, "cannot allocate"));
}

TEST(UciFeatures, LongSearchReportsCurrmoveAndProgress) {
    const std::string out = uci_session("position startpos\ngo movetime 1500\n");
    bool currmove = false, progress = false;
    for (const std::string& l : lines_of(out)) {
        if (l.rfind("info ", 0) != 0) continue;
        if (contains(l, " currmove ") && !contains(l, " pv ")) {
            currmove = true;
            EXPECT_TRUE(legal_in(Variant::Chess, std::string(Position::START_FEN), field(l, "currmove"))) << l;
            EXPECT_GE(std::stoi(field(l, "currmovenumber")), 1) << l;
        }
        if (contains(l, " nodes ") && contains(l, " time ") && !contains(l, " pv ")) progress = true;
    }
    EXPECT_TRUE(currmove) << out;
    EXPECT_TRUE(progress) << out;
}

// A live session with the engine as a child process.
class Live {
public:
    Live() : p_(test::test_path(ECHECS_UCI_STUB)) {}
    void send(const std::string& s) { p_.send(s); }
    // Every line up to and including the first starting with `prefix`.
    std::optional<std::string> until(const std::string& prefix, std::string* seen = nullptr) {
        while (auto l = p_.read_line(60000)) {
            if (seen) *seen += *l + "\n";
            if (l->rfind(prefix, 0) == 0) return l;
        }
        return std::nullopt;
    }
    // Lines until `isready` is answered: what the engine said meanwhile.
    std::string sync() {
        std::string seen;
        send("isready");
        until("readyok", &seen);
        return seen;
    }

private:
    engine::UciProcess p_;
};

TEST(UciFeatures, PonderGivesNoBestmoveUntilPonderhitThenPlaysOnTheClock) {
    Live e;
    e.send("uci");
    ASSERT_TRUE(e.until("uciok"));
    // A search that ends at once (depth 2) must still wait for ponderhit.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder depth 2 wtime 10000 btime 10000");
    std::string meanwhile = e.sync();
    meanwhile += e.sync();  // and again, later
    EXPECT_FALSE(contains(meanwhile, "bestmove")) << meanwhile;
    e.send("ponderhit");
    const auto b = e.until("bestmove");
    ASSERT_TRUE(b);
    EXPECT_TRUE(legal_in(Variant::Chess, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", split(*b)[1]))
        << *b;
    // A clock search: after ponderhit it ends by itself on its budget.
    e.send("position startpos moves d2d4");
    e.send("go ponder wtime 2000 btime 2000");
    EXPECT_FALSE(contains(e.sync(), "bestmove"));
    e.send("ponderhit");
    EXPECT_TRUE(e.until("bestmove"));
}

TEST(UciFeatures, StopWhilePonderingGivesABestmove) {
    Live e;
    e.send("uci");
    ASSERT_TRUE(e.until("uciok"));
    for (const char* v : {"chess", "alice", "avalanche"}) {
        e.send(std::string("setoption name UCI_Variant value ") + v);
        e.send("position startpos");
        e.send("go ponder wtime 60000 btime 60000");
        EXPECT_FALSE(contains(e.sync(), "bestmove")) << v;
        e.send("stop");
        const auto b = e.until("bestmove");
        ASSERT_TRUE(b) << v;
        EXPECT_TRUE(legal_in(variant_of(v), std::string(Position::START_FEN), split(*b)[1])) << *b;
    }
    e.send("ponderhit");  // nothing to hit: said so, no crash
    EXPECT_TRUE(contains(e.sync(), "ponderhit: no ponder search running"));
}

}  // namespace
}  // namespace echecs::test

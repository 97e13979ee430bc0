// Sessions replayed as the GUIs send them (cutechess, Arena, BanksiaGUI,
// xboard), to the engine as a child process: every `go` gets exactly one
// bestmove, legal in the position, and nothing follows it until the next
// command; and the hash table's memory is faulted in when Hash is set, not
// during the first search of a game. Every wait is bounded (ANSWER_MS) and
// nothing here measures time: the checks are on lines and memory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <optional>

#include "core/game.h"
#include "engine/uci_process.h"
#include "engine/xboard_moves.h"
#include "helpers.h"

namespace echecs::test {
namespace {

// The longest the engine may take to answer anything here: generous, for a
// loaded machine under the sanitizers. Only a hung engine reaches it.
constexpr std::int64_t ANSWER_MS = 60000;

bool is_info_string(const std::string& l) { return l.rfind("info string", 0) == 0; }

// The engine, talked to as a GUI does, with the game it is playing.
class Gui {
public:
    Gui() : p_(test_path(ECHECS_UCI_STUB)) {}

    void send(const std::string& line) { ASSERT_TRUE(p_.send(line)) << line; }
    // Lines up to and including the first that starts with `prefix`, or
    // nullopt when the engine said nothing of the kind within ANSWER_MS.
    std::optional<std::vector<std::string>> until(const std::string& prefix) {
        std::vector<std::string> seen;
        while (auto l = p_.read_line(ANSWER_MS)) {
            seen.push_back(*l);
            if (l->rfind(prefix, 0) == 0) return seen;
        }
        return std::nullopt;
    }
    // isready -> readyok: what the engine said before readyok.
    std::vector<std::string> sync() {
        send("isready");
        auto seen = until("readyok");
        EXPECT_TRUE(seen) << "no readyok within " << ANSWER_MS << " ms";
        if (!seen) return {"(no readyok)"};
        seen->pop_back();
        return *seen;
    }
    void handshake() {
        send("uci");
        EXPECT_TRUE(until("uciok"));
    }
    void new_game(Variant v) {
        variant_ = v;
        moves_.clear();
        send(std::string("setoption name UCI_Variant value ") + std::string(variant_name(v)));
        send("ucinewgame");
        EXPECT_EQ(sync(), std::vector<std::string>{});
    }
    // The position so far, as a GUI sends it before each go.
    std::string position() const {
        std::string s = "position startpos";
        if (!moves_.empty()) s += " moves";
        for (const std::string& m : moves_) s += " " + m;
        return s;
    }
    Game game() const { return Game(variant_, Position::START_FEN, moves_); }

    // `go <args>` on the game's position, sent right after the previous
    // answer as a GUI does; the answer is checked and played. Returns it.
    std::string go(const std::string& args) {
        if (game().result().over()) new_game(variant_);
        send(position());
        return answer("go " + args);
    }
    // Sends `command` (a go) and reads its answer: exactly one bestmove,
    // legal here, and nothing but the search's info lines before it.
    std::string answer(const std::string& command, bool play = true) {
        send(command);
        const auto seen = until("bestmove ");
        EXPECT_TRUE(seen) << "no bestmove within " << ANSWER_MS << " ms for '" << command << "' after " << position();
        if (!seen) return "";
        for (const std::string& l : *seen) EXPECT_FALSE(is_info_string(l)) << "'" << l << "' for '" << command << "'";
        const auto w = split(seen->back());
        EXPECT_GE(w.size(), 2u) << seen->back();
        if (w.size() < 2) return "";
        const std::string move = w[1];
        Game g = game();
        EXPECT_NO_THROW(parse_uci(g.position(), move)) << move << " for '" << command << "' after " << position();
        if (play) moves_.push_back(move);
        return move;
    }
    // The answer was the last thing: nothing follows it before readyok.
    void nothing_more(const std::string& where) { EXPECT_EQ(sync(), std::vector<std::string>{}) << where; }

    // The engine's resident memory, MB (its /proc/<pid>/statm).
    double resident_mb() const {
        std::ifstream f("/proc/" + std::to_string(p_.pid()) + "/statm");
        std::size_t size = 0, resident = 0;
        f >> size >> resident;
        EXPECT_TRUE(f) << "cannot read /proc/" << p_.pid() << "/statm";
        return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
    }

    std::vector<std::string>& moves() { return moves_; }

private:
    engine::UciProcess p_;
    Variant variant_ = Variant::Chess;
    std::vector<std::string> moves_;
};

// cutechess sends a negative time after an overrun inside its margin, and
// GUIs send zero or negative clocks for a fallen flag; one side's clock may
// be missing. Each is answered at once with a legal move, in each game.
TEST(GuiConformance, NegativeZeroAndMissingClocksAreAnsweredInEachGame) {
    const char* clocks[] = {
        "wtime -50 btime 5000",
        "wtime 5000 btime -50",
        "wtime -50 btime -50 winc 100 binc 100",
        "wtime 0 btime 0",
        "btime -5",
        "wtime -5",
        "wtime -1000 btime 2000 winc -10 binc -10 movestogo 0",
        "wtime 1 btime 1 movestogo 1",
        "movetime 0",
        "movetime -20",
        "wtime 30 btime 30",
        "wtime -2147483648 btime -2147483648",
    };
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        SCOPED_TRACE(variant_name(v));
        Gui gui;
        gui.handshake();
        gui.new_game(v);
        for (const char* c : clocks) gui.go(c);
        gui.nothing_more("after the last answer");
    }
}

// A GUI that sends the next position and go the moment the answer arrives:
// the engine once said "search running; stopping it" after a search that had
// already answered (its thread was still winding down).
TEST(GuiConformance, FastExchangesPrintNothingAfterTheAnswer) {
    Gui gui;
    gui.handshake();
    gui.new_game(Variant::Chess);
    for (int i = 0; i < 200; ++i) {
        if (gui.moves().size() >= 40) gui.new_game(Variant::Chess);
        gui.go(i % 2 ? "depth 1" : "wtime 20 btime 20");
    }
    gui.nothing_more("after 200 exchanges");
}

// Arena: isready while searching, go infinite then stop, stop with nothing
// to stop.
TEST(GuiConformance, InfiniteStopAndIsreadyWhileSearching) {
    Gui gui;
    gui.handshake();
    gui.new_game(Variant::Chess);
    gui.send(gui.position());
    gui.send("go infinite");
    for (int i = 0; i < 3; ++i)
        for (const std::string& l : gui.sync()) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos) << l;
    gui.answer("stop");
    gui.nothing_more("after stop");
    gui.send("stop");  // nothing to stop: nothing to say
    gui.nothing_more("after a second stop");
    // A clock search, with isready meanwhile.
    gui.send(gui.position());
    gui.send("go wtime 2000 btime 2000");
    for (const std::string& l : gui.sync()) EXPECT_FALSE(is_info_string(l)) << l;
    ASSERT_TRUE(gui.until("bestmove "));
    gui.nothing_more("after the clock search");
}

// BanksiaGUI and cutechess ponder: a ponderhit after the clock has run out
// is answered at once; a ponder miss (stop) gives one bestmove, then the
// real search gives its own.
TEST(GuiConformance, PonderhitAfterTheTimeRanOutAndPonderMiss) {
    Gui gui;
    gui.handshake();
    gui.send("setoption name Ponder value true");
    gui.new_game(Variant::Chess);
    gui.go("wtime 1000 btime 1000");
    for (const char* clock : {"wtime -100 btime 3000", "wtime 0 btime 0", "wtime 50 btime 50"}) {
        SCOPED_TRACE(clock);
        // The GUI's position after the reply the engine expects: any legal reply.
        Game g = gui.game();
        MoveList replies;
        generate_legal(g.position(), replies);
        ASSERT_FALSE(replies.empty());
        gui.moves().push_back(to_uci(replies.moves[0]));
        gui.send(gui.position());
        gui.send(std::string("go ponder ") + clock);
        for (const std::string& l : gui.sync()) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos) << l;
        gui.answer("ponderhit");
        gui.nothing_more("after the ponderhit's answer");
    }
    // A ponder miss: stop, then the real position.
    Game g = gui.game();
    MoveList replies;
    generate_legal(g.position(), replies);
    ASSERT_GE(replies.count, 2);
    gui.moves().push_back(to_uci(replies.moves[0]));
    gui.send(gui.position());
    gui.send("go ponder wtime 5000 btime 5000");
    for (const std::string& l : gui.sync()) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos) << l;
    gui.answer("stop", false);
    gui.moves().back() = to_uci(replies.moves[1]);
    gui.go("wtime 5000 btime 5000");
    gui.nothing_more("after the ponder miss");
}

// Games one after another, ucinewgame between them, with a large table set
// first (cutechess's Hash=256): each go answered, legal, nothing after.
TEST(GuiConformance, UcinewgameBetweenGamesWithALargeHash) {
    Gui gui;
    gui.handshake();
    gui.send("setoption name Hash value 256");
    gui.send("setoption name Threads value 2");
    EXPECT_EQ(gui.sync(), std::vector<std::string>{});
    for (Variant v : {Variant::Chess, Variant::Avalanche, Variant::Alice, Variant::Chess}) {
        gui.new_game(v);
        for (int ply = 0; ply < 8; ++ply) gui.go("wtime 100 btime 100 winc 10 binc 10");
        gui.nothing_more("at the end of a game");
    }
}

// The table's memory is taken when Hash is set (and at start-up for the
// default 16 MB), and kept across ucinewgame, which clears it: a search
// never pays the page faults (Hash 4096 once answered a 500 ms search after
// 2.9 s, the first moves of each game searching a few hundred nodes).
TEST(GuiConformance, HashMemoryIsTouchedWhenSetAndKeptAcrossUcinewgame) {
    Gui gui;
    gui.handshake();
    const double at_start = gui.resident_mb();
    gui.send("setoption name Hash value 1");
    gui.sync();
    const double small = gui.resident_mb();
    EXPECT_GE(at_start - small, 12.0) << "the default 16 MB table was not resident at start-up";
    gui.send("setoption name Hash value 64");
    gui.sync();
    const double set = gui.resident_mb();
    EXPECT_GE(set - small, 56.0) << "setting Hash 64 did not make the table resident";
    gui.send("ucinewgame");
    gui.sync();
    EXPECT_GE(gui.resident_mb() - small, 56.0) << "ucinewgame gave the table's memory back";
    gui.send("setoption name Clear Hash");
    gui.sync();
    EXPECT_GE(gui.resident_mb() - small, 56.0) << "Clear Hash gave the table's memory back";
}

// The first search of a new game with a large table finds it resident: it
// grows the engine's memory no more than the same search with a 1 MB table
// (before, it faulted the table in as it searched, and at a fast clock
// searched a few hundred nodes where a small table searched 50,000). A
// fixed depth, so that both runs search the same tree (node counts close).
TEST(GuiConformance, FirstSearchAfterUcinewgameFindsALargeTableResident) {
    Gui gui;
    gui.handshake();
    auto first_search_growth = [&](int hash_mb, std::uint64_t* nodes) {
        gui.send("setoption name Hash value " + std::to_string(hash_mb));
        gui.new_game(Variant::Chess);
        const double before = gui.resident_mb();
        gui.send(gui.position());
        gui.send("go depth 8");
        const auto seen = gui.until("bestmove ");
        EXPECT_TRUE(seen);
        *nodes = 0;
        if (seen)
            for (const std::string& l : *seen)
                if (contains(l, " pv ")) {
                    const auto w = split(l);
                    for (size_t i = 0; i + 1 < w.size(); ++i)
                        if (w[i] == "nodes") *nodes = std::stoull(w[i + 1]);
                }
        return gui.resident_mb() - before;
    };
    std::uint64_t small_nodes = 0, large_nodes = 0;
    const double small = first_search_growth(1, &small_nodes);
    const double large = first_search_growth(256, &large_nodes);
    EXPECT_LE(large, small + 32.0) << "the first search with Hash 256 grew the engine by " << large
                                   << " MB, with 1 MB by " << small;
    // The same tree, give or take what the larger table keeps.
    EXPECT_GT(small_nodes, 0u);
    EXPECT_GT(large_nodes * 2, small_nodes) << large_nodes << " against " << small_nodes;
    EXPECT_LT(large_nodes, small_nodes * 2) << large_nodes << " against " << small_nodes;
}

// xboard: `time` and `otim` may be negative (the flag fell), `new` between
// games; each `go`/usermove gets one move, legal, and nothing after it but
// the pong of the next ping.
TEST(GuiConformance, XboardNegativeClocksAndNewGames) {
    engine::UciProcess e(test_path(ECHECS_UCI_STUB));
    int ping = 0;
    // What the engine says up to the pong of a new ping.
    auto sync = [&] {
        e.send("ping " + std::to_string(++ping));
        std::vector<std::string> seen;
        while (auto l = e.read_line(ANSWER_MS)) {
            if (*l == "pong " + std::to_string(ping)) return seen;
            seen.push_back(*l);
        }
        ADD_FAILURE() << "no pong within " << ANSWER_MS << " ms";
        return seen;
    };
    e.send("xboard");
    e.send("protover 2");
    while (auto l = e.read_line(ANSWER_MS))
        if (*l == "feature done=1") break;
    EXPECT_EQ(sync(), std::vector<std::string>{});
    const char* times[][2] = {{"-50", "500"}, {"0", "0"}, {"-100000", "-100000"}, {"3", "-7"}};
    for (const char* v : {"normal", "alice", "avalanche"}) {
        SCOPED_TRACE(v);
        e.send("new");
        e.send(std::string("variant ") + v);
        e.send("level 0 0:01 0");
        // The variant's setup line, if any, and for Avalanche what XBoard cannot show.
        EXPECT_LE(sync().size(), v == std::string("avalanche") ? 2u : 1u);
        Game game(*variant_from_name(v));
        std::vector<std::string> moves;
        for (const auto& t : times) {
            e.send(std::string("time ") + t[0]);
            e.send(std::string("otim ") + t[1]);
            if (moves.empty())
                e.send("go");
            else
                e.send("usermove " + moves.back());
            std::optional<std::string> got;
            while ((got = e.read_line(ANSWER_MS)) && got->rfind("move ", 0) != 0) {
                EXPECT_NE(got->rfind("Error", 0), 0u) << *got;
                EXPECT_NE(got->rfind("Illegal", 0), 0u) << *got;
            }
            ASSERT_TRUE(got) << "no move within " << ANSWER_MS << " ms";
            Move m;
            ASSERT_NO_THROW(m = engine::parse_xboard_move(game.position(), got->substr(5))) << *got;
            game.play(m);
            // Nothing after the move but the end of the game, when it ends it.
            const std::vector<std::string> after = sync();
            if (game.result().over()) {
                EXPECT_EQ(after.size(), 1u) << "after " << *got;
                break;
            }
            EXPECT_EQ(after, std::vector<std::string>{}) << "after " << *got;
            // Our reply: any legal move, in the protocol's form.
            MoveList l;
            generate_legal(game.position(), l);
            if (l.empty()) break;
            moves.push_back(engine::xboard_move(game.position(), l.moves[0]));
            game.play(l.moves[0]);
        }
        e.send("force");
    }
}

}  // namespace
}  // namespace echecs::test

// The library interface: stipulations, limits and control (max solutions,
// node limit, cancel, progress), set play, and the output formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "solver/output.h"
#include "solver/solver.h"

using namespace echecs;
using namespace echecs::solver;

namespace {
Problem problem(Variant v, const char* fen, const char* stip) {
    Problem p;
    p.variant = v;
    p.fen = fen;
    p.stipulation = parse_stipulation(stip);
    return p;
}
Options two_threads() {
    Options o;
    o.threads = 2;
    o.hash_megabytes = 8;
    return o;
}
// Two back-rank mates.
constexpr const char* COOKED = "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1";
// Avalanche from the start: a mate in 3 is far too big to finish quickly.
constexpr const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}  // namespace

TEST(Stipulation, ReadsEveryForm) {
    for (const char* s : {"#2", "h#2", "h#2.5", "s#3", "=1", "h=2", "s=2", "H#3", "h#0.5", "#30"})
        EXPECT_EQ(parse_stipulation(s).str(), std::string(s[0] == 'H' ? "h#3" : s));
    const Stipulation h = parse_stipulation("h#2.5");
    EXPECT_EQ(h.plies(), 5);
    EXPECT_EQ(h.starts(), WHITE);
    EXPECT_EQ(parse_stipulation("h#2").starts(), BLACK);
    EXPECT_EQ(parse_stipulation("s#2").plies(), 3);
    EXPECT_EQ(parse_stipulation("ser-#5").plies(), 9);
    EXPECT_EQ(parse_stipulation("ser-h#4").plies(), 8);
    EXPECT_EQ(parse_stipulation("ser-h#4").starts(), BLACK);
    EXPECT_EQ(parse_stipulation("SER-#3").str(), "ser-#3");
    EXPECT_EQ(parse_stipulation("h==2").str(), "h==2");
    EXPECT_EQ(parse_stipulation("h==2").goal, Goal::DoubleStalemate);
    EXPECT_EQ(parse_stipulation("ser-h=12").str(), "ser-h=12");
    EXPECT_EQ(parse_stipulation("h#45").moves, 45);
    // Reflexplay and helpselfplay, as Popeye writes them.
    for (const char* s : {"r#2", "semi-r#3", "r=2", "hs#3", "hs#2.5", "hs=4", "semi-r=1", "hr#2", "hr#1.5", "hr=3"})
        EXPECT_EQ(parse_stipulation(s).str(), s);
    EXPECT_EQ(parse_stipulation("R#2").play, Play::Reflex);
    EXPECT_EQ(parse_stipulation("Semi-R#2").play, Play::SemiReflex);
    EXPECT_EQ(parse_stipulation("r#2").plies(), 3);
    EXPECT_EQ(parse_stipulation("hs#3").plies(), 6);  // Black's forced last move included
    EXPECT_EQ(parse_stipulation("hs#3").starts(), WHITE);
    EXPECT_EQ(parse_stipulation("hs#2.5").starts(), BLACK);
    EXPECT_TRUE(parse_stipulation("semi-r#2").battle());
    EXPECT_FALSE(parse_stipulation("hs#2").battle());
    // Reciprocal helpplay: Black's own goal in brackets when it differs.
    for (const char* s : {"reci-h#3", "reci-h(=)#3", "reci-h(#)=2", "reci-h#2.5", "reci-h=2"})
        EXPECT_EQ(parse_stipulation(s).str(), s);
    EXPECT_EQ(parse_stipulation("Reci-H(#)#2").str(), "reci-h#2");
    const Stipulation reci = parse_stipulation("reci-h(=)#3");
    EXPECT_EQ(reci.play, Play::ReciHelp);
    EXPECT_EQ(reci.goal, Goal::Mate);
    EXPECT_EQ(reci.reci_goal, Goal::Stalemate);
    EXPECT_EQ(reci.plies(), 6);  // the help line, the longer one
    EXPECT_EQ(reci.starts(), BLACK);
    EXPECT_EQ(parse_stipulation("reci-h#2.5").starts(), WHITE);
    EXPECT_TRUE(reci.help());
    // Series selfplay: White's series, then Black bound to mate with every move.
    const Stipulation ser_s = parse_stipulation("SER-S#6");
    EXPECT_EQ(ser_s.play, Play::SeriesSelf);
    EXPECT_EQ(ser_s.str(), "ser-s#6");
    EXPECT_EQ(ser_s.plies(), 12);  // Black's passes and its last move included
    EXPECT_EQ(ser_s.starts(), WHITE);
    EXPECT_TRUE(ser_s.series() && ser_s.series_tail() == 1);
    // Series reflexplay: White's series, Black bound to mate as soon as it can.
    const Stipulation ser_r = parse_stipulation("Ser-R#3");
    EXPECT_EQ(ser_r.play, Play::SeriesReflex);
    EXPECT_EQ(ser_r.str(), "ser-r#3");
    EXPECT_EQ(ser_r.plies(), 6);
    EXPECT_EQ(ser_r.starts(), WHITE);
    EXPECT_EQ(ser_r.series_tail(), 1);
    EXPECT_EQ(parse_stipulation("ser-r=2").str(), "ser-r=2");
    // Series helpselfplay: Black's series, then a White move after which Black must mate.
    const Stipulation ser_hs = parse_stipulation("SER-HS#5");
    EXPECT_EQ(ser_hs.play, Play::SeriesHelpSelf);
    EXPECT_EQ(ser_hs.str(), "ser-hs#5");
    EXPECT_EQ(ser_hs.plies(), 11);  // White's passes, White's move and Black's forced mate included
    EXPECT_EQ(ser_hs.starts(), BLACK);
    EXPECT_EQ(ser_hs.series_tail(), 2);
    EXPECT_EQ(parse_stipulation("ser-hs==3").str(), "ser-hs==3");
    EXPECT_FALSE(ser_hs.battle() || ser_hs.help());
    // Double mate and counter-mate, wherever a mate is a goal.
    for (const char* s : {"##2", "##!2", "h##!2", "h##0.5", "s##!1", "r##!2", "semi-r##!1", "hs##!2", "ser-##3",
                          "ser-h##!2", "ser-s##!1", "ser-r##2", "ser-hs##!3"})
        EXPECT_EQ(parse_stipulation(s).str(), s);
    EXPECT_EQ(parse_stipulation("h##2").goal, Goal::DoubleMate);
    EXPECT_EQ(parse_stipulation("h##!2").goal, Goal::CounterMate);
    EXPECT_EQ(parse_stipulation("h##!2.5").starts(), WHITE);
    EXPECT_TRUE(self_check_goal(Goal::CounterMate) && !self_check_goal(Goal::Mate));
    // Popeye's goals of the last move itself, and mate or stalemate, in every play but reci-h.
    for (const char* s : {"hx2", "ser-003", "zc81", "#=2", "s+2", "h~1", "hep1", "sep1", "ser-sx7", "ser-r+3",
                          "ser-szh33", "hze73", "h001.5", "r+2", "semi-rx2", "hs+2", "ser-hs~3", "ser-h#=2"})
        EXPECT_EQ(parse_stipulation(s).str(), s);
    const Stipulation target = parse_stipulation("HZg74");
    EXPECT_EQ(target.goal, Goal::Target);
    EXPECT_EQ(target.target, SQ_G7);
    EXPECT_EQ(target.moves, 4);
    EXPECT_EQ(target.str(), "hzg74");
    EXPECT_EQ(parse_stipulation("SEP1").goal, Goal::EnPassant);
    EXPECT_EQ(parse_stipulation("H001.5").goal, Goal::Castling);
    EXPECT_EQ(parse_stipulation("#=2").goal, Goal::MateOrStalemate);
    EXPECT_TRUE(terminal_goal(Goal::MateOrStalemate) && !terminal_goal(Goal::Capture));
}

TEST(Stipulation, BadOnesSayWhatIsWrong) {
    auto error_of = [](const char* s) {
        try {
            parse_stipulation(s);
        } catch (const StipulationError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(error_of("").find("empty stipulation"), std::string::npos);
    EXPECT_NE(error_of("k#2").find("no goal"), std::string::npos);
    EXPECT_NE(error_of("x#2").find("'#' is not a digit"), std::string::npos);  // x: the capture goal
    EXPECT_NE(error_of("h%2").find("no goal"), std::string::npos);             // Popeye's win of a piece
    EXPECT_NE(error_of("zi81").find("no goal"), std::string::npos);
    EXPECT_NE(error_of("reci-hx2").find("reciprocal helpplay to a goal other"), std::string::npos);
    EXPECT_NE(error_of("reci-h#=2").find("reciprocal helpplay to a goal other"), std::string::npos);
    EXPECT_NE(error_of("#").find("number of moves is missing"), std::string::npos);
    EXPECT_NE(error_of("#0").find("at least one move"), std::string::npos);
    EXPECT_NE(error_of("#61").find("at most 60 moves"), std::string::npos);
    EXPECT_NE(error_of("ser-#101").find("at most 100 moves"), std::string::npos);
    EXPECT_NE(error_of("#2.5").find("only in helpplay"), std::string::npos);
    EXPECT_NE(error_of("r#2.5").find("only in helpplay"), std::string::npos);
    EXPECT_NE(error_of("hs#0.5").find("at least one move"), std::string::npos);
    EXPECT_NE(error_of("h#2.7").find("only '.5'"), std::string::npos);
    EXPECT_NE(error_of("#a").find("'a' is not a digit"), std::string::npos);
    // Popeye's stipulations the solver cannot play name what they are.
    EXPECT_NE(error_of("pser-r#2").find("parry series"), std::string::npos);
    EXPECT_NE(error_of("ser-hs#101").find("at most 100 moves"), std::string::npos);
    EXPECT_NE(error_of("ser-r#0").find("at least one move"), std::string::npos);
    EXPECT_NE(error_of("ser-hs#2.5").find("only in helpplay"), std::string::npos);
    EXPECT_NE(error_of("ser-r2").find("no goal"), std::string::npos);
    EXPECT_NE(error_of("phser-s#2").find("help parry series selfplay"), std::string::npos);
    EXPECT_EQ(parse_stipulation("exact-s#2").str(), "exact-s#2");
    EXPECT_EQ(parse_stipulation("exact-ser-h=3").str(), "exact-ser-h=3");
    EXPECT_TRUE(parse_stipulation("Exact-h#2.5").exact);
    EXPECT_NE(error_of("ser-reci-h(x)#2").find("between brackets"), std::string::npos);
    EXPECT_NE(error_of("ser-reci-h#2.5").find("only in helpplay"), std::string::npos);
    EXPECT_NE(error_of("reci-h(x)#2").find("between brackets"), std::string::npos);
    EXPECT_NE(error_of("reci-h(##2").find("between brackets"), std::string::npos);
    EXPECT_NE(error_of("reci-h#0.5").find("at least one move"), std::string::npos);
    EXPECT_NE(error_of("ser-dia4").find("series proof games"), std::string::npos);
    EXPECT_NE(error_of("reci-h##2").find("reciprocal helpplay with double mate"), std::string::npos);
    EXPECT_NE(error_of("reci-h(##!)#2").find("reciprocal helpplay with double mate"), std::string::npos);
    EXPECT_NE(error_of("###2").find("is not a digit"), std::string::npos);
    EXPECT_NE(error_of("ser-s%3").find("no goal"), std::string::npos);  // series selfplay to other goals
}

TEST(Stipulation, BadOnesSayItForAProgramToo) {
    auto detail_of = [](const char* s) {
        try {
            parse_stipulation(s);
        } catch (const StipulationError& e) {
            return e.detail;
        }
        return echecs::ErrorDetail{"no error", {}};
    };
    using Params = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(detail_of("").key, "stip_empty");
    EXPECT_EQ(detail_of("k#2").key, "stip_no_goal");
    EXPECT_EQ(detail_of("#a").params, (Params{{"text", "#a"}, {"char", "a"}}));
    EXPECT_EQ(detail_of("#61").params, (Params{{"text", "#61"}, {"max", "60"}}));
    EXPECT_EQ(detail_of("pser-hs#3").key, "stip_unsupported");
    EXPECT_EQ(detail_of("pser-hs#3").params, (Params{{"text", "pser-hs#3"}, {"form", "pser-hs"}}));
    EXPECT_EQ(detail_of("h#2.7").key, "stip_after_moves");
}

TEST(Solve, BadPositionsAreProblemErrors) {
    EXPECT_THROW(solve(problem(Variant::Chess, "8/8 w - -", "#2")), ProblemError);
    try {
        solve(problem(Variant::Chess, "8/8/8/8/8/8/8/K7 w - - 0 1", "#2"));
        FAIL();
    } catch (const ProblemError& e) {
        EXPECT_NE(std::string(e.what()).find("no black king"), std::string::npos) << e.what();
    }
}

TEST(Solve, SideToMoveFollowsTheStipulation) {
    // h#1: Black moves first whatever the FEN says.
    const Result r = solve(problem(Variant::Chess, "7k/8/6K1/8/8/8/8/R7 w - - 0 1", "h#1"), two_threads());
    EXPECT_NE(r.note.find("Black moves first"), std::string::npos);
    EXPECT_NE(r.fen.find(" b "), std::string::npos);
    EXPECT_EQ(r.solutions.size(), 1u);  // 1.Kg8 Ra8#
}

TEST(Solve, MaxSolutionsStopsAndSaysSo) {
    Options o = two_threads();
    o.max_solutions = 1;
    const Result r = solve(problem(Variant::Chess, COOKED, "#1"), o);
    EXPECT_EQ(r.keys.size(), 1u);
    EXPECT_EQ(r.status, Status::MaxSolutions);
    EXPECT_NE(to_uci_lines(r).find("incomplete: max solutions\nsolutions: 1\n"), std::string::npos);
}

TEST(Solve, NodeLimitAndCancelStopTheSearch) {
    Options o = two_threads();
    o.max_nodes = 20000;
    Result r = solve(problem(Variant::Avalanche, START, "#3"), o);
    EXPECT_EQ(r.status, Status::NodeLimit);
    EXPECT_LT(r.first_moves_done, r.first_moves);
    EXPECT_NE(to_text(r).find("incomplete (node limit"), std::string::npos);

    std::atomic<bool> cancel{false};
    int calls = 0;
    Options c = two_threads();
    c.cancel = &cancel;
    c.progress = [&](const Progress& p) {
        ++calls;
        EXPECT_EQ(p.first_moves, 160);
        cancel = true;
    };
    // #5: progress comes every 100 ms, and #3 can finish sooner on an idle machine.
    r = solve(problem(Variant::Avalanche, START, "#5"), c);
    EXPECT_EQ(r.status, Status::Cancelled);
    EXPECT_GE(calls, 1);
}

TEST(Solve, TimeoutStopsTheSearch) {
    Options o = two_threads();
    o.timeout_seconds = 0.2;
    // #5 from the start takes minutes on any machine (#3 finished within 0.2 s on an idle one).
    const Result r = solve(problem(Variant::Avalanche, START, "#5"), o);
    EXPECT_EQ(r.status, Status::Timeout);
    EXPECT_NE(to_text(r).find("incomplete (timeout"), std::string::npos);
}

TEST(Solve, SetPlayOfADirectMate) {
    // If Black played first in the diagram, the bishop moves would be met by Rxa7#.
    Options o = two_threads();
    o.set_play = true;
    const Result r = solve(problem(Variant::Chess, "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "#2"), o);
    ASSERT_FALSE(r.set_play.empty());
    for (const auto& d : r.set_play) EXPECT_FALSE(d.continuations.empty()) << d.move.text;
    // 1...Bc7 2.Rxa7#: the bishop's moves are set with a mate.
    bool found = false;
    for (const auto& d : r.set_play)
        if (d.move.text == "Bb8-c7")
            for (const auto& c : d.continuations) found = found || c.move.text == "Ra1xa7#";
    EXPECT_TRUE(found) << to_text(r);
}

TEST(Solve, HelpSetPlay) {
    Options o = two_threads();
    o.set_play = true;
    // The set play of an h#1 is White's half-move alone: 1...Ra8#.
    const Result r = solve(problem(Variant::Chess, "7k/8/6K1/8/8/8/8/R7 b - - 0 1", "h#1"), o);
    ASSERT_EQ(r.set_solutions.size(), 1u);
    EXPECT_EQ(r.set_solutions[0].moves.at(0).text, "Ra1-a8#");
    EXPECT_NE(to_text(r).find("set play:\n1...Ra1-a8#\n"), std::string::npos) << to_text(r);
}

TEST(Solve, TheTimeoutAndTheMaximumHoldInTheSetPlayToo) {
    // Black (to move) is stalemated: the h#5 has no line at all; its set play, White first,
    // has more than a million solutions and runs for minutes.
    Options o = two_threads();
    o.set_play = true;
    o.timeout_seconds = 0.5;
    o.max_solutions = 50;
    o.intelligent = Options::Intelligent::Never;
    const Result r = solve(problem(Variant::Chess, "8/2Q5/4N3/PP1N4/1R6/R7/5K1p/7k b - - 0 1", "h#5"), o);
    EXPECT_EQ(r.status, Status::Timeout);
    EXPECT_TRUE(r.solutions.empty());
    EXPECT_LE(r.set_solutions.size(), 50u);
}

TEST(Output, JsonHasTheWholeTree) {
    const Result r = solve(problem(Variant::Chess, "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "#2"), two_threads());
    const auto j = nlohmann::json::parse(to_json(r));
    EXPECT_EQ(j["variant"], "chess");
    EXPECT_EQ(j["stipulation"], "#2");
    EXPECT_EQ(j["status"], "complete");
    EXPECT_EQ(j["solutions"], 1);
    EXPECT_EQ(j["keys"][0]["uci"], "a1a6");
    EXPECT_EQ(j["keys"][0]["zugzwang"], true);
    EXPECT_EQ(j["keys"][0]["defences"][0]["continuations"][0]["goal"], true);
    // Help play: the solutions as move lists.
    const auto h =
        nlohmann::json::parse(to_json(solve(problem(Variant::Chess, "7k/8/6K1/8/8/8/8/R7 b - - 0 1", "h#1"))));
    EXPECT_EQ(h["help"][0]["moves"][1]["uci"], "a1a8");
}

TEST(Output, InvalidUtf8TitleStillGivesJson) {
    Problem p = problem(Variant::Chess, COOKED, "#1");
    p.title = "bad \xff\xfe title";
    const std::string j = to_json(solve(p, two_threads()));
    // Assigned: GCC's warn_unused_result is not silenced by a (void) cast.
    nlohmann::json parsed;
    EXPECT_NO_THROW(parsed = nlohmann::json::parse(j));
}

TEST(Output, UciLines) {
    const Result r = solve(problem(Variant::Avalanche, "7k/7p/8/3N4/K7/2p5/8/B7 w - - 0 1", "#1"), two_threads());
    EXPECT_EQ(to_uci_lines(r), "key d5e7,c3c2\nsolutions: 1\n");
}

TEST(Solve, TheLastKeyKeptByMaxSolutionsHasItsPlay) {
    Options o = two_threads();
    o.max_solutions = 1;
    // Morphy's #2: one key, and its variations are written although the search stops there.
    const Result r = solve(problem(Variant::Chess, "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "#2"), o);
    ASSERT_EQ(r.keys.size(), 1u);
    EXPECT_EQ(r.keys[0].defences.size(), 7u);
}

// Options::found gets each key with its play, and each help or series
// solution, as it is proven: the same ones as the result, in the same text.
TEST(Solve, FoundReportsEachSolutionAsProven) {
    std::vector<std::string> found;
    Options o = two_threads();
    o.found = [&](const AttackLine* key, const HelpLine* solution) {
        found.push_back(key ? key_text(*key) : solution_text(*solution, parse_stipulation("ser-h#4")));
    };
    const Result r = solve(problem(Variant::Chess, COOKED, "#1"), o);
    ASSERT_EQ(r.keys.size(), 2u);
    std::vector<std::string> keys = {key_text(r.keys[0]), key_text(r.keys[1])};
    std::sort(found.begin(), found.end());
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(found, keys);

    found.clear();
    const Result s = solve(problem(Variant::Chess, "8/7p/p7/8/3k4/Q1p1p1B1/r7/4K1b1 b - - 0 1", "ser-h#4"), o);
    ASSERT_EQ(s.solutions.size(), 1u);
    EXPECT_EQ(found, std::vector<std::string>{"1.Kd4-d3  2.Kd3-c2  3.Kc2-b1  4.Kb1-a1 Qa3-c1#\n"});
}

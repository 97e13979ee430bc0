// The computer analysis of a game: in each game a short game whose one
// losing move is known (it allows a mate in one, checked here by the core)
// is reviewed, and that move is judged a blunder, the mate itself nothing.
#include "server/review/game_review.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <ctime>

#include "core/game.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "engine/engine.h"

using namespace echecs;
using namespace echecs::review;

namespace {

const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const char* START_BLACK = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";

struct Case {
    Variant variant;
    const char* fen;
    std::vector<std::string> moves;
    int blunder_ply;  // the move that allows the mate in one
};

// Helpmates found by `echecs solve -s h#n` from the start (Black to move for the variants).
const Case CASES[] = {
    {Variant::Chess, START, {"f2f3", "e7e5", "g2g4", "d8h4"}, 3},
    {Variant::Alice, START_BLACK, {"b8a6", "a2a3", "g8f6", "a1a4", "e7e5", "a4e4"}, 5},
    {Variant::Avalanche, START_BLACK, {"b8a6,a2a3", "b1c3,b7b6", "g7g5,e2e3", "d1h5,f7f6"}, 3},
};

// The premise, checked by the rules core: the game ends in checkmate, and
// after the blunder the winner has a mating move.
void check_premise(const Case& c) {
    Game g(c.variant, c.fen);
    for (const std::string& m : c.moves) ASSERT_TRUE(g.play(parse_uci(g.position(), m))) << m;
    ASSERT_EQ(g.result().termination, Termination::Checkmate);
}

ReviewRequest request(const Case& c) {
    ReviewRequest r;
    r.variant = c.variant;
    r.initial_fen = c.fen;
    r.moves = c.moves;
    r.nodes_per_position = 100'000;
    return r;
}

}  // namespace

class KnownBlunder : public ::testing::TestWithParam<Case> {};

TEST_P(KnownBlunder, IsJudgedABlunder) {
    const Case& c = GetParam();
    check_premise(c);
    int calls = 0;
    const Review r = review_game(request(c), nullptr, [&](int done, int total) {
        ++calls;
        EXPECT_EQ(total, int(c.moves.size()) + 1);
        EXPECT_EQ(done, calls);
    });
    ASSERT_TRUE(r.complete);
    EXPECT_EQ(calls, int(c.moves.size()) + 1);
    ASSERT_EQ(r.positions.size(), c.moves.size() + 1);
    ASSERT_EQ(r.moves.size(), c.moves.size());
    const MoveReview& b = r.moves[c.blunder_ply - 1];
    EXPECT_EQ(b.judgement, Judgement::Blunder) << "loss " << b.loss;
    const Color loser = b.mover;
    const PlayerSummary& s = loser == WHITE ? r.white : r.black;
    EXPECT_GE(s.blunders, 1);  // helpmate moves before it may be bad too
    // The mating move itself loses nothing; the game's end is exact.
    const MoveReview& mate = r.moves.back();
    EXPECT_NE(mate.mover, loser);
    EXPECT_EQ(mate.judgement, Judgement::None) << mate.loss;
    EXPECT_EQ(r.positions.back().white_expected, loser == WHITE ? 0.0 : 1.0);
    EXPECT_TRUE(r.positions.back().best_line.empty());
    // Before the blunder the engine saw the mate coming: the best line from
    // the position after it starts with the mating move.
    EXPECT_EQ(r.positions[c.blunder_ply].best_line.front(), c.moves[c.blunder_ply]);
    EXPECT_TRUE(r.positions[c.blunder_ply].mate.has_value());
    EXPECT_FALSE(r.positions[c.blunder_ply].best_san.empty());
    EXPECT_GT(r.nodes, 0u);

    const nlohmann::json j = to_json(r);
    EXPECT_EQ(j["moves"][c.blunder_ply - 1]["judgement"], "blunder");
    EXPECT_EQ(j["positions"].size(), c.moves.size() + 1);
    EXPECT_EQ(j["variant"], std::string(variant_name(c.variant)));
}

INSTANTIATE_TEST_SUITE_P(Games, KnownBlunder, ::testing::ValuesIn(CASES),
                         [](const auto& info) { return std::string(variant_name(info.param.variant)); });

TEST(Review, TheSameBudgetGivesTheSameReview) {
    const Case& c = CASES[0];
    const nlohmann::json a = to_json(review_game(request(c))), b = to_json(review_game(request(c)));
    EXPECT_EQ(a["positions"], b["positions"]);
    EXPECT_EQ(a["moves"], b["moves"]);
}

TEST(Review, JudgementsFollowTheThresholds) {
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        const Thresholds& t = thresholds(v);
        EXPECT_LT(t.inaccuracy, t.mistake);
        EXPECT_LT(t.mistake, t.blunder);
        EXPECT_EQ(judge(v, 0), Judgement::None);
        EXPECT_EQ(judge(v, t.inaccuracy - 1e-9), Judgement::None);
        EXPECT_EQ(judge(v, t.inaccuracy), Judgement::Inaccuracy);
        EXPECT_EQ(judge(v, t.mistake), Judgement::Mistake);
        EXPECT_EQ(judge(v, t.blunder), Judgement::Blunder);
        EXPECT_EQ(judge(v, 1), Judgement::Blunder);
    }
}

TEST(Review, BadInputNamesThePly) {
    ReviewRequest r;
    r.moves = {"e2e4", "e2e4"};
    r.nodes_per_position = 1000;
    try {
        review_game(r);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("ply 2 (e2e4)"), std::string::npos) << e.what();
    }
    r.initial_fen = "8/8 w - - 0 1";
    r.moves.clear();
    try {
        review_game(r);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("initial position"), std::string::npos) << e.what();
    }
    // Moves after the end of the game are refused.
    ReviewRequest after = request(CASES[0]);
    after.moves.push_back("e1f2");
    after.nodes_per_position = 1000;
    EXPECT_THROW(review_game(after), std::invalid_argument);
}

TEST(Review, CancelStopsEarlyAndSaysSo) {
    std::atomic<bool> cancel{false};
    ReviewRequest r = request(CASES[1]);
    const Review rev = review_game(r, &cancel, [&](int done, int) {
        if (done == 2) cancel = true;
    });
    EXPECT_FALSE(rev.complete);
    EXPECT_LT(rev.positions.size(), r.moves.size() + 1);
    EXPECT_FALSE(to_json(rev)["complete"].get<bool>());
}

// The server reviews a game one position per engine job: resumed in steps,
// the review is the one made in one go.
TEST(Review, ResumedInStepsIsTheSameReview) {
    const Case& c = CASES[2];
    const nlohmann::json whole = to_json(review_game(request(c)));
    ReviewRequest step = request(c);
    step.max_new = 1;
    Review r;
    for (int i = 0; i < 20 && !r.complete; ++i) {
        r = review_game(step);
        // one position searched per step (the game's end, not searched, comes with the last)
        EXPECT_LE(r.positions.size(), step.known.size() + (r.complete ? 2 : 1));
        step.known = r.positions;
    }
    ASSERT_TRUE(r.complete);
    const nlohmann::json j = to_json(r);
    EXPECT_EQ(j["positions"], whole["positions"]);
    EXPECT_EQ(j["moves"], whole["moves"]);
    EXPECT_EQ(j["summary"], whole["summary"]);
}

// A game played by the engine against itself at 3,000 nodes a move, from
// `first` (empty: the engine's own first move), for at most 80 plies.
static std::vector<std::string> self_play(Variant v, const std::string& first) {
    Game g(v);
    std::vector<std::string> moves;
    while (moves.size() < 80 && !g.result().over()) {
        std::string m = first;
        if (!moves.empty() || first.empty()) {
            echecs::engine::AnalysisRequest a;
            a.variant = v;
            a.moves = moves;
            a.nodes = 3000;
            const auto u = echecs::engine::analyse(a, nullptr, {});
            if (u.lines.empty()) ADD_FAILURE() << "no line in " << g.position().fen();  // the game goes on
            if (u.lines.empty()) return {};
            m = u.lines.front().pv.front();
        }
        if (!g.play(parse_uci(g.position(), m))) ADD_FAILURE() << m;
        moves.push_back(m);
    }
    return moves;
}

// The figure of docs/PERFORMANCE.md, not a test (run it with
// --gtest_also_run_disabled_tests --gtest_filter='*FortyMove*'): a 40-move
// game of the variant, played by the engine against itself at a small
// budget (its own game, or when that ends sooner, as Avalanche games do, the
// first game opened by each first move in turn that lasts 80 plies),
// reviewed at the server's budget; prints the time and the nodes.
static void forty_move_game_time(Variant v) {
    std::vector<std::string> moves = self_play(v, "");
    if (moves.size() < 80) {
        Game g(v);
        MoveList legal;
        generate_legal(g.position(), legal);
        for (Move first : legal) {
            moves = self_play(v, to_uci(first));
            if (moves.size() == 80) break;
        }
    }
    ASSERT_EQ(moves.size(), 80u);
    ReviewRequest r;
    r.variant = v;
    r.moves = moves;
    r.nodes_per_position = 150'000;
    const std::clock_t c0 = std::clock();
    const Review rev = review_game(r);
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;  // the machine is shared: CPU, not wall
    ASSERT_TRUE(rev.complete);
    std::printf("%s: %zu plies (from %s), %zu positions, %llu nodes, %.1f s CPU (%.2f s per position), %.1f s wall\n",
                std::string(variant_name(v)).c_str(), moves.size(), moves.front().c_str(), rev.positions.size(),
                static_cast<unsigned long long>(rev.nodes), cpu, cpu / double(rev.positions.size()), rev.seconds);
    std::fflush(stdout);
}

TEST(Review, DISABLED_FortyMoveGameTimeChess) { forty_move_game_time(Variant::Chess); }
TEST(Review, DISABLED_FortyMoveGameTimeAlice) { forty_move_game_time(Variant::Alice); }
TEST(Review, DISABLED_FortyMoveGameTimeAvalanche) { forty_move_game_time(Variant::Avalanche); }

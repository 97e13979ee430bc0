// Search sanity: mates in 1 to 3 in the three games, checked against an
// independent brute-force solver, including a mate that only exists through
// an Alice transfer and one that only exists through an Avalanche push.
#include <gtest/gtest.h>

#include "helpers.h"

namespace echecs::test {
namespace {

struct MateCase {
    const char* variant;
    const char* fen;  // "startpos moves ..." or a FEN
    int mate_in;
};

// The last "score mate N" the engine reported.
int reported_mate(const std::string& out) {
    const auto p = out.rfind("score mate ");
    if (p == std::string::npos) return 0;
    return std::stoi(out.substr(p + 11));
}

void check_mate(const MateCase& c) {
    const bool startpos = std::string(c.fen).rfind("startpos", 0) == 0;
    const std::string position = startpos ? std::string("position ") + c.fen : std::string("position fen ") + c.fen;
    // A few plies beyond the mate's length: late-move reductions and null
    // move can hide a mate at its nominal depth (the evaluation decides
    // which moves are reduced), as in any engine that reduces.
    const std::string out = uci_session(std::string("setoption name UCI_Variant value ") + c.variant + "\n" + position +
                                        "\ngo depth " + std::to_string(2 * c.mate_in + 6) + "\n");
    SCOPED_TRACE(out);
    EXPECT_EQ(reported_mate(out), c.mate_in);
    const std::string best = last_bestmove(out);
    ASSERT_FALSE(best.empty());

    // Rebuild the position and check the move with the brute-force solver.
    Variant v = std::string(c.variant) == "alice"       ? Variant::Alice
                : std::string(c.variant) == "avalanche" ? Variant::Avalanche
                                                        : Variant::Chess;
    StateInfo root;
    Position pos;
    std::vector<StateInfo> states(64);
    int n = 0;
    if (startpos) {
        pos.set(v, Position::START_FEN, root);
        std::istringstream is(std::string(c.fen).substr(std::string("startpos moves").size()));
        for (std::string m; is >> m;) pos.do_move(parse_uci(pos, m), states[n++]);
    } else
        pos.set(v, c.fen, root);
    EXPECT_FALSE(forced_mate(pos, c.mate_in - 1)) << "not the shortest mate";
    StateInfo st;
    pos.do_move(parse_uci(pos, best), st);
    if (c.mate_in == 1) {
        EXPECT_TRUE(mated_now(pos)) << best << " does not mate";
        return;
    }
    MoveList replies;
    generate_legal(pos, replies);
    ASSERT_FALSE(replies.empty());
    for (Move r : replies) {
        StateInfo st2;
        pos.do_move(r, st2);
        EXPECT_TRUE(forced_mate(pos, c.mate_in - 1)) << "after " << best << " " << to_uci(r);
        pos.undo_move(r);
    }
}

class Mates : public ::testing::TestWithParam<MateCase> {};

TEST_P(Mates, FindsShortestMateAndPlaysIt) { check_mate(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    AllGames, Mates,
    ::testing::Values(MateCase{"chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1},
                      MateCase{"chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2},
                      MateCase{"chess", "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3},
                      // Alice, the seed's example: 3.Bb5 mates by arriving on board A.
                      MateCase{"alice", "startpos moves e2e4 d7d5 f1e2 d5e4", 1},
                      MateCase{"alice", "3u2Rl/2O5/4S2R/p1N2n2/S2SB3/6S1/1PP4P/6L1 w - - 1 45", 2},
                      MateCase{"alice", "8/8/2l5/3O4/1T2L3/8/8/8 w - - 5 78", 3},
                      // Avalanche: mate given by the push (the pawn d7 leaves the rank).
                      MateCase{"avalanche", "1R6/R2p3k/6pp/8/8/8/8/2K5 w - - 0 1", 1},
                      // Avalanche with a pending promotion choice.
                      MateCase{"avalanche", "rnb3rQ/k7/7P/3pQ3/3P4/qp2n3/1p2BN1K/1Np4R b - - 0 24", 1},
                      MateCase{"avalanche", "8/2k5/3b4/2p5/2Pp3K/3q4/8/1p6 b - - 0 32", 2},
                      MateCase{"avalanche", "7k/5r1p/2q4P/4b3/5N2/8/3n2R1/7K b - - 2 37", 3}));

// The Alice mate exists only through the transfer: on one board alone the
// bishop on b5 would not check (it moves on board B and lands on board A).
TEST(AliceTransfer, MateGivenByArrivalOnTheOtherBoard) {
    StateInfo root, st[5];
    Position pos;
    pos.set(Variant::Alice, Position::START_FEN, root);
    int i = 0;
    for (const char* m : {"e2e4", "d7d5", "f1e2", "d5e4"}) pos.do_move(parse_uci(pos, m), st[i++]);
    EXPECT_EQ(pos.board_of(SQ_E2), BOARD_B);  // the bishop stands on board B
    const std::string out = uci_session(
        "setoption name UCI_Variant value alice\nposition startpos moves e2e4 d7d5 f1e2 d5e4\ngo depth 3\n");
    EXPECT_EQ(last_bestmove(out), "e2b5");
    pos.do_move(parse_uci(pos, "e2b5"), st[i++]);
    EXPECT_EQ(pos.board_of(SQ_B5), BOARD_A);
    EXPECT_TRUE(mated_now(pos));
}

// The Avalanche mate exists only through the push: the first part alone gives no check.
TEST(AvalanchePush, MateGivenByThePush) {
    const char* fen = "1R6/R2p3k/6pp/8/8/8/8/2K5 w - - 0 1";
    const std::string out =
        uci_session("setoption name UCI_Variant value avalanche\nposition fen " + std::string(fen) + "\ngo depth 3\n");
    StateInfo root, st;
    Position pos;
    pos.set(Variant::Avalanche, fen, root);
    const Move m = parse_uci(pos, last_bestmove(out));
    ASSERT_TRUE(m.has_push());
    EXPECT_EQ(m.push_from(), SQ_D7);
    // No legal move mates without the push d7-d6.
    MoveList l;
    generate_legal(pos, l);
    for (Move x : l) {
        StateInfo s;
        pos.do_move(x, s);
        if (mated_now(pos)) {
            EXPECT_TRUE(x.has_push() && x.push_from() == SQ_D7) << to_uci(x);
        }
        pos.undo_move(x);
    }
    pos.do_move(m, st);
    EXPECT_TRUE(mated_now(pos));
}

// Avalanche loss: first parts exist but no push completes one; the engine
// scores it as lost and avoids walking into it when it can.
TEST(Search, NoLegalMoveGivesBestmoveNone) {
    const std::string out = uci_session("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8\ngo depth 3\n");
    EXPECT_TRUE(contains(out, "bestmove (none)"));
    EXPECT_TRUE(contains(out, "score mate 0"));
    const std::string stalemate = uci_session("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
    EXPECT_TRUE(contains(stalemate, "bestmove (none)"));
    EXPECT_TRUE(contains(stalemate, "score cp 0"));
}

TEST(Search, DepthLimitedSearchReportsEveryIterationAndAPv) {
    const std::string out = uci_session("position startpos\ngo depth 5\n");
    for (int d = 1; d <= 5; ++d) EXPECT_TRUE(contains(out, "info depth " + std::to_string(d) + " ")) << d;
    EXPECT_FALSE(contains(out, "info depth 6 "));
    for (const char* field : {" seldepth ", " score cp ", " nodes ", " nps ", " time ", " hashfull ", " pv "})
        EXPECT_TRUE(contains(out, field)) << field;
}

TEST(Search, NodeLimitIsRespectedRoughly) {
    const std::string out = uci_session("position startpos\ngo nodes 5000\n");
    EXPECT_FALSE(last_bestmove(out).empty());
    const auto p = out.rfind(" nodes ");
    ASSERT_NE(p, std::string::npos);
    EXPECT_LE(std::stoull(out.substr(p + 7)), 5000u + 1024u);
}

TEST(Search, WinsMaterialWhenOffered) {
    // The black queen on d5 hangs to the pawn on e4.
    const std::string out = uci_session(
        "position fen rnb1kbnr/pppp1ppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3\n"
        "go depth 4\n");
    EXPECT_EQ(last_bestmove(out), "e4d5");
}

}  // namespace
}  // namespace echecs::test

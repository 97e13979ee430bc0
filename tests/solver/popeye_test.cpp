// Popeye input: reading the published files, writing and reading back,
// twins, and every error with its line number.
#include "solver/popeye.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/position.h"
#include "solver/hash.h"
#include "test_paths.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

std::string data(const std::string& name) {
    std::ifstream f(echecs::test::test_path(ECHECS_SOLVER_TESTDATA) + "/" + name);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

PositionCode code_of(const Problem& p) {
    StateInfo st;
    Position pos;
    pos.set(p.variant, p.fen, st, p.kings);
    PositionCode c;
    encode(pos, c);
    return c;
}

std::string error_of(const std::string& text) {
    try {
        read_popeye(text);
    } catch (const PopeyeError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(PopeyeRead, Andernach2025) {
    const auto probs = read_popeye(data("andernach2025.inp"));
    ASSERT_EQ(probs.size(), 6u);
    const Problem& p = probs[0].twins[0];
    EXPECT_EQ(p.variant, Variant::Alice);  // AliceB pieces imply the condition
    EXPECT_EQ(p.stipulation.str(), "#3");
    EXPECT_EQ(p.fen, "Ok6/c2Tp3/1s2P1s1/1S1nK3/u2psS1C/2SPS3/b1P5/8 w - - 0 1");
    EXPECT_EQ(p.title, "Thomas Maeder & Kjell Widlert; Andernach 2025, 3rd place");
    EXPECT_TRUE(probs[0].tries && probs[0].variations);
    ASSERT_EQ(probs[1].twins.size(), 2u);
    EXPECT_EQ(probs[1].twin_labels[1], "b) move h1 h2");
    EXPECT_NE(probs[1].twins[1].fen.find("RK/8 b"), std::string::npos);  // the king moved to h2
    EXPECT_EQ(probs[5].twins[0].stipulation.str(), "h#2.5");
    EXPECT_NE(probs[5].twins[0].fen.find(" w "), std::string::npos);  // h#n.5: White starts
}

TEST(PopeyeRead, ClassicsWithCastlingAndEnPassant) {
    const auto probs = read_popeye(data("classics.inp"));
    ASSERT_EQ(probs.size(), 4u);
    EXPECT_EQ(probs[1].twins.size(), 3u);
    EXPECT_EQ(probs[1].twin_labels[2], "c) remove e1 remove h2 stipulation #5");
    EXPECT_NE(probs[2].twins[0].fen.find(" w Q - "), std::string::npos);  // Ke1 and Ra1 at home
    EXPECT_NE(probs[3].twins[0].fen.find(" w - f6 "), std::string::npos);
}

TEST(PopeyeRead, TwinsAreRelativeToTheDiagramUnlessContinued) {
    const std::string text =
        "begin\npieces white kh1 rg2 black ke8\nstip #2\n"
        "twin move h1 h2\ntwin move g2 g3\ntwin cont move h1 f1\nend\n";
    const auto probs = read_popeye(text);
    ASSERT_EQ(probs[0].twins.size(), 4u);
    EXPECT_EQ(probs[0].twins[1].fen.substr(0, 24), "4k3/8/8/8/8/8/6RK/8 w - ");
    EXPECT_EQ(probs[0].twins[2].fen.substr(0, 24), "4k3/8/8/8/8/6R1/8/7K w -");    // from a), not from b)
    EXPECT_EQ(probs[0].twins[3].fen.substr(0, 26), "4k3/8/8/8/8/6R1/8/5K2 w - ");  // continued from c)
}

// Popeye's board twins (its docs and position/board.c: a rotation turns the
// board to the left; a mirror names the square a1, or h1, is turned into):
// the same solutions as Popeye 4.104 on each of these twins, and on the
// rotate, mirror, shift, polishtype, substitute and zeroposition problems of
// its TESTS/twin.inp, TESTS/castling.inp and BEISPIEL/intell.inp.
TEST(PopeyeRead, BoardTwinsAndZeroPosition) {
    const std::string text =
        "begin\nstip h#2\npieces white kc3 rd2 bf2 sb5 black ka2 qg8 rg6 bb3\n"
        "twin rotate 90\ntwin rotate 270\ntwin rotate 180\ntwin mirror a1<-->h8\ntwin mirror a8<-->h1\n"
        "twin mirror a1<-->h1\ntwin mirror a1<-->a8\ntwin shift a2 b2\ntwin cont shift c3 b3\n"
        "twin substitute b s\ntwin polishtype stipulation #2\n"
        "next\nstip #2\npieces white kb3 qc4 sf6 black ka5 ba7\nzeroposition remove f6 rotate 90\n"
        "twin cont mirror a1<-->h1\ntwin move c4 c1\nend\n";
    const auto probs = read_popeye(text);
    ASSERT_EQ(probs.size(), 2u);
    const char* first[] = {
        "6q1/8/6r1/1N6/8/1bK5/k2R1B2/8 b", "8/q1r5/6B1/8/6R1/5K2/3N1b2/6k1 b", "1k6/2b1N3/2K5/1R6/8/1B6/5r1q/8 b",
        "8/2B1R2k/5Kb1/8/6N1/1r6/8/1q6 b", "6k1/3N1b2/5K2/6R1/8/6B1/q1r5/8 b", "8/5r1q/1B6/8/1R6/2K5/2b1N3/1k6 b",
        "1q6/8/1r6/6N1/8/5Kb1/2B1R2k/8 b", "8/k2R1B2/1bK5/8/1N6/6r1/8/6q1 b",  "7q/8/7r/2N5/8/2bK4/1k2R1B1/8 b",
        "6q1/8/6r1/1N6/8/1bK5/k2R1B2/8 b", "6q1/8/6r1/1N6/8/1nK5/k2R1N2/8 b",  "6Q1/8/6R1/1n6/8/1Bk5/K2r1b2/8 w",
    };
    ASSERT_EQ(probs[0].twins.size(), std::size(first));
    for (std::size_t i = 0; i < std::size(first); ++i)
        EXPECT_EQ(probs[0].twins[i].fen.substr(0, std::string(first[i]).size()), first[i]) << i;
    EXPECT_EQ(probs[0].twin_labels[1], "b) rotate 90");
    EXPECT_EQ(probs[0].twin_labels[9], "j) continued shift c3 b3");
    EXPECT_EQ(probs[0].twin_labels[10], "k) substitute B S");
    EXPECT_EQ(probs[0].twins[11].stipulation.str(), "#2");
    // The zero position is not solved: its changes give a), later twins change it again.
    ASSERT_EQ(probs[1].twins.size(), 3u);
    EXPECT_EQ(probs[1].twin_labels[0], "a) remove f6 rotate 90");
    EXPECT_EQ(probs[1].twins[0].fen.substr(0, 27), "8/8/8/8/8/4Q3/5K2/1b1k4 w -");
    EXPECT_EQ(probs[1].twin_labels[1], "b) continued mirror a1<-->h1");
    EXPECT_EQ(probs[1].twins[1].fen.substr(0, 27), "8/8/8/8/8/3Q4/2K5/4k1b1 w -");
    EXPECT_EQ(probs[1].twins[2].fen.substr(0, 27), "8/b7/5N2/k7/8/1K6/8/2Q5 w -");
}

TEST(PopeyeRead, KeywordsAbbreviatedAndAnyCase) {
    const auto probs =
        read_popeye("BeginProblem\nPIE White Ke1 Ra1 Black Ke8\nSTIP #1\nOPTI Vari NoBoard\nEndProblem\n");
    EXPECT_EQ(probs[0].twins[0].stipulation.str(), "#1");
    EXPECT_TRUE(probs[0].variations);
}

TEST(PopeyeWrite, RoundTripsEveryProblem) {
    for (const char* file :
         {"andernach2025.inp", "classics.inp", "popeye_reflex.inp", "popeye_reci.inp", "popeye_series_reflex.inp",
          "popeye_series_reci.inp", "popeye_options.inp", "popeye_exact.inp"})
        for (const auto& pp : read_popeye(data(file)))
            for (const auto& p : pp.twins) {
                const std::string text = write_popeye(p);
                const auto again = read_popeye(text);
                ASSERT_EQ(again.size(), 1u) << text;
                const Problem& q = again[0].twins[0];
                EXPECT_EQ(q.variant, p.variant) << text;
                EXPECT_EQ(q.stipulation, p.stipulation) << text;
                EXPECT_EQ(code_of(q), code_of(p)) << text;
                EXPECT_EQ(q.fen, p.fen) << text;
            }
}

TEST(PopeyeWrite, CastlingEnPassantAndAvalanche) {
    Problem p;
    p.variant = Variant::Chess;
    p.fen = "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1";
    p.stipulation = parse_stipulation("#2");
    const std::string text = write_popeye(p);
    EXPECT_NE(text.find("nocastling a1h8"), std::string::npos) << text;
    EXPECT_NE(text.find("enpassant d7d6d5"), std::string::npos) << text;
    EXPECT_EQ(read_popeye(text)[0].twins[0].fen, "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1");

    p.variant = Variant::Avalanche;
    p.fen = "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1";
    const std::string av = write_popeye(p);
    EXPECT_NE(av.find("condition avalanche\n"), std::string::npos);
    EXPECT_EQ(read_popeye(av)[0].twins[0].variant, Variant::Avalanche);
}

TEST(PopeyeErrors, EachNamesItsLine) {
    const std::string ok_head = "begin\npieces white ke1 black ke8\n";
    EXPECT_EQ(error_of(""), "line 1: empty input: a problem starts with 'begin'");
    EXPECT_EQ(error_of("pieces white ke1"), "line 1: 'pieces': a problem starts with 'begin'");
    EXPECT_EQ(error_of(ok_head + "end\n"), "line 3: the problem has no stipulation");
    EXPECT_NE(error_of(ok_head + "stip k#2\nend\n").find("line 3: stipulation 'k#2': no goal"), std::string::npos);
    EXPECT_NE(error_of("begin\npieces white ke1 nb3 black ke8\n").find("line 2: 'nb3': N is Popeye's nightrider"),
              std::string::npos);
    EXPECT_NE(error_of("begin\npieces white ke1 gb3\n").find("line 2: 'gb3' is not a colour"), std::string::npos);
    EXPECT_NE(error_of("begin\npieces ke1\n").find("line 2: piece 'ke1' before its colour"), std::string::npos);
    EXPECT_NE(error_of("begin\npieces white ke1 ke1\n").find("line 2: square e1 is given twice"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "cond circe\n").find("line 3: condition 'circe' is not supported"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "opti quodlibet\n").find("line 3: option 'quodlibet' is not supported"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "opti maxsol x\n").find("line 3: 'x' is not a number"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "opti enpassant e2e4\n").find("line 3: expected 3 squares"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "opti enpassant e2e3e5\n").find("is not a pawn's double step"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin condition circe\n").find("line 4: twin 'condition' is not supported"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin rotate 45\n").find("line 4: twin rotate: '45' is not 90, 180 or 270"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin mirror a1<-->b1\n").find("line 4: twin mirror: 'a1<-->b1'"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin shift a1 a2\n")
                  .find("line 4: twin shift a1 a2: the man on e8 would "
                        "leave the board"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin substitute q\n").find("line 4: twin substitute: expected two piece"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin move e1 e2\nzero move e2 e3\n").find("line 5: 'zero' after a twin"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin move a1 a2\n").find("line 4: twin: no piece on a1"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin\n").find("twin without a change"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\ntwin move e1 e2\npieces white qd1\n").find("line 5: 'pieces' after a twin"),
              std::string::npos);
    EXPECT_NE(error_of("begin\npieces white ke1 ke2 black ke8\nstip #2\nend\n")
                  .find("line 4: the position is not legal: FEN: piece placement field: 2 white kings"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "sstip #2\n").find("line 3: sstipulation: '#2' is not the side that moves first"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "cond alice avalanche\nstip #1\nend\n").find("both Alice and Avalanche"),
              std::string::npos);
    EXPECT_NE(error_of(ok_head + "forsyth 8/8/99/8\n").find("more than 64 squares"), std::string::npos);
    EXPECT_NE(error_of(ok_head + "stip #2\nhello\n").find("line 4: 'hello' is not a Popeye command"),
              std::string::npos);
}

TEST(PopeyeErrors, HostileInputIsBounded) {
    EXPECT_EQ(error_of(std::string(POPEYE_MAX_BYTES + 1, ' ')), "line 1: the input is larger than 1 MiB");
    std::string many = "begin\npieces white ke1 black ke8\nstip #1\n";
    for (int i = 0; i < 30; ++i) many += "twin move e1 e2\n";
    EXPECT_NE(error_of(many).find("more than 26 twins"), std::string::npos);
    std::string problems = "begin\n";
    for (std::size_t i = 0; i <= POPEYE_MAX_PROBLEMS; ++i) problems += "pieces white ke1 black ke8 stip #1 next\n";
    EXPECT_NE(error_of(problems).find("more than 1000 problems"), std::string::npos);
    // Invalid UTF-8 and a very long token are just text.
    EXPECT_NE(error_of("begin\ntitle \xff\xfe\npieces white ke1 black ke8\n" + std::string(100000, 'x') + "\n")
                  .find("line 4: 'xxxxxxxx"),
              std::string::npos);
    // A title line is kept short.
    const auto p = read_popeye("begin\ntitle " + std::string(5000, 'a') + "\npieces white ke1 black ke8\nstip #1\nend");
    EXPECT_EQ(p[0].twins[0].title.size(), 200u);
}

// Popeye's LaTeX piece names after 'latex FILE' (BEISPIEL/twin.inp's first
// problem: "n SU Nachtreiter") are read and dropped; what follows them, and a
// command right after 'latex', is read as usual.
TEST(PopeyeDialect, LatexPieceNamesAreSkipped) {
    const auto de = read_popeye(
        "anfangproblem\nprotokoll twin.out\nlatex twin.tex\n  n SU Nachtreiter\n  g DU Grash\"upfer\n\n"
        "autor M. Tomasevi\\'c\nforderung h#2\nsteine weiss kc8 be7 schwarz ka6 tf7\nendeproblem\n");
    ASSERT_EQ(de.size(), 1u);
    ASSERT_TRUE(de[0].refused.empty()) << de[0].refused;
    EXPECT_EQ(de[0].twins[0].title, "M. Tomasevi\\'c");
    EXPECT_EQ(de[0].twins[0].fen, "2K5/4Pr2/k7/8/8/8/8/8 b - - 0 1");
    ASSERT_EQ(de[0].warnings.size(), 1u);
    EXPECT_NE(de[0].warnings[0].find("line 3: 'latex'"), std::string::npos) << de[0].warnings[0];
    // An author line right after 'latex' is not a piece name ("M." is no abbreviation).
    const auto en = read_popeye("begin\nlatex x.tex\nau M. Name\npieces white ke1 black ke8 pe7\nstip h#1\nend\n");
    ASSERT_EQ(en.size(), 1u);
    EXPECT_EQ(en[0].twins[0].title, "M. Name");
    EXPECT_EQ(en[0].twins[0].stipulation.str(), "h#1");
}

// Popeye's rule for abbreviations: a prefix names the first word it starts,
// unless a later word starts with it too (then it is ambiguous), in the
// language of the file's first word.
TEST(PopeyeDialect, AbbreviationsAndLanguages) {
    const auto en = read_popeye("beg\npie wh ke1 bl ke8 pe7\nsti ser-h=2\nopt intel noboa\nlatex x.tex\ne\n");
    ASSERT_EQ(en.size(), 1u);
    EXPECT_EQ(en[0].twins[0].stipulation.str(), "ser-h=2");
    EXPECT_EQ(en[0].warnings.size(), 1u);
    const auto de = read_popeye("anfang\nsteine weiss kd1 td2 schwarz ke8 bf7\nforderung #2\noption verf\nende\n");
    ASSERT_EQ(de.size(), 1u);
    EXPECT_EQ(de[0].twins[0].fen, "4k3/5p2/8/8/8/8/3R4/3K4 w - - 0 1");
    EXPECT_TRUE(de[0].tries);
    const auto fr = read_popeye("debut\npieces blanc rd1 td2 noir re8 pf7 fa8\nenonce h#2\nfinprobleme\n");
    ASSERT_EQ(fr.size(), 1u);
    EXPECT_EQ(fr[0].twins[0].fen, "b3k3/5p2/8/8/8/8/3R4/3K4 b - - 0 1");
    // "d" is defence or duplex; "s" stipulation or sstipulation.
    const std::string head = "begin\npieces white ke1 black ke8\nstip #2\n";
    EXPECT_NE(error_of(head + "option d 1\n").find("ambiguous"), std::string::npos);
    EXPECT_NE(error_of("begin\ns #2\n").find("ambiguous"), std::string::npos);
    EXPECT_EQ(read_popeye(head + "option dup\nend\n")[0].twin_labels, (std::vector<std::string>{"", "duplex"}));
    EXPECT_TRUE(read_popeye(head + "option postkey\nend\n")[0].twins[0].stipulation.post_key);
    // Popeye ignores postkeyplay outside battle play, and says so.
    const auto help_post_key = read_popeye("begin\npieces white ke1 black ke8\nstip h#2\noption postkey\nend\n");
    EXPECT_FALSE(help_post_key[0].twins[0].stipulation.post_key);
    ASSERT_EQ(help_post_key[0].warnings.size(), 1u);
    EXPECT_NE(help_post_key[0].warnings[0].find("line 5: option postkeyplay applies to battle play"),
              std::string::npos);
    EXPECT_EQ(read_popeye(head + "option threat 2\nend\n")[0].twins[0].stipulation.max_threat, 2);
    EXPECT_NE(error_of("begin\npieces white ke1 black ke8\nstip h#2\noption threat 1\nend\n")
                  .find("line 5: option threat applies to battle play"),
              std::string::npos);
    EXPECT_NE(error_of(head + "option threat 0\n").find("option 'threat': 0 is not in 1..60"), std::string::npos);
    EXPECT_NE(error_of("begin\npieces neutral ke1\n").find("neutral"), std::string::npos);
    EXPECT_NE(error_of("begin\npieces white ke1 black ke8\ncond avalanche\nstip ser-#2\nend\n")
                  .find("line 5: ser-#2: series play is not defined in Avalanche chess"),
              std::string::npos);
}

// halfduplex: the colours exchange their parts (the FEN's side to move follows);
// duplex: each twin, then the same exchanged. Not for proof games, nor when
// the exchanged position is illegal; the writer says halfduplex again.
TEST(PopeyeDialect, DuplexAndHalfDuplexExchangeTheColoursParts) {
    const auto half = read_popeye("begin\nstip h#2\nopt halfduplex\npieces white kc8 pb6 black ka8 pa7 rh1\nend\n");
    ASSERT_EQ(half[0].twins.size(), 1u);
    const Problem& h = half[0].twins[0];
    EXPECT_TRUE(h.stipulation.exchanged);
    EXPECT_EQ(h.stipulation.starts(), WHITE) << "h#2 with the parts exchanged: White starts, Black mates";
    EXPECT_EQ(h.fen, "k1K5/p7/1P6/8/8/8/8/7r w - - 0 1");
    const auto again = read_popeye(write_popeye(h));
    EXPECT_TRUE(again[0].twins[0].stipulation.exchanged);
    EXPECT_EQ(again[0].twins[0].fen, h.fen);

    const auto both =
        read_popeye("begin\nstip #2\nopt duplex\npieces white kc8 pb6 black ka8 pa7 rh1\ntwin move c8 d8\nend\n");
    ASSERT_EQ(both[0].twins.size(), 4u);
    EXPECT_EQ(both[0].twin_labels,
              (std::vector<std::string>{"a)", "a) duplex", "b) move c8 d8", "b) move c8 d8 duplex"}));
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(both[0].twins[i].stipulation.exchanged, i % 2 == 1) << i;
        EXPECT_EQ(both[0].twins[i].fen.find(i % 2 ? " b " : " w ") != std::string::npos, true) << both[0].twins[i].fen;
    }
    EXPECT_NE(error_of("begin\nstip dia2\nopt duplex\npieces white ke1 black ke8\nend\n").find("proof game"),
              std::string::npos);
    // Black in check: Black starts the h#2; with White to start, the exchanged part cannot be.
    EXPECT_NE(error_of("begin\nstip h#2\nopt duplex\npieces white ke1 qe2 black ke8\nend\n")
                  .find("duplex: with the colours' parts exchanged, the position is not legal"),
              std::string::npos);
}

// One refused problem does not stop the others; each refusal names its line.
TEST(PopeyeDialect, RefusedProblemsLeaveTheRest) {
    const std::string ok = "pieces white kh1 qg1 black kh8\nstip #1\n";
    const auto all = read_popeye_all("begin\n" + ok + "next\ncond madrasi\n" + ok + "next\nstip #2\ntitle next end\n" +
                                     "option nothing\nnext\n" + ok + "end\n");
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0].twins.size(), 1u);
    EXPECT_NE(all[1].refused.find("line 5: condition 'madrasi'"), std::string::npos) << all[1].refused;
    EXPECT_NE(all[2].refused.find("line 11: option 'nothing' is not a Popeye option"), std::string::npos)
        << all[2].refused;
    EXPECT_EQ(all[3].twins.size(), 1u);
    EXPECT_THROW(read_popeye("begin\n" + ok + "next\ncond madrasi\nend\n"), PopeyeError);
}

// Hostile input around the new syntax: every prefix of a file is read or
// refused, never a crash (bounded: one file, each length once).
TEST(PopeyeDialect, EveryPrefixIsReadOrRefused) {
    const std::string text =
        "AnfangProblem\nsteine weiss kf3 sc6 bd4f2 schwarz kf5 dd6 lc2\nforderung ser-h==3\noption weiss intell\n"
        "LaTeX a\nzwilling hinzu schwarz bc2\nzwilling ferner entferne c2\nweiteresproblem\nforderung dia3.5\n"
        "PartieAnfangsStellung\nforderung h#45\nende\n";
    for (std::size_t n = 0; n <= text.size(); ++n) {
        try {
            for (const auto& p : read_popeye_all(text.substr(0, n))) EXPECT_EQ(p.twins.empty(), !p.refused.empty());
        } catch (const PopeyeError&) {
        }
    }
}

// "intelligent n" caps Popeye's solutions per mating position (a partial
// solution): read, every solution given, and said; an option after it is read.
TEST(PopeyeDialect, IntelligentWithACapIsReadAndSolvedInFull) {
    const auto p = read_popeye("begin\npieces white ke1 black ke8\nstip h#2\noption intelligent 2 variation\nend\n");
    ASSERT_EQ(p.size(), 1u);
    ASSERT_EQ(p[0].warnings.size(), 1u);
    EXPECT_NE(p[0].warnings[0].find("line 4: option intelligent 2: Popeye's cap"), std::string::npos);
    EXPECT_TRUE(p[0].variations);
    EXPECT_TRUE(
        read_popeye("begin\npieces white ke1 black ke8\nstip h#2\noption intelligent\nend\n")[0].warnings.empty());
}

// Popeye's structured stipulations that are synonyms of a stipulation read as
// it (each pair solved alike by Popeye 4.104, SOLVER.md); the others refused
// with the reason.
TEST(PopeyeDialect, StructuredStipulationsThatAreSynonyms) {
    auto read = [](const std::string& sstip) {
        const auto p = read_popeye("begin\npieces white ke1 qd1 black ke8 pe7\nsstipulation " + sstip + "\nend\n");
        EXPECT_EQ(p.size(), 1u);
        return p[0].twins.at(0).stipulation;
    };
    const std::pair<const char*, const char*> synonyms[] = {
        {"white 3a[#]d", "#2"},
        {"white 4ad[x]", "sx2"},
        {"white 3a[1a[#]d]d", "semi-r#2"},
        {"white 3a[1a[#]d]d{!1a[#]d}", "r#2"},
        {"black 4hh[=]", "h=2"},
        {"white 3h[#]h", "h#1.5"},
        {"black - 3h[#]h", "h#1.5"},
        {"white 5s[#]", "ser-#5"},
        {"White 6s[ 1d[#]a ]", "ser-s#6"},
        {"black 2s[1h[#]h]", "ser-h#2"},
        {"white 1a[zc8]d", "zc81"},
    };
    for (const auto& [sstip, stip] : synonyms) {
        const Stipulation st = read(sstip);
        EXPECT_EQ(st.str(), stip) << sstip;
        EXPECT_FALSE(st.exchanged) << sstip;
    }
    // The other side first: the colours' parts exchanged (Popeye's halfduplex).
    EXPECT_TRUE(read("black 3a[#]d").exchanged);
    EXPECT_TRUE(read("white 4hh[#]").exchanged);
    EXPECT_EQ(read("white 4hh[#]").starts(), WHITE);
    const std::string head = "begin\npieces white ke1 black ke8\nsstip ";
    EXPECT_NE(error_of(head + "white 3h[>1a[x]d]h\n")
                  .find("line 3: sstipulation '3h[>1a[x]d]h': this "
                        "form is not supported (read: the forms"),
              std::string::npos);
    EXPECT_NE(error_of(head + "black 4:6hh[#]\n").find("a minimal length below the maximum"), std::string::npos);
    EXPECT_EQ(read("black 4:4hh[#]").str(), "exact-h#2");  // Popeye's manual; Popeye 4.104 solves both alike
    EXPECT_EQ(read("white 3:3a[#]d").str(), "exact-#2");
    EXPECT_NE(error_of(head + "white 4a[#]d\n").find("4 half-moves do not fit this form"), std::string::npos);
    EXPECT_NE(error_of(head + "white 3a[1a[#]d]d{!1a[=]d}\n").find("the constraint's goal differs"), std::string::npos);
    EXPECT_NE(error_of(head + "neutral 3a[#]d\n").find("is not the side that moves first"), std::string::npos);
    EXPECT_NE(error_of(head + "white 3a[%]d\n").find("line 3: "), std::string::npos);
    EXPECT_NE(error_of(head + "white\n").find("line 3: "), std::string::npos);
    // A twin may change it.
    const auto twin = read_popeye(head + "white 3a[#]d\ntwin sstip black 4hh[#]\nend\n");
    ASSERT_EQ(twin[0].twins.size(), 2u);
    EXPECT_EQ(twin[0].twins[1].stipulation.str(), "h#2");
    EXPECT_EQ(twin[0].twin_labels[1], "b) stipulation h#2");
}

// Helpmates by mating positions (solver/intelligent.h): every mate that the
// plain search reaches contains one of the targets, with its empty squares
// empty; and solve() finds the same solutions either way. On hand-made
// positions (pins, interpositions, castling, promotion, en passant) and on
// random ones.
#include "solver/intelligent.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <random>
#include <set>
#include <string>

#include "board_fen.h"
#include "core/movegen.h"
#include "solver/hash.h"
#include "solver/solver.h"

using namespace echecs;
using namespace echecs::solver;

namespace {

std::vector<std::vector<std::string>> uci_lines(const std::vector<HelpLine>& lines, bool sorted = true) {
    std::vector<std::vector<std::string>> out;
    for (const HelpLine& h : lines) {
        std::vector<std::string> l;
        for (const PlayedMove& m : h.moves) l.push_back(m.uci);
        out.push_back(l);
    }
    if (sorted) std::sort(out.begin(), out.end());
    return out;
}

// Plays `line` from `fen`, following each diagram man, and says whether the
// final position holds one of `targets` whole (a reci-h's own line, which
// mates the other side, holds none: true).
bool contains_a_target(const std::string& fen, const HelpLine& line, const std::vector<Target>& targets, Color mated) {
    StateInfo root_state;
    Position pos;
    pos.set(Variant::Chess, fen, root_state);
    int home[64];
    for (int s = 0; s < 64; ++s) home[s] = pos.piece_on(Square(s)) == NO_PIECE ? -1 : s;
    std::vector<StateInfo> states(line.moves.size());
    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        const Move m = line.moves[i].move;
        const Square from = m.from(), to = m.to();
        if (m.kind() == EN_PASSANT) home[to - pawn_push(pos.side_to_move())] = -1;
        if (m.kind() == CASTLING) {
            const bool king_side = to > from;
            const Square rfrom = king_side ? from + 3 : from - 4, rto = king_side ? from + 1 : from - 1;
            home[rto] = home[rfrom];
            home[rfrom] = -1;
        }
        home[to] = home[from];
        home[from] = -1;
        pos.do_move(m, states[i]);
    }
    Bitboard alive = 0;
    for (int s = 0; s < 64; ++s)
        if (home[s] >= 0) alive |= square_bb(Square(home[s]));
    if (pos.side_to_move() != mated) return true;
    for (const Target& t : targets) {
        bool all = !(pos.pieces() & t.empty) && !(alive & t.gone);
        for (const TargetMan& m : t.men) all = all && home[m.on] == m.home && type_of(pos.piece_on(m.on)) == m.as;
        if (all) return true;
    }
    return false;
}

// Solves h#n (ser-h#n, reci-h#n, h=n, ser-h=n) both ways, when it has at most 5,000
// targets (false otherwise: too many to check each mate against); every
// solution's mate (stalemate) holds a target.
bool check(const std::string& fen, const std::string& stip, int* solutions = nullptr, std::size_t most = 5000) {
    SCOPED_TRACE(fen + " " + stip);
    Problem p{Variant::Chess, fen, parse_stipulation(stip), ""};
    StateInfo root_state;
    Position root;
    // The diagram with the stipulation's side to move, as solve() sets it.
    const Color first = p.stipulation.starts();
    std::string diagram = fen;
    diagram[diagram.find(' ') + 1] = first == WHITE ? 'w' : 'b';
    root.set(Variant::Chess, diagram, root_state);
    const Stipulation& st = p.stipulation;
    const int plies = st.plies();
    const bool help = st.play == Play::Help || st.play == Play::ReciHelp;
    const Color mated = help ? (plies % 2 ? ~first : first) : first;  // ser-h#: the series side
    const int wm = help ? (plies + 1) / 2 : 1, bm = help ? plies / 2 : st.moves;
    std::vector<Target> targets;
    if (!(st.goal == Goal::Stalemate ? stalemate_targets(root, mated, wm, bm, targets, most)
                                     : mate_targets(root, mated, wm, bm, targets, most)))
        return false;

    Options plain, by_targets;
    plain.threads = by_targets.threads = 1;
    plain.set_play = by_targets.set_play = true;  // h#: set play by targets too
    plain.intelligent = Options::Intelligent::Never;
    by_targets.intelligent = Options::Intelligent::Always;
    const Result a = solve(p, plain);
    const Result b = solve(p, by_targets);
    EXPECT_TRUE(a.complete());
    EXPECT_TRUE(b.complete());
    EXPECT_EQ(b.targets, targets.size());
    EXPECT_EQ(uci_lines(a.set_solutions, false), uci_lines(b.set_solutions, false));
    // In the same order too, when they are the same.
    if (a.solutions.size() == b.solutions.size() && a.solutions.size() < 5000) {
        EXPECT_EQ(uci_lines(a.solutions, false), uci_lines(b.solutions, false));
    }
    const auto la = uci_lines(a.solutions), lb = uci_lines(b.solutions);
    std::vector<std::vector<std::string>> missing, extra;
    std::set_difference(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(missing));
    std::set_difference(lb.begin(), lb.end(), la.begin(), la.end(), std::back_inserter(extra));
    const auto text = [](const std::vector<std::vector<std::string>>& ls) {
        std::string t;
        for (std::size_t i = 0; i < ls.size() && i < 5; ++i) {
            for (const auto& m : ls[i]) t += m + " ";
            t += "| ";
        }
        return t;
    };
    EXPECT_TRUE(missing.empty()) << missing.size() << " missing by targets: " << text(missing);
    EXPECT_TRUE(extra.empty()) << extra.size() << " more by targets: " << text(extra);
    if (solutions) *solutions += int(a.solutions.size());

    // At most 50 of them, spread over all.
    const std::size_t step = a.solutions.size() / 50 + 1;
    for (std::size_t i = 0; i < a.solutions.size(); i += step) {
        const HelpLine& h = a.solutions[i];
        std::string moves;
        for (const PlayedMove& m : h.moves) moves += m.uci + " ";
        EXPECT_TRUE(contains_a_target(b.fen, h, targets, mated)) << "no target in the mate after " << moves;
    }
    return true;
}

// Kings (now and then at home with their rooks and castling rights) and one
// to `most` men a side; only legal positions.
std::string random_diagram(std::mt19937& rng, int most) {
    for (;;) {
        char board[64];
        std::fill(std::begin(board), std::end(board), '.');
        std::string castling = "-";
        if (rng() % 10 < 3) {
            board[4] = 'K', board[0] = board[7] = 'R', board[60] = 'k', board[56] = board[63] = 'r';
            castling = "KQkq";
        } else {
            board[rng() % 64] = 'K';
            int s = int(rng() % 64);
            while (board[s] != '.') s = int(rng() % 64);
            board[s] = 'k';
        }
        const char* MEN = "QRRBBNNPPPPP";
        for (int side = 0; side < 2; ++side)
            for (int n = 1 + int(rng() % most); n > 0; --n) {
                const char m = MEN[rng() % 12];
                const int s = int(rng() % 64);
                if (board[s] != '.' || (m == 'P' && (s < 8 || s >= 56))) continue;
                board[s] = side ? char(m - 'A' + 'a') : m;
            }
        std::string fen = test_helpers::board_fen(board);
        fen += " b " + castling + " - 0 1";
        // Legal: the side not to move is not in check (White first for h#n.5 is checked by solve()).
        StateInfo st;
        Position pos;
        try {
            pos.set(Variant::Chess, fen, st);
        } catch (const std::exception&) {
            continue;
        }
        if (!pos.king_attacked(WHITE) && !pos.in_check()) return fen;
    }
}

// `count` random diagrams of up to `most` men a side checked for `stip`
// (those with more than `targets` targets are drawn again).
void check_some(std::mt19937& rng, const char* stip, int most, int count, int& solutions, std::size_t targets) {
    int checked = 0;
    for (int draw = 0; draw < 20 * count && checked < count; ++draw)
        checked += check(random_diagram(rng, most), stip, &solutions, targets);
    EXPECT_EQ(checked, count) << stip;
}
}  // namespace

TEST(Intelligent, KnownMates) {
    // White first (h#2.5): a queen's check along the rank, a queen and a knight guarding; two
    // queens, so the same position comes with its men elsewhere.
    EXPECT_TRUE(check("1b4k1/1p6/5pN1/8/3pQ1Q1/8/6K1/8 w - - 0 1", "h#2.5"));
    // Popeye's intell.inp 1 (a), h#4.
    EXPECT_TRUE(check("8/8/2Nq4/5k2/3P4/5K2/2b2P2/8 b - - 0 1", "h#4"));
}

TEST(Intelligent, RandomHelpmates) {
    std::mt19937 rng(2026);
    int solutions = 0;
    check_some(rng, "h#2", 5, 30, solutions, 5000);
    check_some(rng, "h#2.5", 4, 20, solutions, 5000);
    check_some(rng, "h#3", 3, 6, solutions, 5000);
    check_some(rng, "ser-h#3", 4, 20, solutions, 5000);
    check_some(rng, "reci-h#2", 4, 20, solutions, 5000);
    check_some(rng, "reci-h#3", 3, 6, solutions, 5000);
    EXPECT_GT(solutions, 100);  // the draws must have mates to compare
}

TEST(Intelligent, PopeyesLongSeriesHelpmate) {
    // Popeye's intell.inp 92 (Linß, ser-h#9), too long for the plain search here: its one
    // solution, as Popeye gives it, with few targets (the pawn's check is made by its last move).
    const Problem p{Variant::Chess, "8/8/knb5/npq5/rbr5/1P1K4/8/8 b - - 0 1", parse_stipulation("ser-h#9"), ""};
    Options o;
    o.threads = 1;
    const Result r = solve(p, o);
    ASSERT_TRUE(r.complete());
    ASSERT_EQ(r.solutions.size(), 1u);
    std::string moves;
    for (const PlayedMove& m : r.solutions[0].moves) moves += m.uci + " ";
    EXPECT_EQ(moves, "c6b7 a5c6 a4a5 b6a4 c5b6 b4c5 b5b4 a6b5 b7a6 b3c4 ");
    EXPECT_GT(r.targets, 0u);
    EXPECT_LT(r.targets, 100u);
}

// Auto with many targets: the plain search first, up to a few thousand nodes.
TEST(Intelligent, AutoTriesThePlainSearchFirst) {
    const auto solve_with = [](const std::string& fen, const char* stip, Options::Intelligent mode,
                               std::vector<std::string>* found) {
        Options o;
        o.threads = 1;
        o.intelligent = mode;
        if (found)
            o.found = [found](const AttackLine*, const HelpLine* h) {
                std::string l;
                for (const PlayedMove& m : h->moves) l += m.uci + " ";
                found->push_back(l);
            };
        return solve(Problem{Variant::Chess, fen, parse_stipulation(stip), ""}, o);
    };
    // Popeye's ep.inp 9 (h#3): 14,787 targets, a plain search of 3,896 nodes. Auto answers
    // by the plain search (no targets), each solution reported once, in the plain order.
    const std::string ep = "1b6/nrp5/N1p5/1pp5/kPp5/p1p5/K1P5/RB6 b - b3 0 1";
    std::vector<std::string> found;
    const Result a = solve_with(ep, "h#3", Options::Intelligent::Auto, &found);
    const Result plain = solve_with(ep, "h#3", Options::Intelligent::Never, nullptr);
    ASSERT_TRUE(a.complete());
    EXPECT_EQ(a.targets, 0u);
    EXPECT_EQ(uci_lines(a.solutions, false), uci_lines(plain.solutions, false));
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[1], "c4b3 c2b3 a4a5 b3b4 a5a4 b1c2 ");
    // Popeye's intell.inp 31 (h#3): 3,688 targets, and a plain search past the probe's
    // nodes: by targets, with the same solutions.
    const std::string zarur = "8/8/7B/1Pp1PR1p/1rp2Pkp/b1Kppp1p/b5r1/3q4 b - - 0 1";
    const Result t = solve_with(zarur, "h#3", Options::Intelligent::Auto, nullptr);
    ASSERT_TRUE(t.complete());
    EXPECT_GT(t.targets, 1500u);
    EXPECT_EQ(uci_lines(t.solutions, false),
              uci_lines(solve_with(zarur, "h#3", Options::Intelligent::Always, nullptr).solutions, false));
    EXPECT_EQ(t.solutions.size(), 2u);
}

TEST(Intelligent, KnownStalemates) {
    // Popeye's hpint.inp 111 (h=4): Black's men all end immobile or captured.
    EXPECT_TRUE(check("kr6/b1p5/8/8/2K5/8/2P5/8 b - - 0 1", "h=4"));
}

TEST(Intelligent, RandomHelpStalemates) {
    std::mt19937 rng(2027);
    int solutions = 0;
    check_some(rng, "h=2", 4, 40, solutions, 1000);
    check_some(rng, "h=2.5", 3, 15, solutions, 1000);
    check_some(rng, "h=3", 3, 10, solutions, 1000);
    check_some(rng, "ser-h=3", 5, 20, solutions, 1000);
    EXPECT_GT(solutions, 50);  // the draws must have stalemates to compare
}

TEST(Intelligent, TargetTableKeepsWhatItStoresAsItGrows) {
    // Positions along random games, each with which man stands where: the
    // table starts at 8,192 entries and moves each one when it doubles.
    std::mt19937 rng(11);
    TargetTable table;
    struct Seen {
        std::vector<Move> line;
        int plies;
    };
    std::vector<Seen> stored;
    std::set<std::vector<std::uint64_t>> distinct;
    for (int game = 0; stored.size() < 6000; ++game) {
        std::vector<StateInfo> states(81);
        Position pos;
        pos.set(Variant::Chess, Position::START_FEN, states[0]);
        TargetTracker men;
        men.start(pos, nullptr);
        std::vector<Move> line;
        for (int ply = 1; ply <= 80; ++ply) {
            MoveList list;
            generate_legal(pos, list);
            if (list.count == 0) break;
            const Move m = list.moves[rng() % list.count];
            men.make(pos, m);
            pos.do_move(m, states[ply]);
            line.push_back(m);
            PositionCode code;
            ASSERT_TRUE(encode(pos, code));
            if (!distinct.insert({code.w[0], code.w[1], code.w[2], code.w[3]}).second) continue;
            const int plies = int(stored.size() % 40);
            table.store_fail(pos, code, men, plies);
            stored.push_back({line, plies});
        }
    }
    // Replayed: each is found with its number of half-moves, and with no other.
    int found = 0;
    for (const Seen& s : stored) {
        std::vector<StateInfo> states(s.line.size() + 1);
        Position pos;
        pos.set(Variant::Chess, Position::START_FEN, states[0]);
        TargetTracker men;
        men.start(pos, nullptr);
        for (std::size_t i = 0; i < s.line.size(); ++i) {
            men.make(pos, s.line[i]);
            pos.do_move(s.line[i], states[i + 1]);
        }
        PositionCode code;
        ASSERT_TRUE(encode(pos, code));
        found += table.failed(pos, code, men, s.plies);
        EXPECT_FALSE(table.failed(pos, code, men, s.plies + 1));
    }
    EXPECT_GE(found, 5940);  // all but the odd one a full pair gave up
}

TEST(Intelligent, ListingHonoursTheCancelFlag) {
    // Popeye's hpint.inp 107 (h=5): 34,792 stalemate positions, a listing of
    // seconds under the sanitizers. Cancelled before it starts, the listing
    // stops within a few thousand steps and the solve says so.
    std::atomic<bool> cancel{true};
    Options o;
    o.threads = 1;
    o.intelligent = Options::Intelligent::Always;
    o.cancel = &cancel;
    const Result r = solve(
        Problem{Variant::Chess, "1K1k4/1p3p2/4pN2/5p2/8/8/p1p1P3/BbN5 b - - 0 1", parse_stipulation("h=5"), ""}, o);
    EXPECT_EQ(r.status, Status::Cancelled);
    EXPECT_EQ(r.targets, 0u);
    EXPECT_TRUE(r.solutions.empty());
}

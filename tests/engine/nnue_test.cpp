// The NNUE evaluation: file format and hostile files, colour symmetry,
// SIMD against scalar, the per-thread cache against a full refresh, the
// trainer, and the UCI options.
#include "engine/nnue.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "core/movegen.h"
#include "engine/evaluate.h"
#include "engine/nnue_train.h"
#include "engine/selfplay.h"
#include "helpers.h"

namespace echecs::test {
namespace {

using namespace engine::nnue;

constexpr Variant VARIANTS[] = {Variant::Chess, Variant::Alice, Variant::Avalanche};

// A network with random weights, large enough that accumulators leave the
// 0..QA range on both sides (so the clipping is exercised).
std::unique_ptr<Network> random_network(Variant v, KingBuckets k, int hidden, int outputs, std::uint32_t seed) {
    Shape s;
    s.variant = v;
    s.kings = k;
    s.boards = v == Variant::Alice ? 2 : 1;
    s.hidden = hidden;
    s.output_buckets = outputs;
    auto net = std::make_unique<Network>(s);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> ft(-120, 120), bias(-200, 400), out(-300, 300);
    for (std::size_t i = 0; i < std::size_t(s.inputs()) * std::size_t(hidden); ++i)
        net->ft_weights[i] = std::int16_t(ft(rng));
    for (int i = 0; i < hidden; ++i) net->ft_bias[i] = std::int16_t(bias(rng));
    for (int i = 0; i < 2 * hidden * outputs; ++i) net->out_weights[i] = std::int16_t(out(rng));
    for (auto& b : net->out_bias) b = out(rng) * 100;
    net->description = "random test network";
    return net;
}

// Positions of random games, as FENs.
std::vector<std::string> random_fens(Variant v, int count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::string> out;
    while (int(out.size()) < count) {
        std::deque<StateInfo> states(1);
        Position pos;
        pos.set(v, Position::START_FEN, states.back());
        for (int ply = 0; ply < 160 && int(out.size()) < count; ++ply) {
            MoveList legal;
            generate_legal(pos, legal);
            if (legal.empty()) break;
            states.emplace_back();
            pos.do_move(legal.moves[rng() % unsigned(legal.size())], states.back());
            out.push_back(pos.fen());
        }
    }
    return out;
}

std::vector<std::string> fields_of(const std::string& fen) {
    std::istringstream is(fen);
    std::vector<std::string> f;
    for (std::string w; is >> w;) f.push_back(w);
    return f;
}

std::string swap_case(std::string s) {
    for (char& c : s) c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
    return s;
}

// The same position with the colours exchanged (ranks flipped).
std::string colour_mirror(const std::string& fen) {
    auto f = fields_of(fen);
    std::vector<std::string> ranks;
    std::istringstream is(f[0]);
    for (std::string r; std::getline(is, r, '/');) ranks.push_back(swap_case(r));
    std::string placement;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) placement += (placement.empty() ? "" : "/") + *it;
    std::string ep = f[3];
    if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
    return placement + (f[1] == "w" ? " b " : " w ") + (f[2] == "-" ? "-" : swap_case(f[2])) + " " + ep + " " + f[4] +
           " " + f[5];
}

// The same position reflected left to right (castling rights dropped:
// features do not read them).
std::string file_mirror(const std::string& fen) {
    auto f = fields_of(fen);
    std::istringstream is(f[0]);
    std::string placement;
    for (std::string r; std::getline(is, r, '/');) {
        std::string expanded;
        for (char c : r)
            expanded += std::isdigit(static_cast<unsigned char>(c)) ? std::string(std::size_t(c - '0'), '.')
                                                                    : std::string(1, c);
        std::reverse(expanded.begin(), expanded.end());
        std::string packed;
        int empty = 0;
        for (char c : expanded) {
            if (c == '.') {
                ++empty;
                continue;
            }
            if (empty) packed += char('0' + empty), empty = 0;
            packed += c;
        }
        if (empty) packed += char('0' + empty);
        placement += (placement.empty() ? "" : "/") + packed;
    }
    std::string ep = f[3];
    if (ep != "-") ep[0] = char('h' - (ep[0] - 'a'));
    return placement + " " + f[1] + " - " + ep + " " + f[4] + " " + f[5];
}

int eval_fen(const Network& net, Variant v, const std::string& fen, bool full = false) {
    StateInfo st;
    Position pos;
    pos.set(v, fen, st);
    return full ? evaluate_full(net, pos) : evaluate(net, pos);
}

TEST(Nnue, SaveThenLoadGivesTheSameNetworkAndEvaluation) {
    for (Variant v : VARIANTS) {
        auto net = random_network(v, KingBuckets::HomeRanks, 64, 4, 1);
        const std::string bytes = save(*net);
        auto back = load(bytes, "test");
        EXPECT_EQ(back->shape.variant, v);
        EXPECT_EQ(back->description, "random test network");
        EXPECT_EQ(save(*back), bytes);
        for (const auto& fen : random_fens(v, 50, 2)) EXPECT_EQ(eval_fen(*net, v, fen), eval_fen(*back, v, fen)) << fen;
    }
}

TEST(Nnue, DamagedFilesGiveAClearErrorNeverACrash) {
    const std::string good = save(*random_network(Variant::Alice, KingBuckets::One, 64, 2, 3));
    auto error_of = [](const std::string& bytes) {
        try {
            load(bytes, "net.nnue");
        } catch (const NnueError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_TRUE(contains(error_of(""), "net.nnue: file ends inside the header"));
    EXPECT_TRUE(contains(error_of("hello world, not a network"), "not an echecs network"));
    std::string v2 = good;
    v2[4] = 2;
    EXPECT_TRUE(contains(error_of(v2), "format version 2, this engine reads 1"));
    EXPECT_TRUE(contains(error_of(good.substr(0, good.size() - 1)), "its header's shape needs"));
    EXPECT_TRUE(contains(error_of(good + "x"), "its header's shape needs"));
    std::string flipped = good;
    flipped[good.size() / 2] ^= 1;
    EXPECT_TRUE(contains(error_of(flipped), "checksum mismatch"));
    std::string boards = good;
    boards[10] = 1;  // Alice with one board
    EXPECT_TRUE(contains(error_of(boards), "boards 1"));
    // Every truncation and a flipped bit in every header byte fail cleanly.
    for (std::size_t n = 0; n < good.size(); n += 97) EXPECT_FALSE(error_of(good.substr(0, n)).empty()) << n;
    for (std::size_t i = 0; i < 40; ++i)
        for (int bit = 0; bit < 8; ++bit) {
            std::string b = good;
            b[i] ^= char(1 << bit);
            EXPECT_FALSE(error_of(b).empty()) << i << " " << bit;
        }
    EXPECT_NO_THROW(load(good, "net.nnue"));
}

TEST(Nnue, OutOfRangeOutputWeightsAreRefused) {
    auto net = random_network(Variant::Chess, KingBuckets::One, 64, 1, 4);
    net->out_weights[5] = 5000;  // the int32 output sum could overflow
    try {
        load(save(*net), "big.nnue");
        FAIL() << "loaded";
    } catch (const NnueError& e) {
        EXPECT_TRUE(contains(e.what(), "output weight 5 is 5000")) << e.what();
    }
}

TEST(Nnue, MissingFileSaysSo) {
    try {
        load_file("/nonexistent/dir/x.nnue");
        FAIL() << "loaded";
    } catch (const NnueError& e) {
        EXPECT_TRUE(contains(e.what(), "/nonexistent/dir/x.nnue: cannot open")) << e.what();
    }
}

// How far from 0 a network may score the start. In Avalanche the first
// move is worth more (it pushes an enemy pawn too): the self-play searches
// of its network's data score White to move +87 cp on average at moves
// 1-6, on a scale 2.4 times chess's (the trainer's S: 500 against 208 cp).
int start_bound(Variant v) { return v == Variant::Avalanche ? 250 : 150; }

TEST(Nnue, BuiltInNetworksLoadAndBelongToTheirGame) {
    for (Variant v : VARIANTS) {
        auto net = embedded(v);
        if (!net) {
            EXPECT_FALSE(adopted(v));
            continue;
        }
        EXPECT_EQ(net->shape.variant, v);
        // Reloading its own bytes checks the checksum again.
        EXPECT_NO_THROW(load(save(*net), "built-in"));
        StateInfo st;
        Position pos;
        pos.set(v, Position::START_FEN, st);
        EXPECT_LT(std::abs(evaluate(*net, pos)), start_bound(v)) << variant_name(v) << ": the start is roughly equal";
        if (adopted(v)) {
            EXPECT_EQ(engine::default_weights(v).network, net);
        }
    }
}

TEST(Nnue, ColourMirroredPositionsScoreTheSame) {
    for (Variant v : VARIANTS) {
        auto net = random_network(v, KingBuckets::Four, 128, 4, 5);
        for (const auto& fen : random_fens(v, 400, 6)) {
            const std::string m = colour_mirror(fen);
            EXPECT_EQ(eval_fen(*net, v, fen), eval_fen(*net, v, m)) << fen << " vs " << m;
        }
        if (auto built_in = embedded(v)) {
            for (const auto& fen : random_fens(v, 200, 7))
                EXPECT_EQ(eval_fen(*built_in, v, fen), eval_fen(*built_in, v, colour_mirror(fen))) << fen;
        }
    }
}

TEST(Nnue, FileMirroredPositionsScoreTheSame) {
    for (Variant v : VARIANTS) {
        auto net = random_network(v, KingBuckets::HomeRanks, 64, 2, 8);
        for (const auto& fen : random_fens(v, 300, 9)) {
            const std::string plain = file_mirror(file_mirror(fen));
            EXPECT_EQ(eval_fen(*net, v, plain), eval_fen(*net, v, file_mirror(fen))) << fen;
        }
    }
}

TEST(Nnue, MaterialChangesTheScore) {
    // Not a constant function: removing a piece changes the score.
    auto net = random_network(Variant::Chess, KingBuckets::HomeRanks, 64, 4, 10);
    EXPECT_NE(eval_fen(*net, Variant::Chess, std::string(Position::START_FEN)),
              eval_fen(*net, Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"));
}

TEST(Nnue, SimdAndScalarAgreeExactly) {
    const Simd before = active_simd();
    // A random network of an unusual shape, and each game's built-in one
    // (Alice's has 64 hidden units, the others 128).
    std::vector<std::pair<Variant, std::shared_ptr<const Network>>> nets;
    for (Variant v : VARIANTS) {
        nets.emplace_back(v, random_network(v, KingBuckets::Four, 192, 8, 11));
        if (auto built_in = embedded(v)) nets.emplace_back(v, built_in);
    }
    for (const auto& [v, net] : nets) {
        const auto fens = random_fens(v, 300, 12);
        set_simd(Simd::Scalar);
        ASSERT_EQ(active_simd(), Simd::Scalar);
        std::vector<int> scalar;
        for (const auto& fen : fens) scalar.push_back(eval_fen(*net, v, fen, true));
        for (Simd s : {Simd::Sse2, Simd::Avx2}) {
            if (!simd_available(s)) continue;
            set_simd(s);
            ASSERT_EQ(active_simd(), s);
            for (std::size_t i = 0; i < fens.size(); ++i) {
                ASSERT_EQ(eval_fen(*net, v, fens[i], true), scalar[i]) << simd_name(s) << " " << fens[i];
                ASSERT_EQ(eval_fen(*net, v, fens[i]), scalar[i]) << simd_name(s) << " cached " << fens[i];
            }
        }
    }
    set_simd(before);
}

TEST(Nnue, CacheGivesExactlyTheFullRefresh) {
    // Along random games (moves, then takebacks, so the cache sees both
    // directions), with two networks of the same game interleaved.
    for (Variant v : VARIANTS) {
        auto a = random_network(v, KingBuckets::Four, 64, 4, 13);
        auto b = random_network(v, KingBuckets::Four, 64, 4, 14);
        std::mt19937 rng(15);
        for (int game = 0; game < 6; ++game) {
            std::deque<StateInfo> states(1);
            std::vector<Move> played;
            Position pos;
            pos.set(v, Position::START_FEN, states.back());
            for (int ply = 0; ply < 150; ++ply) {
                ASSERT_EQ(evaluate(*a, pos), evaluate_full(*a, pos)) << pos.fen();
                if (ply % 3 == 0) {
                    ASSERT_EQ(evaluate(*b, pos), evaluate_full(*b, pos)) << pos.fen();
                }
                MoveList legal;
                generate_legal(pos, legal);
                if (legal.empty()) break;
                if (!played.empty() && rng() % 5 == 0) {
                    pos.undo_move(played.back());
                    played.pop_back();
                    continue;
                }
                states.emplace_back();
                played.push_back(legal.moves[rng() % unsigned(legal.size())]);
                pos.do_move(played.back(), states.back());
            }
        }
    }
}

TEST(Nnue, MoreThanThirtyTwoPiecesAreAllCounted) {
    // A legal FEN may hold more pieces than a game can reach.
    const std::string fen = "qqqqkqqq/pppppppp/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1";
    const std::string more = "qqqqkqqq/pppppppp/8/8/8/N7/PPPPPPPP/QQQQKQQQ w - - 0 1";
    for (Variant v : VARIANTS) {
        auto net = random_network(v, KingBuckets::Four, 64, 4, 20);
        EXPECT_EQ(eval_fen(*net, v, fen), eval_fen(*net, v, fen, true));
        EXPECT_EQ(eval_fen(*net, v, more), eval_fen(*net, v, more, true));
        EXPECT_NE(eval_fen(*net, v, more, true), eval_fen(*net, v, fen, true)) << "the 33rd piece counts";
    }
}

TEST(Nnue, EvaluateDispatchesOnTheWeightsNetwork) {
    auto net = std::shared_ptr<const Network>(random_network(Variant::Alice, KingBuckets::One, 64, 1, 16));
    engine::EvalWeights w = engine::default_weights(Variant::Alice);
    w.network = net;
    for (const auto& fen : random_fens(Variant::Alice, 30, 17)) {
        StateInfo st;
        Position pos;
        pos.set(Variant::Alice, fen, st);
        EXPECT_EQ(engine::evaluate(pos, w), evaluate(*net, pos));
        // A network of another game is not used.
        StateInfo st2;
        Position chess;
        chess.set(Variant::Chess, Position::START_FEN, st2);
        const engine::EvalWeights& hand = engine::hand_written_weights(Variant::Chess);
        engine::EvalWeights other = hand;
        other.network = net;
        EXPECT_EQ(engine::evaluate(chess, other), engine::evaluate(chess, hand));
    }
}

TEST(NnueTrain, LossFallsAndTheNetworkLoads) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("nnue_train_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    engine::SelfplayOptions sp;
    sp.variant = "avalanche";
    sp.games = 12;
    sp.nodes = 300;
    sp.seed = 3;
    std::ostringstream data;
    engine::run_selfplay(sp, data, nullptr);
    std::ofstream((dir / "d.tsv").string()) << data.str();

    TrainOptions o;
    o.variant = Variant::Avalanche;
    o.data = (dir / "d.tsv").string();
    o.out = (dir / "n.nnue").string();
    o.hidden = 64;
    o.epochs = 6;
    o.batch = 64;
    o.validation = 0;
    std::ostringstream log;
    ASSERT_EQ(train(o, log), 0) << log.str();
    // The first and last epochs' training loss.
    std::vector<double> losses;
    std::istringstream is(log.str());
    for (std::string l; std::getline(is, l);)
        if (l.rfind("epoch", 0) == 0) losses.push_back(std::stod(l.substr(l.find("train ") + 6)));
    ASSERT_EQ(losses.size(), 6u) << log.str();
    EXPECT_LT(losses.back(), losses.front() * 0.9) << log.str();
    auto net = load_file(o.out);
    EXPECT_EQ(net->shape.variant, Variant::Avalanche);
    EXPECT_TRUE(contains(net->description, "avalanche network"));

    // With positions held out, the log gives the bars: the hand-written
    // evaluation's loss and, in a game that plays with a network, that network's.
    // (blocks of 1,000 positions: the data repeated past 2,000 lines has some of each).
    {
        std::ofstream big((dir / "d4.tsv").string());
        const std::string text = data.str();
        const long lines = long(std::count(text.begin(), text.end(), '\n'));
        ASSERT_GT(lines, 0);
        for (long written = 0; written < 2500; written += lines) big << text;
    }
    o.data = (dir / "d4.tsv").string();
    o.validation = 2;
    o.epochs = 1;
    std::ostringstream held;
    ASSERT_EQ(train(o, held), 0) << held.str();
    EXPECT_TRUE(contains(held.str(), "the hand-written evaluation's held-out loss: 0.")) << held.str();
    EXPECT_EQ(contains(held.str(), "the built-in network's held-out loss: 0."), adopted(Variant::Avalanche))
        << held.str();

    // Bad data names the line.
    std::ofstream((dir / "bad.tsv").string()) << data.str().substr(0, data.str().find('\n') + 1) << "8/8/8 w\t1\t0\n";
    o.data = (dir / "bad.tsv").string();
    std::ostringstream bad;
    EXPECT_EQ(train(o, bad), 2);
    EXPECT_TRUE(contains(bad.str(), "line 2: FEN")) << bad.str();
    fs::remove_all(dir);
}

TEST(NnueTrain, SelfplayRandomMovesAndRecordLimit) {
    // Training data: random moves after the searches give unbalanced
    // positions, which a wider record limit keeps.
    engine::SelfplayOptions sp;
    sp.variant = "chess";
    sp.games = 6;
    sp.nodes = 200;
    sp.seed = 5;
    auto largest = [&] {
        std::ostringstream out;
        engine::run_selfplay(sp, out, nullptr);
        int big = 0;
        std::istringstream is(out.str());
        for (std::string l; std::getline(is, l);) big = std::max(big, std::abs(std::stoi(l.substr(l.rfind('\t') + 1))));
        return big;
    };
    sp.record_max = 300;
    EXPECT_LT(largest(), 300);
    sp.random_rate = 0.3;
    sp.record_max = 5000;
    EXPECT_GE(largest(), 300);
    sp.random_rate = 1.5;
    EXPECT_TRUE(contains(engine::check_selfplay_options(sp), "--random-rate"));
    sp.random_rate = 0;
    sp.record_max = 0;
    EXPECT_TRUE(contains(engine::check_selfplay_options(sp), "--record-max"));
}

TEST(NnueTrain, CommandLineErrors) {
    std::ostringstream log;
    EXPECT_EQ(train_main({"--variant", "shogi", "--data", "x", "--out", "y"}, log), 2);
    EXPECT_TRUE(contains(log.str(), "--variant: bad value 'shogi'"));
    EXPECT_EQ(train_main({"--variant", "chess"}, log), 2);
    EXPECT_TRUE(contains(log.str(), "are required"));
    EXPECT_EQ(train_main({"--variant", "chess", "--data", "/nonexistent", "--out", "/tmp/x", "--hidden", "100"}, log),
              2);
    EXPECT_TRUE(contains(log.str(), "hidden size 100"));
    EXPECT_EQ(train_main({"--variant", "chess", "--data", "/nonexistent", "--out", "/tmp/x"}, log), 2);
    EXPECT_TRUE(contains(log.str(), "cannot open '/nonexistent'"));
}

TEST(NnueUci, EvalFileAndUseNnueOptions) {
    namespace fs = std::filesystem;
    const fs::path path = fs::temp_directory_path() / ("nnue_uci_test_" + std::to_string(::getpid()) + ".nnue");
    auto net = random_network(Variant::Alice, KingBuckets::One, 64, 1, 18);
    save_file(*net, path.string());
    const std::string fen = random_fens(Variant::Alice, 10, 19).back();
    const std::string expected = "info string eval " + std::to_string(eval_fen(*net, Variant::Alice, fen)) + " cp";
    const std::string base = "setoption name UCI_Variant value alice\nposition fen " + fen + "\n";
    const std::string with_net = uci_session(base + "setoption name EvalFile value " + path.string() + "\neval\n");
    EXPECT_TRUE(contains(with_net, expected)) << with_net << " / " << expected;
    const std::string off = uci_session(base + "setoption name EvalFile value " + path.string() +
                                        "\nsetoption name Use NNUE value false\neval\n");
    EXPECT_FALSE(contains(off, expected)) << off;
    const std::string bad = uci_session(base + "setoption name EvalFile value /nonexistent.nnue\neval\n");
    EXPECT_TRUE(contains(bad, "info string option EvalFile: /nonexistent.nnue: cannot open")) << bad;
    EXPECT_TRUE(contains(uci_session("uci\n"), "option name Use NNUE type check default true"));
    fs::remove(path);
}

TEST(NnueUci, HandWrittenWeightOptionsPlayWithTheHandWrittenEvaluation) {
    // Chess plays with its network; `Eval Weights` and `Variant Eval Terms`
    // are the hand-written evaluation's, so setting one switches to it
    // instead of changing nothing.
    const std::string fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    StateInfo st;
    Position pos;
    pos.set(Variant::Chess, fen, st);
    const auto said = [](engine::Value v) { return "info string eval " + std::to_string(v) + " cp"; };
    const std::string base = "position fen " + fen + "\n";
    const engine::Value game = engine::evaluate(pos, engine::default_weights(Variant::Chess));
    const engine::Value hand = engine::evaluate(pos, engine::hand_written_weights(Variant::Chess));
    engine::EvalWeights heavy = engine::hand_written_weights(Variant::Chess);
    ASSERT_EQ(heavy.apply("material.knight=900"), "");
    const engine::Value heavy_v = engine::evaluate(pos, heavy);
    EXPECT_TRUE(contains(uci_session(base + "eval\n"), said(game)));
    EXPECT_TRUE(contains(uci_session(base + "setoption name Use NNUE value false\neval\n"), said(hand)));
    const std::string w = uci_session("setoption name Eval Weights value material.knight=900\n" + base + "eval\n");
    EXPECT_TRUE(contains(w, said(heavy_v))) << w;
    const std::string t = uci_session("setoption name Variant Eval Terms value false\n" + base + "eval\n");
    EXPECT_TRUE(contains(t, said(hand))) << t;  // chess has no variant terms to switch off
    if (engine::nnue::adopted(Variant::Chess)) {
        EXPECT_NE(game, hand);
    }
}

}  // namespace
}  // namespace echecs::test

// `echecs selfplay`: the training lines are well formed, quiet and
// reproducible from the seed.
#include "engine/selfplay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/position.h"
#include "engine/nnue.h"
#include "helpers.h"

namespace echecs::engine {
namespace {

SelfplayOptions small(const std::string& variant) {
    SelfplayOptions o;
    o.variant = variant;
    o.games = 2;
    o.nodes = 300;
    o.seed = 7;
    return o;
}

std::string run(const SelfplayOptions& o) {
    std::ostringstream out;
    run_selfplay(o, out, nullptr);
    return out.str();
}

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> f;
    std::istringstream is(line);
    for (std::string x; std::getline(is, x, '\t');) f.push_back(x);
    return f;
}

class SelfplayVariant : public ::testing::TestWithParam<const char*> {};

TEST_P(SelfplayVariant, LinesAreQuietLoadableAndReproducible) {
    const SelfplayOptions o = small(GetParam());
    const Variant v = std::string(GetParam()) == "alice"       ? Variant::Alice
                      : std::string(GetParam()) == "avalanche" ? Variant::Avalanche
                                                               : Variant::Chess;
    const std::string text = run(o);
    const auto lines = test::lines_of(text);
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) {
        const auto f = fields_of(line);
        ASSERT_EQ(f.size(), 3u) << line;
        Position pos;
        StateInfo st;
        ASSERT_NO_THROW(pos.set(v, f[0], st)) << line;
        EXPECT_FALSE(pos.in_check()) << line;
        if (v == Variant::Avalanche) {
            EXPECT_EQ(pos.pending_promotion(), SQ_NONE) << line;
        }
        EXPECT_TRUE(f[1] == "1" || f[1] == "0.5" || f[1] == "0") << line;
        char* end = nullptr;
        const long score = std::strtol(f[2].c_str(), &end, 10);
        EXPECT_TRUE(!f[2].empty() && *end == '\0') << line;
        EXPECT_LT(std::abs(score), 2000) << line;
    }
    EXPECT_EQ(run(o), text) << "same seed, different games";
}

INSTANTIATE_TEST_SUITE_P(Variants, SelfplayVariant, ::testing::Values("chess", "alice", "avalanche"));

// Each thread has its own table and resets it per game: the same games, in
// whatever order they finish.
TEST(Selfplay, ThreadsPlayTheSameGames) {
    SelfplayOptions o = small("chess");
    auto one = test::lines_of(run(o));
    o.threads = 2;
    auto two = test::lines_of(run(o));
    std::sort(one.begin(), one.end());
    std::sort(two.begin(), two.end());
    EXPECT_EQ(one, two);
}

TEST(Selfplay, HandEvalPlaysWithoutTheGamesNetwork) {
    // --hand-eval: the hand-written evaluation even where the game adopted
    // a network, so that a network's training positions can be regenerated
    // after it was adopted. Without a network the option changes nothing.
    for (const char* variant : {"chess", "alice", "avalanche"}) {
        SelfplayOptions o = small(variant);
        const std::string plain = run(o);
        o.hand_eval = true;
        const std::string hand = run(o);
        ASSERT_FALSE(hand.empty()) << variant;
        EXPECT_EQ(hand, run(o)) << variant;  // reproducible
        const Variant v = std::string(variant) == "alice"       ? Variant::Alice
                          : std::string(variant) == "avalanche" ? Variant::Avalanche
                                                                : Variant::Chess;
        if (nnue::adopted(v))
            EXPECT_NE(hand, plain) << variant;
        else
            EXPECT_EQ(hand, plain) << variant;
    }
}

TEST(Selfplay, NetPlaysWithTheNetworkInTheFile) {
    // --net: a later generation's positions are played with the network
    // before it, read from a file. The built-in network from a file plays
    // the same games; another network other games; a file of another game
    // or a damaged one is refused with its name.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("selfplay_net_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto built_in = nnue::embedded(Variant::Alice);
    ASSERT_TRUE(built_in);
    nnue::save_file(*built_in, (dir / "alice.nnue").string());
    nnue::Network other(built_in->shape);  // all weights zero: every position scores 0
    nnue::save_file(other, (dir / "zero.nnue").string());

    SelfplayOptions o = small("alice");
    o.nodes = 150;
    const std::string plain = run(o);
    o.net = (dir / "alice.nnue").string();
    EXPECT_EQ(run(o), plain);
    o.net = (dir / "zero.nnue").string();
    EXPECT_NE(run(o), plain);

    o.variant = "chess";  // an Alice network for chess games
    try {
        run(o);
        ADD_FAILURE() << "an Alice network was accepted for chess";
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(test::contains(e.what(), "--net")) << e.what();
        EXPECT_TRUE(test::contains(e.what(), "alice")) << e.what();
    }
    o.net = (dir / "missing.nnue").string();
    EXPECT_THROW(run(o), nnue::NnueError);
    EXPECT_EQ(selfplay_main(o), 2);
    o.hand_eval = true;
    EXPECT_TRUE(test::contains(check_selfplay_options(o), "--net"));
    fs::remove_all(dir);
}

TEST(Selfplay, BadOptionsNameTheOption) {
    auto error = [](auto change) {
        SelfplayOptions o;
        change(o);
        return check_selfplay_options(o);
    };
    EXPECT_EQ(error([](SelfplayOptions&) {}), "");
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.variant = "shogi"; }), "--variant"));
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.games = -1; }), "--games"));
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.nodes = 0; }), "--nodes"));
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.seed = -1; }), "--seed"));
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.random_plies = -3; }), "--random-plies"));
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.threads = 0; }), "--threads"));
    EXPECT_TRUE(test::contains(error([](SelfplayOptions& o) { o.out = ""; }), "--out"));
    EXPECT_EQ(selfplay_main([] {
                  SelfplayOptions o = small("chess");
                  o.out = "/nonexistent-dir/positions.txt";
                  return o;
              }()),
              2);
}

}  // namespace
}  // namespace echecs::engine

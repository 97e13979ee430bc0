// Texel tuning: it lowers the error on its data, writes overrides that the
// evaluation accepts, and says which line of bad data is wrong.
#include "engine/tune.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/position.h"
#include "engine/evaluate.h"

namespace echecs::test {
namespace {

struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& text) {
        path = std::filesystem::temp_directory_path() /
               ("echecs_tune_" + std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".tsv");
        std::ofstream(path) << text;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

// Positions where White is a knight up and won, or a knight down and lost:
// the data says a knight is worth more than the weights claim when its value
// is set far too low, so tuning must raise it.
std::string knight_data() {
    std::ostringstream os;
    const char* up[] = {"4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", "4k3/pppp4/8/8/8/2N5/PPPP4/4K3 b - - 0 1",
                        "4k3/1ppp4/8/8/8/8/1PPP4/2N1K3 w - - 0 1", "4k3/ppp5/8/8/3N4/8/PPP5/4K3 b - - 0 1"};
    const char* down[] = {"1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "4k3/pppp4/2n5/8/8/8/PPPP4/4K3 b - - 0 1",
                          "2n1k3/1ppp4/8/8/8/8/1PPP4/4K3 w - - 0 1", "4k3/ppp5/8/3n4/8/8/PPP5/4K3 b - - 0 1"};
    for (int i = 0; i < 40; ++i) {
        os << up[i % 4] << "\t1\t300\n";
        os << down[i % 4] << "\t0\t-300\n";
        os << "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1\t0.5\t0\n";
    }
    return os.str();
}

TEST(Tune, RaisesAWeightSetTooLowAndWritesUsableOverrides) {
    TempFile data(knight_data());
    engine::TuneOptions o;
    o.variant = Variant::Chess;
    o.data = data.path.string();
    o.only = "material.knight";
    o.passes = 30;
    o.validation = 0;
    std::ostringstream out, log;
    ASSERT_EQ(engine::tune(o, out, log), 0) << log.str();
    EXPECT_NE(log.str().find("start error"), std::string::npos);
    // The overrides apply cleanly to the hand-set weights, and only the
    // knight's material differs from the committed weights.
    const std::string overrides = out.str().substr(0, out.str().find('\n'));
    engine::EvalWeights w = engine::hand_set_weights(Variant::Chess);
    ASSERT_EQ(w.apply(overrides), "") << overrides;
    engine::EvalWeights committed = engine::default_weights(Variant::Chess);
    std::vector<int> before;
    committed.visit([&](const std::string&, int& v) { before.push_back(v); });
    std::size_t i = 0, changed = 0;
    w.visit([&](const std::string& name, int& v) {
        if (v != before[i]) {
            EXPECT_EQ(name.rfind("material.knight", 0), 0u) << name;
            ++changed;
        }
        ++i;
    });
    EXPECT_GT(changed, 0u);
    // Errors before and after, read from the log: the end error is lower.
    const std::string l = log.str();
    const double start = std::stod(l.substr(l.find("start error ") + 12));
    const double end = std::stod(l.substr(l.find("end error ") + 10));
    EXPECT_LT(end, start) << l;
}

TEST(Tune, BadDataNamesTheLine) {
    TempFile data("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t1\t0\n4k3/8/8/8/8/8/8/4K3 w - - 0 1\t2\t0\n");
    engine::TuneOptions o;
    o.data = data.path.string();
    std::ostringstream out, log;
    EXPECT_EQ(engine::tune(o, out, log), 2);
    EXPECT_NE(log.str().find("line 2: result '2' is not 1, 0.5 or 0"), std::string::npos) << log.str();

    TempFile bad_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1\t1\t0\n4k3/8/8/8/8/8/8/4KX3 w - - 0 1\t1\t0\n");
    o.data = bad_fen.path.string();
    std::ostringstream out2, log2;
    EXPECT_EQ(engine::tune(o, out2, log2), 2);
    EXPECT_NE(log2.str().find("line 2:"), std::string::npos) << log2.str();

    o.data = "/nonexistent/dir/data.tsv";
    std::ostringstream out3, log3;
    EXPECT_EQ(engine::tune(o, out3, log3), 2);
    EXPECT_NE(log3.str().find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace echecs::test

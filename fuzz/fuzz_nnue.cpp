// NNUE network loader: arbitrary bytes give a network or an NnueError, never
// a crash. Inputs starting with an odd byte instead build a network of a
// shape taken from the next bytes with every weight from the input (a valid
// checksum, so the range checks and the evaluation itself are reached):
// accepted networks evaluate a few positions the same way with and without
// the cache and with every kernel set.
#include <cstring>
#include <string_view>

#include "common.h"
#include "engine/nnue.h"

using namespace echecs;
using namespace echecs::engine::nnue;

namespace {

constexpr std::string_view FENS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pp3ppp/2n1b3/3pP3/3P4/2N2N2/PP3PPP/R3K2R b KQkq - 3 12",
    "8/5k2/8/3K4/8/8/6P1/8 w - - 0 60",
};

void check_network(const Network& net) {
    for (std::string_view fen : FENS) {
        StateInfo st;
        Position pos;
        pos.set(net.shape.variant, fen, st);
        set_simd(Simd::Scalar);
        const int scalar = evaluate_full(net, pos);
        for (Simd s : {Simd::Scalar, Simd::Sse2, Simd::Avx2}) {
            if (!simd_available(s)) continue;
            set_simd(s);
            fuzz::check(evaluate_full(net, pos) == scalar, "SIMD and scalar differ");
            fuzz::check(evaluate(net, pos) == scalar, "cache and full refresh differ");
        }
    }
}

std::string built_from(const std::uint8_t* data, std::size_t size) {
    Shape s;
    s.variant = Variant(data[1] % 3);
    s.kings = KingBuckets(data[2] % 3);
    s.boards = s.variant == Variant::Alice ? 2 : 1;
    s.hidden = 64;  // the smallest: more runs per second (data[3] is spare)
    s.output_buckets = 1 + data[4] % MAX_OUTPUT_BUCKETS;
    Network net(s);
    const std::uint8_t* w = data + 5;
    const std::size_t n = size - 5;
    std::size_t k = 0;
    auto next16 = [&] {
        const auto v = std::int16_t(std::uint16_t(w[k % n] | w[(k + 1) % n] << 8));
        k += 2;
        return v;
    };
    for (std::size_t i = 0; i < std::size_t(s.inputs()) * std::size_t(s.hidden); ++i) net.ft_weights[i] = next16();
    for (int i = 0; i < s.hidden; ++i) net.ft_bias[i] = next16();
    for (int i = 0; i < 2 * s.hidden * s.output_buckets; ++i) net.out_weights[i] = next16();
    for (auto& b : net.out_bias) b = std::int32_t(std::uint32_t(std::uint16_t(next16())) << 15) - (1 << 30);
    return save(net);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > (1u << 20)) return 0;
    Position::init();
    std::string bytes;
    if (data[0] & 1) {
        if (size < 6) return 0;
        bytes = built_from(data, size);
    } else {
        bytes.assign(reinterpret_cast<const char*>(data + 1), size - 1);
    }
    try {
        const auto net = load(bytes, "fuzz input");
        check_network(*net);
        fuzz::check(save(*net) == bytes, "save after load gives other bytes");
    } catch (const NnueError& e) {
        fuzz::check(std::strncmp(e.what(), "fuzz input: ", 12) == 0, "error does not name the file");
    }
    return 0;
}

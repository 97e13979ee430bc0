// A small NNUE-style evaluation network, one per game, evaluated from the
// Position alone.
//
// Inputs (per perspective, the side whose view the accumulator takes):
// king bucket x piece (own/their, 6 types) x board x square. Squares are seen
// from the perspective's side (ranks flipped for Black) and mirrored left to
// right when its king stands on the e-h files, so that a king's wing is one
// set of weights. The board is relative to the perspective's king (Alice:
// "on my king's board" or "on the other board"; one board in the other
// games). Avalanche's pending-promotion pawn is a pawn on its last rank,
// a square no orthodox pawn reaches, so it has features of its own.
//
// Layers: inputs -> H int16 accumulators per perspective (clipped ReLU to
// 0..QA) -> [side to move, other side] -> one output per output bucket (by
// the number of pieces on the board) -> centipawns from the side to move.
//
// File format (little-endian), see docs/ENGINE.md "NNUE": header, weights,
// then an FNV-1a checksum of everything before it.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace echecs::engine::nnue {

// A network file that cannot be used: the message says what and where.
class NnueError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

constexpr std::uint32_t MAGIC = 0x4E4E4345;  // "ECNN"
constexpr std::uint32_t VERSION = 1;
constexpr int QA = 255;         // accumulator value of an activation of 1.0
constexpr int QB = 256;         // output weight of 1.0
constexpr int OUT_SCALE = 400;  // centipawns of an output of 1.0
constexpr int PIECE_INPUTS = 12 * 64;
constexpr int MAX_HIDDEN = 1024;
constexpr int MAX_OUTPUT_BUCKETS = 8;
constexpr int MAX_KING_BUCKETS = 16;
constexpr int MAX_ACTIVE =
    64;  // active features per perspective: one per occupied square (a FEN may hold more than 32 pieces)
constexpr std::size_t MAX_DESCRIPTION = 1024;

// The king-bucket maps a file can name: the bucket of the perspective's king
// on its (flipped, mirrored) square, files a-d only.
enum class KingBuckets : std::uint8_t {
    One = 0,        // a single bucket
    HomeRanks = 1,  // 2: relative ranks 1-2, the rest
    Four = 2,       // 4: rank 1 a-b / c-d, rank 2, ranks 3-8
};
int king_bucket_count(KingBuckets k);

struct Shape {
    Variant variant = Variant::Chess;
    KingBuckets kings = KingBuckets::HomeRanks;
    int boards = 1;  // 2 in Alice
    int hidden = 128;
    int output_buckets = 4;
    int inputs() const { return king_bucket_count(kings) * boards * PIECE_INPUTS; }
};

struct Network {
    Shape shape;
    std::string description;  // what it was trained on, free text
    // Aligned storage (32 bytes) for the SIMD kernels.
    struct Free {
        void operator()(std::int16_t* p) const;
    };
    std::unique_ptr<std::int16_t[], Free> ft_weights;   // [inputs][hidden]
    std::unique_ptr<std::int16_t[], Free> ft_bias;      // [hidden]
    std::unique_ptr<std::int16_t[], Free> out_weights;  // [output_buckets][2 * hidden]
    std::vector<std::int32_t> out_bias;                 // [output_buckets]

    // Allocates zeroed weights for the shape (checked like a file's).
    explicit Network(const Shape& s);
    std::uint64_t id() const { return id_; }  // distinguishes networks in the per-thread cache

private:
    std::uint64_t id_;
};

// Reads a network from bytes; `where` names the source in messages. Throws
// NnueError for anything but a well-formed file of a known shape.
std::unique_ptr<Network> load(std::string_view bytes, std::string_view where);
std::unique_ptr<Network> load_file(const std::string& path);  // also NnueError for an unreadable file
std::string save(const Network& net);                         // the bytes load() reads
void save_file(const Network& net, const std::string& path);  // NnueError when it cannot write

// The feature indices a position activates from perspective `c`; returns the
// count (at most MAX_ACTIVE).
int active_features(const Shape& s, const Position& pos, Color c, std::uint16_t* out);
int output_bucket(const Shape& s, const Position& pos);

// Centipawns from the side to move's view. evaluate() reuses per-thread
// accumulators of positions with the same king buckets (exactly the same
// result as evaluate_full, which computes everything from scratch).
int evaluate(const Network& net, const Position& pos);
int evaluate_full(const Network& net, const Position& pos);

// Instruction set of the kernels. Auto picks the best the processor has
// (overridden by the environment variable ECHECS_NNUE_SIMD=scalar|sse2|avx2).
enum class Simd { Auto, Scalar, Sse2, Avx2 };
bool simd_available(Simd s);
void set_simd(Simd s);  // for tests and benchmarks; not thread-safe against running evaluations
Simd active_simd();
std::string_view simd_name(Simd s);

// The committed network of each game, embedded in the binary (null when the
// game has none), and whether the game plays with it by default (kept only
// when it beat the hand-written evaluation in games: docs/ENGINE.md).
std::shared_ptr<const Network> embedded(Variant v);
bool adopted(Variant v);

}  // namespace echecs::engine::nnue

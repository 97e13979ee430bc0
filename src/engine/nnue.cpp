// NNUE: file format, features and evaluation (kernels in nnue_simd.cpp).
#include "nnue.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <sstream>

#include "nnue_simd.h"

namespace echecs::engine::nnue {

namespace {

constexpr std::size_t ALIGN = 32;
constexpr int MAX_OUT_WEIGHT = 4096;  // |2H x 255 x w| stays below 2^31
constexpr std::int32_t MAX_OUT_BIAS = 1 << 30;
constexpr int MAX_CP = 15000;  // far from the mate scores

std::int16_t* alloc16(std::size_t n) {
    const std::size_t bytes = (n * sizeof(std::int16_t) + ALIGN - 1) / ALIGN * ALIGN;
    auto* p = static_cast<std::int16_t*>(::operator new[](bytes, std::align_val_t(ALIGN)));
    std::memset(p, 0, bytes);
    return p;
}

std::string check_shape(const Shape& s) {
    if (s.boards != variant_info(s.variant).boards)
        return "boards " + std::to_string(s.boards) + " (Alice has 2, the other games 1)";
    if (s.hidden < 64 || s.hidden > MAX_HIDDEN || s.hidden % 64)
        return "hidden size " + std::to_string(s.hidden) + " (a multiple of 64 from 64 to " +
               std::to_string(MAX_HIDDEN) + ")";
    if (s.output_buckets < 1 || s.output_buckets > MAX_OUTPUT_BUCKETS)
        return "output buckets " + std::to_string(s.output_buckets) + " (1 to " + std::to_string(MAX_OUTPUT_BUCKETS) +
               ")";
    return {};
}

std::uint64_t next_id() {
    static std::atomic<std::uint64_t> n{1};
    return n.fetch_add(1);
}

// FNV-1a, 32 bits: catches damaged and truncated files (not an attacker).
std::uint32_t fnv1a(std::string_view b) {
    std::uint32_t h = 2166136261u;
    for (unsigned char c : b) h = (h ^ c) * 16777619u;
    return h;
}

class Reader {
public:
    Reader(std::string_view b, std::string_view where) : b_(b), where_(where) {}
    std::uint64_t uint(int bytes, const char* what) {
        need(std::size_t(bytes), what);
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(b_[pos_ + i])) << (8 * i);
        pos_ += std::size_t(bytes);
        return v;
    }
    std::string_view bytes(std::size_t n, const char* what) {
        need(n, what);
        std::string_view r = b_.substr(pos_, n);
        pos_ += n;
        return r;
    }
    void int16s(std::int16_t* dst, std::size_t n, const char* what) {
        need(2 * n, what);
        for (std::size_t i = 0; i < n; ++i, pos_ += 2)
            dst[i] = std::int16_t(
                std::uint16_t(static_cast<unsigned char>(b_[pos_]) | static_cast<unsigned char>(b_[pos_ + 1]) << 8));
    }
    std::size_t pos() const { return pos_; }
    [[noreturn]] void fail(const std::string& what) const {
        throw NnueError(std::string(where_) + ": " + what + " (at byte " + std::to_string(pos_) + ")");
    }

private:
    void need(std::size_t n, const char* what) const {
        if (b_.size() - pos_ < n)
            fail(std::string("file ends inside ") + what + " (" + std::to_string(b_.size()) + " bytes in all)");
    }
    std::string_view b_, where_;
    std::size_t pos_ = 0;
};

void put(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char((v >> (8 * i)) & 0xFF));
}

// The orientation of one perspective: everything its features depend on
// besides the pieces.
struct View {
    Color c;
    bool mirror;
    int bucket;
    Board king_board;
    int base;  // bucket * boards * PIECE_INPUTS
};

int bucket_of(KingBuckets k, Square ks) {  // ks oriented and mirrored (files a-d)
    switch (k) {
        case KingBuckets::One: return 0;
        case KingBuckets::HomeRanks: return rank_of(ks) <= 1 ? 0 : 1;
        case KingBuckets::Four: return rank_of(ks) == 0 ? (file_of(ks) < 2 ? 0 : 1) : rank_of(ks) == 1 ? 2 : 3;
    }
    return 0;
}

View view_of(const Shape& s, const Position& pos, Color c) {
    const Square k = pos.king_square(c);
    Square ks = c == WHITE ? k : Square(k ^ 56);
    const bool mirror = file_of(ks) >= 4;
    if (mirror) ks = Square(ks ^ 7);
    const int bucket = bucket_of(s.kings, ks);
    return View{c, mirror, bucket, s.boards == 2 ? pos.board_of(k) : BOARD_A, bucket * s.boards * PIECE_INPUTS};
}

int entry_index(const Shape& s, const View& v) {
    return ((int(v.c) * 2 + int(v.mirror)) * king_bucket_count(s.kings) + v.bucket) * s.boards + int(v.king_board);
}

inline std::uint16_t feature(const Shape& s, const View& v, Color pc, PieceType pt, Board b, Square sq) {
    const int orient = (v.c == WHITE ? 0 : 56) ^ (v.mirror ? 7 : 0);
    const int rel_board = s.boards == 2 && b != v.king_board ? 1 : 0;
    return std::uint16_t(v.base + (rel_board * 12 + (pc == v.c ? 0 : 6) + pt - 1) * 64 + (int(sq) ^ orient));
}

// The placement by colour, type and board: what the features are made of.
struct Placement {
    Bitboard bb[COLOR_NB][PIECE_TYPE_NB][2];
};

void placement_of(const Position& pos, Placement& p) {
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= KING; ++pt) {
            const Bitboard all = pos.pieces(c, PieceType(pt));
            p.bb[c][pt][BOARD_A] = all & pos.board_mask(BOARD_A);
            p.bb[c][pt][BOARD_B] = all & pos.board_mask(BOARD_B);
        }
}

// Per thread: for each orientation, the accumulator of the last position
// evaluated with it and that position's placement. A new position only adds
// and removes the pieces that differ (integer sums: exactly a full refresh).
struct CacheEntry {
    alignas(32) std::int16_t acc[MAX_HIDDEN];
    Placement placement;
    std::uint64_t net = 0;  // Network::id of the accumulator; 0: empty
};
constexpr int CACHE_ENTRIES = 2 * 2 * MAX_KING_BUCKETS * 2;
constexpr int MAX_CHANGES = 2 * MAX_ACTIVE;  // more than this: refresh

struct Cache {
    CacheEntry e[CACHE_ENTRIES];
};

Cache& cache() {
    thread_local std::unique_ptr<Cache> c = std::make_unique<Cache>();
    return *c;
}

const std::int16_t* cached_accumulator(const Network& net, const Position& pos, const Placement& now, Color c) {
    const Shape& s = net.shape;
    const View v = view_of(s, pos, c);
    CacheEntry& e = cache().e[entry_index(s, v)];
    const simd::Kernels& k = simd::kernels();
    std::uint16_t add[MAX_CHANGES], sub[MAX_CHANGES];
    int na = 0, ns = 0;
    bool refresh = e.net != net.id();
    for (int pc = 0; pc < COLOR_NB && !refresh; ++pc)
        for (int pt = PAWN; pt <= KING && !refresh; ++pt)
            for (int b = 0; b < s.boards && !refresh; ++b) {
                const Bitboard was = e.placement.bb[pc][pt][b], is = now.bb[pc][pt][b];
                if (was == is) continue;
                Bitboard gone = was & ~is, came = is & ~was;
                // Bounded as they are written (a popcount first cost 4.4% of
                // `echecs bench`: the portable build has no POPCNT).
                while (gone && ns < MAX_CHANGES)
                    sub[ns++] = feature(s, v, Color(pc), PieceType(pt), Board(b), pop_lsb(gone));
                while (came && na < MAX_CHANGES)
                    add[na++] = feature(s, v, Color(pc), PieceType(pt), Board(b), pop_lsb(came));
                refresh = gone || came;  // more changes than a refresh costs
            }
    if (refresh) {
        na = active_features(s, pos, c, add);
        k.update(e.acc, net.ft_bias.get(), net.ft_weights.get(), s.hidden, add, na, sub, 0);
        e.net = net.id();
    } else if (na || ns) {
        k.update(e.acc, e.acc, net.ft_weights.get(), s.hidden, add, na, sub, ns);
    }
    e.placement = now;
    return e.acc;
}

int finish(const Network& net, const Position& pos, const std::int16_t* us, const std::int16_t* them) {
    const int ob = output_bucket(net.shape, pos);
    const int h = net.shape.hidden;
    const std::int64_t y =
        std::int64_t(net.out_bias[std::size_t(ob)]) + simd::kernels().output(us, them, &net.out_weights[ob * 2 * h], h);
    const std::int64_t cp = y * OUT_SCALE / (QA * QB);
    return int(std::clamp<std::int64_t>(cp, -MAX_CP, MAX_CP));
}

}  // namespace

void Network::Free::operator()(std::int16_t* p) const { ::operator delete[](p, std::align_val_t(ALIGN)); }

Network::Network(const Shape& s) : shape(s), id_(next_id()) {
    if (const std::string e = check_shape(s); !e.empty()) throw NnueError("network shape: " + e);
    ft_weights.reset(alloc16(std::size_t(s.inputs()) * std::size_t(s.hidden)));
    ft_bias.reset(alloc16(std::size_t(s.hidden)));
    out_weights.reset(alloc16(std::size_t(s.output_buckets) * 2 * std::size_t(s.hidden)));
    out_bias.assign(std::size_t(s.output_buckets), 0);
}

int king_bucket_count(KingBuckets k) {
    switch (k) {
        case KingBuckets::One: return 1;
        case KingBuckets::HomeRanks: return 2;
        case KingBuckets::Four: return 4;
    }
    return 1;
}

std::unique_ptr<Network> load(std::string_view bytes, std::string_view where) {
    Reader r(bytes, where);
    if (r.uint(4, "the header") != MAGIC) r.fail("not an echecs network (the file does not start with ECNN)");
    const std::uint64_t version = r.uint(4, "the header");
    if (version != VERSION)
        r.fail("format version " + std::to_string(version) + ", this engine reads " + std::to_string(VERSION));
    Shape s;
    const std::uint64_t variant = r.uint(1, "the header");
    if (variant > 2) r.fail("unknown game " + std::to_string(variant) + " (0 chess, 1 Alice, 2 Avalanche)");
    s.variant = Variant(variant);
    const std::uint64_t kings = r.uint(1, "the header");
    if (kings > 2) r.fail("unknown king-bucket map " + std::to_string(kings));
    s.kings = KingBuckets(kings);
    s.boards = int(r.uint(1, "the header"));
    if (r.uint(1, "the header") != 0) r.fail("reserved header byte is not 0");
    const std::uint64_t hidden = r.uint(4, "the header"), outputs = r.uint(4, "the header");
    if (hidden > std::uint64_t(MAX_HIDDEN) || outputs > std::uint64_t(MAX_OUTPUT_BUCKETS))
        r.fail("hidden size " + std::to_string(hidden) + " or output buckets " + std::to_string(outputs) +
               " too large");
    s.hidden = int(hidden), s.output_buckets = int(outputs);
    if (const std::string e = check_shape(s); !e.empty()) r.fail("bad " + e);
    const std::uint64_t text = r.uint(4, "the header");
    if (text > MAX_DESCRIPTION) r.fail("description of " + std::to_string(text) + " bytes (at most 1024)");
    const std::string_view description = r.bytes(std::size_t(text), "the description");

    const std::size_t weights = std::size_t(s.inputs()) * std::size_t(s.hidden);
    const std::size_t expected = r.pos() + 2 * (std::size_t(s.hidden) + weights) +
                                 2 * 2 * std::size_t(s.hidden) * std::size_t(s.output_buckets) +
                                 4 * std::size_t(s.output_buckets) + 4;
    if (bytes.size() != expected)
        r.fail("the file has " + std::to_string(bytes.size()) + " bytes, its header's shape needs " +
               std::to_string(expected));
    const std::uint32_t sum = fnv1a(bytes.substr(0, bytes.size() - 4));
    std::uint32_t stored = 0;
    for (int i = 0; i < 4; ++i)
        stored |= std::uint32_t(static_cast<unsigned char>(bytes[bytes.size() - 4 + i])) << (8 * i);
    if (sum != stored) r.fail("checksum mismatch: the file is damaged");

    auto net = std::make_unique<Network>(s);
    net->description = std::string(description);
    r.int16s(net->ft_bias.get(), std::size_t(s.hidden), "the feature biases");
    r.int16s(net->ft_weights.get(), weights, "the feature weights");
    const std::size_t nout = std::size_t(s.output_buckets) * 2 * std::size_t(s.hidden);
    r.int16s(net->out_weights.get(), nout, "the output weights");
    for (std::size_t i = 0; i < nout; ++i)
        if (std::abs(net->out_weights[i]) > MAX_OUT_WEIGHT)
            r.fail("output weight " + std::to_string(i) + " is " + std::to_string(net->out_weights[i]) + " (at most " +
                   std::to_string(MAX_OUT_WEIGHT) + " in size)");
    for (auto& b : net->out_bias) {
        b = std::int32_t(std::uint32_t(r.uint(4, "the output biases")));
        if (b > MAX_OUT_BIAS || b < -MAX_OUT_BIAS) r.fail("output bias " + std::to_string(b) + " out of range");
    }
    return net;
}

std::unique_ptr<Network> load_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw NnueError(path + ": cannot open the network file");
    std::ostringstream ss;
    ss << f.rdbuf();
    if (f.bad()) throw NnueError(path + ": reading the network file failed");
    return load(ss.str(), path);
}

std::string save(const Network& net) {
    const Shape& s = net.shape;
    std::string out;
    put(out, MAGIC, 4);
    put(out, VERSION, 4);
    put(out, std::uint64_t(s.variant), 1);
    put(out, std::uint64_t(s.kings), 1);
    put(out, std::uint64_t(s.boards), 1);
    put(out, 0, 1);
    put(out, std::uint64_t(s.hidden), 4);
    put(out, std::uint64_t(s.output_buckets), 4);
    const std::string text = net.description.substr(0, MAX_DESCRIPTION);
    put(out, text.size(), 4);
    out += text;
    auto int16s = [&](const std::int16_t* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) put(out, std::uint16_t(p[i]), 2);
    };
    int16s(net.ft_bias.get(), std::size_t(s.hidden));
    int16s(net.ft_weights.get(), std::size_t(s.inputs()) * std::size_t(s.hidden));
    int16s(net.out_weights.get(), std::size_t(s.output_buckets) * 2 * std::size_t(s.hidden));
    for (std::int32_t b : net.out_bias) put(out, std::uint32_t(b), 4);
    put(out, fnv1a(out), 4);
    return out;
}

void save_file(const Network& net, const std::string& path) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    const std::string bytes = save(net);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    f.close();
    if (!f) throw NnueError(path + ": cannot write the network file");
}

int active_features(const Shape& s, const Position& pos, Color c, std::uint16_t* out) {
    const View v = view_of(s, pos, c);
    int n = 0;
    Bitboard bb = pos.pieces();
    while (bb) {  // at most 64 squares: MAX_ACTIVE
        const Square sq = pop_lsb(bb);
        const Piece p = pos.piece_on(sq);
        out[n++] = feature(s, v, color_of(p), type_of(p), s.boards == 2 ? pos.board_of(sq) : BOARD_A, sq);
    }
    return n;
}

int output_bucket(const Shape& s, const Position& pos) {
    return std::min(s.output_buckets - 1, (popcount(pos.pieces()) - 1) * s.output_buckets / 32);
}

int evaluate(const Network& net, const Position& pos) {
    Placement now;
    placement_of(pos, now);
    const Color us = pos.side_to_move();
    const std::int16_t* a = cached_accumulator(net, pos, now, us);
    const std::int16_t* b = cached_accumulator(net, pos, now, ~us);
    return finish(net, pos, a, b);
}

int evaluate_full(const Network& net, const Position& pos) {
    alignas(32) std::int16_t acc[2][MAX_HIDDEN];
    std::uint16_t f[MAX_ACTIVE];
    const Color us = pos.side_to_move();
    for (int i = 0; i < 2; ++i) {
        const int n = active_features(net.shape, pos, i == 0 ? us : ~us, f);
        simd::kernels().update(acc[i], net.ft_bias.get(), net.ft_weights.get(), net.shape.hidden, f, n, nullptr, 0);
    }
    return finish(net, pos, acc[0], acc[1]);
}

}  // namespace echecs::engine::nnue

// SAN and coordinate readers, and the PGN reader's lenient one, on a handful of positions of the three games:
// any text is a legal move or a NotationError; an accepted move writes back
// to text that reads as the same move; a rejection's message is valid UTF-8.
#include "common.h"
#include "core/pgn_moves.h"
#include "core/utf8.h"

using namespace echecs;

namespace {
const char* const kPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/8/2p5/5O2/PP1PPPPP/RNBQKB1R w KQkq - 0 3",
    "4k3/6p1/6s1/8/8/8/8/4K3 b - - 0 1",
    "4k3/8/8/8/8/8/K7/3p4 b - - 0 1",
    "8/P6k/8/8/8/8/8/K7 w - - 0 1",
};
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 64) return 0;
    const Variant v = fuzz::variant_from(data[0]);
    const char* fen = kPositions[data[1] % std::size(kPositions)];
    const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
    StateInfo st;
    Position pos;
    try {
        pos.set(v, fen, st);
    } catch (const FenError&) {
        return 0;  // e.g. an Alice FEN in another variant
    }
    // The PGN reader's lenient reading (figurines, "o-o", "a8(Q)", French letters)
    // gives a legal move or a NotationError, like the strict readers.
    for (bool french : {false, true}) {
        try {
            const Move m = pgn_moves::read_move(pos, text, french).move;
            fuzz::check(parse_san(pos, to_san(pos, m)) == m, "lenient reading round trip");
        } catch (const NotationError& e) {
            fuzz::check(is_valid_utf8(e.what()), "lenient NotationError is UTF-8");
        }
    }
    for (int kind = 0; kind < 2; ++kind) {
        try {
            Move m = kind ? parse_san(pos, text) : parse_uci(pos, text);
            fuzz::check(parse_san(pos, to_san(pos, m)) == m, "san round trip");
            fuzz::check(parse_uci(pos, to_uci(m)) == m, "uci round trip");
        } catch (const NotationError& e) {
            fuzz::check(is_valid_utf8(e.what()), "NotationError is UTF-8");
        }
    }
    return 0;
}

// FEN reader: arbitrary text must give a position or a FenError, never a
// crash, and its message is valid UTF-8; accepted positions survive a FEN
// round trip and every legal move.
#include "common.h"
#include "core/utf8.h"

using namespace echecs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > 200) return 0;
    const Variant v = fuzz::variant_from(data[0]);
    const std::string fen(reinterpret_cast<const char*>(data + 1), size - 1);
    StateInfo st;
    Position pos;
    try {
        pos.set(v, fen, st);
    } catch (const FenError& e) {
        fuzz::check(is_valid_utf8(e.what()), "FenError is UTF-8");
        return 0;
    }
    StateInfo st2;
    Position again;
    again.set(v, pos.fen(), st2);  // must not throw: we wrote it
    fuzz::check(again.fen() == pos.fen() && again.key() == pos.key(), "fen round trip");
    fuzz::exercise(pos);
    return 0;
}

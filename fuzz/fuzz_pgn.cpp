// PGN reader and replay: any text gives games, each replayed or rejected
// with a PgnError/FenError/NotationError, never a crash.
#include "common.h"
#include "core/pgn.h"

using namespace echecs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const PgnGame& g : read_pgn(text)) {
        if (!g.error.empty()) continue;
        try {
            Game game(g.variant(), g.start_fen());
            replay(g, game);
            game.result();
            const std::string out = write_pgn(game, g.tags, game.result());
            auto back = read_pgn(out);
            fuzz::check(back.size() == 1 && back[0].error.empty(), "written PGN reads back");
            Game again(back[0].variant(), back[0].start_fen());
            replay(back[0], again);
            fuzz::check(again.moves() == game.moves(), "PGN round trip");
        } catch (const PgnError&) {
        } catch (const FenError&) {
        }
    }
    return 0;
}

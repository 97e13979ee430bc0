// PGN reader, replay and writer: any text gives games, each replayed or
// rejected with a PgnError, never a crash; every string the reader returns
// and every message is valid UTF-8; a replayed game written back (with its
// comments) reads as the same moves, comments and result.
#include "common.h"
#include "core/pgn.h"
#include "core/utf8.h"

using namespace echecs;

namespace {
// Comments compared as the writer keeps them: one line, '}' written ')',
// runs of spaces as one.
std::string normalised(std::string_view c) {
    std::string out;
    for (char ch : c) {
        if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
        if (ch == '}') ch = ')';
        if (ch == ' ' && (out.empty() || out.back() == ' ')) continue;
        out += ch;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const PgnGame& g : read_pgn(text)) {
        fuzz::check(is_valid_utf8(g.error) && is_valid_utf8(g.comment), "reader strings are UTF-8");
        for (const auto& [k, v] : g.tags) fuzz::check(is_valid_utf8(k) && is_valid_utf8(v), "tags are UTF-8");
        for (const PgnMove& m : g.moves) fuzz::check(is_valid_utf8(m.san) && is_valid_utf8(m.comment), "moves UTF-8");
        if (!g.error.empty()) continue;
        try {
            auto game = start_game(g);
            const PgnReplay r = replay(g, *game);
            fuzz::check(r.plies + r.ignored == int(g.moves.size()), "every move played or ignored");
            fuzz::check(int(game->moves().size()) == r.plies, "plies played");
            std::vector<std::string> comments;
            for (int i = 0; i < r.plies; ++i) comments.push_back(g.moves[i].comment);
            const std::string out = write_pgn(*game, g.tags, r.result, comments);
            fuzz::check(is_valid_utf8(out), "written PGN is UTF-8");
            auto back = read_pgn(out);
            fuzz::check(back.size() == 1 && back[0].error.empty(), "written PGN reads back");
            auto again = start_game(back[0]);
            const PgnReplay r2 = replay(back[0], *again);
            fuzz::check(again->moves() == game->moves() && r2.ignored == 0, "PGN round trip");
            fuzz::check(r2.result.outcome == r.result.outcome, "result round trip");
            if (r.result.termination != Termination::None)
                fuzz::check(r2.result.termination == r.result.termination, "termination round trip");
            for (int i = 0; i < r.plies; ++i)
                fuzz::check(normalised(back[0].moves[i].comment) == normalised(comments[i]), "comment round trip");
        } catch (const PgnError& e) {
            fuzz::check(is_valid_utf8(e.what()), "PgnError is UTF-8");
        }
    }
    return 0;
}

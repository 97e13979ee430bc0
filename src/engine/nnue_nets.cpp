// The committed networks (data/nets/<game>.nnue), built into the binary by
// the assembler's .incbin (CMake passes each file's path; a game without a
// file has none), and which games play with theirs by default.
#include <mutex>
#include <stdexcept>

#include "nnue.h"

#define ECHECS_INCBIN(name, path)                                                                           \
    asm(".section .rodata\n.balign 32\n.global " #name "\n" #name ":\n.incbin \"" path "\"\n.global " #name \
        "_end\n" #name "_end:\n.previous\n")

#ifdef ECHECS_NNUE_CHESS
ECHECS_INCBIN(echecs_nnue_chess, ECHECS_NNUE_CHESS);
extern "C" const char echecs_nnue_chess[], echecs_nnue_chess_end[];
#endif
#ifdef ECHECS_NNUE_ALICE
ECHECS_INCBIN(echecs_nnue_alice, ECHECS_NNUE_ALICE);
extern "C" const char echecs_nnue_alice[], echecs_nnue_alice_end[];
#endif
#ifdef ECHECS_NNUE_AVALANCHE
ECHECS_INCBIN(echecs_nnue_avalanche, ECHECS_NNUE_AVALANCHE);
extern "C" const char echecs_nnue_avalanche[], echecs_nnue_avalanche_end[];
#endif

namespace echecs::engine::nnue {

namespace {

// A game adopts its network only when it beat the hand-written evaluation
// in a self-play match (docs/ENGINE.md "NNUE" has the figures).
constexpr bool ADOPTED[VARIANT_NB] = {true, true, true};  // chess, Alice, Avalanche

std::string_view bytes_of(Variant v) {
    switch (v) {  // a game built without its network: none ({})
        case Variant::Chess:
#ifdef ECHECS_NNUE_CHESS
            return {echecs_nnue_chess, std::size_t(echecs_nnue_chess_end - echecs_nnue_chess)};
#endif
            return {};
        case Variant::Alice:
#ifdef ECHECS_NNUE_ALICE
            return {echecs_nnue_alice, std::size_t(echecs_nnue_alice_end - echecs_nnue_alice)};
#endif
            return {};
        case Variant::Avalanche:
#ifdef ECHECS_NNUE_AVALANCHE
            return {echecs_nnue_avalanche, std::size_t(echecs_nnue_avalanche_end - echecs_nnue_avalanche)};
#endif
            return {};
    }
    return {};
}

}  // namespace

std::shared_ptr<const Network> embedded(Variant v) {
    static std::once_flag once[VARIANT_NB];
    static std::shared_ptr<const Network> net[VARIANT_NB];
    const int i = int(v);
    std::call_once(once[i], [&] {
        const std::string_view b = bytes_of(v);
        if (b.empty()) return;
        std::shared_ptr<const Network> n = load(b, "the built-in " + std::string(variant_name(v)) + " network");
        if (n->shape.variant != v) throw std::logic_error("the built-in network of a game is for another game");
        net[i] = std::move(n);
    });
    return net[i];
}

bool adopted(Variant v) { return ADOPTED[int(v)] && embedded(v) != nullptr; }

}  // namespace echecs::engine::nnue

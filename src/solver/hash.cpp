#include "solver/hash.h"

#include <algorithm>
#include <bit>
#include <type_traits>

namespace echecs::solver {

// The men as bit planes over the occupied squares in their order: colour,
// then the kind's three bits (pawn 1 ... king 6), and Alice's board. With
// PEXT one instruction a plane (the solver codes every position it looks up:
// man by man it was a tenth of an s#'s time), else man by man: the same code.
bool encode(const Position& pos, PositionCode& code) {
    const Bitboard occ = pos.pieces();
    if (popcount(occ) > 32) return false;
    const Bitboard planes[5] = {
        pos.pieces(BLACK),
        pos.pieces(PAWN) | pos.pieces(BISHOP) | pos.pieces(QUEEN),
        pos.pieces(KNIGHT) | pos.pieces(BISHOP) | pos.pieces(KING),
        pos.pieces(ROOK) | pos.pieces(QUEEN) | pos.pieces(KING),
        pos.on_board_b(),
    };
    std::uint64_t packed[5] = {};
    if (tables::slider_pext) {
        for (int k = 0; k < 5; ++k) packed[k] = pext(planes[k], occ);
    } else {
        int i = 0;
        for (Bitboard b = occ; b; ++i) {
            const Square s = pop_lsb(b);
            for (int k = 0; k < 5; ++k) packed[k] |= (planes[k] >> s & 1) << i;
        }
    }
    const StateInfo* st = pos.state();
    const std::uint64_t ep = st->ep_in_key ? std::uint64_t(st->ep_square) : 64;
    code.w[0] = occ;
    code.w[1] = packed[0] | packed[1] << 32;
    code.w[2] = packed[2] | packed[3] << 32;
    code.w[3] =
        packed[4] | std::uint64_t(pos.side_to_move()) << 32 | std::uint64_t(pos.castling_rights()) << 33 | ep << 37;
    return true;
}

ProofTable::ProofTable(std::size_t megabytes) {
    const std::size_t bytes = std::max<std::size_t>(megabytes, 1) << 20;
    buckets_ = std::max<std::size_t>(bytes / (sizeof(Entry) * WAYS), 1);
    static_assert(std::is_trivially_destructible_v<Entry>);
    active_ = START_BUCKETS < buckets_ ? START_BUCKETS : buckets_;
    block_ = platform::HugePages(buckets_ * WAYS * sizeof(Entry));
    table_ = static_cast<Entry*>(block_.data());
    locks_ = std::make_unique<std::atomic<bool>[]>(LOCKS);
}

namespace {
struct SpinLock {
    std::atomic<bool>& flag;
    explicit SpinLock(std::atomic<bool>& f) : flag(f) {
        while (flag.exchange(true, std::memory_order_acquire))
            while (flag.load(std::memory_order_relaxed)) {
            }
    }
    ~SpinLock() { flag.store(false, std::memory_order_release); }
};

// How much search an entry saves: entries proven at more moves are kept first.
int worth(const Proven& p) {
    const int win = p.win_from == 255 ? 0 : p.win_from + 1;
    const int help = p.help_fail ? 64 - std::countl_zero(p.help_fail) : 0;
    return std::max({int(p.fail_below), win, help});
}
}  // namespace

bool ProofTable::probe(Key key, const PositionCode& code, Proven& out) const {
    const std::size_t b = bucket_of(key);
    SpinLock lock(locks_[b % LOCKS]);
    const Entry* e = &table_[b * WAYS];
    // The ways fill in order and are never emptied: the first unused one ends the search.
    for (int i = 0; i < WAYS && e[i].used; ++i)
        if (e[i].code == code) {
            out = e[i].proven();
            return true;
        }
    return false;
}

template <class F>
void ProofTable::update(Key key, const PositionCode& code, F&& merge) {
    const std::size_t active = active_.load(std::memory_order_relaxed);
    const std::size_t b = bucket_in(key, active);
    SpinLock lock(locks_[b % LOCKS]);
    Entry* e = &table_[b * WAYS];
    Entry* victim = nullptr;
    for (int i = 0; i < WAYS; ++i) {
        if (!e[i].used) {  // the first unused way: the position is not stored
            victim = &e[i];
            break;
        }
        if (e[i].code == code) {
            Proven p = e[i].proven();
            merge(p);
            e[i].set(p);
            return;
        }
        if (!victim || worth(e[i].proven()) < worth(victim->proven())) victim = &e[i];
    }
    if (!victim->used) {
        const std::uint64_t n = stored_.fetch_add(1, std::memory_order_relaxed) + 1;
        std::size_t now = active;
        if (n * 2 > now * WAYS && now < buckets_)
            active_.compare_exchange_strong(now, now * GROW <= buckets_ ? now * GROW : buckets_,
                                            std::memory_order_relaxed);
    }
    victim->used = true;
    victim->code = code;
    Proven p;
    merge(p);
    victim->set(p);
}

void ProofTable::store_win(Key key, const PositionCode& code, int k) {
    update(key, code, [k](Proven& p) { p.win_from = std::uint8_t(std::min<int>(p.win_from, k)); });
}

void ProofTable::store_fail(Key key, const PositionCode& code, int k) {
    update(key, code, [k](Proven& p) { p.fail_below = std::uint8_t(std::max<int>(p.fail_below, k + 1)); });
}

void ProofTable::store_help_fail(Key key, const PositionCode& code, int plies) {
    if (plies < 0 || plies > 63) return;
    update(key, code, [plies](Proven& p) { p.help_fail |= std::uint64_t(1) << plies; });
}

}  // namespace echecs::solver

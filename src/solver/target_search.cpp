// The search's side of the targets (intelligent.h): each diagram man
// followed through the moves, the targets within reach at each node, and a
// table of failed lines.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "solver/intelligent.h"
#include "solver/mate_bound.h"

namespace echecs::solver {

void TargetTracker::start(const Position& root, const std::vector<Target>* targets) {
    targets_ = targets;
    ply_ = 0;
    depth_ = 0;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        const bool man = root.piece_on(s) != NO_PIECE;
        home_on_[s] = man ? std::int8_t(s) : -1;
        where_[s] = man ? std::int8_t(s) : -1;
        colour_[s] = man ? color_of(root.piece_on(s)) : WHITE;
        tables_[s] = man ? ManTables(root.piece_on(s), s) : ManTables();
    }
}

void TargetTracker::make(const Position& pos, Move m) {
    const Square from = m.from(), to = m.to();
    Undo& u = undo_[ply_++];
    u.captured = -1;
    u.captured_on = SQ_NONE;
    if (m.kind() == EN_PASSANT)
        u.captured_on = to - pawn_push(pos.side_to_move());
    else if (m.kind() != CASTLING && pos.piece_on(to) != NO_PIECE)
        u.captured_on = to;
    if (u.captured_on != SQ_NONE) {
        u.captured = home_on_[u.captured_on];
        if (u.captured >= 0) where_[u.captured] = -1;
        home_on_[u.captured_on] = -1;
    }
    // The moving man's tables from its new square (a promoted pawn's as its new type).
    const Piece man = pos.piece_on(from);
    const std::int8_t id = home_on_[from];
    u.moved = tables_[id];
    shift(from, to);
    tables_[id] = ManTables(m.kind() == PROMOTION ? make_piece(color_of(man), m.promotion()) : man, to);
    if (m.kind() == CASTLING) {
        const bool king_side = to > from;
        const Square rook_from = king_side ? from + 3 : from - 4, rook_to = king_side ? from + 1 : from - 1;
        const std::int8_t rook = home_on_[rook_from];
        u.rook = tables_[rook];
        shift(rook_from, rook_to);
        tables_[rook] = ManTables(pos.piece_on(rook_from), rook_to);
    }
}

void TargetTracker::shift(Square from, Square to) {
    const std::int8_t id = home_on_[from];
    home_on_[from] = -1;
    home_on_[to] = id;
    if (id >= 0) where_[id] = std::int8_t(to);
}

void TargetTracker::unmake(Move m) {
    const Square from = m.from(), to = m.to();
    const Undo& u = undo_[--ply_];
    if (m.kind() == CASTLING) {
        const bool king_side = to > from;
        const Square rook_from = king_side ? from + 3 : from - 4;
        shift(king_side ? from + 1 : from - 1, rook_from);
        tables_[home_on_[rook_from]] = u.rook;
    }
    shift(to, from);
    tables_[home_on_[from]] = u.moved;
    if (u.captured_on != SQ_NONE) {
        home_on_[u.captured_on] = u.captured;
        if (u.captured >= 0) where_[u.captured] = std::int8_t(u.captured_on);
    }
}

bool TargetTracker::enter(const Position& pos, Color mated, int w, int b) {
    int left[COLOR_NB];
    left[~mated] = w;
    left[mated] = b;
    for (Color c : {WHITE, BLACK})
        if (pos.castling_rights() & (c == WHITE ? (WHITE_OO | WHITE_OOO) : (BLACK_OO | BLACK_OOO))) ++left[c];
    const int moves = left[WHITE] + left[BLACK];
    if (std::size_t(depth_) == live_.size()) live_.emplace_back();
    std::vector<std::uint32_t>& now = live_[depth_];
    now.clear();
    if (depth_ == 0) {
        for (std::uint32_t t = 0; t < targets_->size(); ++t)
            if (reachable((*targets_)[t], pos, mated, left, moves)) now.push_back(t);
    } else {
        for (const std::uint32_t t : live_[depth_ - 1])
            if (reachable((*targets_)[t], pos, mated, left, moves)) now.push_back(t);
    }
    ++depth_;
    return !now.empty();
}

bool TargetTracker::reachable(const Target& t, const Position& pos, Color mated, const int* moves_left,
                              int moves) const {
    int left[COLOR_NB] = {moves_left[WHITE], moves_left[BLACK]};
    // Each man to be captured still on the board: a move of the other side.
    int to_capture = 0;
    for (Bitboard g = t.gone; g;)
        if (where_[pop_lsb(g)] >= 0) ++to_capture;
    if (to_capture > left[~mated]) return false;
    for (const TargetMan& m : t.men) {
        const int s = where_[m.home];
        if (s < 0) return false;  // a man of the mate was captured
        const Color c = colour_[m.home];
        left[c] -= tables_[m.home].moves(m.on, m.as);
        if (left[c] < 0) return false;
    }
    // Each man on a square that must be empty moves, or is captured: a move
    // each (maybe one of the moves counted above), but castling (counted
    // above) and an en-passant capture, which empty two squares, the latter
    // two with pawns.
    const Bitboard in_way = pos.pieces() & t.empty;
    const int pawns = popcount(in_way & pos.pieces(PAWN));
    return popcount(in_way) - pawns / 2 <= moves;
}

void TargetTracker::identities(const Position& pos, std::int8_t* out, int size) const {
    int n = 0;
    for (Bitboard b = pos.pieces(); b && n < size;) out[n++] = home_on_[pop_lsb(b)];
    std::fill(out + n, out + size, std::int8_t(-1));
}

TargetTable::TargetTable() : block_(SIZE * sizeof(Entry)), entries_(static_cast<Entry*>(block_.data())) {
    static_assert(std::is_trivially_destructible_v<Entry>);
}

TargetTable::Entry* TargetTable::find(Key key, const PositionCode& code, const std::int8_t* men, bool make) {
    // Which man stands where in the index too: the same position with its men swapped is another entry.
    std::uint64_t h = key;
    for (int i = 0; i < MEN; ++i) h = (h ^ std::uint64_t(std::uint8_t(men[i]))) * 0x100000001B3ULL;
    // Mixed: the table's index is the low bits, which the multiplications
    // above fill from the low bits of their inputs only.
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    const auto slot = std::uint32_t(h);
    // Two ways, the pair at the slot's even index: with one, two lines of
    // play visiting positions of the same index evicted each other over and
    // over (at 2^13 entries, 36% of stores fell on a live entry at 12% load).
    Entry* pair = &entries_[slot & (active_ - 2)];
    for (int i = 0; i < 2; ++i)
        if (pair[i].generation == generation_ && pair[i].code == code && std::equal(men, men + MEN, pair[i].men))
            return &pair[i];
    if (!make) return nullptr;
    if (++used_ * 8 > active_ && active_ < SIZE) {
        grow();
        pair = &entries_[slot & (active_ - 2)];
    }
    // A free way, else the one that knows less.
    Entry* e = &pair[0];
    if (pair[0].generation == generation_ &&
        (pair[1].generation != generation_ || std::popcount(pair[1].help_fail) < std::popcount(pair[0].help_fail)))
        e = &pair[1];
    e->code = code;
    e->generation = generation_;
    e->slot = slot;
    e->help_fail = 0;
    std::copy(men, men + MEN, e->men);
    return e;
}

void TargetTable::grow() {
    // Each entry goes where its slot now points: its pair, or the same pair
    // in the new half, which only this pair's entries reach.
    for (std::size_t i = 0; i < active_; ++i) {
        Entry& e = entries_[i];
        if (e.generation != generation_) continue;
        const std::size_t to = e.slot & (2 * active_ - 2);
        if (to == (i & ~std::size_t(1))) continue;
        Entry* pair = &entries_[to];
        *(pair[0].generation == generation_ ? &pair[1] : &pair[0]) = e;
        e.generation = 0;
    }
    active_ *= 2;
}

bool TargetTable::failed(const Position& pos, const PositionCode& code, const TargetTracker& men, int plies) const {
    std::int8_t who[MEN];
    men.identities(pos, who, MEN);
    const Entry* e = const_cast<TargetTable*>(this)->find(pos.key(), code, who, false);
    return e && (e->help_fail >> plies & 1);
}

void TargetTable::store_fail(const Position& pos, const PositionCode& code, const TargetTracker& men, int plies) {
    std::int8_t who[MEN];
    men.identities(pos, who, MEN);
    find(pos.key(), code, who, true)->help_fail |= std::uint64_t(1) << plies;
}

}  // namespace echecs::solver

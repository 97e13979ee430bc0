#include "movepick.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace echecs::engine {

void OrderingStats::clear() { std::memset(static_cast<void*>(this), 0, sizeof(*this)); }

void OrderingStats::update_history(Color c, Move m, int bonus) {
    int& h = history[c][m.from()][m.to()];
    h += bonus - h * std::abs(bonus) / HISTORY_MAX;  // gravity keeps |h| <= HISTORY_MAX
}

void OrderingStats::update_killers(int ply, Move m) {
    if (killers[ply][0] == m) return;
    killers[ply][1] = killers[ply][0];
    killers[ply][0] = m;
}

bool is_tactical(const Position& pos, Move m) { return m.kind() == PROMOTION || pos.is_capture(m); }

bool is_bad_capture(const Position& pos, Move m) {
    if (m.kind() != NORMAL || !pos.is_capture(m)) return false;
    const PieceType attacker = type_of(pos.moved_piece(m));
    const PieceType victim = type_of(pos.piece_on(m.to()));
    if (PIECE_VALUE[victim] >= PIECE_VALUE[attacker] || attacker == KING) return false;
    const Color them = ~pos.side_to_move();
    const Square from = m.from(), to = m.to();
    if (pos.variant() == Variant::Alice) {
        // The capturer lands on the other board: only that board's pieces can take
        // it back.
        const Board land = Board(pos.board_of(from) ^ 1);
        const Bitboard mask = pos.board_mask(land);
        const Bitboard occ = (pos.pieces() & mask) | square_bb(to);
        return pos.attackers_to(to, occ) & pos.pieces(them) & mask & ~square_bb(to);
    }
    const Bitboard occ = pos.pieces() ^ square_bb(from);
    return pos.attackers_to(to, occ) & pos.pieces(them) & ~square_bb(to);
}

int push_score(const Position& pos, Move m) {
    if (!m.has_push()) return 0;
    const Color us = pos.side_to_move(), them = ~us;
    const Square a = m.push_from(), b = a + pawn_push(them);
    const int rr = relative_rank(them, b);
    int s = -8 * rr * rr;
    if (rr == 7) s -= 1500;  // the opponent will choose a piece there
    // Our pieces (after the first part) that the pushed pawn now attacks.
    Bitboard targets = pawn_attacks(them, b) & (pos.pieces(us) & ~pos.pieces(us, PAWN));
    targets &= ~square_bb(m.from());
    if (pawn_attacks(them, b) & square_bb(m.to())) s -= PIECE_VALUE[type_of(pos.moved_piece(m))] / 2;
    while (targets) s -= PIECE_VALUE[type_of(pos.piece_on(pop_lsb(targets)))] / 2;
    // A pushed pawn that our pawns can take.
    if (pawn_attacks(them, b) & pos.pieces(us, PAWN)) s += 40;
    return s;
}

MovePicker::MovePicker(const Position& pos, MoveList& list, int* scores, Move tt_move, const OrderingStats& stats,
                       int ply)
    : moves_(list.moves), scores_(scores), n_(list.count) {
    const Color us = pos.side_to_move();
    const bool avalanche = pos.variant() == Variant::Avalanche;
    for (int i = 0; i < n_; ++i) {
        const Move m = moves_[i];
        int s;
        if (m == tt_move)
            s = 1 << 30;
        else if (is_tactical(pos, m)) {
            const PieceType victim = m.kind() == EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
            const PieceType attacker = type_of(pos.moved_piece(m));
            s = 16 * PIECE_VALUE[victim] - PIECE_VALUE[attacker] / 16;
            if (m.kind() == PROMOTION) s += m.promotion() == QUEEN ? 16 * 900 : -4000;
            s += is_bad_capture(pos, m) ? -(1 << 24) : (1 << 28);
        } else if (m == stats.killers[ply][0])
            s = (1 << 27) + 2;
        else if (m == stats.killers[ply][1])
            s = (1 << 27) + 1;
        else
            s = stats.history[us][m.from()][m.to()];
        if (avalanche && m != tt_move) s += push_score(pos, m);
        scores_[i] = s;
    }
}

Move MovePicker::next() {
    if (cur_ >= n_) return Move::none();
    // The first few picks by selection; past them (a cut did not come early),
    // sort the rest once: Avalanche nodes can hold a thousand moves.
    if (cur_ == 8 && !sorted_) {
        sorted_ = true;
        sort_rest();
    }
    if (sorted_) return moves_[cur_++];
    int best = cur_;
    for (int i = cur_ + 1; i < n_; ++i)
        if (scores_[i] > scores_[best]) best = i;
    std::swap(moves_[cur_], moves_[best]);
    std::swap(scores_[cur_], scores_[best]);
    return moves_[cur_++];
}

void MovePicker::sort_rest() {
    // Pack (score, index) into one integer and sort descending; ties keep
    // generation order.
    std::uint64_t keys[MAX_MOVES];
    Move tmp[MAX_MOVES];
    const int n = n_ - cur_;
    for (int i = 0; i < n; ++i) {
        keys[i] = std::uint64_t(std::uint32_t(scores_[cur_ + i]) ^ 0x80000000u) << 32 | std::uint32_t(MAX_MOVES - i);
        tmp[i] = moves_[cur_ + i];
    }
    std::sort(keys, keys + n, std::greater<>());
    for (int i = 0; i < n; ++i) {
        const int idx = MAX_MOVES - int(keys[i] & 0xFFFFFFFFu);
        moves_[cur_ + i] = tmp[idx];
        scores_[cur_ + i] = int(std::uint32_t(keys[i] >> 32) ^ 0x80000000u);
    }
}

}  // namespace echecs::engine

#include "movepick.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "see.h"

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

MovePicker::MovePicker(Position& pos, MoveList& list, int* scores, const OrderingStats& stats, const PickerContext& ctx,
                       Mode mode, Quiets quiets)
    : pos_(pos),
      stats_(stats),
      ctx_(ctx),
      moves_(list.moves),
      scores_(scores),
      n_(list.count),
      mode_(mode),
      quiets_(quiets) {}

Move MovePicker::pick_best(int begin, int end) {
    int best = begin;
    for (int i = begin + 1; i < end; ++i)
        if (scores_[i] > scores_[best]) best = i;
    std::swap(moves_[begin], moves_[best]);
    std::swap(scores_[begin], scores_[best]);
    return moves_[begin];
}

void MovePicker::sort_range(int begin, int end) {
    // Pack (score, index) into one integer and sort descending; ties keep
    // the order they had.
    std::uint64_t keys[MAX_MOVES];
    Move tmp[MAX_MOVES];
    const int n = end - begin;
    for (int i = 0; i < n; ++i) {
        keys[i] = std::uint64_t(std::uint32_t(scores_[begin + i]) ^ 0x80000000u) << 32 | std::uint32_t(MAX_MOVES - i);
        tmp[i] = moves_[begin + i];
    }
    std::sort(keys, keys + n, std::greater<>());
    for (int i = 0; i < n; ++i) {
        const int idx = MAX_MOVES - int(keys[i] & 0xFFFFFFFFu);
        moves_[begin + i] = tmp[idx];
        scores_[begin + i] = int(std::uint32_t(keys[i] >> 32) ^ 0x80000000u);
    }
}

bool MovePicker::checks_known() const { return quiets_ == Quiets::Checks && pos_.checks_known_before_move(); }

bool MovePicker::is_special(Move m) const {
    if (m == ctx_.tt_move && tt_in_list_) return true;
    for (int i = 0; i < returned_count_; ++i)
        if (returned_[i] == m) return true;
    return false;
}

Move MovePicker::next(bool skip_quiets) {
    const bool avalanche = variant_info(pos_.variant()).has_pushes;
    for (;;) switch (stage_) {
            case Stage::TT:
                stage_ = Stage::CaptureInit;
                // In quiescence the table's move must be one this picker gives.
                if (ctx_.tt_move && (mode_ == Mode::Main || is_tactical(pos_, ctx_.tt_move) ||
                                     (quiets_ != Quiets::None && (!checks_known() || pos_.gives_check(ctx_.tt_move)))))
                    for (int i = 0; i < n_; ++i)
                        if (moves_[i] == ctx_.tt_move) {
                            tt_in_list_ = true;
                            return ctx_.tt_move;
                        }
                break;

            case Stage::CaptureInit: {
                // Tactical moves to the front, scored by victim and capture history.
                int k = 0;
                for (int i = 0; i < n_; ++i)
                    if (is_tactical(pos_, moves_[i])) std::swap(moves_[i], moves_[k++]);
                captures_end_ = k;
                for (int i = 0; i < k; ++i) {
                    const Move m = moves_[i];
                    const Piece pc = pos_.moved_piece(m);
                    const PieceType victim = m.kind() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(m.to()));
                    int s = 8 * PIECE_VALUE[victim] + stats_.capture[pc][m.to()][victim] / 4;
                    if (m.kind() == PROMOTION) s += m.promotion() == QUEEN ? 8 * 900 : -8 * 2000;
                    if (avalanche) s += 4 * push_score(pos_, m);
                    scores_[i] = s;
                }
                cur_ = bad_end_ = 0;
                stage_ = Stage::Good;
                break;
            }

            case Stage::Good:
                while (cur_ < captures_end_) {
                    const Move m = pick_best(cur_, captures_end_);
                    if (is_special(m)) {
                        ++cur_;
                        continue;
                    }
                    // Main search: a capture that loses material (or an
                    // under-promotion) waits until after the quiet moves.
                    if (mode_ == Mode::Main &&
                        ((m.kind() == PROMOTION && m.promotion() != QUEEN) || !see_ge(pos_, m, 0))) {
                        std::swap(moves_[bad_end_], moves_[cur_]);
                        std::swap(scores_[bad_end_], scores_[cur_]);
                        ++bad_end_, ++cur_;
                        continue;
                    }
                    ++cur_;
                    return m;
                }
                if (mode_ == Mode::Main)
                    stage_ = Stage::Killers;
                else
                    stage_ = quiets_ != Quiets::None ? Stage::QuietInit : Stage::Done;
                break;

            case Stage::Killers: {
                if (skip_quiets) {
                    stage_ = Stage::Bad, cur_ = 0;
                    break;
                }
                const Move candidates[3] = {ctx_.killers[0], ctx_.killers[1], ctx_.countermove};
                while (killer_index_ < 3) {
                    const Move m = candidates[killer_index_++];
                    if (!m || is_special(m)) continue;
                    for (int i = captures_end_; i < n_; ++i)
                        if (moves_[i] == m) {
                            returned_[returned_count_++] = m;
                            return m;
                        }
                }
                stage_ = Stage::QuietInit;
                break;
            }

            case Stage::QuietInit: {
                if (checks_known()) {
                    int k = captures_end_;
                    for (int i = captures_end_; i < n_; ++i)
                        if (pos_.gives_check(moves_[i])) std::swap(moves_[i], moves_[k++]);
                    n_ = k;
                }
                const Color us = pos_.side_to_move();
                for (int i = captures_end_; i < n_; ++i) {
                    const Move m = moves_[i];
                    const Piece pc = pos_.moved_piece(m);
                    int s = stats_.history[us][m.from()][m.to()] + 2 * (*ctx_.cont[0])[pc][m.to()] +
                            (*ctx_.cont[1])[pc][m.to()] + (*ctx_.cont[2])[pc][m.to()];
                    if (avalanche) s += 4 * push_score(pos_, m);
                    scores_[i] = s;
                }
                cur_ = captures_end_;
                sorted_ = false;
                stage_ = Stage::Quiet;
                break;
            }

            case Stage::Quiet:
                if (skip_quiets && mode_ == Mode::Main) {
                    stage_ = Stage::Bad, cur_ = 0;
                    break;
                }
                while (cur_ < n_) {
                    // The first few by selection; past them (no early cut) sort
                    // the rest once: Avalanche nodes can hold a thousand moves.
                    if (!sorted_ && cur_ - captures_end_ >= 8) {
                        sorted_ = true;
                        sort_range(cur_, n_);
                    }
                    const Move m = sorted_ ? moves_[cur_] : pick_best(cur_, n_);
                    ++cur_;
                    if (is_special(m)) continue;
                    return m;
                }
                stage_ = mode_ == Mode::Main ? Stage::Bad : Stage::Done;
                cur_ = 0;
                break;

            case Stage::Bad:
                while (cur_ < bad_end_) {
                    const Move m = moves_[cur_++];
                    if (!is_special(m)) return m;
                }
                stage_ = Stage::Done;
                break;

            case Stage::Done: return Move::none();
        }
}

}  // namespace echecs::engine

// Search. Pruning and its soundness per game:
//
// Null move (side to move passes; searched with reduced depth; fails high ->
// cut). It assumes some legal move is at least as good as passing, which
// zugzwang breaks. We only try it with non-pawn material on the board for the
// side to move, not in check, and not twice in a row.
//  - Chess: the classical assumption; zugzwang without pieces (pawn endings)
//    is excluded by the material condition.
//  - Alice: a move never has to stay on the board it starts from, so a piece
//    always has somewhere useful to go; zugzwang is rarer than in chess, and
//    the same material condition applies. Checks by transfer are seen by the
//    reduced search like any other move.
//  - Avalanche: a pass skips the first part *and* the push. The push is a
//    duty that can hurt (it advances an enemy pawn, possibly to promotion), so
//    passing can be better than every real move. We allow the null move only
//    when a harmless push exists: the opponent has no pawn that can be pushed
//    at all, or has one whose push lands on its 4th rank or lower. We never
//    pass with a pending promotion (the choice must be made by its owner).
//
// Late-move reductions: quiet moves late in the ordering are searched with
// less depth first and re-searched at full depth if they beat alpha, so they
// can delay but not hide a good move; never when in check or giving check.
// Avalanche has ~8 pushes per first part, so lists are long and reductions
// grow with the move number as in the other games; a push that promotes or
// attacks is ordered by push_score(), and captures/promotions are never
// reduced.
//
// Futility and move-count pruning apply only to quiet moves that do not give
// check, at shallow non-PV nodes, when not in check and not being mated.
//
// This file is the node-level search; the root (iterative deepening, MultiPV,
// threads, limits and reports) is search_root.cpp.
#include <algorithm>
#include <cmath>

#include "core/game.h"
#include "core/movegen.h"
#include "search_worker.h"

namespace echecs::engine {

namespace {

constexpr Key VARIANT_KEY[3] = {0, 0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL};

struct Reductions {
    int r[64][256];
    Reductions() {
        for (int d = 1; d < 64; ++d)
            for (int m = 1; m < 256; ++m) r[d][m] = int(0.75 + std::log(double(d)) * std::log(double(m)) / 2.25);
        for (int m = 0; m < 256; ++m) r[0][m] = 0;
        for (int d = 0; d < 64; ++d) r[d][0] = 0;
    }
};
const Reductions& reductions() {
    static const Reductions t;
    return t;
}

}  // namespace

Worker::Worker(Searcher::Data& d, SearchShared& sh, Position& pos, int index)
    : d_(d), sh_(sh), tt_(sh.tt), pos_(pos), limits_(sh.limits), opt_(sh.opt), index_(index) {
    salt_ = VARIANT_KEY[int(pos.variant())];
    avalanche_ = pos.variant() == Variant::Avalanche;
    if (opt_.skill < 20) noise_ = opt_.skill == 0 ? 4 : (20 - opt_.skill) * 10;
    weights_ = opt_.weights ? opt_.weights.get() : &default_weights(pos.variant());
}

Value Worker::terminal(int ply) {
    // No legal move: checkmate, Avalanche loss (first parts exist but no
    // push completes one), or stalemate.
    if (pos_.in_check()) return mated_in(ply);
    if (avalanche_ && has_first_part(pos_)) return mated_in(ply);
    return VALUE_DRAW;
}

bool Worker::is_draw() const {
    const StateInfo* st = pos_.state();
    if (st->rule50 >= 100 && !pos_.in_check()) return true;
    // Repetition: any earlier occurrence inside the reversible stretch counts
    // (a second occurrence inside the search tree, or one in the game history).
    const int end = std::min(st->rule50, st->plies_from_null);
    const StateInfo* p = st->previous ? st->previous->previous : nullptr;
    for (int i = 4; i <= end && p && p->previous && p->previous->previous; i += 2) {
        p = p->previous->previous;
        if (p->key == st->key) return true;
    }
    if (popcount(pos_.pieces()) <= 4 && insufficient_material(pos_)) return true;
    return false;
}

bool Worker::null_move_ok() const {
    const Color us = pos_.side_to_move(), them = ~us;
    if (!(pos_.pieces(us) & ~pos_.pieces(PAWN, KING))) return false;
    if (!avalanche_) return true;
    if (pos_.pending_promotion() != SQ_NONE) return false;
    const Bitboard pawns = pos_.pieces(them, PAWN);
    const Bitboard targets = (them == WHITE ? pawns << 8 : pawns >> 8) & ~pos_.pieces();
    if (!targets) return true;
    const Bitboard harmless = them == WHITE ? (RANK_3_BB | RANK_4_BB) : (RANK_6_BB | RANK_5_BB);
    return targets & harmless;
}

Value Worker::search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool null_ok) {
    if (depth <= 0) {
        if (opt_.skill == 0) {  // the beginner player does not look past its two plies
            d_.pv_len[ply] = ply;
            ++nodes_;
            return eval();
        }
        return qsearch(alpha, beta, ply, 0, pv_node);
    }
    d_.pv_len[ply] = ply;
    ++nodes_;
    check_limits();
    if (stopped_) return VALUE_ZERO;
    seldepth_ = std::max(seldepth_, ply);
    const bool root = ply == 0;
    const bool full = opt_.skill > 0;  // pruning and extensions off for the 2-ply player

    if (!root) {
        if (is_draw()) return VALUE_DRAW;
        if (ply >= SEARCH_MAX_PLY) return pos_.in_check() ? VALUE_DRAW : eval();
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(ply + 1));
        if (alpha >= beta) return alpha;
    }

    const Key key = pos_.key() ^ salt_;
    TTEntry tt_entry;
    const TTEntry* tte = tt_.probe(key, tt_entry) ? &tt_entry : nullptr;
    Move tt_move = tte ? tte->best_move() : Move::none();
    if (root && root_best_) tt_move = root_best_;
    if (tte && !pv_node && tte->depth >= depth) {
        const Value v = value_from_tt(tte->value, ply);
        if ((tte->bound() & BOUND_LOWER && v >= beta) || (tte->bound() & BOUND_UPPER && v <= alpha)) return v;
    }

    const bool in_check = pos_.in_check();
    const Value static_eval = in_check ? -VALUE_INFINITE : eval();
    d_.static_eval[ply] = static_eval;

    if (full && !pv_node && !in_check) {
        // Reverse futility: far above beta at shallow depth.
        if (depth <= 6 && static_eval - 90 * depth >= beta && std::abs(beta) < VALUE_MATE_IN_MAX_PLY)
            return static_eval;
        // Null move (see the top of this file).
        if (null_ok && depth >= 3 && static_eval >= beta && null_move_ok()) {
            const int r = 3 + depth / 4 + std::min(3, (static_eval - beta) / 200);
            pos_.do_null_move(d_.states[ply]);
            const Value v = -search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
            pos_.undo_null_move();
            if (stopped_) return VALUE_ZERO;
            if (v >= beta) return v >= VALUE_MATE_IN_MAX_PLY ? beta : v;
        }
    }

    MoveList& list = d_.lists[ply];
    generate_legal(pos_, list);
    if (list.empty()) return terminal(ply);

    MovePicker mp(pos_, list, d_.scores[ply], tt_move, d_.stats, ply);
    const Color us = pos_.side_to_move();
    Value best = -VALUE_INFINITE;
    Move best_move = Move::none();
    const Value alpha_orig = alpha;
    Move quiets[64];
    int quiet_count = 0, move_count = 0;
    const int lmp_limit = (3 + depth * depth) * (avalanche_ ? 4 : 1);
    // Shallow pruning is off when looking for a shorter mate than one already found.
    const bool improving_ok = full && !pv_node && !in_check && std::abs(alpha) < VALUE_MATE_IN_MAX_PLY;

    while (Move m = mp.next()) {
        if (root && !root_allowed(m)) continue;  // searchmoves; MultiPV lines already found
        ++move_count;
        if (root) root_move(m, move_count);
        const bool quiet = !is_tactical(pos_, m);
        const bool killer = m == d_.stats.killers[ply][0] || m == d_.stats.killers[ply][1];

        if (improving_ok && quiet && best > -VALUE_MATE_IN_MAX_PLY && depth <= 4 && move_count > lmp_limit && !killer)
            continue;  // move-count pruning: the quiet tail (checks included) at
                       // shallow depth

        pos_.do_move(m, d_.states[ply]);
        const bool gives_check = pos_.in_check();

        if (improving_ok && quiet && !gives_check && best > -VALUE_MATE_IN_MAX_PLY && depth <= 3 &&
            static_eval + 120 + 120 * depth <= alpha) {
            pos_.undo_move(m);
            continue;  // futility
        }

        const int ext = full && gives_check && ply < 2 * root_depth_ ? 1 : 0;
        const int new_depth = depth - 1 + ext;
        Value v;
        if (move_count == 1)
            v = -search(-beta, -alpha, new_depth, ply + 1, pv_node, true);
        else {
            int r = 0;
            if (full && depth >= 3 && quiet && !gives_check && !in_check && move_count > (pv_node ? 3 : 2)) {
                r = reductions().r[std::min(depth, 63)][std::min(move_count, 255)];
                if (pv_node) --r;
                if (killer) --r;
                r -= d_.stats.history[us][m.from()][m.to()] / 6000;
                r = std::clamp(r, 0, new_depth - 1);
            }
            v = -search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
            if (v > alpha && r > 0) v = -search(-alpha - 1, -alpha, new_depth, ply + 1, false, true);
            if (v > alpha && v < beta && pv_node) v = -search(-beta, -alpha, new_depth, ply + 1, true, true);
        }
        pos_.undo_move(m);
        if (stopped_) return VALUE_ZERO;

        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (root) {
                    root_best_ = m;
                    root_best_value_ = v;
                }
                if (v >= beta) {
                    if (quiet) {
                        const int bonus = std::min(depth * depth * 16, HISTORY_MAX);
                        d_.stats.update_killers(ply, m);
                        d_.stats.update_history(us, m, bonus);
                        for (int i = 0; i < quiet_count; ++i) d_.stats.update_history(us, quiets[i], -bonus);
                    }
                    break;
                }
                alpha = v;
            }
        }
        if (quiet && quiet_count < 64) quiets[quiet_count++] = m;
    }

    if (move_count == 0) return terminal(ply);  // cannot happen: the first move is never pruned
    const Bound bound = best >= beta ? BOUND_LOWER : (pv_node && best > alpha_orig ? BOUND_EXACT : BOUND_UPPER);
    // A root searched over some moves only has no result for the position.
    if (!(root && root_restricted())) tt_.store(key, value_to_tt(best, ply), bound, depth, best_move);
    return best;
}

Value Worker::qsearch(Value alpha, Value beta, int ply, int qply, bool pv_node) {
    d_.pv_len[ply] = ply;
    ++nodes_;
    check_limits();
    if (stopped_) return VALUE_ZERO;
    seldepth_ = std::max(seldepth_, ply);
    if (is_draw()) return VALUE_DRAW;
    const bool in_check = pos_.in_check();
    if (ply >= SEARCH_MAX_PLY) return in_check ? VALUE_DRAW : eval();

    const Key key = pos_.key() ^ salt_;
    TTEntry tt_entry;
    const TTEntry* tte = tt_.probe(key, tt_entry) ? &tt_entry : nullptr;
    if (tte && !pv_node) {
        const Value v = value_from_tt(tte->value, ply);
        if ((tte->bound() & BOUND_LOWER && v >= beta) || (tte->bound() & BOUND_UPPER && v <= alpha)) return v;
    }

    Value best = -VALUE_INFINITE, stand = -VALUE_INFINITE;
    if (!in_check) {
        stand = eval();
        if (stand >= beta) return stand;
        alpha = std::max(alpha, stand);
        best = stand;
    }

    MoveList& list = d_.lists[ply];
    generate_legal(pos_, list);
    if (list.empty()) return terminal(ply);

    // Quiet checks are tried on the first quiescence ply in chess and Alice
    // (in Alice a quiet move checks by arriving on the king's board: a
    // "transfer" check that captures alone would never see).
    const bool quiet_checks = qply == 0 && !in_check && !avalanche_;
    MovePicker mp(pos_, list, d_.scores[ply], tte ? tte->best_move() : Move::none(), d_.stats, ply);
    // Avalanche: one push per first part is enough here (the best-ordered one).
    Move seen[64];
    int seen_count = 0;
    Move best_move = Move::none();
    const Value alpha_orig = alpha;

    while (Move m = mp.next()) {
        const bool tactical = is_tactical(pos_, m);
        if (!in_check) {
            if (!tactical && !quiet_checks) continue;
            if (tactical) {
                if (is_bad_capture(pos_, m)) continue;
                const PieceType victim = m.kind() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(m.to()));
                const int promo = m.kind() == PROMOTION ? PIECE_VALUE[m.promotion()] : 0;
                if (stand + PIECE_VALUE[victim] + promo + 200 <= alpha) continue;  // delta pruning
            }
            if (avalanche_) {
                const Move fp = Move(m.first_part().raw() | (m.raw() & (7u << 23)));
                bool dup = false;
                for (int i = 0; i < seen_count; ++i) dup = dup || seen[i] == fp;
                if (dup) continue;
                if (seen_count < 64) seen[seen_count++] = fp;
            }
        }
        pos_.do_move(m, d_.states[ply]);
        if (!in_check && !tactical && !pos_.in_check()) {
            pos_.undo_move(m);
            continue;
        }
        const Value v = -qsearch(-beta, -alpha, ply + 1, qply + 1, pv_node);
        pos_.undo_move(m);
        if (stopped_) return VALUE_ZERO;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    const Bound bound = best >= beta ? BOUND_LOWER : (pv_node && best > alpha_orig ? BOUND_EXACT : BOUND_UPPER);
    tt_.store(key, value_to_tt(best, ply), bound, 0, best_move);
    return best;
}

}  // namespace echecs::engine

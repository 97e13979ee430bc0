// The node-level search: principal-variation alpha-beta with a
// transposition table, quiescence and the selectivity below; the root
// (iterative deepening, aspiration windows, MultiPV, threads, limits and
// reports) is search_root.cpp. This file is longer than most because each
// pruning rule carries its soundness note per game, here at the top.
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
// Reverse futility (static evaluation far above beta at depth <= 8: return
// it) rests on the same assumption as the null move, that the side to move
// can keep what it has; it is off in check and at PV nodes. In Avalanche the
// evaluation already charges the side that will be forced to push towards a
// promotion (forced_push), so a position whose only pushes are bad does not
// look good; the Alice evaluation counts transfer checks against the king.
//
// Late-move reductions: quiet moves late in the ordering are searched with
// less depth first (a table by depth and move number, more at expected cut
// nodes and when the position is not improving, less for killers, the
// counter-move and moves with good history, and for checks and evasions) and
// re-searched at full depth if they beat alpha, so they delay but do not hide
// a good move. Avalanche has ~8 pushes per first part, so its lists are long
// and the move number grows fast: a push that promotes an enemy pawn or
// attacks our pieces is ordered late by push_score(), which is where the
// reduction is largest, and captures and promotions are never reduced.
//
// Move-count pruning (the quiet tail past (3 + depth^2) / (2 - improving)
// moves at depth <= 8; four times as many in Avalanche, whose moves are
// first parts times pushes), futility pruning (static evaluation + 150 +
// 110 x the reduced depth below alpha), history pruning (a quiet move with a
// very bad history at low reduced depth) and SEE pruning of quiet moves whose
// piece lands where it is lost: only for quiet moves, not at the root, not in
// check, not for moves that give check (move-count pruning excepted), with
// non-pawn material for the side to move and while no mate score bounds the
// window, so a shorter mate is still found. Alice: "gives check" is judged
// after the move, so a transfer check (a piece passing to the king's board
// next to it) is never pruned by these; SEE judges the quiet piece on the
// board it lands on. Avalanche: the move is pruned with its push; the pushes
// of one first part are separate moves, and the first part with its best
// push is usually early enough to escape the tail.
//
// SEE pruning of captures (see.cpp for how each game's exchange is played
// out): at depth <= 6 a capture losing more than 200 x depth by SEE is
// skipped; in quiescence every capture with a negative SEE is skipped (and
// delta pruning drops captures that cannot reach alpha). Alice: the exchange
// alternates boards (the capturer passes to the other board, where only that
// board's pieces can take it), so a capture that orthodox SEE would call
// losing is often safe. Avalanche: SEE sees the push of the move itself (a
// pushed pawn that now attacks the square, or a line it opened or closed)
// but not the pushes of the replies.
//
// Singular extension: when the table's move has a lower bound at nearly this
// depth, the other moves are searched at half depth against a bound a little
// below its score; if all fail low the move is singular and is searched one
// ply deeper (two at non-PV nodes if far below, at most six double extensions
// on a path). If the reduced search of the others already beats beta, the
// node is cut (multi-cut); if only the table's score is above beta, the move
// is searched a ply shallower. The excluded-move search is made before the
// node generates its moves (it uses the same ply's move list), and neither it
// nor its results are stored in the table. Nothing here depends on the game:
// in Avalanche the excluded move is one complete move (first part and push),
// so the same first part with another push is one of "the others", which is
// right: a different push is a different move.
//
// Check extension: a move that gives check is searched one ply deeper (up to
// twice the iteration depth); in chess only at depth > 9 with the evaluation
// far from level (GAME_SEARCH). Alice transfer checks and Avalanche checks by
// a push (a discovered check from the pushed pawn's square) are checks like
// any other, seen after the move is made.
//
// Every margin above is on the hand-written evaluation's scale; when a
// game's network evaluates, they are scaled to its centipawns (GAME_SEARCH).
//
// Internal iterative reduction: a PV or expected cut node without a table
// move is searched one ply shallower (the next iteration will have a move).
#include <algorithm>
#include <cmath>

#include "core/game.h"
#include "core/movegen.h"
#include "search_worker.h"
#include "see.h"

namespace echecs::engine {

namespace {

constexpr Key VARIANT_KEY[VARIANT_NB] = {0, 0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL};

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

// What the search does differently per game when the game's network
// evaluates. Measured in chess only (docs/STRENGTH.md); Alice and Avalanche
// keep what they were measured with.
struct GameSearch {
    // The margins of the pruning rules were set with the hand-written
    // evaluation. When the game's network evaluates they are scaled by this
    // percent. The chess network's centipawns are small: half Stockfish
    // 15.1's on the same positions (a knight 268 where it says 560), three
    // quarters of the hand-written evaluation's for a pawn; half the margins
    // searched half the nodes and did not lose, and half the aspiration
    // window (search_root.cpp) won some 15 Elo (docs/STRENGTH.md).
    int network_margin_pct;
    // Checks are extended only deep (depth > 9) and with the evaluation far
    // from level (71 on the margins' scale), as Stockfish 15.1 does; else
    // every check is.
    bool checks_deep_only;
};
constexpr GameSearch GAME_SEARCH[VARIANT_NB] = {
    {50, true},    // chess
    {100, false},  // Alice
    {100, false},  // Avalanche
};

}  // namespace

std::uint32_t parse_search_features(const std::string& names, std::string& unknown) {
    static constexpr std::pair<const char*, SearchFeature> NAMES[] = {
        {"lmr_adjust", FEATURE_LMR_ADJUST}, {"futility", FEATURE_FUTILITY}, {"lmp", FEATURE_LMP},
        {"see_prune", FEATURE_SEE_PRUNE},   {"singular", FEATURE_SINGULAR}, {"cont_hist", FEATURE_CONT_HIST},
        {"aspiration", FEATURE_ASPIRATION}, {"iir", FEATURE_IIR},           {"hist_prune", FEATURE_HIST_PRUNE},
    };
    std::uint32_t bits = 0;
    unknown.clear();
    std::string name;
    for (size_t i = 0; i <= names.size(); ++i) {
        if (i < names.size() && names[i] != ',' && names[i] != ' ') {
            name += names[i];
            continue;
        }
        if (name.empty()) continue;
        bool found = false;
        for (const auto& [n, f] : NAMES)
            if (name == n) bits |= f, found = true;
        if (!found) unknown += (unknown.empty() ? "" : ",") + name;
        name.clear();
    }
    return bits;
}

Worker::Worker(Searcher::Data& d, SearchShared& sh, Position& pos, int index)
    : d_(d), sh_(sh), tt_(sh.tt), pos_(pos), limits_(sh.limits), opt_(sh.opt), index_(index) {
    salt_ = VARIANT_KEY[int(pos.variant())];
    avalanche_ = variant_info(pos.variant()).has_pushes;
    two_boards_ = variant_info(pos.variant()).boards == 2;
    checks_before_move_ = pos.checks_known_before_move();
    material_ = opt_.player != Player::Engine;
    full_ = !material_;
    // The anchors break ties at random (a few centipawns); the levels have
    // their own noise.
    noise_ = material_ ? 4 : opt_.strength.noise;
    blind_ = material_ ? 0 : opt_.strength.blind;
    node_cap_ = material_ ? 0 : opt_.strength.nodes;
    // A weakened level keeps the hand-written evaluation its settings were
    // measured with (docs/STRENGTH.md "The levels"), network or not.
    weights_ = opt_.weights           ? opt_.weights.get()
               : opt_.strength.full() ? &default_weights(pos.variant())
                                      : &hand_written_weights(pos.variant());
    // Both were measured with the network: the levels, which keep the
    // hand-written evaluation, search as their ladder was measured.
    const GameSearch& g = GAME_SEARCH[int(pos.variant())];
    const bool net = weights_->network != nullptr;
    margin_pct_ = net ? g.network_margin_pct : 100;
    checks_deep_only_ = net && g.checks_deep_only;
}

Value Worker::terminal(int ply) {
    // No legal move: checkmate, Avalanche loss (first parts exist but no
    // push completes one), or stalemate.
    return no_move_verdict(pos_) == Termination::Stalemate ? VALUE_DRAW : mated_in(ply);
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

namespace {

// History bonus of a move that caused a cut at `depth`.
int stat_bonus(int depth) { return std::min(180 * depth - 100, 1800); }

bool has_pieces(const Position& pos, Color c) { return pos.pieces(c) & ~pos.pieces(PAWN, KING); }

}  // namespace

void Worker::update_cont(int ply, Piece pc, Square to, int bonus) {
    for (int back : {1, 2, 4}) {
        if (ply - back < -4) break;
        PieceToHistory* row = frame(ply - back).cont;
        if (row == &d_.zero_row) continue;
        update_stat((*row)[pc][to], bonus);
    }
}

void Worker::update_quiet_stats(int ply, Move m, Piece pc, int bonus) {
    d_.stats.update_history(pos_.side_to_move(), m, bonus);
    update_cont(ply, pc, m.to(), bonus);
}

Value Worker::search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node) {
    if (depth <= 0) {
        if (material_) {  // the anchor players do not look past their plies
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
    const bool full = full_;  // pruning and extensions off for the anchor players
    const Move excluded = d_.excluded[ply];

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
    const Value tt_value = tte ? value_from_tt(tte->value, ply) : VALUE_NONE;
    if (tte && !pv_node && !excluded && tte->depth >= depth) {
        if ((tte->bound() & BOUND_LOWER && tt_value >= beta) || (tte->bound() & BOUND_UPPER && tt_value <= alpha))
            return tt_value;
    }

    const bool in_check = pos_.in_check();
    const Color us = pos_.side_to_move();
    Value static_eval, eval_v;
    if (in_check)
        static_eval = eval_v = -VALUE_INFINITE;
    else {
        // The excluded-move search of a singular extension has the same position.
        static_eval = excluded ? d_.static_eval[ply] : eval();
        eval_v = static_eval;
        // A table score is a better guess than the static evaluation when its bound allows.
        if (tte && std::abs(tt_value) < VALUE_MATE_IN_MAX_PLY &&
            (tte->bound() & (tt_value > static_eval ? BOUND_LOWER : BOUND_UPPER)))
            eval_v = tt_value;
    }
    d_.static_eval[ply] = static_eval;
    // Improving: the static evaluation rose since our previous move.
    const bool improving = !in_check && ply >= 2 && static_eval > d_.static_eval[ply - 2];
    if (ply + 2 < SEARCH_MAX_PLY + 2) d_.stats.killers[ply + 2][0] = d_.stats.killers[ply + 2][1] = Move::none();
    if (!root) d_.double_ext[ply] = d_.double_ext[ply - 1];

    if (full && !pv_node && !in_check && !excluded) {
        // Reverse futility: far above beta at shallow depth.
        if (depth <= 8 && eval_v - margin(85) * (depth - improving) >= beta && std::abs(beta) < VALUE_MATE_IN_MAX_PLY)
            return eval_v;
        // Null move (see the top of this file).
        if (frame(ply - 1).move && depth >= 3 && eval_v >= beta &&
            static_eval >= beta - margin(20) * depth + margin(160) && null_move_ok()) {
            const int r = 4 + depth / 3 + std::min(3, (eval_v - beta) / margin(200));
            frame(ply) = {Move::none(), NO_PIECE, &d_.zero_row};
            pos_.do_null_move(d_.states[ply]);
            const Value v = -search(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
            pos_.undo_null_move();
            if (stopped_) return VALUE_ZERO;
            if (v >= beta) return v >= VALUE_MATE_IN_MAX_PLY ? beta : v;
        }
    }

    // Internal iterative reduction: no move from the table, so this node was
    // not searched before; search it shallower and let the next iteration see.
    if (full && on(FEATURE_IIR) && !root && !tt_move && depth >= 4 && (pv_node || cut_node)) --depth;

    // Singular extension (see the top of this file): searched before this
    // node's moves are generated, since it reuses this ply's move list.
    int tt_ext = 0;
    if (full && on(FEATURE_SINGULAR) && !root && !excluded && depth >= 7 && tt_move && tte &&
        (tte->bound() & BOUND_LOWER) && tte->depth >= depth - 3 && std::abs(tt_value) < VALUE_MATE_IN_MAX_PLY &&
        ply < 2 * root_depth_) {
        const Value singular_beta = tt_value - 2 * depth;
        d_.excluded[ply] = tt_move;
        const Value v = search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, cut_node);
        d_.excluded[ply] = Move::none();
        d_.pv_len[ply] = ply;
        if (stopped_) return VALUE_ZERO;
        if (v < singular_beta) {
            tt_ext = 1;
            if (!pv_node && v < singular_beta - 25 && d_.double_ext[ply] <= 6) tt_ext = 2;
        } else if (singular_beta >= beta)
            return singular_beta;  // multi-cut: another move also beats beta
        else if (tt_value >= beta)
            tt_ext = -1;
    }

    MoveList& list = d_.lists[ply];
    generate_legal(pos_, list);
    if (list.empty()) return terminal(ply);

    PickerContext ctx;
    ctx.tt_move = tt_move;
    ctx.killers[0] = d_.stats.killers[ply][0];
    ctx.killers[1] = d_.stats.killers[ply][1];
    const Searcher::Data::Frame& prev = frame(ply - 1);
    if (prev.move) ctx.countermove = d_.stats.countermove[prev.piece][prev.move.to()];
    const bool cont_on = on(FEATURE_CONT_HIST);
    ctx.cont[0] = cont_on ? frame(ply - 1).cont : &d_.zero_row;
    ctx.cont[1] = cont_on ? frame(ply - 2).cont : &d_.zero_row;
    ctx.cont[2] = cont_on ? frame(ply - 4).cont : &d_.zero_row;
    MovePicker mp(pos_, list, d_.scores[ply], d_.stats, ctx, MovePicker::Mode::Main);
    // A weakened level may not see some captures; at the root only while a
    // quiet move remains, so that it always has a move it sees.
    bool blind_here = blind_ && !in_check;
    if (blind_here && root) {
        blind_here = false;
        for (Move m : list) blind_here = blind_here || !is_tactical(pos_, m);
    }
    int hidden = 0;
    const bool tt_capture = tt_move && is_tactical(pos_, tt_move);

    Value best = -VALUE_INFINITE;
    Move best_move = Move::none();
    const Value alpha_orig = alpha;
    Move quiets[64], captures[32];
    Piece quiet_pieces[64], capture_pieces[32];
    int quiet_count = 0, capture_count = 0, move_count = 0;
    bool skip_quiets = false;
    // Shallow pruning is off when looking for a shorter mate than one already found.
    const bool prune_ok = full && !root && std::abs(alpha) < VALUE_MATE_IN_MAX_PLY && has_pieces(pos_, us);
    const int lmp_limit = ((3 + depth * depth) / (2 - improving)) * (avalanche_ ? 4 : 1);

    while (Move m = mp.next(skip_quiets)) {
        if (m == excluded) continue;
        if (root && !root_allowed(m)) continue;  // searchmoves; MultiPV lines already found
        const bool quiet = !is_tactical(pos_, m);
        if (blind_here && !quiet && blind_to(m)) {
            ++hidden;
            continue;
        }
        ++move_count;
        if (root) root_move(m, move_count);
        const Piece pc = pos_.moved_piece(m);
        const bool refutation = m == ctx.killers[0] || m == ctx.killers[1] || m == ctx.countermove;
        const int stat = quiet ? d_.stats.history[us][m.from()][m.to()] + 2 * (*ctx.cont[0])[pc][m.to()] +
                                     (*ctx.cont[1])[pc][m.to()] + (*ctx.cont[2])[pc][m.to()]
                               : 0;
        int r = full ? reductions().r[std::min(depth, 63)][std::min(move_count, 255)] : 0;
        const int lmr_depth = std::max(depth - 1 - r, 0);

        bool quiet_see_bad = false;
        if (prune_ok && best > -VALUE_MATE_IN_MAX_PLY) {
            if (quiet) {
                // Move-count pruning: the quiet tail at shallow depth (checks included).
                if (on(FEATURE_LMP) && depth <= 8 && move_count > lmp_limit) {
                    skip_quiets = true;
                    continue;
                }
                quiet_see_bad = !in_check && on(FEATURE_SEE_PRUNE) && lmr_depth < 8 &&
                                !see_ge(pos_, m, -30 * lmr_depth * lmr_depth);
            } else if (on(FEATURE_SEE_PRUNE) && depth <= 6 && !see_ge(pos_, m, -200 * depth))
                continue;  // a capture that loses too much at low depth
        }

        // Futility, history and SEE pruning of a quiet move that does not give check.
        const bool prunable =
            prune_ok && quiet && !in_check && best > -VALUE_MATE_IN_MAX_PLY &&
            ((on(FEATURE_FUTILITY) && lmr_depth < 7 && static_eval + margin(150) + margin(110) * lmr_depth <= alpha) ||
             (on(FEATURE_HIST_PRUNE) && lmr_depth < 4 && stat < -4000 * depth) || quiet_see_bad);
        // In chess whether it checks is known without making it.
        if (prunable && checks_before_move_ && !pos_.gives_check(m)) continue;

        frame(ply) = {m, pc, &d_.stats.continuation[pc][m.to()]};
        pos_.do_move(m, d_.states[ply]);
        tt_.prefetch(pos_.key() ^ salt_);
        const bool gives_check = pos_.in_check();
        if (prunable && !checks_before_move_ && !gives_check) {
            pos_.undo_move(m);
            continue;
        }

        int ext = 0;
        if (full) {
            if (m == tt_move && tt_ext) ext = tt_ext;
            if (gives_check && ext < 1 && ply < 2 * root_depth_ &&
                (!checks_deep_only_ || (depth > 9 && std::abs(static_eval) > margin(71))))
                ext = 1;
        }
        if (ext == 2) ++d_.double_ext[ply];
        const int new_depth = depth - 1 + ext;
        Value v = VALUE_ZERO;
        if (full && depth >= 2 && move_count > 1 + pv_node && quiet) {
            if (on(FEATURE_LMR_ADJUST)) {
                r += !improving;
                if (cut_node) ++r;
                if (pv_node) --r;
                if (refutation) --r;
                if (gives_check || in_check) --r;
                if (tt_capture) ++r;
                r -= stat / 8192;
            } else {  // the plain table, as the search had it before
                if (pv_node) --r;
                if (refutation) --r;
                r -= d_.stats.history[us][m.from()][m.to()] / 6000;
            }
            const int d = std::clamp(new_depth - r, 1, std::max(new_depth, 1));
            v = -search(-alpha - 1, -alpha, d, ply + 1, false, true);
            if (v > alpha && d < new_depth) v = -search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
        } else if (!pv_node || move_count > 1)
            v = -search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
        if (pv_node && (move_count == 1 || (v > alpha && (root || v < beta))))
            v = -search(-beta, -alpha, new_depth, ply + 1, true, false);
        if (ext == 2) --d_.double_ext[ply];
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
                if (v >= beta) break;
                alpha = v;
            }
        }
        if (m != best_move) {
            if (quiet && quiet_count < 64) quiet_pieces[quiet_count] = pc, quiets[quiet_count++] = m;
            if (!quiet && capture_count < 32) capture_pieces[capture_count] = pc, captures[capture_count++] = m;
        }
    }

    if (move_count == 0) return excluded ? alpha : hidden ? static_eval : terminal(ply);

    // The statistics of a cut: the move that caused it up, the moves tried
    // before it down.
    if (best >= beta && best_move) {
        const int bonus = stat_bonus(depth + (best > beta + 150));
        const Piece bpc = pos_.moved_piece(best_move);
        if (!is_tactical(pos_, best_move)) {
            d_.stats.update_killers(ply, best_move);
            if (prev.move) d_.stats.countermove[prev.piece][prev.move.to()] = best_move;
            update_quiet_stats(ply, best_move, bpc, bonus);
            for (int i = 0; i < quiet_count; ++i) update_quiet_stats(ply, quiets[i], quiet_pieces[i], -bonus);
        } else {
            const PieceType victim = best_move.kind() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(best_move.to()));
            update_stat(d_.stats.capture[bpc][best_move.to()][victim], bonus);
        }
        for (int i = 0; i < capture_count; ++i) {
            const Move c = captures[i];
            const PieceType victim = c.kind() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(c.to()));
            update_stat(d_.stats.capture[capture_pieces[i]][c.to()][victim], -bonus);
        }
    }

    const Bound bound = best >= beta ? BOUND_LOWER : (pv_node && best > alpha_orig ? BOUND_EXACT : BOUND_UPPER);
    // A root searched over some moves only has no result for the position;
    // nor has a search that left a move out.
    if (!excluded && !(root && root_restricted())) tt_.store(key, value_to_tt(best, ply), bound, depth, best_move);
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
    PickerContext ctx;
    ctx.tt_move = tte ? tte->best_move() : Move::none();
    ctx.cont[0] = frame(ply - 1).cont;
    ctx.cont[1] = frame(ply - 2).cont;
    ctx.cont[2] = frame(ply - 4).cont;
    using Quiets = MovePicker::Quiets;
    MovePicker mp(pos_, list, d_.scores[ply], d_.stats, ctx, MovePicker::Mode::Quiescence,
                  in_check       ? Quiets::All
                  : quiet_checks ? Quiets::Checks
                                 : Quiets::None);
    // Avalanche: one push per first part is enough here (the best-ordered one).
    Move seen[64];
    int seen_count = 0;
    Move best_move = Move::none();
    const Value alpha_orig = alpha;

    while (Move m = mp.next()) {
        const bool tactical = is_tactical(pos_, m);
        if (!in_check && tactical && blind_ && blind_to(m)) continue;
        if (!in_check) {
            if (!tactical && !quiet_checks) continue;
            if (tactical) {
                if (m.kind() == PROMOTION && m.promotion() != QUEEN) continue;
                const PieceType victim = m.kind() == EN_PASSANT ? PAWN : type_of(pos_.piece_on(m.to()));
                const int promo = m.kind() == PROMOTION ? PIECE_VALUE[m.promotion()] : 0;
                if (stand + PIECE_VALUE[victim] + promo + 200 <= alpha) continue;  // delta pruning
                if (!see_ge(pos_, m, 0)) continue;                                 // loses material
            }
            if (avalanche_) {
                const Move fp = Move(m.first_part().raw() | (m.raw() & (7u << 23)));
                bool dup = false;
                for (int i = 0; i < seen_count; ++i) dup = dup || seen[i] == fp;
                if (dup) continue;
                if (seen_count < 64) seen[seen_count++] = fp;
            }
        }
        // A quiet move here must give check: in chess the picker gave only
        // those; in Alice it is seen after the move.
        const Piece pc = pos_.moved_piece(m);
        frame(ply) = {m, pc, &d_.stats.continuation[pc][m.to()]};
        pos_.do_move(m, d_.states[ply]);
        tt_.prefetch(pos_.key() ^ salt_);
        if (!in_check && !tactical && two_boards_ && !pos_.in_check()) {
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

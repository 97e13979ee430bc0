// Hand-written evaluation: tapered material and piece-square terms, mobility,
// king safety and pawn structure, with the terms each variant adds:
//  - Alice: everything is judged per board (a piece only attacks and blocks
//    on its own board, and lands on the other one), checks that arrive by a
//    transfer, and the king's escape squares counted on both boards.
//  - Avalanche: a pending promotion counts as the queen its owner will
//    choose, enemy pawns in front of the king (pushes that would check the
//    pusher are forbidden, which can leave only bad pushes) cost safety, and
//    a side with no harmless enemy pawn left to push must push one towards
//    promotion.
// The weights are data (EvalWeights in evaluate.h), one set per game.
#include "evaluate.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "endgame.h"
#include "nnue.h"
#include "tuned_weights.h"

namespace echecs::engine {

namespace {

Score& operator+=(Score& a, Score b) {
    a.mg += b.mg, a.eg += b.eg;
    return a;
}
Score& operator-=(Score& a, Score b) {
    a.mg -= b.mg, a.eg -= b.eg;
    return a;
}
constexpr Score S(int mg, int eg) { return Score{mg, eg}; }
Score operator*(Score s, int k) { return S(s.mg * k, s.eg * k); }

constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
constexpr int PHASE_MAX = 24;
constexpr int MOBILITY_BASE[PIECE_TYPE_NB] = {0, 0, 4, 6, 7, 13, 0};
constexpr int KING_ATTACK_CAP = 600;

int center_distance(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return std::max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
}

// The hand-set starting point shared by the three games (orthodox
// experience); each game's committed set is this plus its own terms, tuned.
EvalWeights base_weights() {
    EvalWeights w;
    const Score material[PIECE_TYPE_NB] = {S(0, 0), S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936)};
    const Score mobility[PIECE_TYPE_NB] = {S(0, 0), S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2)};
    const int attack[PIECE_TYPE_NB] = {0, 0, 2, 2, 3, 5};
    const Score passed[8] = {S(0, 0), S(5, 10), S(10, 15), S(15, 25), S(25, 45), S(45, 75), S(70, 120), S(0, 0)};
    const int knight_mg[4] = {15, 5, -10, -30}, knight_eg[4] = {10, 5, -10, -25};
    const int bishop_mg[4] = {10, 5, 0, -10}, bishop_eg[4] = {5, 3, 0, -8};
    const int queen_mg[4] = {2, 2, 0, -5}, queen_eg[4] = {10, 5, 0, -10};
    const int king_eg[4] = {30, 15, 0, -25};
    const int king_file_mg[8] = {20, 30, 10, 0, 0, 10, 30, 20};
    const int pawn_mg[8] = {0, 0, 3, 6, 12, 20, 30, 0}, pawn_eg[8] = {0, 0, 5, 10, 20, 35, 55, 0};
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt) {
        w.material[pt] = material[pt];
        w.mobility[pt] = mobility[pt];
        w.king_attack_weight[pt] = attack[pt];
    }
    w.king_attack_scale = 2;
    w.bishop_pair = S(30, 50);
    w.rook_open = S(20, 10), w.rook_semi_open = S(10, 5), w.rook_seventh = S(15, 20);
    w.doubled = S(10, 20), w.isolated = S(12, 15);
    for (int r = 0; r < 8; ++r) {
        w.passed[r] = passed[r];
        w.pawn_rank[r] = S(pawn_mg[r], pawn_eg[r]);
        w.king_file_mg[r] = king_file_mg[r];
    }
    w.tempo = 15;
    w.shield_near = 12, w.shield_far = 6, w.shield_missing = 15;
    for (int d = 0; d < 4; ++d) {
        w.knight_centre[d] = S(knight_mg[d], knight_eg[d]);
        w.bishop_centre[d] = S(bishop_mg[d], bishop_eg[d]);
        w.queen_centre[d] = S(queen_mg[d], queen_eg[d]);
        w.king_centre_eg[d] = king_eg[d];
    }
    w.king_rank2_mg = -10, w.king_high_mg = -10;  // -30 - 10 r from the 3rd rank up
    w.pawn_centre = 15, w.pawn_wide_centre = 3, w.rook_centre_file = 5;
    return w;
}

}  // namespace

EvalWeights hand_set_weights(Variant v) {
    EvalWeights w = base_weights();
    switch (v) {
        case Variant::Chess: break;
        case Variant::Alice:
            w.transfer_check = S(25, 12);
            w.escape_square = S(6, 4);
            w.no_escape = S(25, 15);
            break;
        case Variant::Avalanche:
            w.pawn_in_front_of_king = S(8, 0);
            w.forced_push = S(30, 60);
            break;
    }
    w.finish();
    return w;
}

namespace {

EvalWeights make_hand_written(Variant v) {
    EvalWeights w = hand_set_weights(v);
    const std::string error = w.apply(tuned_overrides(v));  // calls finish()
    if (!error.empty()) throw std::logic_error("tuned weights of " + std::string(variant_name(v)) + ": " + error);
    return w;
}

EvalWeights make_default(Variant v) {
    EvalWeights w = hand_written_weights(v);
    if (nnue::adopted(v)) w.network = nnue::embedded(v);
    return w;
}

constexpr const char* PIECE_NAME[PIECE_TYPE_NB] = {"none", "pawn", "knight", "bishop", "rook", "queen", "king"};

}  // namespace

void EvalWeights::finish() {
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        const int cd = center_distance(s), r = rank_of(s), f = file_of(s);
        const bool centre = (f == 3 || f == 4) && (r == 3 || r == 4), wide = f >= 2 && f <= 5;
        psq[PAWN][s] = S(pawn_rank[r].mg + (centre ? pawn_centre : wide ? pawn_wide_centre : 0), pawn_rank[r].eg);
        psq[KNIGHT][s] = knight_centre[cd];
        psq[BISHOP][s] = bishop_centre[cd];
        psq[ROOK][s] =
            S((r == 6 ? rook_seventh.mg : 0) + (f == 3 || f == 4 ? rook_centre_file : 0), r == 6 ? rook_seventh.eg : 0);
        psq[QUEEN][s] = queen_centre[cd];
        // Off the first rank the king is exposed, more so the further up it stands.
        psq[KING][s] = S(r == 0   ? king_file_mg[f]
                         : r == 1 ? king_rank2_mg
                                  : king_high_mg * (r + 3),
                         king_centre_eg[cd]);
    }
}

void EvalWeights::visit(const std::function<void(const std::string&, int&)>& f) {
    auto score = [&](const std::string& name, Score& s) {
        f(name + ".mg", s.mg);
        f(name + ".eg", s.eg);
    };
    for (int pt = PAWN; pt <= QUEEN; ++pt) score(std::string("material.") + PIECE_NAME[pt], material[pt]);
    for (int pt = KNIGHT; pt <= QUEEN; ++pt) score(std::string("mobility.") + PIECE_NAME[pt], mobility[pt]);
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
        f(std::string("king_attack_weight.") + PIECE_NAME[pt], king_attack_weight[pt]);
    f("king_attack_scale", king_attack_scale);
    score("bishop_pair", bishop_pair);
    score("rook_open", rook_open);
    score("rook_semi_open", rook_semi_open);
    score("rook_seventh", rook_seventh);
    score("doubled", doubled);
    score("isolated", isolated);
    for (int r = 1; r <= 6; ++r) score("passed." + std::to_string(r + 1), passed[r]);
    f("tempo", tempo);
    f("shield.near", shield_near);
    f("shield.far", shield_far);
    f("shield.missing", shield_missing);
    for (int d = 0; d < 4; ++d) {
        const std::string n = std::to_string(d);
        score("knight_centre." + n, knight_centre[d]);
        score("bishop_centre." + n, bishop_centre[d]);
        score("queen_centre." + n, queen_centre[d]);
        f("king_centre_eg." + n, king_centre_eg[d]);
    }
    for (int i = 0; i < 8; ++i) f("king_file_mg." + std::string(1, char('a' + i)), king_file_mg[i]);
    f("king_rank2_mg", king_rank2_mg);
    f("king_high_mg", king_high_mg);
    for (int r = 2; r <= 6; ++r) score("pawn_rank." + std::to_string(r + 1), pawn_rank[r]);
    f("pawn_centre", pawn_centre);
    f("pawn_wide_centre", pawn_wide_centre);
    f("rook_centre_file", rook_centre_file);
    score("transfer_check", transfer_check);
    score("escape_square", escape_square);
    score("no_escape", no_escape);
    score("pawn_in_front_of_king", pawn_in_front_of_king);
    score("forced_push", forced_push);
}

std::string EvalWeights::apply(std::string_view overrides) {
    while (!overrides.empty()) {
        const std::size_t comma = overrides.find(',');
        std::string_view item = overrides.substr(0, comma);
        overrides = comma == std::string_view::npos ? std::string_view() : overrides.substr(comma + 1);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) return std::string("'").append(item).append("' is not NAME=VALUE");
        const std::string name(item.substr(0, eq));
        const std::string text(item.substr(eq + 1));
        int value = 0;
        try {
            std::size_t used = 0;
            value = std::stoi(text, &used);
            if (used != text.size()) throw std::invalid_argument(text);
        } catch (const std::exception&) {
            return "'" + text + "' is not an integer (weight " + name + ")";
        }
        int matched = 0;
        visit([&](const std::string& n, int& v) {
            if (n == name || (n.size() > name.size() && n.compare(0, name.size(), name) == 0 && n[name.size()] == '.'))
                v = value, ++matched;
        });
        if (!matched) return "unknown weight '" + name + "'";
    }
    finish();
    return {};
}

std::string_view tuned_overrides(Variant v) {
    static constexpr std::string_view table[VARIANT_NB] = {tuned::CHESS, tuned::ALICE, tuned::AVALANCHE};
    return table[int(v)];
}

// One set per game, built on first use.
template <EvalWeights (*Make)(Variant)>
const EvalWeights& per_game(Variant v) {
    static const auto all = [] {
        std::array<EvalWeights, VARIANT_NB> a;
        for (const VariantInfo& g : VARIANTS) a[int(g.variant)] = Make(g.variant);
        return a;
    }();
    return all[int(v)];
}

const EvalWeights& default_weights(Variant v) { return per_game<make_default>(v); }
const EvalWeights& hand_written_weights(Variant v) { return per_game<make_hand_written>(v); }

bool weight_used_by(Variant v, std::string_view name) {
    auto starts = [&](std::string_view p) { return name.substr(0, p.size()) == p; };
    const bool alice_term = starts("transfer_check") || starts("escape_square") || starts("no_escape");
    const bool avalanche_term = starts("pawn_in_front_of_king") || starts("forced_push");
    if (alice_term) return v == Variant::Alice;
    if (avalanche_term) return v == Variant::Avalanche;
    if (starts("shield")) return variant_info(v).boards == 1;  // no pawn shield across two boards
    return true;
}

EvalWeights without_variant_terms(const EvalWeights& w) {
    EvalWeights r = w;
    // The Alice and Avalanche terms are exactly the weights chess never reads.
    r.visit([](const std::string& name, int& v) {
        if (!weight_used_by(Variant::Chess, name)) v = 0;
    });
    r.finish();
    return r;
}

namespace {

struct Masks {
    Bitboard forward_files[COLOR_NB][SQUARE_NB];  // own and adjacent files, strictly ahead
    Bitboard adjacent_files[8];

    Masks() {
        for (int f = 0; f < 8; ++f) adjacent_files[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
        for (Square s = SQ_A1; s <= SQ_H8; ++s) {
            Bitboard files = adjacent_files[file_of(s)] | file_bb(file_of(s));
            Bitboard ahead_w = 0, ahead_b = 0;
            for (int r = rank_of(s) + 1; r < 8; ++r) ahead_w |= rank_bb(r);
            for (int r = rank_of(s) - 1; r >= 0; --r) ahead_b |= rank_bb(r);
            forward_files[WHITE][s] = files & ahead_w;
            forward_files[BLACK][s] = files & ahead_b;
        }
    }
};

const Masks& masks() {
    static const Masks m;
    return m;
}

Square relative_square(Color c, Square s) { return c == WHITE ? s : Square(int(s) ^ 56); }

Bitboard pawn_attacks_of(Color c, Bitboard pawns) {
    return c == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns);
}

// Squares from which a piece of type pt (colour c for pawns) attacks s, with
// blockers occ.
Bitboard attackers_from(PieceType pt, Color c, Square s, Bitboard occ) {
    if (pt == PAWN) return pawn_attacks(~c, s);
    return attacks_bb(pt, s, occ);
}

template <Variant V>
class Evaluator {
public:
    Evaluator(const Position& p, const EvalWeights& weights) : pos(p), w(weights), m(masks()) {}

    Value value() {
        for (Board b : {BOARD_A, BOARD_B}) {
            occ[b] = pos.pieces() & pos.board_mask(b);
            for (Color c : {WHITE, BLACK}) pawn_att[c][b] = pawn_attacks_of(c, pos.pieces(c, PAWN) & occ[b]);
        }
        Score sc[COLOR_NB];
        int phase = 0;
        for (Color c : {WHITE, BLACK}) {
            sc[c] = pieces(c, phase);
            sc[c] += pawns(c);
        }
        for (Color c : {WHITE, BLACK}) sc[c] += king(c);
        Score total = sc[WHITE];
        total -= sc[BLACK];
        phase = std::min(phase, PHASE_MAX);
        int v = (total.mg * phase + total.eg * (PHASE_MAX - phase)) / PHASE_MAX;
        if (pos.side_to_move() == BLACK) v = -v;
        return v + w.tempo;
    }

private:
    static constexpr bool Alice = V == Variant::Alice;
    static constexpr Board other(Board b) { return Board(b ^ 1); }
    Board board_of(Square s) const { return Alice ? pos.board_of(s) : BOARD_A; }

    // Material, piece-square, mobility and the attack maps used by king safety.
    Score pieces(Color c, int& phase) {
        Score s;
        const Color them = ~c;
        Bitboard bb = pos.pieces(c) & ~pos.pieces(KING);
        while (bb) {
            const Square sq = pop_lsb(bb);
            PieceType pt = type_of(pos.piece_on(sq));
            if (V == Variant::Avalanche && pt == PAWN && relative_rank(c, sq) == 7) pt = QUEEN;  // pending choice
            s += w.material[pt];
            s += w.psq[pt][relative_square(c, sq)];
            phase += PHASE_WEIGHT[pt];
            const Board b = board_of(sq);
            const Bitboard att = pt == PAWN ? pawn_attacks(c, sq) : attacks_bb(pt, sq, occ[b]);
            attacks[c][b] |= att;
            if (pt == PAWN) continue;
            // A move lands on the other board in Alice: its square must be empty
            // there and is only threatened by that board's pawns.
            const Board land = Alice ? other(b) : b;
            const Bitboard area =
                ~(pos.pieces(c) & occ[b]) & (Alice ? ~occ[land] : ~Bitboard(0)) & ~pawn_att[them][land];
            s += w.mobility[pt] * (popcount(att & area) - MOBILITY_BASE[pt]);
            if (pt == ROOK) {
                const Bitboard file = file_bb(file_of(sq));
                if (!(file & pos.pieces(PAWN)))
                    s += w.rook_open;
                else if (!(file & pos.pieces(c, PAWN)))
                    s += w.rook_semi_open;
            }
            // Attacks on the enemy king's surroundings (same board), and in
            // Alice the checks this piece could give by a transfer.
            const Square ek = pos.king_square(them);
            const Board kb = board_of(ek);
            if (b == kb) {
                const Bitboard zone = king_attacks(ek) | square_bb(ek);
                if (att & zone) {
                    ++king_attackers[them];
                    king_attack_units[them] += w.king_attack_weight[pt] * popcount(att & zone);
                }
            } else if (Alice) {
                const Bitboard reach = att & ~(pos.pieces(c) & occ[b]) & ~occ[kb];
                transfer_checks[them] += popcount(reach & attackers_from(pt, c, ek, occ[kb]));
            }
        }
        if (popcount(pos.pieces(c, BISHOP)) >= 2) s += w.bishop_pair;
        return s;
    }

    Score pawns(Color c) {
        Score s;
        const Color them = ~c;
        const Bitboard ours = pos.pieces(c, PAWN), theirs = pos.pieces(them, PAWN);
        Bitboard bb = ours;
        while (bb) {
            const Square sq = pop_lsb(bb);
            const int f = file_of(sq);
            if (V == Variant::Avalanche && relative_rank(c, sq) == 7) continue;  // counted as a queen
            if (!(ours & m.adjacent_files[f])) s -= w.isolated;
            if (more_than_one(ours & file_bb(f)) && (m.forward_files[c][sq] & file_bb(f) & ours)) s -= w.doubled;
            if (!(m.forward_files[c][sq] & theirs)) s += w.passed[relative_rank(c, sq)];
        }
        return s;
    }

    Score king(Color c) {
        Score s;
        const Color them = ~c;
        const Square k = pos.king_square(c);
        s += w.psq[KING][relative_square(c, k)];

        // Attack units from enemy pieces around the king, quadratic.
        if (king_attackers[c] >= 2 && pos.pieces(them, QUEEN)) {
            const int u = king_attack_units[c];
            s.mg -= std::min(u * u * w.king_attack_scale, KING_ATTACK_CAP);
        }
        // Pawn shield (orthodox and Avalanche, king on its first two ranks).
        if (!Alice && relative_rank(c, k) <= 1) {
            const int kf = std::clamp(file_of(k), 1, 6);
            for (int f = kf - 1; f <= kf + 1; ++f) {
                const Bitboard shield = pos.pieces(c, PAWN) & file_bb(f);
                const Square s1 = k + pawn_push(c);
                if (shield & rank_bb(rank_of(s1)))
                    s.mg += w.shield_near;
                else if (shield & rank_bb(rank_of(s1 + pawn_push(c))))
                    s.mg += w.shield_far;
                else
                    s.mg -= w.shield_missing;
            }
        }
        if (V == Variant::Avalanche) {
            const Square ahead = k + pawn_push(c);  // off the board for a king on its last rank
            const Bitboard near = king_attacks(k) | (is_ok(ahead) ? king_attacks(ahead) : 0);
            const Bitboard front = m.forward_files[c][k] & near;
            s -= w.pawn_in_front_of_king * popcount(front & pos.pieces(them, PAWN));
            s += pushes(c);
        }
        if (Alice) {
            s -= w.transfer_check * transfer_checks[c];
            // Escape squares: free on the king's board, empty on the other one,
            // and attacked on neither (the step is judged on both boards).
            const Board kb = board_of(k), ob = other(kb);
            const Bitboard esc =
                king_attacks(k) & ~(pos.pieces(c) & occ[kb]) & ~occ[ob] & ~attacks[them][kb] & ~attacks[them][ob];
            const int n = popcount(esc);
            s += w.escape_square * n;
            if (!n) s -= w.no_escape;
        }
        return s;
    }

    // Avalanche: the enemy pawns side c can push on its turn. Pushing one
    // to the enemy's 7th or 8th rank helps the enemy towards a promotion it
    // chooses; a side left with only such pushes must make one.
    Score pushes(Color c) const {
        const Color them = ~c;
        const Bitboard pawns = pos.pieces(them, PAWN);
        const Bitboard to = (them == WHITE ? shift<NORTH>(pawns) : shift<SOUTH>(pawns)) & ~pos.pieces();
        const Bitboard danger = them == WHITE ? rank_bb(6) | rank_bb(7) : rank_bb(0) | rank_bb(1);
        const bool forced = (to & danger) && !(to & ~danger);
        return forced ? Score{-w.forced_push.mg, -w.forced_push.eg} : Score{};
    }

    const Position& pos;
    const EvalWeights& w;
    const Masks& m;
    Bitboard occ[2] = {};
    Bitboard pawn_att[COLOR_NB][2] = {};
    Bitboard attacks[COLOR_NB][2] = {};
    int king_attackers[COLOR_NB] = {};
    int king_attack_units[COLOR_NB] = {};
    int transfer_checks[COLOR_NB] = {};
};

}  // namespace

Value evaluate(const Position& pos, const EvalWeights& weights) {
    if (weights.network && weights.network->shape.variant == pos.variant()) {
        const Value v = nnue::evaluate(*weights.network, pos);
        // Avalanche: the self-play positions a network learns from hold no
        // pending promotion (the search resolves the choice first), so its
        // pawn-on-the-last-rank features are untrained. The choice is a queen
        // for the side to move, worth what the search's piece values say.
        if (pos.pending_promotion() != SQ_NONE) return v + PIECE_VALUE[QUEEN] - PIECE_VALUE[PAWN];
        // What the network does not know of endings (endgame.h), in a game
        // whose endings are orthodox chess's.
        if (orthodox_endings(pos.variant())) return endgame_correct(pos, v);
        return v;
    }
    switch (pos.variant()) {
        case Variant::Chess: return Evaluator<Variant::Chess>(pos, weights).value();
        case Variant::Alice: return Evaluator<Variant::Alice>(pos, weights).value();
        case Variant::Avalanche: return Evaluator<Variant::Avalanche>(pos, weights).value();
    }
    return VALUE_ZERO;  // not reached: every game has its case (no default: the compiler names a missing one)
}

Value evaluate_material(const Position& pos) {
    constexpr int value[PIECE_TYPE_NB] = {0, 100, 300, 300, 500, 900, 0};
    int v = 0;
    for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN})
        v += value[pt] * (pos.count(WHITE, pt) - pos.count(BLACK, pt));
    const Square pending = pos.pending_promotion();  // Avalanche: its owner will choose a queen
    if (pending != SQ_NONE) v += (pos.side_to_move() == WHITE ? 1 : -1) * (value[QUEEN] - value[PAWN]);
    return pos.side_to_move() == WHITE ? v : -v;
}

}  // namespace echecs::engine

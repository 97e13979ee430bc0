#include "solver/mate_bound.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

#include "core/bitboard.h"

namespace echecs::solver {

namespace {

constexpr int MAX_MOVES = 15;
// A man's kind for the tables: a pawn's colour matters, a piece's does not.
enum Kind { WHITE_PAWN, BLACK_PAWN, KNIGHT_K, BISHOP_K, ROOK_K, QUEEN_K, KING_K, KIND_NB };

constexpr Kind kind_of(Piece p) {
    const PieceType pt = type_of(p);
    if (pt == PAWN) return color_of(p) == WHITE ? WHITE_PAWN : BLACK_PAWN;
    return Kind(KNIGHT_K + (pt - KNIGHT));
}
constexpr PieceType type_of(Kind k) { return k <= BLACK_PAWN ? PAWN : PieceType(KNIGHT + (k - KNIGHT_K)); }
constexpr Color colour_of(Kind k) { return k == BLACK_PAWN ? BLACK : WHITE; }

// [kind][from][moves], on an empty board, after at most that many moves:
// `reach` the squares a man can stand on, `guard` those it can attack, and
// `at` the squares where it stands as each type (a pawn promotes on its last
// rank; [type - PAWN], KING unused but for the king).
struct Tables {
    Bitboard reach[KIND_NB][64][MAX_MOVES + 1];
    Bitboard guard[KIND_NB][64][MAX_MOVES + 1];
    Bitboard at[KIND_NB][64][MAX_MOVES + 1][6];
    // The fewest moves to stand on a square as each type ([to][type - PAWN]), -1 beyond MAX_MOVES.
    std::int8_t dist[KIND_NB][64][64][6];
};

Bitboard attacks_of(PieceType t, Color c, Square s) {
    return t == PAWN ? pawn_attacks(c, s) : tables::pseudo_attacks[t][s];
}

// One move of a man of type t and colour c from s: the (square, type) states
// it reaches, a pawn reaching its last rank becoming any piece.
template <class Visit>
void successors(PieceType t, Color c, Square s, Visit&& visit) {
    if (t != PAWN) {
        Bitboard b = tables::pseudo_attacks[t][s];
        if (t == KING) {  // castling: one move of the king's
            if (s == SQ_E1) b |= square_bb(SQ_G1) | square_bb(SQ_C1);
            if (s == SQ_E8) b |= square_bb(SQ_G8) | square_bb(SQ_C8);
        }
        while (b) visit(pop_lsb(b), t);
        return;
    }
    const int up = c == WHITE ? 8 : -8;
    Bitboard to = pawn_attacks(c, s) | square_bb(Square(s + up));
    if (relative_rank(c, s) == 1) to |= square_bb(Square(s + 2 * up));
    while (to) {
        const Square x = pop_lsb(to);
        if (relative_rank(c, x) == 7)
            for (PieceType p : {KNIGHT, BISHOP, ROOK, QUEEN}) visit(x, p);
        else
            visit(x, PAWN);
    }
}

void fill(Tables& t, Kind k, Square from) {
    const Color c = colour_of(k);
    const PieceType start = type_of(k);
    std::array<std::int8_t, 64 * 8> dist;
    dist.fill(-1);
    std::array<int, 64 * 8> queue;
    int head = 0, tail = 0;
    dist[from * 8 + start] = 0;
    queue[tail++] = from * 8 + start;
    auto& reach = t.reach[k][from];
    auto& guard = t.guard[k][from];
    auto& at = t.at[k][from];
    std::memset(t.dist[k][from], -1, sizeof t.dist[k][from]);
    while (head < tail) {
        const int state = queue[head++];
        const Square s = Square(state / 8);
        const PieceType pt = PieceType(state % 8);
        const int d = dist[state];
        t.dist[k][from][s][pt - PAWN] = std::int8_t(d);
        reach[d] |= square_bb(s);
        guard[d] |= attacks_of(pt, c, s);
        at[d][pt - PAWN] |= square_bb(s);
        if (d == MAX_MOVES) continue;
        successors(pt, c, s, [&](Square x, PieceType xt) {
            const int next = x * 8 + xt;
            if (dist[next] >= 0) return;
            dist[next] = std::int8_t(d + 1);
            queue[tail++] = next;
        });
    }
    for (int d = 1; d <= MAX_MOVES; ++d) {
        reach[d] |= reach[d - 1];
        guard[d] |= guard[d - 1];
        for (int x = 0; x < 6; ++x) at[d][x] |= at[d - 1][x];
    }
}

// The tables, each man's rows filled the first time that man is asked for
// (a short problem needs a dozen of the 448): the whole took a millisecond
// at every start, most of a short helpmate's time after the start itself.
struct LazyTables {
    Tables t{};  // 0.45 MiB, kept for the process
    std::once_flag filled[KIND_NB][64];
    // Set once the rows are filled: the common case without call_once's
    // library call (the listing of targets asks millions of times).
    std::atomic<bool> ready[KIND_NB][64] = {};
};

LazyTables& lazy_tables() {
    static LazyTables* t = [] {
        init_bitboards();
        return new LazyTables;
    }();
    return *t;
}

// The tables with the rows of (k, s) filled. A pawn never stands on its first or last rank.
const Tables& tables_for(Kind k, Square s) {
    LazyTables& l = lazy_tables();
    if (l.ready[k][s].load(std::memory_order_acquire)) return l.t;
    if (type_of(k) != PAWN || (rank_of(s) != 0 && rank_of(s) != 7))
        std::call_once(l.filled[k][s], [&] { fill(l.t, k, s); });
    l.ready[k][s].store(true, std::memory_order_release);
    return l.t;
}

// A king's flights, at most 8: clearing bits is quicker than the portable
// build's popcount, a library call.
int few(Bitboard b) {
    int n = 0;
    for (; b; b &= b - 1) ++n;
    return n;
}

// The test for one square of the mated king. Each man of the mating side
// ends on one square, and its moves count against the side's: the search
// shares them out, a man at a time, each man that moves tried on every
// square where it would attack what is still missing.
struct Cover {
    explicit Cover(const Tables& tables) : t(tables) {}  // the arrays are filled as far as they are read
    const Tables& t;
    Kind kind[16];
    Square from[16];
    Bitboard now[16];  // what each man attacks from where it stands
    int men = 0;
    // What all the men can attack with at most the side's moves each (the
    // king too, and without it): a bound for every share of the moves.
    Bitboard all_guard = 0, all_check = 0;
    Bitboard block[MAX_MOVES + 1];  // where the mated side's men can stand (up to its moves)
    int blockers = 0;
    Bitboard king = 0, flights = 0;  // the square being tried
    int black_left = 0;              // the mated side's moves left when its king is there
    bool mate = true;                // false: a stalemate, where the king is not in check
    Square own_king = SQ_NONE;       // the mating side's: never next to the mated one
    bool king_stays = true;          // it may end where it stands

    void aim(Square k) {
        king = square_bb(k);
        flights = king_attacks(k);
        king_stays = own_king == SQ_NONE || !((flights | king) & square_bb(own_king));  // nowk, nobk: none
    }

    bool covered(Bitboard guard, Bitboard check) const {
        if (mate && !(check & king)) return false;
        // Each flight not attacked needs its own man; their moves add up to at most black_left.
        const Bitboard open = flights & ~guard;
        if (open & ~block[black_left]) return false;
        if (few(open) > blockers) return false;
        int moves = 0;
        for (int d = 0; d < black_left && moves <= black_left; ++d) moves += few(open & ~block[d]);
        return moves <= black_left;
    }

    // The men in `used` have moved: `moved` and `moved_check` hold what they
    // attack at the end. The others stand, and share `left` moves. Each step
    // picks what is still missing (the check, else an open flight no man can
    // block, else an open flight, which is either attacked or left to a
    // blocker) and tries every man that can move to attack it: every way to
    // mate is one of the branches, fixed one man at a time.
    bool share(unsigned used, int left, Bitboard moved, Bitboard moved_check, Bitboard to_block) const {
        Bitboard guard = moved, check = moved_check, most_guard = moved, most_check = moved_check;
        for (int i = 0; i < men; ++i) {
            if (used >> i & 1) continue;
            const Bitboard g = t.guard[kind[i]][from[i]][left];
            if (kind[i] != KING_K || king_stays) guard |= now[i];
            most_guard |= g;
            if (kind[i] != KING_K) {
                check |= now[i];
                most_check |= g;
            }
        }
        if (covered(guard, check)) return true;
        if (left == 0 || !covered(most_guard, most_check)) return false;
        Square target;
        const bool checking = mate && !(check & king);
        if (checking) {
            target = lsb(king);
        } else {
            const Bitboard open = flights & ~guard & ~to_block;
            if (!open) return false;
            const Bitboard unblockable = open & ~block[black_left];
            target = lsb(unblockable ? unblockable : open);
            // Left to a blocker: then something else is still missing.
            if (!unblockable && share(used, left, moved, moved_check, to_block | square_bb(target))) return true;
        }
        for (int i = 0; i < men; ++i) {
            if ((used >> i & 1) || (checking && kind[i] == KING_K)) continue;
            const Color c = colour_of(kind[i]);
            const PieceType first = type_of(kind[i]);
            for (int d = 1; d <= left; ++d)
                for (PieceType pt = first; pt <= (first == PAWN ? QUEEN : first); pt = PieceType(pt + 1)) {
                    // The squares where man i, as pt, arrives in d moves and attacks the target.
                    const Bitboard attackers =
                        pt == PAWN ? pawn_attacks(~c, target) : tables::pseudo_attacks[pt][target];
                    const auto& at = t.at[kind[i]][from[i]];
                    Bitboard to = at[d][pt - PAWN] & ~at[d - 1][pt - PAWN] & ~king & attackers;
                    if (pt == KING) to &= ~flights;
                    while (to) {
                        const Bitboard a = attacks_of(pt, c, pop_lsb(to));
                        if (share(used | 1u << i, left - d, moved | a, moved_check | (pt == KING ? 0 : a), to_block))
                            return true;
                    }
                }
        }
        return false;
    }
};

}  // namespace

ManTables::ManTables(Piece man, Square from) {
    static_assert(MOST == MAX_MOVES);
    const Kind k = kind_of(man);
    const Tables& t = tables_for(k, from);
    dist_ = &t.dist[k][from][0][0];
    reach_ = &t.at[k][from][0][0];
}

bool mate_possible(const Position& pos, Color mated, int w, int b, bool stalemate) {
    // Without a king (nowk/nobk) a side is never mated; its stalemate, its
    // men's immobility alone, is not judged here.
    if (!pos.has_king(mated)) return stalemate;
    if (w < 1) return false;
    // Castling moves a rook with the king: one more move for the mated side covers it.
    if (pos.castling_rights() & (mated == WHITE ? (WHITE_OO | WHITE_OOO) : (BLACK_OO | BLACK_OOO))) ++b;
    if (w > MAX_MOVES || b > MAX_MOVES) return true;
    Cover s(lazy_tables().t);  // each man's rows filled below, before they are read
    s.mate = !stalemate;
    const Tables& t = s.t;
    const Color mating = ~mated;

    for (Bitboard m = pos.pieces(mating); m && s.men < 16; ++s.men) {
        const Square sq = pop_lsb(m);
        s.from[s.men] = sq;
        s.kind[s.men] = kind_of(pos.piece_on(sq));
        tables_for(s.kind[s.men], sq);
        s.now[s.men] = t.guard[s.kind[s.men]][sq][0];
        if (s.kind[s.men] == KING_K) s.own_king = sq;
    }
    for (int j = 0; j < s.men; ++j) {
        const Bitboard g = t.guard[s.kind[j]][s.from[j]][w];
        s.all_guard |= g;
        if (s.kind[j] != KING_K) s.all_check |= g;
    }
    // Castling moves two men in one move, which the share of moves does not
    // count: then every man may use all the moves.
    const bool castles = pos.castling_rights() & (mating == WHITE ? (WHITE_OO | WHITE_OOO) : (BLACK_OO | BLACK_OOO));

    for (int d = 0; d <= b; ++d) s.block[d] = 0;
    for (Bitboard m = pos.pieces(mated) & ~pos.pieces(KING); m; ++s.blockers) {
        const Square sq = pop_lsb(m);
        const Kind k = kind_of(pos.piece_on(sq));
        tables_for(k, sq);
        for (int d = 0; d <= b; ++d) s.block[d] |= t.reach[k][sq][d];
    }

    const Square k0 = pos.king_square(mated);
    tables_for(KING_K, k0);
    Bitboard seen = 0;
    for (int kd = 0; kd <= b; ++kd) {
        Bitboard ring = t.reach[KING_K][k0][kd] & ~seen;
        seen |= ring;
        s.black_left = b - kd;
        while (ring) {
            const Square k = pop_lsb(ring);
            s.aim(k);
            if (!s.covered(s.all_guard, s.all_check)) continue;
            if (castles || s.share(0, w, 0, 0, 0)) return true;
        }
    }
    return false;
}

}  // namespace echecs::solver

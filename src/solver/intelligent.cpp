#include "solver/intelligent.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_map>

#include "core/bitboard.h"
#include "solver/mate_bound.h"

namespace echecs::solver {

namespace {

bool slider(PieceType t) { return t == BISHOP || t == ROOK || t == QUEEN; }

// Strictly between a and b (between_bb includes b).
Bitboard inside(Square a, Square b) { return between_bb(a, b) & ~square_bb(b); }

// The types a man can end as: a pawn as itself or promoted.
int types_of(Piece man, PieceType* out) {
    const PieceType t = type_of(man);
    if (t != PAWN) {
        out[0] = t;
        return 1;
    }
    const PieceType all[] = {PAWN, KNIGHT, BISHOP, ROOK, QUEEN};
    std::copy(std::begin(all), std::end(all), out);
    return 5;
}

// The squares from which a man of colour c and type t attacks x.
Bitboard attackers_from(Color c, PieceType t, Square x, Bitboard occ) {
    return t == PAWN ? pawn_attacks(~c, x) : attacks_bb(t, x, occ);
}

class Builder {
public:
    Builder(const Position& pos, Color mated, bool stalemate, int w, int b, std::vector<Target>& out, std::size_t limit,
            const std::function<bool()>& stop)
        : pos_(pos), mated_(mated), mating_(~mated), stalemate_(stalemate), out_(out), limit_(limit), stop_(stop) {
        budget_[mating_] = w;
        budget_[mated_] = b;
        // Castling moves a rook with the king: one more move covers it.
        for (Color c : {WHITE, BLACK})
            if (pos.castling_rights() & (c == WHITE ? (WHITE_OO | WHITE_OOO) : (BLACK_OO | BLACK_OOO))) {
                ++budget_[c];
                castles_[c] = true;
            }
        for (Square s = SQ_A1; s <= SQ_H8; ++s) board_[s] = NO_PIECE;
        for (Bitboard m = pos.pieces(); m;) {
            const Square s = pop_lsb(m);
            tables_[s] = ManTables(pos.piece_on(s), s);
        }
    }

    bool run() {
        const Square home = pos_.king_square(mated_);
        for (Bitboard ks = reach(home, budget_[mated_], KING); ks && !overflow_;) {
            const Square s = pop_lsb(ks);
            king_ = s;
            place(home, s, KING, 0, [&] { grow(); });
        }
        return !overflow_;
    }

private:
    // Places the diagram man of `home` on `on` as `as` (with `line` to stay
    // empty), calls next(), and takes it away again.
    template <class F>
    void place(Square home, Square on, PieceType as, Bitboard line, F&& next) {
        const Piece man = pos_.piece_on(home);
        const Color c = color_of(man);
        if ((occ_ | empty_) & square_bb(on) || (line & occ_)) return;
        if (as == PAWN && (rank_of(on) == 0 || rank_of(on) == 7)) return;
        // The kings never stand side by side.
        if (type_of(man) == KING && c == mating_ && (king_attacks(king_) & square_bb(on))) return;
        const int d = moves_to(home, on, as);
        if (cost_[c] + d > budget_[c]) return;
        const Bitboard saved_empty = empty_;
        cost_[c] += d;
        board_[on] = make_piece(c, as);
        occ_ |= square_bb(on);
        by_colour_[c] |= square_bb(on);
        empty_ |= line;
        used_ |= square_bb(home);
        men_.push_back({home, on, as});
        next();
        men_.pop_back();
        used_ ^= square_bb(home);
        empty_ = saved_empty;
        by_colour_[c] ^= square_bb(on);
        occ_ ^= square_bb(on);
        board_[on] = NO_PIECE;
        cost_[c] -= d;
    }

    // The placed men of colour c that attack x with `occ` (`gone`: a captured one).
    Bitboard attackers(Square x, Bitboard occ, Color c, Bitboard gone = 0) const {
        Bitboard found = 0;
        for (Bitboard m = by_colour_[c] & ~gone; m;) {
            const Square s = pop_lsb(m);
            const PieceType t = type_of(board_[s]);
            const Bitboard a = t == PAWN ? pawn_attacks(c, s) : attacks_bb(t, s, occ);
            if (a & square_bb(x)) found |= square_bb(s);
        }
        return found;
    }

    // Where the placed man on p (the mated side's, not its king) can move.
    Bitboard moves_of(Square p) const {
        const Piece pc = board_[p];
        const PieceType t = type_of(pc);
        if (t != PAWN) return attacks_bb(t, p, occ_) & ~by_colour_[mated_];
        const Color c = color_of(pc);
        Bitboard to = pawn_attacks(c, p) & by_colour_[mating_];
        const Square one = p + pawn_push(c);
        if (!(occ_ & square_bb(one))) {
            to |= square_bb(one);
            const Square two = one + pawn_push(c);
            if (relative_rank(c, p) == 1 && !(occ_ & square_bb(two))) to |= square_bb(two);
        }
        return to;
    }

    // The first legal move the mated side has in the placed position (the
    // mate's defect) decides the branches; none left: a target.
    void grow() {
        // The steps are bounded too, not only the targets: a position whose
        // branches mostly die unaccepted costs time all the same (a stalemate
        // decides every man of its side: more steps per target).
        if (overflow_ || ++steps_ > (stalemate_ ? 200 : 64) * limit_ + 100000 ||
            (steps_ % 4096 == 0 && stop_ && stop_())) {
            overflow_ = true;
            return;
        }
        if (stalemate_) return grow_stalemate();
        const Bitboard checkers = attackers(king_, occ_, mating_);
        if (!checkers) return give_check();
        if (flight()) return;
        if (!more_than_one(checkers)) {
            const Square cs = lsb(checkers);
            const Bitboard answers = square_bb(cs) | (slider(type_of(board_[cs])) ? inside(cs, king_) : 0);
            if (man_move(answers, false)) return;
        }
        accept();
    }

    // The first legal move of a placed man of the mated side (not its king)
    // to a square of `to`, next to it (nothing between them) when `nearest`:
    // its branches (true), or none (false).
    bool man_move(Bitboard to, bool nearest) {
        for (Bitboard m = by_colour_[mated_] ^ square_bb(king_); m;) {
            const Square p = pop_lsb(m);
            for (Bitboard xs = moves_of(p) & to; xs;) {
                const Square x = pop_lsb(xs);
                if (nearest && inside(p, x)) continue;
                const Bitboard after = (occ_ ^ square_bb(p)) | square_bb(x);
                if (attackers(king_, after, mating_, square_bb(x))) continue;  // illegal already
                stop_move(p, x);
                return true;
            }
        }
        return false;
    }

    // The king's first flight: its branches (true), or none (false).
    bool flight() {
        // What the mating side guards with the king away (one pass over its men).
        const Bitboard without_king = occ_ ^ square_bb(king_);
        Bitboard guarded = 0;
        for (Bitboard m = by_colour_[mating_]; m;) {
            const Square s = pop_lsb(m);
            const PieceType t = type_of(board_[s]);
            guarded |= t == PAWN ? pawn_attacks(mating_, s) : attacks_bb(t, s, without_king);
        }
        const Bitboard free = king_attacks(king_) & ~by_colour_[mated_] & ~guarded;
        if (!free) return false;
        take_flight(lsb(free));
        return true;
    }

    // A stalemate: no check (a line of check is blocked), no flight, no
    // placed man that can move, and then each man not yet decided is, one at
    // a time: captured, or placed where the loop above makes it immobile.
    void grow_stalemate() {
        const Bitboard checkers = attackers(king_, occ_, mating_);
        if (checkers) {
            const Square cs = lsb(checkers);
            if (!slider(type_of(board_[cs]))) return;  // a contact check cannot be blocked
            for (Bitboard ys = inside(cs, king_) & ~empty_; ys;) stand_on(pop_lsb(ys));
            return;
        }
        if (flight()) return;
        // A move to a square next to the man first: all must be stopped, and
        // a farther one along the same line is stopped by what stops the
        // nearer one, or by a pin (which the nearer one's branches hold).
        // Then any other (none, as a pin stops a whole line; kept for safety).
        if (man_move(~Bitboard(0), true) || man_move(~Bitboard(0), false)) return;
        decide_next();
    }

    // The undecided man of the stalemated side with the fewest squares
    // within reach is captured, or placed on one of them.
    void decide_next() {
        Bitboard undecided = pos_.pieces(mated_) & ~used_;
        if (!undecided) return accept();
        const int left = budget_[mated_] - cost_[mated_];
        Square home = SQ_NONE;
        int fewest = 1 << 30;
        while (undecided) {
            const Square s = pop_lsb(undecided);
            const Piece man = pos_.piece_on(s);
            PieceType types[5];
            const int n = types_of(man, types);
            int squares = 0;
            for (int i = 0; i < n; ++i) squares += popcount(reach(s, left, types[i]) & ~occ_ & ~empty_);
            if (squares < fewest) fewest = squares, home = s;
        }
        // Each capture is a move of the other side (one may also bring a man of the target).
        if (popcount(gone_) < budget_[mating_]) {
            gone_ |= square_bb(home);
            used_ |= square_bb(home);
            grow();
            used_ ^= square_bb(home);
            gone_ ^= square_bb(home);
        }
        const Piece man = pos_.piece_on(home);
        PieceType types[5];
        const int n = types_of(man, types);
        for (int i = 0; i < n && !overflow_; ++i)
            for (Bitboard on = reach(home, left, types[i]) & ~occ_ & ~empty_; on && !overflow_;)
                place(home, pop_lsb(on), types[i], 0, [&] { grow(); });
    }

    // Any man not placed yet, of either side, on y.
    void stand_on(Square y) {
        for (Color c : {WHITE, BLACK})
            for_men(c, true, [&](Square home, PieceType as, int left) {
                if (reach(home, left, as) & square_bb(y)) place(home, y, as, 0, [&] { grow(); });
            });
    }

    // Each way to give the check: a man of the mating side (not its king) on a square attacking the king.
    void give_check() {
        for_men(mating_, false, [&](Square home, PieceType as, int left) {
            for (Bitboard s = reach(home, left, as) & attackers_from(mating_, as, king_, occ_) & ~occ_; s;) {
                const Square on = pop_lsb(s);
                place(home, on, as, slider(as) ? inside(on, king_) : 0, [&] { grow(); });
            }
        });
    }

    // The king can go to x: a man of its own side stands there, or a man of the mating side attacks it.
    void take_flight(Square x) {
        if (!(occ_ & square_bb(x)))
            for_men(mated_, false, [&](Square home, PieceType as, int left) {
                if (reach(home, left, as) & square_bb(x)) place(home, x, as, 0, [&] { grow(); });
            });
        attack(x, occ_ ^ square_bb(king_), square_bb(king_), true);
    }

    // The placed man on p can move to x: a man stands in its way or on x (a
    // checker's line that another man blocks at the end is not kept empty),
    // or the king is attacked after it.
    void stop_move(Square p, Square x) {
        const PieceType t = type_of(board_[p]);
        Bitboard path = t == PAWN ? inside(p, x) & file_bb(file_of(p)) : slider(t) ? inside(p, x) : 0;
        if (!(occ_ & square_bb(x))) path |= square_bb(x);
        for (Bitboard ys = path & ~empty_; ys;) stand_on(pop_lsb(ys));
        attack(king_, (occ_ ^ square_bb(p)) | square_bb(x), square_bb(p) | square_bb(x), false);
    }

    // Each man of the mating side placed to attack x with `occ` (its line
    // empty but for `vacated`); its king only when `king`.
    void attack(Square x, Bitboard occ, Bitboard vacated, bool king) {
        for_men(mating_, king, [&](Square home, PieceType as, int left) {
            const Bitboard from = as == KING ? king_attacks(x) : attackers_from(mating_, as, x, occ);
            for (Bitboard s = reach(home, left, as) & from & ~occ & ~vacated; s;) {
                const Square on = pop_lsb(s);
                place(home, on, as, slider(as) ? inside(on, x) & ~vacated : 0, [&] { grow(); });
            }
        });
    }

    // Calls f(home, type, moves left to its side) for each man of colour c not
    // placed yet (its king only when `king`), as each type it can end as.
    template <class F>
    void for_men(Color c, bool king, F&& f) {
        for (Bitboard m = pos_.pieces(c) & ~used_; m && !overflow_;) {
            const Square home = pop_lsb(m);
            const Piece man = pos_.piece_on(home);
            if (type_of(man) == KING && !king) continue;
            PieceType types[5];
            const int n = types_of(man, types);
            for (int i = 0; i < n; ++i) f(home, types[i], budget_[c] - cost_[c]);
        }
    }

    void accept() {
        if (!stalemate_ && !check_made_last()) return;
        // The side that mates has just moved, so its king is not attacked.
        // When its placed men take all its moves (and it cannot castle), its
        // other men never moved: its king, which nothing captures, stands on
        // its diagram square (Popeye does the same).
        const Square their_home = pos_.king_square(mating_);
        if (!(used_ & square_bb(their_home))) {
            if (cost_[mating_] == budget_[mating_] && !castles_[mating_])
                place(their_home, their_home, KING, 0, [&] { grow(); });
            else
                store();
            return;
        }
        const auto man =
            std::find_if(men_.begin(), men_.end(), [&](const TargetMan& m) { return m.home == their_home; });
        for (Bitboard a = attackers(man->on, occ_, mated_); a;) {
            const Square s = pop_lsb(a);
            if (!(inside(s, man->on) & ~empty_)) return;  // nothing can stand between
        }
        store();
    }

    // The mate's check is made by the mating side's last move (before it,
    // the mated side had just moved and was not in check): by the man that
    // made it, or uncovered by it, which only a slider's check can be. So a
    // pawn or knight giving check made that move, and two of them cannot
    // both give check. One on its diagram square never moved (a pawn) or
    // went away and back (two more moves at least), and so did a slider
    // next to the king (nothing between them to uncover it).
    bool check_made_last() const {
        int contact = 0;
        for (Bitboard c = attackers(king_, occ_, mating_); c;) {
            const Square s = pop_lsb(c);
            const PieceType t = type_of(board_[s]);
            const bool leaper = t == PAWN || t == KNIGHT;
            if (!leaper && inside(s, king_)) continue;  // may be uncovered
            contact += leaper;
            const auto man = std::find_if(men_.begin(), men_.end(), [&](const TargetMan& m) { return m.on == s; });
            if (man->home != s || type_of(pos_.piece_on(s)) != t) continue;  // it moved
            if (t == PAWN || cost_[mating_] + 2 > budget_[mating_]) return false;
        }
        return contact < 2;
    }

    void store() {
        std::vector<std::uint32_t> key;
        for (const TargetMan& m : men_) key.push_back(std::uint32_t(m.home) << 16 | std::uint32_t(m.on) << 8 | m.as);
        std::sort(key.begin() + 1, key.end());  // the king first, the rest in any order
        for (const Bitboard b : {empty_, gone_}) {
            key.push_back(std::uint32_t(b));
            key.push_back(std::uint32_t(b >> 32));
        }
        if (!seen_.insert(key).second) return;
        if (out_.size() >= limit_) {
            overflow_ = true;
            return;
        }
        out_.push_back({men_, empty_, gone_});
    }

    int moves_to(Square home, Square on, PieceType as) const { return tables_[home].moves(on, as); }
    Bitboard reach(Square home, int left, PieceType as) const { return tables_[home].reach(left, as); }

    const Position& pos_;
    const Color mated_, mating_;
    const bool stalemate_;
    std::vector<Target>& out_;
    const std::size_t limit_;
    const std::function<bool()>& stop_;  // the caller's time limit or cancel flag
    bool overflow_ = false;
    std::size_t steps_ = 0;
    int budget_[COLOR_NB] = {};
    int cost_[COLOR_NB] = {};
    bool castles_[COLOR_NB] = {};
    Piece board_[64];
    ManTables tables_[64];  // each diagram man's, from its diagram square
    Bitboard occ_ = 0, by_colour_[COLOR_NB] = {}, empty_ = 0, used_ = 0, gone_ = 0;
    Square king_ = SQ_NONE;
    std::vector<TargetMan> men_;
    std::set<std::vector<std::uint32_t>> seen_;
};

}  // namespace

namespace {

std::uint64_t man_hash(const TargetMan& m) {
    std::uint64_t z = (std::uint64_t(m.home) << 16 | std::uint64_t(m.on) << 8 | m.as) + 1;
    z *= 0x9E3779B97F4A7C15ULL;
    z ^= z >> 31;
    z *= 0xBF58476D1CE4E5B9ULL;
    return z ^ (z >> 29);
}

// Order-free: a sum of mixed terms, one per man.
std::uint64_t men_hash(const std::vector<TargetMan>& men) {
    std::uint64_t h = 0;
    for (const TargetMan& m : men) h += man_hash(m);
    return h;
}

// Every man of `small` is one of `big`'s.
bool within(const std::vector<TargetMan>& small, const std::vector<TargetMan>& big) {
    return std::all_of(small.begin(), small.end(), [&](const TargetMan& m) {
        return std::any_of(big.begin(), big.end(),
                           [&](const TargetMan& x) { return x.home == m.home && x.on == m.on && x.as == m.as; });
    });
}

// Drops each target that holds another one (its men, one or two more, or
// the same with more empty squares): every mate that holds it holds the
// smaller one, whose search finds its solutions. Subsets up to two men
// smaller only, which finds most of them cheaply.
void drop_larger(std::vector<Target>& targets) {
    std::unordered_multimap<std::uint64_t, std::size_t> by_men;
    for (std::size_t i = 0; i < targets.size(); ++i) by_men.emplace(men_hash(targets[i].men), i);
    std::vector<char> drop(targets.size(), 0);
    const auto holds = [&](std::size_t i, std::uint64_t h, std::size_t men) {
        const Target& t = targets[i];
        const auto [lo, hi] = by_men.equal_range(h);
        for (auto it = lo; it != hi; ++it) {
            const Target& s = targets[it->second];
            if (it->second == i || drop[it->second] || s.men.size() != men || (s.empty & ~t.empty) ||
                (s.gone & ~t.gone))
                continue;
            if (s.men.size() == t.men.size() && s.empty == t.empty && s.gone == t.gone)
                continue;  // (accept() keeps them apart)
            if (within(s.men, t.men)) return true;
        }
        return false;
    };
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::vector<TargetMan>& m = targets[i].men;
        const std::uint64_t all = men_hash(m);
        bool d = holds(i, all, m.size());
        for (std::size_t a = 1; a < m.size() && !d; ++a) {  // never the king
            d = holds(i, all - man_hash(m[a]), m.size() - 1);
            for (std::size_t b = a + 1; b < m.size() && !d; ++b)
                d = holds(i, all - man_hash(m[a]) - man_hash(m[b]), m.size() - 2);
        }
        drop[i] = d;
    }
    std::size_t n = 0;
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (!drop[i]) {
            if (n != i) targets[n] = std::move(targets[i]);  // (a vector moved onto itself empties)
            ++n;
        }
    targets.resize(n);
}

}  // namespace

namespace {

bool targets(const Position& pos, Color mated, bool stalemate, int w, int b, std::vector<Target>& out,
             std::size_t limit, const std::function<bool()>& stop) {
    out.clear();
    if (w < 1) return true;
    Builder builder(pos, mated, stalemate, w, b, out, limit, stop);
    if (!builder.run()) return false;
    drop_larger(out);
    return true;
}

}  // namespace

bool mate_targets(const Position& pos, Color mated, int w, int b, std::vector<Target>& out, std::size_t limit,
                  const std::function<bool()>& stop) {
    return targets(pos, mated, false, w, b, out, limit, stop);
}

bool stalemate_targets(const Position& pos, Color stalemated, int w, int b, std::vector<Target>& out, std::size_t limit,
                       const std::function<bool()>& stop) {
    return targets(pos, stalemated, true, w, b, out, limit, stop);
}

}  // namespace echecs::solver

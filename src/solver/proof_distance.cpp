#include "solver/proof_distance.h"

#include <algorithm>
#include <array>

#include "core/bitboard.h"

namespace echecs::solver {

namespace {

// Squares a piece reaches in one move on a board where only `blocked` is occupied.
Bitboard reach(PieceType pt, Square s, Bitboard blocked) {
    Bitboard b = 0;
    const int f = file_of(s), r = rank_of(s);
    auto add = [&](int df, int dr, bool slide) {
        for (int x = f + df, y = r + dr; x >= 0 && x < 8 && y >= 0 && y < 8; x += df, y += dr) {
            if (blocked & square_bb(make_square(x, y))) break;
            b |= square_bb(make_square(x, y));
            if (!slide) break;
        }
    };
    static constexpr int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static constexpr int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static constexpr int ORTH[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    switch (pt) {
        case KNIGHT:
            for (auto& d : KN) add(d[0], d[1], false);
            break;
        case KING:
            for (auto& d : DIAG) add(d[0], d[1], false);
            for (auto& d : ORTH) add(d[0], d[1], false);
            // Castling of either colour: the king's move is one move.
            if (s == SQ_E1) b |= (square_bb(SQ_G1) | square_bb(SQ_C1)) & ~blocked;
            if (s == SQ_E8) b |= (square_bb(SQ_G8) | square_bb(SQ_C8)) & ~blocked;
            break;
        default:
            if (pt == BISHOP || pt == QUEEN)
                for (auto& d : DIAG) add(d[0], d[1], true);
            if (pt == ROOK || pt == QUEEN)
                for (auto& d : ORTH) add(d[0], d[1], true);
    }
    return b;
}

// The rook's part of a castling: free (the king's move counts it), board changed.
Square castling_rook_target(Square s) {
    switch (s) {
        case SQ_H1: return SQ_F1;
        case SQ_A1: return SQ_D1;
        case SQ_H8: return SQ_F8;
        case SQ_A8: return SQ_D8;
        default: return SQ_NONE;
    }
}

void fill(Bitboard blocked, DistanceTable& t) {
    for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING}) {
        auto& d = t[distance_index(pt)];
        for (Square from = SQ_A1; from <= SQ_H8; ++from) {
            // 0-1 breadth-first search over (square, board changed) states, a
            // deque in an array: 0-cost states go to the front (the rook's
            // castling squares, a few), 1-cost ones to the back.
            std::uint8_t dist[64][2];
            for (auto& x : dist) x[0] = x[1] = UNREACHABLE;
            int queue[64 + 64 * 2 * 64];
            int head = 64, tail = head;
            dist[from][0] = 0;
            queue[tail++] = from * 2;
            while (head < tail) {
                const int state = queue[head++];
                const Square s = Square(state / 2);
                const int flip = state % 2;
                const std::uint8_t here = dist[s][flip];
                if (pt == ROOK) {
                    const Square r = castling_rook_target(s);
                    if (r != SQ_NONE && !(blocked & square_bb(r)) && dist[r][flip ^ 1] > here && head > 0) {
                        dist[r][flip ^ 1] = here;
                        queue[--head] = r * 2 + (flip ^ 1);
                    }
                }
                Bitboard b = reach(pt, s, blocked);
                while (b) {
                    const Square to = pop_lsb(b);
                    if (dist[to][flip ^ 1] > here + 1 && tail < int(std::size(queue))) {
                        dist[to][flip ^ 1] = std::uint8_t(here + 1);
                        queue[tail++] = to * 2 + (flip ^ 1);
                    }
                }
            }
            for (Square to = SQ_A1; to <= SQ_H8; ++to) {
                d[0][from][to] = dist[to][0];
                d[1][from][to] = dist[to][1];
            }
        }
    }
}

struct Table {
    DistanceTable d;
};

Table build() {
    Table t;
    fill(0, t.d);
    return t;
}

const Table& table() {
    static const Table t = build();  // 40 KiB, built once
    return t;
}

}  // namespace

std::uint8_t piece_distance(PieceType pt, int flip, Square from, Square to) {
    return table().d[distance_index(pt)][flip][from][to];
}

std::uint8_t piece_distance_any(PieceType pt, Square from, Square to) {
    const auto& d = table().d[distance_index(pt)];
    return std::min(d[0][from][to], d[1][from][to]);
}

void blocked_distances(Bitboard blocked, DistanceTable& out) { fill(blocked, out); }

}  // namespace echecs::solver

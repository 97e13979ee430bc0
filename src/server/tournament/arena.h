// Arena tournaments as lichess runs them: the points of each game and the
// pairing of the players who are free. Pure rules, no I/O: the tournament's
// room (not built yet, docs/TOURNAMENTS.md) keeps the state and the
// storage.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace echecs::server::tournament {

enum class Outcome { Loss, Draw, Win };

// One player's games in the order they ended, and the points of each:
// 2 a win, 1 a draw, 0 a loss; after two wins in a row the player is "on
// fire" and every game counts double until one is not a win; a berserk
// win (the player halved their own clock) with at least 7 of the player's
// own moves gains one more point, never doubled.
class ArenaSheet {
public:
    static constexpr int BERSERK_MIN_MOVES = 7;

    // The points this game gives; adds them to the score.
    int add(Outcome o, bool berserk = false, int own_moves = 0);
    int score() const { return score_; }
    bool on_fire() const { return wins_in_a_row_ >= 2; }
    const std::vector<int>& points() const { return points_; }  // one per game, in order

private:
    int score_ = 0;
    int wins_in_a_row_ = 0;
    std::vector<int> points_;
};

// A player free to be paired: their place in the standings (0 the leader)
// and their last opponent (0: none yet).
struct FreePlayer {
    std::int64_t id = 0;
    int rank = 0;
    std::int64_t last_opponent = 0;
};

// Pairs as many free players as possible, each with one near in the
// standings, and never with their last opponent unless nobody else is free
// for either (then an arena of two still plays). With an odd number, one
// waits. Up to EXACT_LIMIT players the pairing is the best one (a
// minimum-cost matching: the sum of the squared rank differences, so that
// 1-3 and 2-4 is better than 1-4 and 2-3, each difference counted up to the
// number of players, a repeated opponent costing more than any such sum);
// above it, neighbours in the
// standings, the cheaper greedy pairing that arenas of hundreds need.
inline constexpr std::size_t EXACT_LIMIT = 16;
std::vector<std::pair<std::int64_t, std::int64_t>> pair_free_players(std::vector<FreePlayer> free);

}  // namespace echecs::server::tournament

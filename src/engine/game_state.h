// The position a protocol loop is working on: start FEN, the moves played
// from it, and the Position with its state chain (for repetition checks).
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/position.h"

namespace echecs::engine {

class GameState {
public:
    // Throws FenError or NotationError (naming the bad move); nothing is
    // built in that case.
    static std::unique_ptr<GameState> make(Variant v, std::string_view fen, const std::vector<std::string>& moves);

    Position& pos() { return pos_; }
    Variant variant() const { return pos_.variant(); }
    const std::string& start_fen() const { return fen_; }
    const std::vector<Move>& moves() const { return moves_; }
    // Plays a legal move (checked by the caller).
    void play(Move m);
    // Takes back the last move; false when there is none.
    bool undo();
    // Times the current position has occurred in this game (1 = first time).
    int occurrences() const;
    // The game's result by the board rules (game.h position_result).
    GameResult result();

private:
    GameState() = default;
    std::string fen_;
    std::deque<StateInfo> states_;
    Position pos_;
    std::vector<Move> moves_;
};

}  // namespace echecs::engine

// A game from a start position: move history, repetition and the end of the
// game by the rules of its variant (RULES.md).
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "movegen.h"
#include "position.h"
#include "vocabulary.h"

namespace echecs {

struct GameResult {
    Outcome outcome = Outcome::Ongoing;
    Termination termination = Termination::None;
    bool over() const { return outcome != Outcome::Ongoing; }
};

// A dead position, drawn at once (RULES.md): in chess and Avalanche (where it
// needs no pawns, so no pushes) kings with at most one knight, or with
// bishops all on squares of one colour; in Alice kings only (a single bishop
// can mate there with the help of the other board).
bool insufficient_material(const Position& pos);
// Whether colour c still has material that could ever mate (time forfeit:
// losing on time against a side that cannot mate is a draw).
bool can_mate(const Position& pos, Color c);
// Result of the position by the board rules alone, given how many times it
// has occurred (for threefold repetition).
GameResult position_result(Position& pos, int occurrences);

class Game {
public:
    explicit Game(Variant v, std::string_view fen = Position::START_FEN);  // throws FenError
    // Then plays the moves (coordinate notation); throws FenError or
    // NotationError naming the bad move (the protocols' `position ... moves`).
    Game(Variant v, std::string_view fen, const std::vector<std::string>& uci_moves);
    Game(const Game&) = delete;
    Game& operator=(const Game&) = delete;

    Variant variant() const { return pos_.variant(); }
    const std::string& start_fen() const { return start_fen_; }
    Position& position() { return pos_; }
    const Position& position() const { return pos_; }
    const std::vector<Move>& moves() const { return moves_; }

    void legal_moves(MoveList& list) { generate_legal(pos_, list); }
    bool is_legal(Move m);
    // Plays a legal move; returns false (and changes nothing) if m is not legal.
    bool play(Move m);
    // Parse then play; throw NotationError when unreadable or illegal.
    Move play_uci(std::string_view s);
    Move play_san(std::string_view s);
    // Takes back the last move; false (and nothing changes) at the start.
    bool undo();

    // Times the current position has occurred (1 = first time).
    int occurrences() const;
    GameResult result();

private:
    std::string start_fen_;
    std::deque<StateInfo> states_;  // stable addresses for the Position's state chain
    Position pos_;
    std::vector<Move> moves_;
};

}  // namespace echecs

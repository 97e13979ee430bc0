#include "game_state.h"

#include "core/notation.h"

namespace echecs::engine {

std::unique_ptr<GameState> GameState::make(Variant v, std::string_view fen, const std::vector<std::string>& moves) {
    std::unique_ptr<GameState> g(new GameState());
    g->states_.emplace_back();
    g->pos_.set(v, fen, g->states_.back());
    g->fen_ = g->pos_.fen();
    for (const std::string& s : moves) g->play(parse_uci(g->pos_, s));
    return g;
}

void GameState::play(Move m) {
    states_.emplace_back();
    pos_.do_move(m, states_.back());
    moves_.push_back(m);
}

bool GameState::undo() {
    if (moves_.empty()) return false;
    pos_.undo_move(moves_.back());
    moves_.pop_back();
    states_.pop_back();
    return true;
}

int GameState::occurrences() const {
    const StateInfo* st = pos_.state();
    int n = 1;
    const int end = st->rule50;
    const StateInfo* p = st;
    for (int i = 2; i <= end; i += 2) {
        if (!p->previous || !p->previous->previous) break;
        p = p->previous->previous;
        if (p->key == st->key) ++n;
    }
    return n;
}

GameResult GameState::result() { return position_result(pos_, occurrences()); }

}  // namespace echecs::engine

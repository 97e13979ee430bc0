#include "game.h"

#include "notation.h"

namespace echecs {

bool insufficient_material(const Position& pos) {
    switch (variant_info(pos.variant()).dead_position) {
        case DeadPositionRule::KingsOnly: return popcount(pos.pieces()) == 2;  // RULES.md §2.3
        case DeadPositionRule::Orthodox: break;
    }
    if (pos.pieces(PAWN) | pos.pieces(ROOK, QUEEN)) return false;
    const Bitboard minors = pos.pieces(KNIGHT, BISHOP);
    if (popcount(minors) <= 1) return true;  // K v K, K+B v K, K+N v K
    if (pos.pieces(KNIGHT)) return false;
    // Any number of bishops, of either side or both, all on squares of one
    // colour: they never attack the other colour, so no king can be mated.
    const Bitboard b = pos.pieces(BISHOP);
    return !(b & DARK_SQUARES) || !(b & ~DARK_SQUARES);
}

bool can_mate(const Position& pos, Color c) {
    const Bitboard own = pos.pieces(c) & ~pos.pieces(KING);
    if (!own) return false;
    if (variant_info(pos.variant()).boards == 2) return true;  // two boards: any piece may trap a king
    if (own & (pos.pieces(PAWN) | pos.pieces(ROOK, QUEEN))) return true;
    if (popcount(own) >= 2 && (own & pos.pieces(KNIGHT))) return true;
    const Bitboard theirs = pos.pieces(~c) & ~pos.pieces(KING);
    if (own & pos.pieces(KNIGHT)) return theirs != 0;  // a lone knight mates only with help
    // Bishops only: mate needs squares of the other colour blocked by the opponent.
    const bool dark = own & DARK_SQUARES, light = own & ~DARK_SQUARES;
    if (dark && light) return true;
    const Bitboard other_colour = dark ? ~DARK_SQUARES : DARK_SQUARES;
    return (theirs & ~pos.pieces(BISHOP)) || (theirs & pos.pieces(BISHOP) & other_colour);
}

GameResult position_result(Position& pos, int occurrences) {
    MoveList list;
    generate_legal(pos, list);
    const Outcome side_loses = pos.side_to_move() == WHITE ? Outcome::BlackWins : Outcome::WhiteWins;
    if (list.empty()) {
        const Termination t = no_move_verdict(pos);
        return {t == Termination::Stalemate ? Outcome::Draw : side_loses, t};
    }
    if (pos.rule50() >= 100) return {Outcome::Draw, Termination::FiftyMoves};
    if (occurrences >= 3) return {Outcome::Draw, Termination::Repetition};
    if (insufficient_material(pos)) return {Outcome::Draw, Termination::InsufficientMaterial};
    return {};
}

Game::Game(Variant v, std::string_view fen) {
    states_.emplace_back();
    pos_.set(v, fen, states_.back());
    start_fen_ = pos_.fen();
}

Game::Game(Variant v, std::string_view fen, const std::vector<std::string>& uci_moves) : Game(v, fen) {
    for (const std::string& s : uci_moves) play_uci(s);
}

bool Game::is_legal(Move m) {
    MoveList list;
    generate_legal(pos_, list);
    return list.contains(m);
}

bool Game::play(Move m) {
    if (!is_legal(m)) return false;
    states_.emplace_back();
    pos_.do_move(m, states_.back());
    moves_.push_back(m);
    return true;
}

Move Game::play_uci(std::string_view s) {
    Move m = parse_uci(pos_, s);
    play(m);
    return m;
}

Move Game::play_san(std::string_view s) {
    Move m = parse_san(pos_, s);
    play(m);
    return m;
}

bool Game::undo() {
    if (moves_.empty()) return false;
    pos_.undo_move(moves_.back());
    moves_.pop_back();
    states_.pop_back();
    return true;
}

int Game::occurrences() const {
    const StateInfo* st = pos_.state();
    const int window = std::min(st->rule50, st->plies_from_null);
    int n = 1;
    const StateInfo* p = st;
    for (int i = 2; i <= window; i += 2) {
        if (!p->previous || !p->previous->previous) break;
        p = p->previous->previous;
        if (p->key == st->key) ++n;
    }
    return n;
}

GameResult Game::result() { return position_result(pos_, occurrences()); }

}  // namespace echecs

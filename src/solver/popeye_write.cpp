// Writing Popeye input for one problem (the reader is popeye.cpp).
#include "core/position.h"
#include "solver/popeye.h"
#include "solver/popeye_sstip.h"

namespace echecs::solver {

namespace {
std::string square_str(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }
}  // namespace

std::string write_popeye(const Problem& p, const PopeyeWriteOptions& o) {
    StateInfo st;
    Position pos;
    try {
        pos.set(p.variant, p.fen, st, p.kings);
    } catch (const FenError& e) {
        throw ProblemError(e.what());
    }
    static constexpr char LETTER[] = " psbrqk";
    std::string out = "begin\n";
    if (!p.title.empty()) {
        std::string t = p.title.substr(0, 1000);
        for (char& c : t)
            if (c == '\n' || c == '\r') c = ' ';
        out += std::string("title ") + t + "\n";
    }
    if (p.variant == Variant::Avalanche)
        out += "remark Avalanche chess: 'condition avalanche' is read by echecs, not by Popeye\n";
    auto men = [&](const Position& at) {
        std::string text = "pieces";
        for (Color c : {WHITE, BLACK}) {
            for (Board b : {BOARD_A, BOARD_B}) {
                std::string group;
                for (PieceType pt : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN}) {
                    Bitboard bb = at.pieces(c, pt) & at.board_mask(b);
                    if (!bb) continue;
                    group += ' ';
                    group += LETTER[pt];
                    while (bb) group += square_str(pop_lsb(bb));
                }
                if (group.empty()) continue;
                text += c == WHITE ? " white" : " black";
                if (b == BOARD_B) text += " AliceB";
                text += group;
            }
        }
        return text;
    };
    out += men(pos);
    // A capture-zugzwang, or a help play numbered as Popeye's sstipulation numbers it: in that form.
    const std::string sstip = sstipulation_text(p.stipulation);
    out += sstip.empty() ? "\nstipulation " + p.stipulation.str() + "\n" : "\nsstipulation " + sstip + "\n";
    // a=>b: the position b follows the stipulation (Popeye reads it on an empty board).
    if (p.stipulation.proof() && p.stipulation.atob) {
        StateInfo tst;
        Position target;
        try {
            target.set(p.variant, p.target, tst);
        } catch (const FenError& e) {
            throw ProblemError(std::string("position b: ") + e.what());
        }
        out += men(target) + "\n";
    }
    if (p.variant != Variant::Chess)
        out += "condition " + std::string(variant_name(p.variant)) + "\n";  // the game's name

    std::string options;
    if (o.variations) options += " variation";
    if (o.tries) options += " try";
    if (o.set_play) options += " setplay";
    if (!o.threats) options += " nothreat";
    if (p.stipulation.proof() && p.stipulation.atob && p.stipulation.white_first) options += " whitetoplay";
    if (p.stipulation.exchanged && sstip.empty()) options += " halfduplex";  // the sstipulation's side says it
    if (p.stipulation.post_key) options += " postkeyplay";
    if (p.stipulation.max_threat) options += " threat " + std::to_string(p.stipulation.max_threat);
    if (p.stipulation.max_flights != Stipulation::NO_MAX_FLIGHTS)
        options += " maxflightsquares " + std::to_string(p.stipulation.max_flights);
    for (auto [w, b] : p.exclusive_castlings) options += " castlingmutuallyexclusive " + square_str(w) + square_str(b);
    if (!pos.has_king(WHITE)) options += " nowk";
    if (!pos.has_king(BLACK)) options += " nobk";
    // Popeye lets king and rook at home castle unless told otherwise.
    std::string nocastle;
    for (Color c : {WHITE, BLACK}) {
        const int r = c == WHITE ? 0 : 7;
        const Square k = make_square(4, r), ks = make_square(7, r), qs = make_square(0, r);
        auto home = [&](Square s, PieceType pt) {
            return pos.piece_on(s) == make_piece(c, pt) && pos.board_of(s) == BOARD_A;
        };
        if (!home(k, KING)) continue;
        const bool oo = pos.can_castle(c == WHITE ? WHITE_OO : BLACK_OO);
        const bool ooo = pos.can_castle(c == WHITE ? WHITE_OOO : BLACK_OOO);
        if (!oo && !ooo && (home(ks, ROOK) || home(qs, ROOK)))
            nocastle += square_str(k);
        else {
            if (!oo && home(ks, ROOK)) nocastle += square_str(ks);
            if (!ooo && home(qs, ROOK)) nocastle += square_str(qs);
        }
    }
    if (!nocastle.empty()) options += std::string(" nocastling ") + nocastle;
    if (pos.ep_square() != SQ_NONE && pos.ep_capture_available()) {
        const Square ep = pos.ep_square();
        const int dir = pos.side_to_move() == WHITE ? -8 : 8;  // the pawn that double-stepped moved this way
        options += std::string(" enpassant ") + square_str(ep - dir) + square_str(ep) + square_str(ep + dir);
    }
    if (!options.empty()) out += std::string("option") + options + "\n";
    return out + "end\n";
}

}  // namespace echecs::solver

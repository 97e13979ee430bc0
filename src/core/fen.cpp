// FEN reading, validation and writing for the three games (RULES.md §2-3).
#include <algorithm>
#include <charconv>
#include <sstream>
#include <vector>

#include "position.h"
#include "utf8.h"

namespace echecs {

namespace {

constexpr std::string_view PIECE_CHARS = " PNBRQK  pnbrqk";

// A hint when `c` is a board-B letter of another game than v: " (Alice board-B
// letters need the alice variant)".
std::string board_b_letter_note(Variant v, char c) {
    for (const VariantInfo& g : VARIANTS)
        if (g.variant != v && c != ' ' && g.board_b_letters.find(c) != std::string_view::npos)
            return " (" + std::string(g.pgn) + " board-B letters need the " + std::string(g.name) + " variant)";
    return "";
}

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

std::vector<std::string_view> split_fields(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

using Params = std::vector<std::pair<std::string, std::string>>;
[[noreturn]] void fail(const std::string& msg, std::string key, Params params = {}) {
    throw FenError("FEN: " + msg, {std::move(key), std::move(params)});
}

int parse_counter(std::string_view field, const char* name, int min) {
    int v = 0;
    auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || ptr != field.data() + field.size() || v < min || v > 100000)
        fail(std::string(name) + " field: " + quote_input(field) + " is not a number >= " + std::to_string(min),
             min == 0 ? "fen_halfmove_clock" : "fen_fullmove_number",
             {{"text", quote_input(field)}, {"min", std::to_string(min)}});
    return v;
}

}  // namespace

Position& Position::set(Variant v, std::string_view fen, StateInfo& st, Kings kings) {
    init();
    std::fill(std::begin(board_), std::end(board_), NO_PIECE);
    std::fill(std::begin(by_type_), std::end(by_type_), 0);
    std::fill(std::begin(by_color_), std::end(by_color_), 0);
    std::fill(std::begin(castling_mask_), std::end(castling_mask_), 0);
    std::fill(std::begin(castling_exclusion_), std::end(castling_exclusion_), 0);
    on_b_ = 0;
    side_ = WHITE;
    game_ply_ = 0;
    st = StateInfo{};
    st_ = &st;
    variant_ = v;
    const VariantInfo& rules = variant_info(v);

    auto fields = split_fields(fen);
    if (fields.size() < 4 || fields.size() > 6)
        fail("expected 4 to 6 fields (placement, side, castling, en passant, halfmove clock, fullmove number), got " +
                 std::to_string(fields.size()),
             "fen_field_count", {{"count", std::to_string(fields.size())}});

    // 1. Placement
    {
        std::string_view placement = fields[0];
        int rank = 7, file = 0;
        for (size_t i = 0; i < placement.size(); ++i) {
            char c = placement[i];
            std::string where = "rank " + std::to_string(rank + 1);
            if (c == '/') {
                if (file != 8)
                    fail("piece placement field: " + where + " has " + std::to_string(file) + " squares, not 8",
                         "fen_rank_squares", {{"rank", std::to_string(rank + 1)}, {"squares", std::to_string(file)}});
                if (--rank < 0) fail("piece placement field: more than 8 ranks", "fen_rank_count_over");
                file = 0;
            } else if (c >= '1' && c <= '8') {
                file += c - '0';
                if (file > 8)
                    fail("piece placement field: " + where + " has more than 8 squares", "fen_rank_too_long",
                         {{"rank", std::to_string(rank + 1)}});
            } else {
                size_t idx = PIECE_CHARS.find(c);
                Board b = BOARD_A;
                if ((idx == std::string_view::npos || c == ' ') && !rules.board_b_letters.empty()) {
                    idx = rules.board_b_letters.find(c);
                    b = BOARD_B;
                }
                if (idx == std::string_view::npos || c == ' ')
                    fail("piece placement field: unknown piece letter " + quote_char_at(placement, i) + " on " + where +
                             board_b_letter_note(v, c),
                         "fen_piece_letter",
                         {{"letter", quote_char_at(placement, i)}, {"rank", std::to_string(rank + 1)}});
                if (file > 7)
                    fail("piece placement field: " + where + " has more than 8 squares", "fen_rank_too_long",
                         {{"rank", std::to_string(rank + 1)}});
                put_piece(Piece(idx), make_square(file, rank), b);
                ++file;
            }
        }
        if (rank != 0)
            fail("piece placement field: " + std::to_string(8 - rank) + " ranks, not 8", "fen_rank_count",
                 {{"ranks", std::to_string(8 - rank)}});
        if (file != 8)
            fail("piece placement field: rank 1 has " + std::to_string(file) + " squares, not 8", "fen_rank_squares",
                 {{"rank", "1"}, {"squares", std::to_string(file)}});
    }

    // 2. Side to move
    if (fields[1] == std::string_view(&color_info(WHITE).fen, 1))
        side_ = WHITE;
    else if (fields[1] == std::string_view(&color_info(BLACK).fen, 1))
        side_ = BLACK;
    else
        fail("active colour field: " + quote_input(fields[1]) + " is neither 'w' nor 'b'", "fen_active_colour",
             {{"text", quote_input(fields[1])}});

    // 3. Castling
    castling_mask_[SQ_E1] = WHITE_OO | WHITE_OOO;
    castling_mask_[SQ_H1] = WHITE_OO;
    castling_mask_[SQ_A1] = WHITE_OOO;
    castling_mask_[SQ_E8] = BLACK_OO | BLACK_OOO;
    castling_mask_[SQ_H8] = BLACK_OO;
    castling_mask_[SQ_A8] = BLACK_OOO;
    if (fields[2] != "-") {
        for (size_t i = 0; i < fields[2].size(); ++i) {
            const char c = fields[2][i];
            CastlingRights cr;
            switch (c) {
                case 'K': cr = WHITE_OO; break;
                case 'Q': cr = WHITE_OOO; break;
                case 'k': cr = BLACK_OO; break;
                case 'q': cr = BLACK_OOO; break;
                default:
                    fail("castling availability field: unknown letter " + quote_char_at(fields[2], i),
                         "fen_castling_letter", {{"letter", quote_char_at(fields[2], i)}});
            }
            if (st.castling & cr)
                fail(std::string("castling availability field: '") + c + "' given twice", "fen_castling_twice",
                     {{"letter", std::string(1, c)}});
            st.castling |= cr;
            Color col = (cr == WHITE_OO || cr == WHITE_OOO) ? WHITE : BLACK;
            Square ksq = col == WHITE ? SQ_E1 : SQ_E8;
            Square rsq = (cr == WHITE_OO) ? SQ_H1 : cr == WHITE_OOO ? SQ_A1 : cr == BLACK_OO ? SQ_H8 : SQ_A8;
            const char* board_note = rules.boards == 2 ? " of board A" : "";
            if (board_[ksq] != make_piece(col, KING) || board_of(ksq) != BOARD_A)
                fail(std::string("castling availability field: '") + c + "' but no " +
                         std::string(color_info(col).name) + " king on " + square_name(ksq) + board_note,
                     "fen_castling_no_king",
                     {{"letter", std::string(1, c)},
                      {"color", std::string(color_info(col).name)},
                      {"square", square_name(ksq)}});
            if (board_[rsq] != make_piece(col, ROOK) || board_of(rsq) != BOARD_A)
                fail(std::string("castling availability field: '") + c + "' but no " +
                         std::string(color_info(col).name) + " rook on " + square_name(rsq) + board_note,
                     "fen_castling_no_rook",
                     {{"letter", std::string(1, c)},
                      {"color", std::string(color_info(col).name)},
                      {"square", square_name(rsq)}});
        }
    }

    // 4. En passant
    if (fields[3] != "-") {
        std::string_view f = fields[3];
        if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
            fail("en passant target square field: " + quote_input(f) + " is not a square", "fen_ep_not_square",
                 {{"text", quote_input(f)}});
        Square ep = make_square(f[0] - 'a', f[1] - '1');
        if (rules.has_en_passant) {  // else (Avalanche) the field is ignored
            Color them = ~side_;
            Square pawn_sq = ep - pawn_push(side_);
            Square origin = ep + pawn_push(side_);
            if (relative_rank(side_, ep) != 5)
                fail("en passant target square field: " + square_name(ep) + " is not on rank " +
                         (side_ == WHITE ? "6" : "3") + " for the side to move",
                     "fen_ep_rank", {{"square", square_name(ep)}, {"rank", side_ == WHITE ? "6" : "3"}});
            if (board_[pawn_sq] != make_piece(them, PAWN))
                fail("en passant target square field: " + square_name(ep) +
                         " but no pawn that has just moved two squares on " + square_name(pawn_sq),
                     "fen_ep_no_pawn", {{"square", square_name(ep)}, {"pawn", square_name(pawn_sq)}});
            if (board_[origin] != NO_PIECE)
                fail("en passant target square field: " + square_name(ep) + " but " + square_name(origin) +
                         ", where the pawn started, is occupied",
                     "fen_ep_origin_occupied", {{"square", square_name(ep)}, {"origin", square_name(origin)}});
            // Alice: the skipped square had to be empty only on the board the pawn left,
            // which is the other board from the one where it now stands.
            if (board_[ep] != NO_PIECE && (rules.boards == 1 || board_of(ep) != board_of(pawn_sq)))
                fail("en passant target square field: " + square_name(ep) + ", the skipped square, is occupied" +
                         (rules.boards == 2 ? " on the board the pawn left" : ""),
                     "fen_ep_skipped_occupied", {{"square", square_name(ep)}});
            st.ep_square = ep;
        }
    }

    // 5-6. Counters
    if (fields.size() >= 5) st.rule50 = parse_counter(fields[4], "halfmove clock", 0);
    int fullmove = fields.size() >= 6 ? parse_counter(fields[5], "fullmove number", 1) : 1;
    game_ply_ = 2 * (fullmove - 1) + (side_ == BLACK);

    validate(kings);
    set_state();
    return *this;
}

void Position::validate(Kings rule) {
    for (Color c : {WHITE, BLACK}) {
        const std::string name(color_info(c).name);
        int kings = count(c, KING);
        if (kings == 0 && rule == Kings::One)
            fail(std::string("piece placement field: no ") + name + " king", "fen_no_king", {{"color", name}});
        if (kings > 1)
            fail(std::string("piece placement field: ") + std::to_string(kings) + " " + name + " kings", "fen_kings",
                 {{"color", name}, {"count", std::to_string(kings)}});
        Bitboard own_first = pieces(c, PAWN) & (c == WHITE ? RANK_1_BB : RANK_8_BB);
        if (own_first)
            fail(std::string("piece placement field: ") + name + " pawn on " + square_name(lsb(own_first)) +
                     ", its own first rank",
                 "fen_pawn_first_rank", {{"color", name}, {"square", square_name(lsb(own_first))}});
        Bitboard last = pieces(c, PAWN) & (c == WHITE ? RANK_8_BB : RANK_1_BB);
        if (last) {
            std::string sq = square_name(lsb(last));
            if (!variant_info(variant_).has_pushes)  // only a push brings a pawn to its last rank
                fail(std::string("piece placement field: ") + name + " pawn on " + sq + ", its last rank",
                     "fen_pawn_last_rank", {{"color", name}, {"square", sq}});
            if (c != side_)
                fail(std::string("piece placement field: ") + name + " pawn on " + sq +
                         " waits for promotion but it is not its side's turn",
                     "fen_promotion_turn", {{"color", name}, {"square", sq}});
            if (more_than_one(last))
                fail(std::string("piece placement field: more than one ") + name + " pawn waits for promotion",
                     "fen_promotion_two", {{"color", name}});
        }
    }
    if (Square p = pending_promotion(); p != SQ_NONE) {
        // The pawn was pushed there by the side not to move, which was only
        // allowed if neither a queen nor a knight there attacks its king.
        if ((queen_attacks(p, pieces()) | knight_attacks(p)) & pieces(~side_, KING))
            fail("piece placement field: the pawn waiting for promotion on " + square_name(p) + " would attack the " +
                     std::string(color_info(~side_).name) + " king as a queen or knight: that push was not allowed",
                 "fen_promotion_attacks_king",
                 {{"square", square_name(p)}, {"color", std::string(color_info(~side_).name)}});
    }
    if (king_attacked(~side_))
        fail("active colour field: the side not to move (" + std::string(color_info(~side_).name) + ") is in check",
             "fen_opponent_in_check", {{"color", std::string(color_info(~side_).name)}});
}

void Position::set_state() {
    st_->key = compute_key();
    st_->ep_in_key = false;
    if (st_->ep_square != SQ_NONE && ep_capture_available()) {
        st_->ep_in_key = true;
        st_->key ^= zobrist::ep_file[file_of(st_->ep_square)];
    }
    st_->checkers = compute_checkers();
}

Key Position::compute_key() const {
    Key k = side_ == BLACK ? zobrist::side : 0;
    for (Bitboard b = pieces(); b;) {
        Square s = pop_lsb(b);
        k ^= zobrist::psq[board_[s]][s][board_of(s)];
    }
    k ^= zobrist::castling[st_->castling];
    return k;
}

void Position::copy_to(Position& dst, StateInfo& st) const {
    std::copy(std::begin(board_), std::end(board_), dst.board_);
    std::copy(std::begin(by_type_), std::end(by_type_), dst.by_type_);
    std::copy(std::begin(by_color_), std::end(by_color_), dst.by_color_);
    std::copy(std::begin(castling_mask_), std::end(castling_mask_), dst.castling_mask_);
    std::copy(std::begin(castling_exclusion_), std::end(castling_exclusion_), dst.castling_exclusion_);
    dst.on_b_ = on_b_;
    dst.side_ = side_;
    dst.variant_ = variant_;
    dst.game_ply_ = game_ply_;
    st = *st_;
    st.previous = nullptr;
    dst.st_ = &st;
}

std::string write_fen(Variant v, std::span<const Piece, SQUARE_NB> board, Bitboard on_b, Color side,
                      std::uint8_t castling, Square ep, int rule50, int fullmove) {
    const VariantInfo& rules = variant_info(v);
    std::string s;
    for (int r = 7; r >= 0; --r) {
        int empty_run = 0;
        for (int f = 0; f < 8; ++f) {
            Square sq = make_square(f, r);
            Piece p = board[sq];
            if (p == NO_PIECE) {
                ++empty_run;
                continue;
            }
            if (empty_run) s += char('0' + empty_run), empty_run = 0;
            s += (on_b & square_bb(sq)) && rules.boards == 2 ? rules.board_b_letters[p] : PIECE_CHARS[p];
        }
        if (empty_run) s += char('0' + empty_run);
        if (r) s += '/';
    }
    s += ' ';
    s += color_info(side).fen;
    s += ' ';
    if (!castling) s += '-';
    if (castling & WHITE_OO) s += 'K';
    if (castling & WHITE_OOO) s += 'Q';
    if (castling & BLACK_OO) s += 'k';
    if (castling & BLACK_OOO) s += 'q';
    s += ' ';
    s += ep == SQ_NONE || !rules.has_en_passant ? std::string("-") : square_name(ep);
    s += ' ' + std::to_string(rule50) + ' ' + std::to_string(fullmove);
    return s;
}

std::string Position::fen() const {
    return write_fen(variant_, board_, on_b_, side_, st_->castling, st_->ep_square, st_->rule50, fullmove_number());
}

std::string Position::pretty() const {
    std::ostringstream os;
    const bool alice = variant_info(variant_).boards == 2;
    auto row = [&](int r, Board b) {
        std::string line = std::to_string(r + 1) + " |";
        for (int f = 0; f < 8; ++f) {
            Square sq = make_square(f, r);
            Piece p = board_[sq];
            char c = (p != NO_PIECE && board_of(sq) == b) ? PIECE_CHARS[p] : '.';
            line += ' ';
            line += c;
        }
        return line + " |";
    };
    if (alice) os << "   board A              board B\n";
    for (int r = 7; r >= 0; --r) {
        os << row(r, BOARD_A);
        if (alice) os << "   " << row(r, BOARD_B);
        os << '\n';
    }
    os << "    a b c d e f g h";
    if (alice) os << "          a b c d e f g h";
    os << "\n\nVariant: " << variant_name(variant_) << "\nFen: " << fen() << "\nKey: " << std::hex << std::uppercase
       << key() << std::dec << "\nCheckers:";
    for (Bitboard b = checkers(); b;) os << ' ' << square_name(pop_lsb(b));
    os << '\n';
    return os.str();
}

}  // namespace echecs

// Reading Popeye input: a small lexer with line numbers, one function per
// command, and the diagram turned into a FEN for the core (which validates
// it); a problem that cannot be read is refused alone and the reader goes on
// at its end. Longer than most files here (about 650 lines) because every
// command shares the lexer and the diagram; Popeye's keyword tables are
// popeye_words.cpp, the writer popeye_write.cpp.
#include "solver/popeye.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "core/position.h"
#include "solver/popeye_sstip.h"
#include "solver/popeye_words.h"

namespace echecs::solver {

namespace {

namespace pw = popeye_words;

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string shown(std::string_view s) {
    return std::string("'") + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'");
}

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    // The next blank-separated token, or nullopt at the end.
    std::optional<std::string_view> next() {
        if (pushed_) {
            pushed_ = false;
            return last_;
        }
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
            if (text_[pos_] == '\n') ++line_;
            ++pos_;
        }
        if (pos_ >= text_.size()) return std::nullopt;
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        last_ = text_.substr(start, pos_ - start);
        token_line_ = line_;
        return last_;
    }
    void push_back() { pushed_ = true; }
    // The rest of the current line (for author, title, remark...).
    std::string rest_of_line() {
        const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
        std::string_view s = text_.substr(pos_, end - pos_);
        pos_ = end;
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
        return std::string(s);
    }
    // The rest of the current line, left unread.
    std::string_view peek_rest_of_line() const {
        return text_.substr(pos_, std::min(text_.find('\n', pos_), text_.size()) - pos_);
    }
    // The line of the last token read: where an error is.
    int line() const { return token_line_; }
    // The last token read (where an error was found).
    std::string_view last() const { return last_; }
    // The language of the problem file (from its first word), for every keyword.
    pw::Language lang = pw::Language::English;

    [[noreturn]] void fail(const std::string& what) const {
        throw PopeyeError(std::string("line ") + std::to_string(token_line_) + ": " + what);
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    std::string_view last_;
    int token_line_ = 1;
    bool pushed_ = false;
};

enum Command {
    BEGIN,
    END,
    NEXT,
    REMARK,
    AUTHOR,
    ORIGIN,
    TITLE,
    AWARD,
    PROTOCOL,
    CONDITION,
    OPTION,
    STIPULATION,
    SSTIPULATION,
    FORSYTH,
    PIECES,
    TWIN,
    ZEROPOSITION,
    LATEX,
    LATEX_PIECES,
    INITIAL_GAME_ARRAY,
    AMBIGUOUS = -2
};

// A problem's command, looked up as Popeye does: its commands first, then
// the words that end a problem, then those that end a twin; -1 when none.
int command_of(const Lexer& lx, std::string_view t) {
    const int i = pw::find(pw::initial_words(lx.lang), t);
    if (i == pw::AMBIGUOUS) return AMBIGUOUS;
    switch (i) {
        case pw::REMARK: return REMARK;
        case pw::SSTIPULATION: return SSTIPULATION;
        case pw::AUTHOR: return AUTHOR;
        case pw::ORIGIN: return ORIGIN;
        case pw::PIECES: return PIECES;
        case pw::CONDITION: return CONDITION;
        case pw::OPTION: return OPTION;
        case pw::STIPULATION: return STIPULATION;
        case pw::PROTOCOL: return PROTOCOL;
        case pw::TITLE: return TITLE;
        case pw::LATEX: return LATEX;
        case pw::LATEX_PIECES: return LATEX_PIECES;
        case pw::AWARD: return AWARD;
        case pw::INITIAL_GAME_ARRAY: return INITIAL_GAME_ARRAY;
        case pw::FORSYTH: return FORSYTH;
        default: break;
    }
    const int p = pw::find(pw::problem_words(lx.lang), t);
    if (p >= 0) return p == pw::END_PROBLEM ? END : NEXT;
    const int e = pw::find(pw::end_twin_words(lx.lang), t);
    if (e >= 0) return e == pw::TWIN ? TWIN : ZEROPOSITION;
    if (p == pw::AMBIGUOUS || e == pw::AMBIGUOUS) return AMBIGUOUS;
    // "begin" inside a problem: only the whole word (a problem's end is missing).
    const std::string l = lower(t);
    return l == "begin" || l == "beginproblem" || l == "anfangproblem" || l == "debutprobleme" ? BEGIN : -1;
}

struct Diagram {
    std::array<Piece, SQUARE_NB> piece{};
    std::array<Board, SQUARE_NB> board{};
    bool alice = false, avalanche = false;
    std::optional<Stipulation> stipulation;
    Bitboard no_castling = 0;
    Square ep = SQ_NONE;
    bool white_to_play = false;  // Popeye's WhiteToPlay: a helpplay problem one half-move shorter
    // Popeye's halfduplex: solved with the colours' parts exchanged; duplex:
    // solved both ways (each twin, then the same with the parts exchanged).
    bool half_duplex = false, duplex = false;
    bool post_key = false;                          // Popeye's postkeyplay: the diagram is the position after the key
    bool no_wk = false, no_bk = false;              // Popeye's nowk, nobk: a position without that king is meant
    int max_threat = 0;                             // Popeye's "threat n"
    int max_flights = Stipulation::NO_MAX_FLIGHTS;  // Popeye's "maxflightsquares n"
    std::vector<std::pair<Square, Square>> exclusive_castlings;  // Popeye's castlingmutuallyexclusive
    std::string title;
    // a=>b: the position b, read from the men given after the stipulation (Popeye clears the board there).
    std::array<Piece, SQUARE_NB> target_piece{};
    std::array<Board, SQUARE_NB> target_board{};
    bool has_target = false;
};

std::optional<Square> square_at(std::string_view s) {
    if (s.size() < 2) return std::nullopt;
    const char f = char(std::tolower(static_cast<unsigned char>(s[0]))), r = s[1];
    if (f < 'a' || f > 'h' || r < '1' || r > '8') return std::nullopt;
    return make_square(f - 'a', r - '1');
}

std::string square_str(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

Square expect_square(Lexer& lx, const char* what) {
    auto t = lx.next();
    if (!t) lx.fail(std::string("input ends where ") + what + " was expected");
    auto s = t->size() == 2 ? square_at(*t) : std::nullopt;
    if (!s) lx.fail(shown(*t) + " is not a square (" + what + ")");
    return *s;
}

// The orthodox men's letters in the file's language (Popeye's PieNamString):
// king, pawn, queen, knight, rook, bishop.
PieceType piece_letter(char c, pw::Language lang) {
    static constexpr std::string_view LETTERS[] = {"rpdctf", "kbdstl", "kpqsrb"};
    static constexpr PieceType TYPES[] = {KING, PAWN, QUEEN, KNIGHT, ROOK, BISHOP};
    const auto i = LETTERS[int(lang)].find(char(std::tolower(static_cast<unsigned char>(c))));
    return i == std::string_view::npos ? NO_PIECE_TYPE : TYPES[i];
}

// "ke1", "pc2d3e6": a piece letter and one or more squares.
bool piece_spec(std::string_view t, pw::Language lang, PieceType& pt, std::vector<Square>& squares) {
    if (t.size() < 3 || (t.size() - 1) % 2) return false;
    pt = piece_letter(t[0], lang);
    if (!pt) return false;
    squares.clear();
    for (std::size_t i = 1; i < t.size(); i += 2) {
        auto s = square_at(t.substr(i, 2));
        if (!s) return false;
        squares.push_back(*s);
    }
    return true;
}

int twin_change_of(const Lexer& lx, std::string_view t) { return pw::find(pw::twin_words(lx.lang), t); }

// pieces / twin add: colours, the Alice attributes, piece specifications.
void read_pieces(Lexer& lx, Diagram& d, bool replace, std::string* label) {
    std::optional<Color> colour;
    Board board = BOARD_A;
    PieceType pt;
    std::vector<Square> squares;
    bool any = false;
    while (auto t = lx.next()) {
        const std::string l = lower(*t);
        const int c = pw::find(pw::colour_words(lx.lang), *t);
        if (c == pw::WHITE_WORD || c == pw::BLACK_WORD) {
            colour = c == pw::WHITE_WORD ? WHITE : BLACK;
            board = BOARD_A;
            if (label) *label += std::string(" ") + (c == pw::WHITE_WORD ? "white" : "black");
            continue;
        }
        if (c >= 0) lx.fail(shown(*t) + ": neutral and invisible pieces are not supported");
        if (colour && (l == "alicea" || l == "aliceb")) {
            board = l == "aliceb" ? BOARD_B : BOARD_A;
            if (board == BOARD_B) d.alice = true;
            if (label) *label += std::string(" ") + l;
            continue;
        }
        if (piece_spec(*t, lx.lang, pt, squares)) {
            if (!colour) lx.fail(std::string("piece ") + shown(*t) + " before its colour (white or black)");
            for (Square s : squares) {
                if (!replace && d.piece[s]) lx.fail(std::string("square ") + square_str(s) + " is given twice");
                d.piece[s] = make_piece(*colour, pt);
                d.board[s] = board;
            }
            if (label) *label += std::string(" ") + l;
            any = true;
            continue;
        }
        if ((command_of(lx, *t) != -1 || (label && twin_change_of(lx, *t) >= 0)) && (any || !label)) {
            lx.push_back();
            return;
        }
        if (lx.lang == pw::Language::English && std::tolower(static_cast<unsigned char>((*t)[0])) == 'n' &&
            t->size() >= 3 && square_at(t->substr(1, 2)))
            lx.fail(shown(*t) + ": N is Popeye's nightrider; the knight is S");
        lx.fail(shown(*t) +
                " is not a colour (white, black), an Alice board (AliceA, AliceB) or a piece "
                "(K Q R B S P and squares, e.g. ke1 or pc2d3); fairy pieces are not supported");
    }
}

void read_forsyth(Lexer& lx, Diagram& d) {
    auto t = lx.next();
    if (!t) lx.fail("input ends where a forsyth position was expected");
    int sq = 0;  // 0 = a8, in reading order
    for (std::size_t i = 0; i < t->size(); ++i) {
        const char c = (*t)[i];
        if (c == '/') continue;
        if (std::isdigit(static_cast<unsigned char>(c))) {
            int n = c - '0';
            if (i + 1 < t->size() && std::isdigit(static_cast<unsigned char>((*t)[i + 1])))
                n = n * 10 + ((*t)[++i] - '0');
            sq += n;
            continue;
        }
        const PieceType pt = piece_letter(c, lx.lang);
        if (!pt) lx.fail(std::string("forsyth ") + shown(*t) + ": '" + std::string(1, c) + "' is not K Q R B S or P");
        if (sq >= 64) lx.fail(std::string("forsyth ") + shown(*t) + ": more than 64 squares");
        const Square s = make_square(sq % 8, 7 - sq / 8);
        d.piece[s] = make_piece(std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK, pt);
        d.board[s] = BOARD_A;
        ++sq;
    }
    if (sq > 64) lx.fail(std::string("forsyth ") + shown(*t) + ": more than 64 squares");
}

// a=>b: men given after the stipulation make the position b (on an empty
// board, as Popeye clears it there).
void read_target(Lexer& lx, Diagram& d, bool forsyth) {
    Diagram b;
    b.piece = d.target_piece;
    b.board = d.target_board;
    if (forsyth)
        read_forsyth(lx, b);
    else
        read_pieces(lx, b, false, nullptr);
    d.target_piece = b.piece;
    d.target_board = b.board;
    d.has_target = true;
    if (b.alice) d.alice = true;
}

void read_stipulation(Lexer& lx, Diagram& d) {
    auto t = lx.next();
    if (!t) lx.fail("input ends where a stipulation was expected");
    std::string text(*t);
    // Popeye allows a blank before a proof game's length: "dia 4", "a=>b 3.5".
    if (const std::string l = lower(text); l == "dia" || l == "a=>b") {
        auto n = lx.next();
        if (n) text += *n;
    }
    try {
        d.stipulation = parse_stipulation(text);
    } catch (const StipulationError& e) {
        lx.fail(e.what());
    }
}

// Popeye's structured stipulation: a side, Popeye's "-" (the other side
// moves first), then the tree, to the end of the line (it may hold blanks).
void read_sstipulation(Lexer& lx, Diagram& d) {
    auto t = lx.next();
    if (!t) lx.fail("input ends where a structured stipulation was expected");
    const int c = pw::find(pw::colour_words(lx.lang), *t);
    if (c != pw::WHITE_WORD && c != pw::BLACK_WORD)
        lx.fail("sstipulation: " + shown(*t) + " is not the side that moves first (white, black)");
    std::string tree;
    for (char ch : lx.rest_of_line())
        if (!std::isspace(static_cast<unsigned char>(ch))) tree += ch;
    const Color named = c == pw::WHITE_WORD ? WHITE : BLACK;
    Color first = named;
    if (tree.starts_with("-")) {
        first = ~first;
        tree.erase(0, 1);
    }
    try {
        d.stipulation = parse_sstipulation(named, first, tree);
    } catch (const StipulationError& e) {
        lx.fail(e.what());
    }
}

void read_conditions(Lexer& lx, Diagram& d) {
    bool any = false;
    while (auto t = lx.next()) {
        const std::string l = lower(*t);
        // A game's condition: its name (the one reader), Popeye's "AliceChess" too.
        std::optional<Variant> v = variant_from_name(l);
        if (!v && l.size() > 5 && l.ends_with("chess"))
            v = variant_from_name(std::string_view(l).substr(0, l.size() - 5));
        if (v && *v != Variant::Chess) {
            switch (*v) {
                case Variant::Chess: break;  // orthodox: no condition
                case Variant::Alice: d.alice = true; break;
                case Variant::Avalanche: d.avalanche = true; break;
            }
        } else if (any && command_of(lx, *t) != -1) {
            lx.push_back();
            return;
        } else
            lx.fail(std::string("condition ") + shown(*t) +
                    " is not supported (alice; avalanche, an echecs extension)");
        any = true;
    }
}

// Squares written together ("f7f6f5", as Popeye does) or apart ("f7 f6 f5").
std::vector<Square> square_list(Lexer& lx, std::size_t min, std::size_t max) {
    std::vector<Square> out;
    while (out.size() < max) {
        auto t = lx.next();
        if (!t) break;
        if (t->size() % 2 || t->empty()) {
            lx.push_back();
            break;
        }
        std::vector<Square> here;
        for (std::size_t i = 0; i < t->size(); i += 2) {
            auto sq = square_at(t->substr(i, 2));
            if (!sq) break;
            here.push_back(*sq);
        }
        if (here.size() * 2 != t->size() || out.size() + here.size() > max) {
            lx.push_back();
            break;
        }
        out.insert(out.end(), here.begin(), here.end());
    }
    if (out.size() < min)
        lx.fail("expected " + std::to_string(min) + (min == max ? "" : " or more") + " squares, like f7f6f5");
    return out;
}

void read_options(Lexer& lx, Diagram& d, PopeyeProblem& out) {
    bool any = false;
    while (auto t = lx.next()) {
        const int o = pw::find(pw::option_words(lx.lang), *t);
        auto number = [&](int lo, int hi) {
            auto v = lx.next();
            if (!v || v->empty() || v->size() > 9) lx.fail(std::string("option ") + shown(*t) + " needs a number");
            int n = 0;
            for (char c : *v) {
                if (!std::isdigit(static_cast<unsigned char>(c))) lx.fail(shown(*v) + " is not a number");
                n = n * 10 + (c - '0');
            }
            if (n < lo || n > hi)
                lx.fail(std::string("option ") + shown(*t) + ": " + std::to_string(n) + " is not in " +
                        std::to_string(lo) + ".." + std::to_string(hi));
            return n;
        };
        switch (o) {
            case pw::TRY: out.tries = true; break;
            case pw::DEFENCE:
                if (number(1, 1000) != 1) lx.fail("option defence: only 'defence 1' (tries) is supported");
                out.tries = true;
                break;
            case pw::SET_PLAY: out.set_play = true; break;
            case pw::VARIATIONS: out.variations = true; break;
            case pw::NO_THREAT: out.threats = false; break;
            case pw::MAX_SOLUTIONS: out.max_solutions = number(1, 1000000); break;
            case pw::MAX_TIME: out.max_time = number(1, 100000000); break;
            case pw::NO_CASTLING:
                for (Square sq : square_list(lx, 1, 64)) d.no_castling |= square_bb(sq);
                break;
            case pw::EN_PASSANT: {
                const std::vector<Square> sq = square_list(lx, 3, 3);
                const Square from = sq[0], over = sq[1], to = sq[2];
                if (file_of(from) != file_of(to) || std::abs(rank_of(from) - rank_of(to)) != 2 ||
                    rank_of(over) * 2 != rank_of(from) + rank_of(to) || file_of(over) != file_of(from))
                    lx.fail("option enpassant: " + square_str(from) + " " + square_str(over) + " " + square_str(to) +
                            " is not a pawn's double step");
                d.ep = over;
                break;
            }
            case pw::WHITE_TO_PLAY: d.white_to_play = true; break;
            case pw::POST_KEY_PLAY: d.post_key = true; break;
            case pw::THREAT: d.max_threat = number(1, Stipulation::MAX_MOVES); break;
            case pw::MAX_FLIGHTSQUARES: d.max_flights = number(0, 64); break;
            case pw::CASTLING_MUTUALLY_EXCLUSIVE: {
                const std::vector<Square> sq = square_list(lx, 2, 2);
                const auto rook_home = [](Square s, int rank) { return rank_of(s) == rank && (file_of(s) % 7) == 0; };
                if (!rook_home(sq[0], 0) || !rook_home(sq[1], 7))
                    lx.fail("option castlingmutuallyexclusive: " + square_str(sq[0]) + square_str(sq[1]) +
                            " is not a white rook's home square (a1, h1) and a black one's (a8, h8)");
                d.exclusive_castlings.emplace_back(sq[0], sq[1]);
                break;
            }
            case pw::HALF_DUPLEX: d.half_duplex = true; break;
            case pw::DUPLEX: d.duplex = true; break;
            case pw::NO_WK: d.no_wk = true; break;
            case pw::NO_BK: d.no_bk = true; break;
            // Popeye's intelligent mode is a faster search for the same solutions: echecs searches in full.
            case pw::INTELLIGENT:
                // "intelligent n": Popeye's cap of n solutions per mating position, a partial
                // solution by its own account; echecs gives them all, and says so.
                if (auto n = lx.next()) {
                    if (std::all_of(n->begin(), n->end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
                        out.warnings.push_back("line " + std::to_string(lx.line()) + ": option intelligent " +
                                               std::string(*n) +
                                               ": Popeye's cap of solutions per mating position (a partial "
                                               "solution) is not applied: every solution is given");
                    else
                        lx.push_back();
                }
                break;
            case pw::NO_BOARD:
            case pw::MOVE_NUMBERS: break;  // display options: nothing to solve differently
            case pw::NONE:
            case pw::AMBIGUOUS:
                if (any && command_of(lx, *t) != -1) {
                    lx.push_back();
                    return;
                }
                lx.fail(std::string("option ") + shown(*t) +
                        (o == pw::AMBIGUOUS ? " is an ambiguous abbreviation" : " is not a Popeye option"));
            default:
                lx.fail("option '" + lower(pw::option_words(pw::Language::English)[o]) +
                        "' is not supported: it changes what is solved, and the solver does not implement it");
        }
        any = true;
    }
}

// The diagram as a FEN (the core's writer): castling where king and rook
// stand at home on board A (Popeye's default) unless `nocastling` names one of them.
std::string to_fen(const Diagram& d, Variant v) {
    Bitboard on_b = 0;
    for (Square s = SQ_A1; s <= SQ_H8; ++s)
        if (d.piece[s] && d.board[s] == BOARD_B) on_b |= square_bb(s);
    Color side = d.stipulation ? d.stipulation->starts() : WHITE;
    // dia: the diagram is the position after the last half-move, with its side to move then.
    if (d.stipulation && d.stipulation->proof() && !d.stipulation->atob && d.stipulation->plies() % 2) side = BLACK;
    std::uint8_t castling = NO_CASTLING;
    auto home = [&](Square s, Piece p) {
        return d.piece[s] == p && d.board[s] == BOARD_A && !(d.no_castling & square_bb(s));
    };
    for (Color c : {WHITE, BLACK}) {
        const int r = c == WHITE ? 0 : 7;
        if (!home(make_square(4, r), make_piece(c, KING))) continue;
        const Piece rook = make_piece(c, ROOK);
        if (home(make_square(7, r), rook)) castling |= c == WHITE ? WHITE_OO : BLACK_OO;
        if (home(make_square(0, r), rook)) castling |= c == WHITE ? WHITE_OOO : BLACK_OOO;
    }
    return write_fen(v, d.piece, on_b, side, castling, d.ep, 0, 1);
}

// Rotations and mirrors move every man by the same map of squares (Popeye's
// board transformations); an en-passant square does not survive them.
template <class Map>
void transform(Diagram& d, Map map) {
    Diagram out = d;
    out.piece.fill(NO_PIECE);
    out.board.fill(BOARD_A);
    out.no_castling = 0;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        if (!d.piece[s]) continue;
        const Square t = map(file_of(s), rank_of(s));
        out.piece[t] = d.piece[s];
        out.board[t] = d.board[s];
        if (d.no_castling & square_bb(s)) out.no_castling |= square_bb(t);
    }
    out.ep = SQ_NONE;
    d = out;
}

// rotate 90|180|270 (to the left), mirror a1<-->h1|a1<-->a8|a1<-->h8|a8<-->h1
// (the square a1, or h1, is turned into), shift a b (every man by b - a),
// polishtype (every man changes colour), substitute X Y (every X becomes a Y).
void read_transformation(Lexer& lx, int change, Diagram& d, std::string& label) {
    if (change == pw::ROTATE) {
        const std::string n = lx.next() ? lower(lx.last()) : "";
        if (n == "90")
            transform(d, [](int f, int r) { return make_square(7 - r, f); });
        else if (n == "180")
            transform(d, [](int f, int r) { return make_square(7 - f, 7 - r); });
        else if (n == "270")
            transform(d, [](int f, int r) { return make_square(r, 7 - f); });
        else
            lx.fail("twin rotate: '" + n + "' is not 90, 180 or 270");
        label += " rotate " + n;
    } else if (change == pw::MIRROR) {
        const std::string m = lx.next() ? lower(lx.last()) : "";
        if (m == "a1<-->h1")
            transform(d, [](int f, int r) { return make_square(7 - f, r); });
        else if (m == "a1<-->a8")
            transform(d, [](int f, int r) { return make_square(f, 7 - r); });
        else if (m == "a1<-->h8")
            transform(d, [](int f, int r) { return make_square(7 - r, 7 - f); });
        else if (m == "a8<-->h1")
            transform(d, [](int f, int r) { return make_square(r, f); });
        else
            lx.fail("twin mirror: '" + m + "' is not a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1");
        label += " mirror " + m;
    } else if (change == pw::SHIFT) {
        const Square a = expect_square(lx, "a square"), b = expect_square(lx, "a square");
        const int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
        for (Square s = SQ_A1; s <= SQ_H8; ++s)
            if (d.piece[s] &&
                (file_of(s) + df < 0 || file_of(s) + df > 7 || rank_of(s) + dr < 0 || rank_of(s) + dr > 7))
                lx.fail("twin shift " + square_str(a) + " " + square_str(b) + ": the man on " + square_str(s) +
                        " would leave the board");
        transform(d, [&](int f, int r) { return make_square(f + df, r + dr); });
        label += " shift " + square_str(a) + " " + square_str(b);
    } else if (change == pw::POLISH_TYPE) {
        for (Piece& p : d.piece)
            if (p) p = make_piece(~color_of(p), type_of(p));
        d.ep = SQ_NONE;
        label += " polishtype";
    } else {  // SUBSTITUTE
        PieceType from[2];
        for (PieceType& pt : from) {
            auto t = lx.next();
            if (!t || t->size() != 1 || !(pt = piece_letter((*t)[0], lx.lang)))
                lx.fail("twin substitute: expected two piece letters (K Q R B S P), as in 'substitute R B'");
        }
        for (Piece& p : d.piece)
            if (p && type_of(p) == from[0]) p = make_piece(color_of(p), from[1]);
        label += std::string(" substitute ") + "?PSBRQK"[from[0]] + " " + "?PSBRQK"[from[1]];
    }
}

void read_twin(Lexer& lx, const Diagram& base, const Diagram& previous, Diagram& d, std::string& label) {
    d = base;
    bool any = false;
    while (auto t = lx.next()) {
        const int c = twin_change_of(lx, *t);
        switch (c) {
            case pw::CONTINUED:
                if (any) lx.fail("'continued' must come first after 'twin'");
                d = previous;
                label += " continued";
                break;
            case pw::MOVE:
            case pw::EXCHANGE: {
                const Square a = expect_square(lx, "a square"), b = expect_square(lx, "a square");
                if (!d.piece[a]) lx.fail(std::string("twin: no piece on ") + square_str(a));
                if (c == pw::MOVE) {
                    d.piece[b] = d.piece[a], d.board[b] = d.board[a];
                    d.piece[a] = NO_PIECE, d.board[a] = BOARD_A;
                } else {
                    std::swap(d.piece[a], d.piece[b]);
                    std::swap(d.board[a], d.board[b]);
                }
                label += std::string(c == pw::MOVE ? " move " : " exchange ") + square_str(a) + " " + square_str(b);
                break;
            }
            case pw::REMOVE: {
                const Square a = expect_square(lx, "a square");
                if (!d.piece[a]) lx.fail(std::string("twin: no piece on ") + square_str(a));
                d.piece[a] = NO_PIECE, d.board[a] = BOARD_A;
                label += std::string(" remove ") + square_str(a);
                break;
            }
            case pw::ADD:
                label += " add";
                read_pieces(lx, d, true, &label);
                break;
            case pw::TWIN_STIPULATION:
            case pw::TWIN_SSTIPULATION:
                c == pw::TWIN_STIPULATION ? read_stipulation(lx, d) : read_sstipulation(lx, d);
                label += std::string(" stipulation ") + d.stipulation->str();
                break;
            case pw::ROTATE:
            case pw::MIRROR:
            case pw::SHIFT:
            case pw::POLISH_TYPE:
            case pw::SUBSTITUTE: read_transformation(lx, c, d, label); break;
            default:
                if (c >= 0)
                    lx.fail("twin '" + lower(pw::twin_words(pw::Language::English)[c]) + "'" +
                            " is not supported (move, exchange, remove, add, stipulation, continued, rotate, "
                            "mirror, shift, polishtype, substitute)");
                if (!any)
                    lx.fail(std::string("twin: ") + shown(*t) +
                            " is not a twin change (move, exchange, remove, add, stipulation, rotate, mirror, "
                            "shift, polishtype, substitute)");
                lx.push_back();
                return;
        }
        any = true;
    }
    if (!any) lx.fail("twin without a change");
}

// The FEN with `side` to move (an en-passant square goes with the side it was for).
std::string with_side(std::string fen, Color side) {
    const auto space = fen.find(' ');
    if (space == std::string::npos || space + 1 >= fen.size()) return fen;
    const char c = side == WHITE ? 'w' : 'b';
    if (fen[space + 1] == c) return fen;
    fen[space + 1] = c;
    // fields: placement, side, castling, en passant
    const auto castling = fen.find(' ', space + 1);
    const auto ep = castling == std::string::npos ? castling : fen.find(' ', castling + 1);
    if (ep != std::string::npos) {
        const auto end = fen.find(' ', ep + 1);
        fen.replace(ep + 1, (end == std::string::npos ? fen.size() : end) - ep - 1, "-");
    }
    return fen;
}

// A proof game's diagram that is legal with the other side to move (the side
// not to move was in check).
bool proof_diagram_with_other_side(const Problem& p) {
    if (!p.stipulation.proof() || p.stipulation.atob) return false;
    std::string fen = p.fen;
    const auto space = fen.find(' ');
    if (space == std::string::npos || space + 1 >= fen.size()) return false;
    fen[space + 1] = fen[space + 1] == 'w' ? 'b' : 'w';
    StateInfo st;
    Position pos;
    try {
        pos.set(p.variant, fen, st);
    } catch (const FenError&) {
        return false;
    }
    return true;
}

// A warning given once per problem (its twins repeat it).
void warn_once(PopeyeProblem& prob, const std::string& w) {
    if (std::find(prob.warnings.begin(), prob.warnings.end(), w) == prob.warnings.end()) prob.warnings.push_back(w);
}

Problem finish(const Lexer& lx, const Diagram& d, PopeyeProblem& prob) {
    if (!d.stipulation) lx.fail("the problem has no stipulation");
    if (d.alice && d.avalanche) lx.fail("a problem cannot be both Alice and Avalanche chess");
    Problem p;
    p.variant = d.alice ? Variant::Alice : d.avalanche ? Variant::Avalanche : Variant::Chess;
    p.stipulation = *d.stipulation;
    // WhiteToPlay shortens a helpplay problem by Black's first half-move (Popeye's meaning).
    if (d.white_to_play && p.stipulation.proof() && p.stipulation.atob)
        p.stipulation.white_first = true;  // a=>b: White makes the first half-move, the length is kept
    else if (d.white_to_play) {
        if ((p.stipulation.play == Play::Help || p.stipulation.play == Play::ReciHelp) && !p.stipulation.half &&
            p.stipulation.moves >= 1 + (p.stipulation.play == Play::ReciHelp)) {
            --p.stipulation.moves;
            p.stipulation.half = true;
        } else {
            warn_once(prob, "line " + std::to_string(lx.line()) + ": option whitetoplay does not apply to " +
                                p.stipulation.str() + ": ignored, as Popeye does");
        }
    }
    if ((d.duplex || d.half_duplex) && p.stipulation.proof())
        lx.fail(std::string(d.duplex ? "duplex" : "halfduplex") + " of a proof game (" + p.stipulation.str() +
                ") is not supported: the colours' parts are exchanged only in mates and stalemates");
    p.stipulation.exchanged = p.stipulation.exchanged != d.half_duplex;  // sstipulation may exchange them
    if (d.post_key && !p.stipulation.battle())
        warn_once(prob, "line " + std::to_string(lx.line()) +
                            ": option postkeyplay applies to battle play (#n, s#n, r#n, semi-r#n, =n), not to " +
                            p.stipulation.str() + ": ignored, as Popeye does");
    p.stipulation.post_key = d.post_key && p.stipulation.battle();
    if (d.max_threat && !p.stipulation.battle())
        lx.fail("option threat applies to battle play (#n, s#n, r#n, semi-r#n, =n), not to " + p.stipulation.str());
    p.stipulation.max_threat = d.max_threat;
    if (d.max_flights != Stipulation::NO_MAX_FLIGHTS && !p.stipulation.battle())
        lx.fail("option maxflightsquares applies to battle play (#n, s#n, r#n, semi-r#n, =n), not to " +
                p.stipulation.str());
    p.stipulation.max_flights = d.max_flights;
    if (!d.exclusive_castlings.empty() && p.stipulation.proof())
        lx.fail("option castlingmutuallyexclusive is not supported in proof games (" + p.stipulation.str() + ")");
    p.exclusive_castlings = d.exclusive_castlings;
    if (self_check_goal(p.stipulation.goal) && p.variant == Variant::Avalanche)
        lx.fail(p.stipulation.str() + ": " + AVALANCHE_SELF_CHECK);
    if (p.stipulation.series() && p.variant == Variant::Avalanche)
        lx.fail(p.stipulation.str() +
                ": series play is not defined in Avalanche chess (a pass would skip a pending "
                "promotion's choice)");
    Diagram shown_diagram = d;
    shown_diagram.stipulation = p.stipulation;
    p.fen = to_fen(shown_diagram, p.variant);
    p.title = d.title;
    // A missing king: Popeye warns ("both sides need a king") unless nowk or
    // nobk says it is meant, and solves on; a proof game's diagram needs both.
    p.kings = p.stipulation.kings();
    if (p.kings == Kings::AtMostOne)
        for (Color c : {WHITE, BLACK}) {
            if (c == WHITE ? d.no_wk : d.no_bk) continue;
            if (std::find(d.piece.begin(), d.piece.end(), make_piece(c, KING)) != d.piece.end()) continue;
            warn_once(prob, "line " + std::to_string(lx.line()) + ": no " + std::string(color_info(c).name) +
                                " king (Popeye's option " + (c == WHITE ? "nowk" : "nobk") +
                                " says it is meant): solved without it, as Popeye does");
        }
    StateInfo st;
    Position pos;
    try {
        pos.set(p.variant, p.fen, st, p.kings);
    } catch (const FenError& e) {
        // dia: a diagram whose side not to move is in check cannot arise; it
        // is read all the same, and the search says it has no solution (as Popeye).
        if (!proof_diagram_with_other_side(p)) lx.fail(std::string("the position is not legal: ") + e.what());
    }
    if (p.stipulation.proof() && p.stipulation.atob) {
        if (!d.has_target) lx.fail(p.stipulation.str() + ": the position b (pieces after the stipulation) is missing");
        Bitboard on_b = 0;
        for (Square s = SQ_A1; s <= SQ_H8; ++s)
            if (d.target_piece[s] && d.target_board[s] == BOARD_B) on_b |= square_bb(s);
        // The side to move after the last half-move, so that the core's validation applies.
        const int plies = p.stipulation.plies();
        const Color side = plies % 2 ? ~p.stipulation.starts() : p.stipulation.starts();
        p.target = write_fen(p.variant, d.target_piece, on_b, side, NO_CASTLING, SQ_NONE, 0, 1);
        StateInfo tst;
        Position tpos;
        try {
            tpos.set(p.variant, p.target, tst);
        } catch (const FenError& e) {
            Problem other = p;
            other.fen = p.target;
            other.stipulation.atob = false;
            if (!proof_diagram_with_other_side(other)) lx.fail(std::string("the position b is not legal: ") + e.what());
        }
    }
    return p;
}

// Popeye's LaTeX piece names after 'latex FILE' or 'latexpieces': lines of
// a piece's code (one or two letters), its LaTeX abbreviation (one to three
// capitals) and its name ("n SU Nachtreiter", BEISPIEL/twin.inp), dropped
// with the rest of the LaTeX. Anything else is the problem's next word.
void skip_latex_pieces(Lexer& lx) {
    const auto letters = [](std::string_view w, std::size_t most, bool capitals) {
        return !w.empty() && w.size() <= most && std::all_of(w.begin(), w.end(), [&](char c) {
            return capitals
                       ? (std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)))
                       : std::isalpha(static_cast<unsigned char>(c)) != 0;
        });
    };
    while (auto code = lx.next()) {
        std::string_view rest = lx.peek_rest_of_line();
        while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
        const std::string_view abbreviation = rest.substr(0, rest.find_first_of(" \t\r"));
        const bool named = abbreviation.size() < rest.size();
        if (!letters(*code, 2, false) || !letters(abbreviation, 3, true) || !named) {
            lx.push_back();
            return;
        }
        lx.rest_of_line();
    }
}

// After a refused problem: its remaining words up to 'next' (true) or 'end'.
bool skip_problem(Lexer& lx, std::string_view failed_at) {
    auto ends = [&](std::string_view t, bool& more) {
        const int c = command_of(lx, t);
        more = c == NEXT;
        return c == END || c == NEXT;
    };
    bool more = false;
    if (!failed_at.empty() && ends(failed_at, more)) return more;
    while (auto t = lx.next()) {
        if (ends(*t, more)) return more;
        switch (command_of(lx, *t)) {
            case REMARK:
            case PROTOCOL:
            case AUTHOR:
            case ORIGIN:
            case TITLE:
            case AWARD: lx.rest_of_line(); break;
            case LATEX:
            case LATEX_PIECES:
                lx.rest_of_line();
                skip_latex_pieces(lx);
                break;
            default: break;
        }
    }
    return false;
}

// One problem, up to its 'next' (returns true) or 'end'.
bool read_problem(Lexer& lx, PopeyeProblem& prob) {
    Diagram diagram, last;
    std::vector<Diagram> twins;
    bool in_twins = false, more = false;
    while (auto t = lx.next()) {
        const int c = command_of(lx, *t);
        if (c == END) break;
        if (c == NEXT) {
            more = true;
            break;
        }
        if (in_twins && c != TWIN) lx.fail(shown(*t) + " after a twin: only 'twin', 'next' or 'end' may follow");
        switch (c) {
            case BEGIN: lx.fail("'begin' inside a problem (a problem ends with 'next' or 'end')");
            case REMARK:
            case PROTOCOL: lx.rest_of_line(); break;
            case LATEX:
            case LATEX_PIECES:
                lx.rest_of_line();
                prob.warnings.push_back("line " + std::to_string(lx.line()) + ": " + shown(*t) +
                                        " is ignored: echecs writes no LaTeX");
                skip_latex_pieces(lx);
                break;
            case AUTHOR:
            case ORIGIN:
            case TITLE:
            case AWARD: {
                std::string s = lx.rest_of_line();
                if (!s.empty() && diagram.title.size() < 1000)
                    diagram.title += (diagram.title.empty() ? "" : "; ") + s.substr(0, 200);
                break;
            }
            case PIECES:
            case FORSYTH:
                if (diagram.stipulation && diagram.stipulation->atob)
                    read_target(lx, diagram, c == FORSYTH);
                else if (c == FORSYTH)
                    read_forsyth(lx, diagram);
                else
                    read_pieces(lx, diagram, false, nullptr);
                break;
            case INITIAL_GAME_ARRAY: {
                Lexer start("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
                read_forsyth(start, diagram);
                break;
            }
            case STIPULATION: read_stipulation(lx, diagram); break;
            case CONDITION: read_conditions(lx, diagram); break;
            case OPTION: read_options(lx, diagram, prob); break;
            case TWIN: {
                if (twins.size() + 1 >= POPEYE_MAX_TWINS)
                    lx.fail(std::string("more than ") + std::to_string(POPEYE_MAX_TWINS) + " twins");
                if (!in_twins) {
                    prob.twins.push_back(finish(lx, diagram, prob));
                    prob.twin_labels.push_back("a)");
                    last = diagram;
                    in_twins = true;
                }
                Diagram d;
                std::string label(1, char('a' + prob.twins.size()));
                label += ")";
                read_twin(lx, diagram, last, d, label);
                prob.twins.push_back(finish(lx, d, prob));
                prob.twin_labels.push_back(label);
                twins.push_back(d);
                last = d;
                break;
            }
            case SSTIPULATION: read_sstipulation(lx, diagram); break;
            case ZEROPOSITION: {
                // The diagram is not solved: its changes make the first twin, and
                // later twins change the diagram again (or, continued, the last twin).
                Diagram d;
                std::string label = "a)";
                read_twin(lx, diagram, diagram, d, label);
                prob.twins.push_back(finish(lx, d, prob));
                prob.twin_labels.push_back(label);
                twins.push_back(d);
                last = d;
                in_twins = true;
                break;
            }
            case AMBIGUOUS: lx.fail(shown(*t) + " is an ambiguous abbreviation of Popeye commands");
            default:
                lx.fail(shown(*t) + " is not a Popeye command (pieces, stipulation, condition, option, twin, ...)");
        }
    }
    if (!in_twins) {
        prob.twins.push_back(finish(lx, diagram, prob));
        prob.twin_labels.push_back("");
    }
    if (diagram.duplex) {
        // Each twin, then the same with the colours' parts exchanged, as Popeye solves them.
        std::vector<Problem> both;
        std::vector<std::string> labels;
        for (std::size_t i = 0; i < prob.twins.size(); ++i) {
            both.push_back(prob.twins[i]);
            labels.push_back(prob.twin_labels[i]);
            Problem other = prob.twins[i];
            other.stipulation.exchanged = !other.stipulation.exchanged;
            other.fen = with_side(other.fen, other.stipulation.starts());
            StateInfo st;
            Position pos;
            try {
                pos.set(other.variant, other.fen, st, other.kings);
            } catch (const FenError& e) {
                lx.fail(std::string("duplex: with the colours' parts exchanged, the position is not legal: ") +
                        e.what());
            }
            both.push_back(std::move(other));
            labels.push_back(prob.twin_labels[i].empty() ? "duplex" : prob.twin_labels[i] + " duplex");
        }
        prob.twins = std::move(both);
        prob.twin_labels = std::move(labels);
    }
    return more;
}

}  // namespace

std::vector<PopeyeProblem> read_popeye_all(std::string_view text) {
    if (text.size() > POPEYE_MAX_BYTES) throw PopeyeError("line 1: the input is larger than 1 MiB");
    Lexer lx(text);
    std::vector<PopeyeProblem> out;
    auto first = lx.next();
    if (!first) lx.fail("empty input: a problem starts with 'begin'");
    const auto lang = lower(*first) == "begin" ? pw::Language::English : pw::language_of_begin(*first);
    if (!lang) lx.fail(shown(*first) + ": a problem starts with 'begin'");
    lx.lang = *lang;

    bool more = true;
    while (more) {
        if (out.size() >= POPEYE_MAX_PROBLEMS)
            lx.fail(std::string("more than ") + std::to_string(POPEYE_MAX_PROBLEMS) + " problems");
        PopeyeProblem prob;
        try {
            more = read_problem(lx, prob);
        } catch (const PopeyeError& e) {
            // This problem is refused; the next ones are still read.
            prob.twins.clear();
            prob.twin_labels.clear();
            prob.refused = e.what();
            more = skip_problem(lx, lx.last());
        }
        out.push_back(std::move(prob));
    }
    return out;
}

std::vector<PopeyeProblem> read_popeye(std::string_view text) {
    std::vector<PopeyeProblem> out = read_popeye_all(text);
    for (const PopeyeProblem& p : out)
        if (!p.refused.empty()) throw PopeyeError(p.refused);
    return out;
}

}  // namespace echecs::solver

// FEN, coordinate and SAN: round trips and bad input.
#include <gtest/gtest.h>

#include "core/utf8.h"
#include "helpers.h"

namespace echecs::test {
namespace {

// ------------------------------------------------------------------ FEN

TEST(Fen, RoundTripsOnAllTestdataPositions) {
    for (const char* file : {"chess_perft.tsv", "alice_perft.tsv", "avalanche_perft.tsv"}) {
        Variant v = file[0] == 'c' ? Variant::Chess : file[1] == 'l' ? Variant::Alice : Variant::Avalanche;
        for (const auto& r : read_tsv(file)) {
            Pos a(v, r[0]);
            Pos b(v, a.pos.fen());
            EXPECT_EQ(a.pos.fen(), b.pos.fen()) << r[0];
            EXPECT_EQ(a.pos.key(), b.pos.key()) << r[0];
        }
    }
}

void expect_fen_error(Variant v, const char* fen, const char* needle) {
    try {
        Pos p(v, fen);
        ADD_FAILURE() << "accepted: " << fen;
    } catch (const FenError& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(Fen, BadInputNamesTheFieldAndTheProblem) {
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields");
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "fields");
    expect_fen_error(Variant::Chess, "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "unknown piece letter 'x'");
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/5O2/PPPPPPPP/RNBQKB1R w KQkq - 0 1", "alice");
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement");
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks");
    expect_fen_error(Variant::Chess, "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "no black king");
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "2 white kings");
    expect_fen_error(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w kq - 0 1", "first rank");
    expect_fen_error(Variant::Chess, "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "last rank");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "active colour");
    expect_fen_error(Variant::Chess, "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "not to move");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "twice");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K2R w X - 0 1", "castling");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove");
    expect_fen_error(Variant::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove");
}

// é (two bytes in UTF-8) in each field: the message quotes the whole
// character, as valid UTF-8, so that it can be serialised as JSON.
TEST(Fen, ErrorsQuoteInputAsValidUtf8) {
    const std::string e = "\xC3\xA9";
    const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN";
    const std::pair<std::string, const char*> cases[] = {
        {start + e + " w KQkq - 0 1", "piece placement field: unknown piece letter '\u00e9' on rank 1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR " + e + " KQkq - 0 1",
         "active colour field: '\u00e9' is neither"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk" + e + " - 0 1",
         "castling availability field: unknown letter '\u00e9'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq " + e + " 0 1",
         "en passant target square field: '\u00e9' is not a square"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - " + e + " 1", "halfmove clock field: '\u00e9'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + e, "fullmove number field: '\u00e9'"},
        // A lone byte of a character, and a byte that starts none, are escaped.
        {start + "\xC3 w KQkq - 0 1", "unknown piece letter '\\xC3'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e\xFF 0 1", "field: 'e\\xFF' is not a square"},
    };
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        for (const auto& [fen, needle] : cases) {
            try {
                Pos p(v, fen);
                ADD_FAILURE() << "accepted: " << fen;
            } catch (const FenError& err) {
                EXPECT_TRUE(is_valid_utf8(err.what())) << err.what();
                EXPECT_NE(std::string(err.what()).find(needle), std::string::npos) << err.what();
            }
        }
    }
    // A long field is quoted in part, never cut inside a character.
    std::string long_field;
    for (int i = 0; i < 100; ++i) long_field += e;
    try {
        Pos p(Variant::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR " + long_field + " KQkq - 0 1");
        ADD_FAILURE();
    } catch (const FenError& err) {
        EXPECT_TRUE(is_valid_utf8(err.what())) << err.what();
        EXPECT_NE(std::string(err.what()).find("...'"), std::string::npos) << err.what();
    }
}

TEST(Fen, BlackToMoveWithWhiteCastlingIsFine) {
    EXPECT_NO_THROW(Pos(Variant::Chess, "4k3/8/8/8/8/8/8/4K2R b K - 0 1"));
}

TEST(Fen, FourFieldsAreAccepted) {
    Pos p(Variant::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
    EXPECT_EQ(p.pos.fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
}

// ------------------------------------------------------------ coordinates

TEST(Uci, WritesAndReadsEveryLegalMoveOfTestdataPositions) {
    for (const char* file : {"chess_perft.tsv", "alice_perft.tsv", "avalanche_perft.tsv"}) {
        Variant v = file[0] == 'c' ? Variant::Chess : file[1] == 'l' ? Variant::Alice : Variant::Avalanche;
        for (const auto& r : read_tsv(file)) {
            Pos p(v, r[0]);
            MoveList list;
            generate_legal(p.pos, list);
            for (Move m : list) EXPECT_EQ(parse_uci(p.pos, to_uci(m)), m) << to_uci(m);
        }
    }
}

TEST(Uci, UnreadableAndIllegalAreToldApart) {
    Pos p(Variant::Chess, Position::START_FEN);
    EXPECT_THROW(parse_uci(p.pos, "e2e5"), NotationError);
    try {
        parse_uci(p.pos, "e2e5");
    } catch (const NotationError& e) {
        EXPECT_NE(std::string(e.what()).find("illegal"), std::string::npos);
    }
    try {
        parse_uci(p.pos, "e2-e4");
    } catch (const NotationError& e) {
        EXPECT_NE(std::string(e.what()).find("unreadable"), std::string::npos);
    }
    EXPECT_THROW(parse_uci(p.pos, "g1f3,e7e6"), NotationError);  // a push outside Avalanche
    EXPECT_THROW(parse_uci(p.pos, ""), NotationError);
}

// ------------------------------------------------------------------- SAN

TEST(San, RoundTripOverRandomGamesInAllVariants) {
    for (Variant v : {Variant::Chess, Variant::Alice, Variant::Avalanche}) {
        std::uint64_t seed = 987654321;
        for (int game = 0; game < 25; ++game) {
            Game g(v);
            for (int ply = 0; ply < 100; ++ply) {
                MoveList list;
                g.legal_moves(list);
                if (list.empty()) break;
                const std::vector<std::string> all = to_san_all(g.position(), list);
                ASSERT_EQ(all.size(), list.size());
                for (int i = 0; i < int(list.size()); ++i) {
                    const Move m = list.moves[i];
                    const std::string san = to_san(g.position(), m);
                    ASSERT_EQ(all[i], san) << variant_name(v) << ' ' << g.position().fen();
                    ASSERT_EQ(parse_san(g.position(), san), m)
                        << variant_name(v) << ' ' << g.position().fen() << ' ' << san;
                }
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                g.play(list.moves[(seed >> 33) % list.size()]);
            }
        }
    }
}

TEST(San, DisambiguationAndSuffixes) {
    Pos p(Variant::Chess, "3k4/8/8/8/8/8/K7/R6R w - - 0 1");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "a1d1")), "Rad1+");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "h1h8")), "Rh8+");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "h1e1")), "Rhe1");
    Pos q(Variant::Chess, "7k/8/8/8/R7/8/8/R3K3 w - - 0 1");
    EXPECT_EQ(to_san(q.pos, parse_uci(q.pos, "a1a2")), "R1a2");
    Pos m(Variant::Chess, "7k/8/6K1/8/8/8/8/R7 w - - 0 1");
    EXPECT_EQ(to_san(m.pos, parse_uci(m.pos, "a1a8")), "Ra8#");
    Pos c(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(to_san(c.pos, parse_uci(c.pos, "e1g1")), "O-O");
    EXPECT_EQ(to_san(c.pos, parse_uci(c.pos, "e1c1")), "O-O-O");
    Pos pr(Variant::Chess, "8/P6k/8/8/8/8/8/K7 w - - 0 1");
    EXPECT_EQ(to_san(pr.pos, parse_uci(pr.pos, "a7a8n")), "a8=N");
}

TEST(San, AmbiguousAndIllegalInput) {
    Pos p(Variant::Chess, "3k4/8/8/8/8/8/K7/R6R w - - 0 1");
    try {
        parse_san(p.pos, "Rd1");
        ADD_FAILURE();
    } catch (const NotationError& e) {
        EXPECT_NE(std::string(e.what()).find("ambiguous"), std::string::npos) << e.what();
    }
    try {
        parse_san(p.pos, "Nf3");
        ADD_FAILURE();
    } catch (const NotationError& e) {
        EXPECT_NE(std::string(e.what()).find("illegal"), std::string::npos) << e.what();
    }
    for (const char* bad : {"", "Zf3", "R", "Rd9", "e", "xe4", "+"})
        EXPECT_THROW(parse_san(p.pos, bad), NotationError) << bad;
}

TEST(San, AliceStandardOutAndSeedLettersIn) {
    Game g(Variant::Alice);
    // The seed writes 1.Pe4 Pd5 2.Be2 Sxe4 3.Cb5#.
    for (const char* san : {"Pe4", "Pd5", "Be2", "Sxe4", "Cb5#"}) g.play_san(san);
    EXPECT_EQ(g.result().termination, Termination::Checkmate);
    Game h(Variant::Alice);
    std::vector<std::string> out;
    for (const char* uci : {"e2e4", "d7d5", "f1e2", "d5e4", "e2b5"}) {
        Move m = parse_uci(h.position(), uci);
        out.push_back(to_san(h.position(), m));
        h.play(m);
    }
    EXPECT_EQ(out, (std::vector<std::string>{"e4", "d5", "Be2", "dxe4", "Bb5#"}));
}

TEST(San, AlicePawnPushesFromBothBoardsAreDisambiguated) {
    // g7 (board A) can step twice to g5 over g6, whose pawn stands on board B.
    Pos p(Variant::Alice, "4k3/6p1/6s1/8/8/8/8/4K3 b - - 0 1");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "g7g5")), "g7g5");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "g6g5")), "g6g5");
    EXPECT_THROW(parse_san(p.pos, "g5"), NotationError);
    EXPECT_EQ(parse_san(p.pos, "g7g5"), parse_uci(p.pos, "g7g5"));
    EXPECT_EQ(parse_san(p.pos, "Sg5"), parse_uci(p.pos, "g6g5"));  // seed letter: the board-B pawn
}

TEST(San, AliceDisambiguatesAcrossBoards) {
    // Rooks a1 (board A) and h1... one on board B (U): both can reach d1? The board-B rook on h1
    // moves on board B, d1 empty on both boards: "Rad1"/"Rhd1".
    Pos p(Variant::Alice, "4k3/8/8/8/8/8/8/R3K2U w - - 0 1");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "a1c1")), "Rac1");
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "h1g1")), "Rg1");
    EXPECT_EQ(parse_san(p.pos, "Uc1"), parse_uci(p.pos, "h1c1"));  // seed letter: the board-B rook
}

TEST(San, AvalancheWritesMateOnlyForCheckmate) {
    // Qg2+: White must take the queen, and the only push then, h2-h1, would
    // put a queen or knight of Black's choice beside the king: an avalanche
    // loss, not a checkmate, so '+'.
    Pos loss(Variant::Avalanche, "k5q1/1p6/1P6/p7/P7/b7/7p/2B4K b - - 16 73");
    const Move qg2 = parse_uci(loss.pos, "g8g2");
    EXPECT_EQ(to_san(loss.pos, qg2), "Qg2+");
    EXPECT_EQ(parse_san(loss.pos, "Qg2#"), qg2);  // older writers' '#' still reads
    StateInfo st;
    loss.pos.do_move(qg2, st);
    EXPECT_EQ(position_result(loss.pos, 1).termination, Termination::AvalancheLoss);
    EXPECT_EQ(no_move_verdict(loss.pos), Termination::AvalancheLoss);
    loss.pos.undo_move(qg2);
    MoveList legal;
    generate_legal(loss.pos, legal);
    EXPECT_EQ(to_san_all(loss.pos, legal)[std::find(legal.begin(), legal.end(), qg2) - legal.begin()], "Qg2+");
    // A real checkmate keeps '#'.
    Pos mate(Variant::Avalanche, "k7/7Q/1K6/8/8/8/8/8 w - - 0 1");
    EXPECT_EQ(to_san(mate.pos, parse_uci(mate.pos, "h7b7")), "Qb7#");
}

TEST(San, LongAlgebraicAndEnPassantMarks) {
    Pos p(Variant::Chess, Position::START_FEN);
    EXPECT_EQ(parse_san(p.pos, "e2-e4"), parse_uci(p.pos, "e2e4"));
    EXPECT_EQ(parse_san(p.pos, "Ng1-f3"), parse_uci(p.pos, "g1f3"));
    EXPECT_EQ(parse_san(p.pos, "e2e4"), parse_uci(p.pos, "e2e4"));
    EXPECT_THROW(parse_san(p.pos, "e2-e5"), NotationError);
    EXPECT_THROW(parse_san(p.pos, "e-e4"), NotationError);
    Pos promo(Variant::Chess, "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    EXPECT_EQ(parse_san(promo.pos, "e7xd8=Q"), parse_uci(promo.pos, "e7d8q"));
    EXPECT_EQ(parse_san(promo.pos, "e7-e8=N"), parse_uci(promo.pos, "e7e8n"));
    Pos castle(Variant::Chess, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(parse_san(castle.pos, "0-0"), parse_uci(castle.pos, "e1g1"));
    EXPECT_EQ(parse_san(castle.pos, "0-0-0+"), parse_uci(castle.pos, "e1c1"));
    Pos ep(Variant::Chess, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    for (const char* s : {"exd6", "exd6e.p.", "exd6 e.p.", "exd6e.p", "exd6+e.p.", "e5xd6 e.p."})
        EXPECT_EQ(parse_san(ep.pos, s), parse_uci(ep.pos, "e5d6")) << s;
}

TEST(San, ErrorsQuoteInputAsValidUtf8) {
    Pos p(Variant::Chess, Position::START_FEN);
    for (const char* s : {"N\xC3\xA9"
                          "f3",
                          "\xC3", "e4\xE2\x82", "\xFF\xFE", "Q\xF0\x9F\x98\x80"}) {
        try {
            parse_san(p.pos, s);
            ADD_FAILURE() << s;
        } catch (const NotationError& e) {
            EXPECT_TRUE(is_valid_utf8(e.what())) << e.what();
        }
        try {
            parse_uci(p.pos, s);
            ADD_FAILURE() << s;
        } catch (const NotationError& e) {
            EXPECT_TRUE(is_valid_utf8(e.what())) << e.what();
        }
    }
    try {
        parse_san(p.pos,
                  "N\xC3\xA9"
                  "f3");
    } catch (const NotationError& e) {
        EXPECT_EQ(std::string(e.what()), "unreadable move 'N\u00e9f3'");
    }
}

TEST(San, AvalancheWritesThePushAndTheChoice) {
    Pos p(Variant::Avalanche, Position::START_FEN);
    EXPECT_EQ(to_san(p.pos, parse_uci(p.pos, "g1f3,e7e6")), "Nf3,e6");
    EXPECT_EQ(parse_san(p.pos, "Nf3,e6"), parse_uci(p.pos, "g1f3,e7e6"));
    EXPECT_THROW(parse_san(p.pos, "Nf3"), NotationError);  // the push is missing
    Pos q(Variant::Avalanche, "4k3/8/8/8/8/8/K7/3p4 b - - 0 1");
    EXPECT_EQ(to_san(q.pos, parse_uci(q.pos, "q:d1d4")), "Q:Qd4");
    EXPECT_EQ(to_san(q.pos, parse_uci(q.pos, "q:d1d5")), "Q:Qd5+");
    EXPECT_EQ(parse_san(q.pos, "N:Nc3"), parse_uci(q.pos, "n:d1c3"));
    EXPECT_THROW(parse_san(q.pos, "Ke7"), NotationError);  // the choice is missing
}

}  // namespace
}  // namespace echecs::test

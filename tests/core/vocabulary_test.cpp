// The shared names: the API strings the server and web client depend on,
// byte for byte, and the readers of every table.
#include "core/vocabulary.h"

#include <gtest/gtest.h>

#include <string>

#include "core/utf8.h"

namespace echecs::test {
namespace {

TEST(Vocabulary, ApiNamesAreTheOnesTheServerStores) {
    EXPECT_EQ(variant_name(Variant::Chess), "chess");
    EXPECT_EQ(variant_name(Variant::Alice), "alice");
    EXPECT_EQ(variant_name(Variant::Avalanche), "avalanche");
    EXPECT_EQ(color_info(WHITE).name, "white");
    EXPECT_EQ(color_info(BLACK).name, "black");
    EXPECT_EQ(pgn_result(Outcome::WhiteWins), "1-0");
    EXPECT_EQ(pgn_result(Outcome::BlackWins), "0-1");
    EXPECT_EQ(pgn_result(Outcome::Draw), "1/2-1/2");
    EXPECT_EQ(pgn_result(Outcome::Ongoing), "*");
    const std::pair<Termination, const char*> api[] = {
        {Termination::None, ""},
        {Termination::Checkmate, "checkmate"},
        {Termination::Stalemate, "stalemate"},
        {Termination::AvalancheLoss, "avalanche loss"},
        {Termination::Repetition, "repetition"},
        {Termination::FiftyMoves, "fifty moves"},
        {Termination::InsufficientMaterial, "insufficient material"},
        {Termination::TimeForfeit, "time forfeit"},
        {Termination::Resignation, "resignation"},
        {Termination::Agreement, "agreement"},
        {Termination::Aborted, "aborted"},
    };
    for (const auto& [t, name] : api) {
        EXPECT_EQ(termination_name(t), name);
        if (*name) {
            EXPECT_EQ(termination_from_name(name), t) << name;
        }
    }
}

TEST(Vocabulary, EveryTerminationHasAPgnValueStandardToolsKnow) {
    for (const TerminationInfo& t : TERMINATIONS) {
        EXPECT_TRUE(t.pgn == "Normal" || t.pgn == "Time forfeit" || t.pgn == "Abandoned" || t.pgn == "Adjudication" ||
                    t.pgn == "Rules infraction" || t.pgn == "Unterminated")
            << t.pgn;
        EXPECT_FALSE(t.reason.empty());
        EXPECT_EQ(termination_from_name(t.reason), t.termination) << t.reason;
    }
    EXPECT_EQ(termination_info(Termination::Checkmate).pgn, "Normal");
    EXPECT_EQ(termination_info(Termination::TimeForfeit).pgn, "Time forfeit");
    EXPECT_EQ(termination_info(Termination::FiftyMoves).reason, "fifty-move rule");
}

TEST(Vocabulary, TheGamesTableHoldsWhatDiffers) {
    static_assert(std::size(VARIANTS) == VARIANT_NB);
    for (const VariantInfo& g : VARIANTS) {
        // Every name a row gives is read back to the row, in any case.
        EXPECT_EQ(variant_from_name(g.name), g.variant);
        EXPECT_EQ(variant_from_name(g.xboard), g.variant);
        std::string upper(g.name);
        for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_EQ(variant_from_name(upper), g.variant);
        EXPECT_EQ(variant_from_pgn(g.pgn), g.variant);
        EXPECT_EQ(g.board_b_letters.empty(), g.boards == 1) << g.name;
        EXPECT_FALSE(g.display_key.empty());
    }
    EXPECT_EQ(variant_info(Variant::Alice).boards, 2);
    EXPECT_EQ(variant_info(Variant::Alice).board_b_letters, " SOCUTL  socutl");
    EXPECT_FALSE(variant_info(Variant::Avalanche).has_en_passant);
    EXPECT_TRUE(variant_info(Variant::Avalanche).has_pushes);
    EXPECT_EQ(variant_info(Variant::Alice).dead_position, DeadPositionRule::KingsOnly);
}

TEST(Vocabulary, OneMessageListsTheAcceptedNames) {
    EXPECT_EQ(accepted_variant_names(), "chess, alice, avalanche");
    EXPECT_EQ(unknown_variant_message("x"), "unknown variant 'x' (accepted: chess, alice, avalanche)");
    EXPECT_EQ(accepted_pgn_variant_names(), "Standard, Alice, Avalanche");
    EXPECT_FALSE(variant_from_name(" chess"));  // nothing trimmed
}

TEST(Vocabulary, ReadersAreCaseInsensitiveAndRejectTheUnknown) {
    EXPECT_EQ(variant_from_name("Alice"), Variant::Alice);
    EXPECT_EQ(variant_from_name("STANDARD"), Variant::Chess);
    EXPECT_EQ(variant_from_name("normal"), Variant::Chess);
    EXPECT_FALSE(variant_from_name("from position"));  // a PGN spelling only
    EXPECT_FALSE(variant_from_name("alic"));
    EXPECT_FALSE(variant_from_name(""));
    EXPECT_EQ(variant_from_pgn("From Position"), Variant::Chess);
    EXPECT_EQ(variant_from_pgn(""), Variant::Chess);
    EXPECT_EQ(variant_from_pgn(" Avalanche chess "), Variant::Avalanche);
    EXPECT_FALSE(variant_from_pgn("Alice Avalanche"));
    EXPECT_FALSE(variant_from_pgn("Chess960"));
    EXPECT_EQ(color_from_name("Black"), BLACK);
    EXPECT_FALSE(color_from_name("random"));
    EXPECT_EQ(outcome_from_pgn("1/2-1/2"), Outcome::Draw);
    EXPECT_FALSE(outcome_from_pgn("1/2"));
    EXPECT_FALSE(termination_from_name("mate"));
    EXPECT_FALSE(termination_from_name(""));
}

TEST(Utf8, ValidityAndQuoting) {
    EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
    for (const char* bad : {"\xC3", "\xC3\x28", "\xE2\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF"})
        EXPECT_FALSE(is_valid_utf8(bad)) << bad;
    EXPECT_EQ(quote_input("\xC3\xA9t\xC3"), "'\xC3\xA9t\\xC3'");
    EXPECT_EQ(quote_input("a\nb"), "'a\\x0Ab'");
    // Cut at a character boundary: 3 bytes allowed, 'é' (2) + 'é' would be 4.
    EXPECT_EQ(quote_input("\xC3\xA9\xC3\xA9", 3), "'\xC3\xA9...'");
    EXPECT_EQ(quote_char_at("x\xE2\x82\xAC", 1), "'\xE2\x82\xAC'");
    EXPECT_EQ(quote_char_at("x\xE2\x82", 1), "'\\xE2'");
    EXPECT_EQ(to_utf8_from_legacy("M\xFCller \x80"), "M\xC3\xBCller \xE2\x82\xAC");
    EXPECT_EQ(to_utf8_from_legacy("d\xC3\xA9j\xC3\xA0"), "d\xC3\xA9j\xC3\xA0");  // already UTF-8: unchanged
}

}  // namespace
}  // namespace echecs::test

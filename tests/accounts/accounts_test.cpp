// Accounts and ratings: Glicko-2 against the paper's worked example and by
// properties; rating categories; name and password rules; hashing.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "server/accounts/credentials.h"
#include "server/accounts/glicko2.h"
#include "server/accounts/names.h"
#include "server/accounts/speed.h"

using namespace echecs::server::accounts;

TEST(Glicko2, GlickmansWorkedExample) {
    // Glickman, "Example of the Glicko-2 system" (2013): a 1500 player, RD 200,
    // volatility 0.06, tau 0.5, beats a 1400 (RD 30), loses to a 1550 (RD 100)
    // and to a 1700 (RD 300): 1464.06, RD 151.52, volatility 0.05999.
    const std::vector<GlickoGame> games = {{{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
    const Glicko after = rate_period({1500, 200, 0.06}, games, 0.5);
    EXPECT_NEAR(after.rating, 1464.06, 0.01);
    EXPECT_NEAR(after.deviation, 151.52, 0.01);
    EXPECT_NEAR(after.volatility, 0.05999, 0.00001);  // the paper writes 0.059996 as 0.05999
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
    const Glicko g{1720, 80, 0.06};
    const Glicko later = rate_period(g, {}, 0.5, 4.0);
    EXPECT_EQ(later.rating, 1720);
    EXPECT_NEAR(later.deviation, std::sqrt(80.0 * 80.0 + 4 * 0.06 * 0.06 * 173.7178 * 173.7178), 1e-9);
}

TEST(Glicko2, WinsNeverLowerLossesNeverRaiseAndDeviationsStayInRange) {
    std::mt19937_64 rng(20261201);
    std::uniform_real_distribution<double> rating(600, 2900), dev(45, 500), vol(0.03, 0.1), days(0, 400);
    const GlickoParams p;
    for (int i = 0; i < 20000; ++i) {
        const Glicko a{rating(rng), dev(rng), vol(rng)}, b{rating(rng), dev(rng), vol(rng)};
        const double d = days(rng);
        const Glicko win = rate_game(a, d, b, 1, p), loss = rate_game(a, d, b, 0, p), draw = rate_game(a, d, b, 0.5, p);
        ASSERT_GE(win.rating, a.rating);
        ASSERT_LE(loss.rating, a.rating);
        ASSERT_LT(loss.rating, draw.rating);
        ASSERT_LT(draw.rating, win.rating);
        for (const Glicko& g : {win, loss, draw}) {
            ASSERT_GE(g.deviation, p.min_deviation);
            ASSERT_LE(g.deviation, p.max_deviation);
            ASSERT_GT(g.volatility, 0);
            ASSERT_LE(g.volatility, p.max_volatility);
        }
    }
}

TEST(Glicko2, AnUpsetMovesMoreThanAnExpectedResultAndNewPlayersMoveMost) {
    const Glicko strong{2000, 60, 0.06}, weak{1500, 60, 0.06};
    const double expected_gain = rate_game(strong, 1, weak, 1).rating - strong.rating;
    const double upset_gain = rate_game(weak, 1, strong, 1).rating - weak.rating;
    EXPECT_GT(upset_gain, 5 * expected_gain);
    const Glicko newcomer = new_rating();
    EXPECT_TRUE(provisional(newcomer));
    EXPECT_FALSE(provisional(strong));
    EXPECT_GT(rate_game(newcomer, 0, weak, 1).rating - newcomer.rating, upset_gain);
}

TEST(Speed, EstimatedDurationBoundaries) {
    EXPECT_EQ(realtime_speed(1, 0), Speed::Bullet);
    EXPECT_EQ(realtime_speed(2, 1), Speed::Bullet);  // 2 + 40/60 = 2.67
    EXPECT_EQ(realtime_speed(3, 0), Speed::Blitz);   // exactly 3 is blitz
    EXPECT_EQ(realtime_speed(3, 2), Speed::Blitz);   // 4.33
    EXPECT_EQ(realtime_speed(5, 3), Speed::Blitz);   // 7
    EXPECT_EQ(realtime_speed(8, 0), Speed::Rapid);
    EXPECT_EQ(realtime_speed(10, 0), Speed::Rapid);
    EXPECT_EQ(realtime_speed(15, 10), Speed::Rapid);  // 21.67
    EXPECT_EQ(realtime_speed(25, 0), Speed::Classical);
    EXPECT_EQ(realtime_speed(20, 10), Speed::Classical);  // 26.67
    for (Speed s : {Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical, Speed::Correspondence})
        EXPECT_EQ(speed_from_name(speed_name(s)), s);
    EXPECT_FALSE(speed_from_name("ultrabullet"));
}

TEST(Credentials, UserNames) {
    EXPECT_EQ(check_username("Ann"), std::nullopt);
    EXPECT_EQ(check_username("a_b-c_0123456789XYZ"), std::nullopt);
    EXPECT_EQ(check_username("ab"), "username_length");
    EXPECT_EQ(check_username("abcdefghijklmnopqrstu"), "username_length");
    EXPECT_EQ(check_username("Ann Lee"), "username_chars");
    EXPECT_EQ(check_username("Ann\xE2\x80\xAEx"), "username_chars");  // right-to-left override
    EXPECT_EQ(check_username("Ren\xC3\xA9"), "username_chars");
    EXPECT_EQ(check_username("Computer"), "username_reserved");
    EXPECT_EQ(check_username("ADMIN"), "username_reserved");
    EXPECT_EQ(check_username("deleted"), "username_reserved");
    EXPECT_EQ(check_username("Stockfish9"), "username_reserved");  // the engine's names, any suffix
    EXPECT_EQ(check_username("adrnin"), "username_reserved");      // r and n read as m
    EXPECT_EQ(check_username("Admiral"), std::nullopt);
    // Look-alikes read as one name: letter case, l and I, 0 and O, rn and m.
    EXPECT_EQ(name_skeleton("AnnLee"), name_skeleton("annIee"));
    EXPECT_EQ(name_skeleton("B0b"), name_skeleton("bob"));
    EXPECT_EQ(name_skeleton("Marn"), name_skeleton("rnarn"));
    EXPECT_EQ(name_skeleton("\u0410nn"), name_skeleton("Ann"));  // a Cyrillic А
    EXPECT_NE(name_skeleton("Ann"), name_skeleton("Anne"));
    EXPECT_EQ(canonical_username("AnnLee"), "annlee");
}

TEST(Credentials, Passwords) {
    EXPECT_EQ(check_password("correct horse", "ann"), std::nullopt);
    EXPECT_EQ(check_password("s\xC3\xA9same-ouvre", "ann"), std::nullopt);  // UTF-8 is fine
    EXPECT_EQ(check_password("short12", "ann"), "password_short");
    EXPECT_EQ(check_password("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", "ann"),
              "password_short");  // 7 characters in 14 bytes
    EXPECT_EQ(check_password(std::string(257, 'x') + "y", "ann"), "password_long");
    EXPECT_EQ(check_password("abc\xC3"
                             "defgh",
                             "ann"),
              "password_utf8");
    EXPECT_EQ(check_password("Password1", "ann"), "password_common");
    EXPECT_EQ(check_password("AZERTYUIOP", "ann"), "password_common");
    EXPECT_EQ(check_password("zzzzzzzzzz", "ann"), "password_common");
    EXPECT_EQ(check_password("éééééééé", "ann"), "password_common");  // characters, not bytes
    EXPECT_EQ(check_password("ééééééée", "ann"), std::nullopt);
    EXPECT_EQ(check_password("my-AnnLee-pass", "annlee"), "password_is_username");
}

TEST(Credentials, HashesVerifyAndNeverHoldThePassword) {
    const HashCost cost = HashCost::minimal();
    const std::string h = hash_password("correct horse", cost);
    EXPECT_EQ(h.rfind("$argon2id$", 0), 0u) << h;
    EXPECT_EQ(h.find("correct horse"), std::string::npos);
    EXPECT_TRUE(verify_password("correct horse", h));
    EXPECT_FALSE(verify_password("correct horsf", h));
    EXPECT_FALSE(verify_password("correct horse", "not a hash"));
    EXPECT_FALSE(verify_password("correct horse", ""));
    EXPECT_NE(hash_password("correct horse", cost), h);  // salted
    verify_dummy("anything", cost);
}

TEST(Credentials, SessionSecretsAreRandomAndStoredHashed) {
    const std::string a = new_secret(), b = new_secret();
    EXPECT_EQ(a.size(), 43u);  // 32 bytes, base64url without padding
    EXPECT_NE(a, b);
    for (char c : a) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
    EXPECT_EQ(secret_hash(a), secret_hash(a));
    EXPECT_NE(secret_hash(a), secret_hash(b));
    EXPECT_EQ(secret_hash(a).size(), 64u);
    EXPECT_EQ(secret_hash(a).find(a), std::string::npos);
}

// The accounts' persistent records and the storage interface, with a SQLite
// backend (its own connection to the server's database file, WAL mode) and a
// PostgreSQL one (libpqxx). The accounts tables have their own migrations,
// versioned in their own table (accounts_schema), so that they never collide
// with the server's. No secret is stored in clear: passwords as Argon2id
// strings, session secrets and browser tokens as BLAKE2b hashes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace echecs::server::accounts {

class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct AccountRecord {
    std::int64_t id = 0;
    std::string name;             // as the player wrote it
    std::string password_hash;    // Argon2id string; "" once deleted
    std::int64_t created_at = 0;  // epoch ms
    bool deleted = false;
};

struct SessionRecord {
    std::string hash;  // secret_hash() of the cookie's secret
    std::int64_t account_id = 0;
    std::int64_t created_at = 0;
    std::int64_t expires_at = 0;
};

// One rating category of one player.
struct RatingRecord {
    std::int64_t account_id = 0;
    std::string variant;  // chess | alice | avalanche
    std::string speed;    // speed_name()
    double rating = 1500, deviation = 500, volatility = 0.09;
    int games = 0;                  // rated games in this category
    std::int64_t last_game_at = 0;  // epoch ms of the last rated game (the rating period's start)
};

struct HistoryPoint {
    std::string variant, speed, game_id;
    std::int64_t at = 0;
    double rating = 0, deviation = 0;
};

// A finished game as one of its players' lists shows it.
struct PlayerGame {
    std::string game_id;
    std::int64_t account_id = 0;
    std::string color;  // white | black
    std::string variant, speed;
    bool rated = false;
    std::string result;                          // win | loss | draw (for this player)
    std::int64_t ended_at = 0;                   // epoch ms
    std::int64_t opponent_id = 0;                // 0: anonymous or the computer
    std::string opponent_name;                   // as the game named them (used when opponent_id is 0)
    double rating_before = 0, rating_after = 0;  // rated games
    bool is_private = false;                     // a direct challenge: counted, listed nowhere
};

struct LeaderboardRow {
    std::int64_t account_id = 0;
    std::string name;
    double rating = 0, deviation = 0;
    int games = 0;
};

// A rated or casual result, written in one transaction: the two players'
// new ratings (rated), their history points and their game rows.
struct ResultWrite {
    std::vector<RatingRecord> ratings;
    std::vector<HistoryPoint> history;  // with account_ids below, same order
    std::vector<std::int64_t> history_accounts;
    std::vector<PlayerGame> games;
};

struct GameQuery {
    std::int64_t account_id = 0;
    std::string before;   // keyset: games listed after this game id ("" from the newest)
    std::string variant;  // "" for any
    std::string speed;
    std::string result;  // win | loss | draw | ""
    int limit = 20;
};

// An account's puzzle rating in one game (docs/PUZZLES.md "Rating").
struct PuzzleRatingRecord {
    std::int64_t account_id = 0;
    std::string variant;  // chess | alice | avalanche
    double rating = 1500, deviation = 500, volatility = 0.09;
    int puzzles = 0;           // puzzles rated in this game
    std::int64_t last_at = 0;  // epoch ms of the last rated attempt (the rating period's start)
};

// An account's first finished attempt at a puzzle (the only one rated).
struct PuzzleAttemptRecord {
    std::int64_t account_id = 0;
    std::string puzzle_id, variant;
    std::string result;   // solved | failed
    std::int64_t at = 0;  // epoch ms
};

// What record_puzzle_attempt wrote: the rating before (nullopt: none stored
// yet) and after.
struct PuzzleWrite {
    std::optional<PuzzleRatingRecord> before;
    PuzzleRatingRecord after;
};
// The new rating from the stored one (nullopt: none yet).
using PuzzleRate = std::function<PuzzleRatingRecord(const std::optional<PuzzleRatingRecord>& stored)>;

struct GameCounts {
    int all = 0, rated = 0, win = 0, loss = 0, draw = 0;
};

// Not thread-safe: one thread (the accounts worker) uses a store. Every
// method throws StoreError when the database fails; every write is one
// transaction, applied whole or not at all.
class AccountStore {
public:
    virtual ~AccountStore() = default;
    virtual int schema_version() = 0;

    // The account and its first session (and the browser token's link,
    // when token_hash is not empty) together; nullopt, nothing written, when
    // the name is taken in any letter case (a deleted account's name stays taken).
    virtual std::optional<std::int64_t> create_account(const AccountRecord& a, const SessionRecord& first,
                                                       const std::string& token_hash) = 0;
    // By name in any letter case; deleted accounts too (check `deleted`).
    virtual std::optional<AccountRecord> find_account(const std::string& name) = 0;
    virtual std::optional<AccountRecord> account_by_id(std::int64_t id) = 0;
    // New hash; every session but `keep_session` revoked.
    virtual void set_password(std::int64_t id, const std::string& hash, const std::string& keep_session) = 0;
    // The same password hashed at the current cost, sessions untouched;
    // only while the stored hash is still `old_hash` (changed meanwhile: kept).
    virtual void rehash_password(std::int64_t id, const std::string& old_hash, const std::string& new_hash) = 0;
    // Marks the account deleted, forgets its password hash, sessions and
    // token links; its games and ratings stay (shown under "deleted").
    virtual void delete_account(std::int64_t id) = 0;

    virtual void add_session(const SessionRecord& s) = 0;
    virtual std::optional<SessionRecord> find_session(const std::string& hash) = 0;
    virtual void delete_session(const std::string& hash) = 0;
    virtual void delete_sessions(std::int64_t account_id) = 0;
    virtual int delete_expired_sessions(std::int64_t now) = 0;  // how many

    // The browser token (hashed) is logged in as the account (a later link
    // wins); unlinked when that browser logs out, all of an account's at
    // once when it logs out everywhere.
    virtual void link_token(const std::string& token_hash, std::int64_t account_id, std::int64_t now) = 0;
    virtual void unlink_token(const std::string& token_hash) = 0;
    virtual void unlink_tokens(std::int64_t account_id) = 0;
    virtual std::optional<std::int64_t> token_account(const std::string& token_hash) = 0;

    virtual std::vector<RatingRecord> ratings(std::int64_t account_id) = 0;
    virtual std::optional<RatingRecord> rating(std::int64_t account_id, const std::string& variant,
                                               const std::string& speed) = 0;
    // Rated games of account `a` against account `b` that ended at `since` or later.
    virtual int rated_games_between(std::int64_t a, std::int64_t b, std::int64_t since) = 0;
    // Whether a game already has a row for this account (a result is recorded once).
    virtual bool has_game(const std::string& game_id, std::int64_t account_id) = 0;
    // All or nothing; false (nothing written) when a game row already exists.
    virtual bool write_result(const ResultWrite& w) = 0;
    // A recorded game's rows (one per account), any order.
    virtual std::vector<PlayerGame> game_rows(const std::string& game_id) = 0;
    // Oldest first, the last `limit` points of each category.
    virtual std::vector<HistoryPoint> history(std::int64_t account_id, int limit_per_category) = 0;
    // Newest first (ended_at, then game id).
    virtual std::vector<PlayerGame> games(const GameQuery& q) = 0;
    virtual GameCounts counts(std::int64_t account_id) = 0;
    // Best first; accounts not deleted, with a rated game since `active_since`
    // and a deviation at most `max_deviation`.
    virtual std::vector<LeaderboardRow> leaderboard(const std::string& variant, const std::string& speed,
                                                    std::int64_t active_since, double max_deviation, int limit) = 0;

    // Puzzle ratings, by game.
    virtual std::vector<PuzzleRatingRecord> puzzle_ratings(std::int64_t account_id) = 0;
    virtual std::optional<PuzzleRatingRecord> puzzle_rating(std::int64_t account_id, const std::string& variant) = 0;
    // The ids of the puzzles of `variant` the account has finished.
    virtual std::vector<std::string> attempted_puzzles(std::int64_t account_id, const std::string& variant) = 0;
    // The attempt and the rating `rate` makes of the stored one, in one
    // transaction; nullopt, nothing written, when the account has already
    // finished this puzzle. `rate` runs again when another connection (a
    // second server on the same PostgreSQL) rated the account meanwhile.
    virtual std::optional<PuzzleWrite> record_puzzle_attempt(const PuzzleAttemptRecord& a, const PuzzleRate& rate) = 0;
};

// "postgresql://..." or "postgres://...": PostgreSQL; anything else is a
// SQLite file path. Brings the accounts tables to the current version.
// Throws StoreError.
std::unique_ptr<AccountStore> open_account_store(const std::string& url);
std::unique_ptr<AccountStore> open_sqlite_account_store(const std::string& path);
std::unique_ptr<AccountStore> open_postgres_account_store(const std::string& url);

inline constexpr int ACCOUNTS_SCHEMA_VERSION = 4;

}  // namespace echecs::server::accounts

// The accounts store, one implementation of its queries over SqlConn for
// both databases. Migrations differ only by column types, so each is written
// once with {ID}, {INT} and {REAL} (SqlConn::dialect). Never edit a
// migration that has shipped: add one.
#include "server/accounts/account_store.h"

#include <array>
#include <charconv>

#include "server/accounts/credentials.h"
#include "server/accounts/names.h"
#include "server/accounts/sql_conn.h"

namespace echecs::server::accounts {

namespace {

// Migration N takes the accounts tables from version N to N+1.
const std::array<const char*, ACCOUNTS_SCHEMA_VERSION> MIGRATIONS = {
    R"sql(
CREATE TABLE accounts (
  id {ID},
  name TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at {INT} NOT NULL,
  deleted {INT} NOT NULL DEFAULT 0
);
CREATE TABLE account_sessions (
  hash TEXT PRIMARY KEY,
  account_id {INT} NOT NULL REFERENCES accounts(id),
  created_at {INT} NOT NULL,
  expires_at {INT} NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions(account_id);
CREATE TABLE account_tokens (
  token_hash TEXT PRIMARY KEY,
  account_id {INT} NOT NULL REFERENCES accounts(id),
  linked_at {INT} NOT NULL
);
CREATE INDEX account_tokens_account ON account_tokens(account_id);
CREATE TABLE account_ratings (
  account_id {INT} NOT NULL REFERENCES accounts(id),
  variant TEXT NOT NULL,
  speed TEXT NOT NULL,
  rating {REAL} NOT NULL,
  deviation {REAL} NOT NULL,
  volatility {REAL} NOT NULL,
  games {INT} NOT NULL,
  last_game_at {INT} NOT NULL,
  PRIMARY KEY (account_id, variant, speed)
);
CREATE INDEX account_ratings_board ON account_ratings(variant, speed, rating);
CREATE TABLE account_rating_history (
  account_id {INT} NOT NULL REFERENCES accounts(id),
  variant TEXT NOT NULL,
  speed TEXT NOT NULL,
  game_id TEXT NOT NULL,
  at {INT} NOT NULL,
  rating {REAL} NOT NULL,
  deviation {REAL} NOT NULL,
  PRIMARY KEY (account_id, variant, speed, game_id)
);
CREATE INDEX account_rating_history_at ON account_rating_history(account_id, variant, speed, at);
CREATE TABLE account_games (
  game_id TEXT NOT NULL,
  account_id {INT} NOT NULL REFERENCES accounts(id),
  color TEXT NOT NULL,
  variant TEXT NOT NULL,
  speed TEXT NOT NULL,
  rated {INT} NOT NULL,
  result TEXT NOT NULL,
  ended_at {INT} NOT NULL,
  opponent_id {INT} NOT NULL,
  opponent_name TEXT NOT NULL,
  rating_before {REAL} NOT NULL,
  rating_after {REAL} NOT NULL,
  PRIMARY KEY (game_id, account_id)
);
CREATE INDEX account_games_list ON account_games(account_id, ended_at, game_id);
)sql",
    // 2: a direct challenge's game is kept for the ratings and counts, and
    // listed nowhere.
    R"sql(
ALTER TABLE account_games ADD COLUMN is_private {BOOL} NOT NULL DEFAULT {FALSE};
)sql",
    // 3: names are also unique by their look-alike skeleton (names.h); the
    // existing accounts' skeletons are filled in by migrate().
    R"sql(
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT NOT NULL DEFAULT '';
CREATE INDEX accounts_name_skeleton ON accounts(name_skeleton);
)sql",
    // 4: the puzzle rating of each account in each game, and each account's
    // first finished attempt at a puzzle (the one rated: docs/PUZZLES.md).
    R"sql(
CREATE TABLE account_puzzle_ratings (
  account_id {INT} NOT NULL REFERENCES accounts(id),
  variant TEXT NOT NULL,
  rating {REAL} NOT NULL,
  deviation {REAL} NOT NULL,
  volatility {REAL} NOT NULL,
  puzzles {INT} NOT NULL,
  last_at {INT} NOT NULL,
  PRIMARY KEY (account_id, variant)
);
CREATE TABLE account_puzzle_attempts (
  account_id {INT} NOT NULL REFERENCES accounts(id),
  puzzle_id TEXT NOT NULL,
  variant TEXT NOT NULL,
  result TEXT NOT NULL,
  at {INT} NOT NULL,
  rating_before {REAL} NOT NULL,
  rating_after {REAL} NOT NULL,
  PRIMARY KEY (account_id, puzzle_id)
);
CREATE INDEX account_puzzle_attempts_variant ON account_puzzle_attempts(account_id, variant);
)sql",
};

// Runs f in a write transaction: committed whole, or rolled back and rethrown.
template <class F>
auto transaction(SqlConn& db, F f) {
    db.begin();
    try {
        if constexpr (std::is_void_v<decltype(f())>) {
            f();
            db.commit();
        } else {
            auto r = f();
            db.commit();
            return r;
        }
    } catch (...) {
        db.rollback();
        throw;
    }
}

const char* const ACCOUNT_COLUMNS = "id, name, password_hash, created_at, deleted";
AccountRecord account_of(const SqlRow& r) { return {r.i(0), r.s(1), r.s(2), r.i(3), r.i(4) != 0}; }

const char* const RATING_COLUMNS = "account_id, variant, speed, rating, deviation, volatility, games, last_game_at";
RatingRecord rating_of(const SqlRow& r) {
    return {r.i(0), r.s(1), r.s(2), r.d(3), r.d(4), r.d(5), int(r.i(6)), r.i(7)};
}

const char* const GAME_COLUMNS =
    "game_id, account_id, color, variant, speed, rated, result, ended_at, opponent_id, opponent_name, "
    "rating_before, rating_after, is_private";
PlayerGame game_of(const SqlRow& r) {
    return {r.s(0), r.i(1), r.s(2), r.s(3),  r.s(4),  r.i(5) != 0, r.s(6),
            r.i(7), r.i(8), r.s(9), r.d(10), r.d(11), r.b(12)};
}

const char* const PUZZLE_RATING_COLUMNS = "account_id, variant, rating, deviation, volatility, puzzles, last_at";
PuzzleRatingRecord puzzle_rating_of(const SqlRow& r) {
    return {r.i(0), r.s(1), r.d(2), r.d(3), r.d(4), int(r.i(5)), r.i(6)};
}

class SqlAccountStore final : public AccountStore {
public:
    explicit SqlAccountStore(std::unique_ptr<SqlConn> db) : db_(std::move(db)) { migrate(); }

    int schema_version() override {
        const auto rows = db_->query("SELECT version FROM accounts_schema");
        return rows.empty() ? 0 : int(rows[0].i(0));
    }

    std::optional<std::int64_t> create_account(const AccountRecord& a, const SessionRecord& first,
                                               const std::string& token_hash) override {
        try {
            return transaction(*db_, [&]() -> std::optional<std::int64_t> {
                // Taken in any letter case, or in a look-alike spelling ("AnnIee" after "AnnLee").
                const std::string skeleton = name_skeleton(a.name);
                if (!db_->query("SELECT id FROM accounts WHERE name_key = ? OR name_skeleton = ?",
                                {canonical_username(a.name), skeleton})
                         .empty())
                    return std::nullopt;
                const auto rows = db_->query(
                    "INSERT INTO accounts (name, name_key, name_skeleton, password_hash, created_at, deleted) "
                    "VALUES (?, ?, ?, ?, ?, 0) RETURNING id",
                    {a.name, canonical_username(a.name), skeleton, a.password_hash, a.created_at});
                const std::int64_t id = rows.at(0).i(0);
                insert_session({first.hash, id, first.created_at, first.expires_at});
                if (!token_hash.empty()) upsert_token(token_hash, id, a.created_at);
                return id;
            });
        } catch (const UniqueViolation&) {
            return std::nullopt;  // another connection took the name meanwhile
        }
    }

    std::optional<AccountRecord> find_account(const std::string& name) override {
        const auto rows = db_->query(std::string("SELECT ") + ACCOUNT_COLUMNS + " FROM accounts WHERE name_key = ?",
                                     {canonical_username(name)});
        if (rows.empty()) return std::nullopt;
        return account_of(rows[0]);
    }
    std::optional<AccountRecord> account_by_id(std::int64_t id) override {
        const auto rows = db_->query(std::string("SELECT ") + ACCOUNT_COLUMNS + " FROM accounts WHERE id = ?", {id});
        if (rows.empty()) return std::nullopt;
        return account_of(rows[0]);
    }
    void set_password(std::int64_t id, const std::string& hash, const std::string& keep_session) override {
        transaction(*db_, [&] {
            db_->query("UPDATE accounts SET password_hash = ? WHERE id = ?", {hash, id});
            db_->query("DELETE FROM account_sessions WHERE account_id = ? AND hash <> ?", {id, keep_session});
        });
    }
    void rehash_password(std::int64_t id, const std::string& old_hash, const std::string& new_hash) override {
        db_->query("UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?",
                   {new_hash, id, old_hash});
    }
    void delete_account(std::int64_t id) override {
        transaction(*db_, [&] {
            db_->query("UPDATE accounts SET deleted = 1, password_hash = '' WHERE id = ?", {id});
            db_->query("DELETE FROM account_sessions WHERE account_id = ?", {id});
            db_->query("DELETE FROM account_tokens WHERE account_id = ?", {id});
        });
    }

    void add_session(const SessionRecord& s) override { insert_session(s); }
    std::optional<SessionRecord> find_session(const std::string& hash) override {
        const auto rows =
            db_->query("SELECT hash, account_id, created_at, expires_at FROM account_sessions WHERE hash = ?", {hash});
        if (rows.empty()) return std::nullopt;
        return SessionRecord{rows[0].s(0), rows[0].i(1), rows[0].i(2), rows[0].i(3)};
    }
    void delete_session(const std::string& hash) override {
        db_->query("DELETE FROM account_sessions WHERE hash = ?", {hash});
    }
    void delete_sessions(std::int64_t account_id) override {
        db_->query("DELETE FROM account_sessions WHERE account_id = ?", {account_id});
    }
    int delete_expired_sessions(std::int64_t now) override {
        return int(db_->query("DELETE FROM account_sessions WHERE expires_at <= ? RETURNING hash", {now}).size());
    }

    void link_token(const std::string& token_hash, std::int64_t account_id, std::int64_t now) override {
        upsert_token(token_hash, account_id, now);
    }
    void unlink_token(const std::string& token_hash) override {
        db_->query("DELETE FROM account_tokens WHERE token_hash = ?", {token_hash});
    }
    void unlink_tokens(std::int64_t account_id) override {
        db_->query("DELETE FROM account_tokens WHERE account_id = ?", {account_id});
    }
    std::optional<std::int64_t> token_account(const std::string& token_hash) override {
        const auto rows = db_->query("SELECT account_id FROM account_tokens WHERE token_hash = ?", {token_hash});
        if (rows.empty()) return std::nullopt;
        return rows[0].i(0);
    }

    std::vector<RatingRecord> ratings(std::int64_t account_id) override {
        std::vector<RatingRecord> out;
        for (const SqlRow& r : db_->query(std::string("SELECT ") + RATING_COLUMNS +
                                              " FROM account_ratings WHERE account_id = ? ORDER BY variant, speed",
                                          {account_id}))
            out.push_back(rating_of(r));
        return out;
    }
    std::optional<RatingRecord> rating(std::int64_t account_id, const std::string& variant,
                                       const std::string& speed) override {
        const auto rows = db_->query(std::string("SELECT ") + RATING_COLUMNS +
                                         " FROM account_ratings WHERE account_id = ? AND variant = ? AND speed = ?",
                                     {account_id, variant, speed});
        if (rows.empty()) return std::nullopt;
        return rating_of(rows[0]);
    }
    int rated_games_between(std::int64_t a, std::int64_t b, std::int64_t since) override {
        return int(db_->query("SELECT COUNT(*) FROM account_games WHERE account_id = ? AND ended_at >= ? AND "
                              "opponent_id = ? AND rated <> 0",
                              {a, since, b})
                       .at(0)
                       .i(0));
    }
    bool has_game(const std::string& game_id, std::int64_t account_id) override {
        return !db_->query("SELECT 1 FROM account_games WHERE game_id = ? AND account_id = ?", {game_id, account_id})
                    .empty();
    }
    std::vector<PlayerGame> game_rows(const std::string& game_id) override {
        std::vector<PlayerGame> out;
        for (const SqlRow& r :
             db_->query(std::string("SELECT ") + GAME_COLUMNS + " FROM account_games WHERE game_id = ?", {game_id}))
            out.push_back(game_of(r));
        return out;
    }
    bool write_result(const ResultWrite& w) override {
        try {
            return transaction(*db_, [&] {
                for (const PlayerGame& g : w.games)
                    if (has_game(g.game_id, g.account_id)) return false;
                for (const RatingRecord& r : w.ratings)
                    db_->query(
                        "INSERT INTO account_ratings (account_id, variant, speed, rating, deviation, volatility, "
                        "games, "
                        "last_game_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, variant, speed) DO "
                        "UPDATE SET rating = excluded.rating, deviation = excluded.deviation, volatility = "
                        "excluded.volatility, games = excluded.games, last_game_at = excluded.last_game_at",
                        {r.account_id, r.variant, r.speed, r.rating, r.deviation, r.volatility, std::int64_t(r.games),
                         r.last_game_at});
                for (std::size_t k = 0; k < w.history.size(); ++k) {
                    const HistoryPoint& h = w.history[k];
                    db_->query(
                        "INSERT INTO account_rating_history (account_id, variant, speed, game_id, at, rating, "
                        "deviation) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        {w.history_accounts.at(k), h.variant, h.speed, h.game_id, h.at, h.rating, h.deviation});
                }
                for (const PlayerGame& g : w.games)
                    db_->query(
                        std::string("INSERT INTO account_games (") + GAME_COLUMNS +
                            ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        {g.game_id, g.account_id, g.color, g.variant, g.speed, std::int64_t(g.rated), g.result,
                         g.ended_at, g.opponent_id, g.opponent_name, g.rating_before, g.rating_after, g.is_private});
                return true;
            });
        } catch (const UniqueViolation&) {
            return false;
        }
    }
    std::vector<HistoryPoint> history(std::int64_t account_id, int limit_per_category) override {
        std::vector<HistoryPoint> out;
        for (const SqlRow& r : db_->query(
                 "SELECT variant, speed, game_id, at, rating, deviation FROM (SELECT variant, speed, game_id, at, "
                 "rating, deviation, ROW_NUMBER() OVER (PARTITION BY variant, speed ORDER BY at DESC, game_id DESC) "
                 "AS n FROM account_rating_history WHERE account_id = ?) AS h WHERE n <= ? "
                 "ORDER BY variant, speed, at, game_id",
                 {account_id, std::int64_t(limit_per_category)}))
            out.push_back({r.s(0), r.s(1), r.s(2), r.i(3), r.d(4), r.d(5)});
        return out;
    }
    std::vector<PlayerGame> games(const GameQuery& q) override {
        // A direct challenge's game is listed nowhere (API.md).
        std::string sql =
            std::string("SELECT ") + GAME_COLUMNS + " FROM account_games WHERE account_id = ? AND is_private = ?";
        SqlParams p{q.account_id, false};
        if (!q.before.empty()) {
            const auto at = db_->query("SELECT ended_at FROM account_games WHERE account_id = ? AND game_id = ?",
                                       {q.account_id, q.before});
            if (at.empty()) return {};
            sql += " AND (ended_at < ? OR (ended_at = ? AND game_id < ?))";
            p.insert(p.end(), {at[0].i(0), at[0].i(0), q.before});
        }
        if (!q.variant.empty()) sql += " AND variant = ?", p.emplace_back(q.variant);
        if (!q.speed.empty()) sql += " AND speed = ?", p.emplace_back(q.speed);
        if (!q.result.empty()) sql += " AND result = ?", p.emplace_back(q.result);
        sql += " ORDER BY ended_at DESC, game_id DESC LIMIT ?";
        p.emplace_back(std::int64_t(q.limit));
        std::vector<PlayerGame> out;
        for (const SqlRow& r : db_->query(sql, p)) out.push_back(game_of(r));
        return out;
    }
    GameCounts counts(std::int64_t account_id) override {
        const auto rows = db_->query(
            "SELECT COUNT(*), COALESCE(SUM(rated), 0), "
            "COALESCE(SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END), 0), "
            "COALESCE(SUM(CASE WHEN result = 'loss' THEN 1 ELSE 0 END), 0), "
            "COALESCE(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END), 0) FROM account_games WHERE account_id = ?",
            {account_id});
        const SqlRow& r = rows.at(0);
        return {int(r.i(0)), int(r.i(1)), int(r.i(2)), int(r.i(3)), int(r.i(4))};
    }
    std::vector<LeaderboardRow> leaderboard(const std::string& variant, const std::string& speed,
                                            std::int64_t active_since, double max_deviation, int limit) override {
        std::vector<LeaderboardRow> out;
        for (const SqlRow& r : db_->query(
                 "SELECT a.id, a.name, r.rating, r.deviation, r.games FROM account_ratings r JOIN accounts a ON "
                 "a.id = r.account_id WHERE r.variant = ? AND r.speed = ? AND a.deleted = 0 AND r.last_game_at >= ? "
                 "AND r.deviation <= ? ORDER BY r.rating DESC, a.id LIMIT ?",
                 {variant, speed, active_since, max_deviation, std::int64_t(limit)}))
            out.push_back({r.i(0), r.s(1), r.d(2), r.d(3), int(r.i(4))});
        return out;
    }

    std::vector<PuzzleRatingRecord> puzzle_ratings(std::int64_t account_id) override {
        std::vector<PuzzleRatingRecord> out;
        for (const SqlRow& r : db_->query(std::string("SELECT ") + PUZZLE_RATING_COLUMNS +
                                              " FROM account_puzzle_ratings WHERE account_id = ? ORDER BY variant",
                                          {account_id}))
            out.push_back(puzzle_rating_of(r));
        return out;
    }
    std::optional<PuzzleRatingRecord> puzzle_rating(std::int64_t account_id, const std::string& variant) override {
        const auto rows = db_->query(std::string("SELECT ") + PUZZLE_RATING_COLUMNS +
                                         " FROM account_puzzle_ratings WHERE account_id = ? AND variant = ?",
                                     {account_id, variant});
        if (rows.empty()) return std::nullopt;
        return puzzle_rating_of(rows[0]);
    }
    std::vector<std::string> attempted_puzzles(std::int64_t account_id, const std::string& variant) override {
        std::vector<std::string> out;
        for (const SqlRow& r : db_->query("SELECT puzzle_id FROM account_puzzle_attempts WHERE account_id = ? AND "
                                          "variant = ? ORDER BY puzzle_id",
                                          {account_id, variant}))
            out.push_back(r.s(0));
        return out;
    }
    std::optional<PuzzleWrite> record_puzzle_attempt(const PuzzleAttemptRecord& a, const PuzzleRate& rate) override {
        // The rating is written only if it is still the one read (its count
        // of puzzles, under the row's lock): a lost race writes nothing and
        // reads again. The attempt's key makes a puzzle rated once.
        enum class Step { Written, Already, Again };
        for (int tries = 0; tries < 10; ++tries) {
            PuzzleWrite w;
            Step step;
            try {
                step = transaction(*db_, [&] {
                    if (!db_->query("SELECT 1 FROM account_puzzle_attempts WHERE account_id = ? AND puzzle_id = ?",
                                    {a.account_id, a.puzzle_id})
                             .empty())
                        return Step::Already;
                    w.before = puzzle_rating(a.account_id, a.variant);
                    w.after = rate(w.before);
                    const PuzzleRatingRecord& r = w.after;
                    const std::int64_t changed =
                        w.before
                            ? db_->exec(
                                  "UPDATE account_puzzle_ratings SET rating = ?, deviation = ?, volatility = ?, "
                                  "puzzles = ?, last_at = ? WHERE account_id = ? AND variant = ? AND puzzles = ?",
                                  {r.rating, r.deviation, r.volatility, std::int64_t(r.puzzles), r.last_at,
                                   a.account_id, a.variant, std::int64_t(w.before->puzzles)})
                            : db_->exec(std::string("INSERT INTO account_puzzle_ratings (") + PUZZLE_RATING_COLUMNS +
                                            ") VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, variant) "
                                            "DO NOTHING",
                                        {a.account_id, a.variant, r.rating, r.deviation, r.volatility,
                                         std::int64_t(r.puzzles), r.last_at});
                    if (changed == 0) return Step::Again;  // nothing written: the commit is empty
                    db_->query(
                        "INSERT INTO account_puzzle_attempts (account_id, puzzle_id, variant, result, at, "
                        "rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        {a.account_id, a.puzzle_id, a.variant, a.result, a.at,
                         w.before ? w.before->rating : w.after.rating, w.after.rating});
                    return Step::Written;
                });
            } catch (const UniqueViolation&) {
                return std::nullopt;  // another connection recorded this attempt meanwhile
            }
            if (step == Step::Already) return std::nullopt;
            if (step == Step::Written) return w;
        }
        throw StoreError("the puzzle rating kept changing under this attempt");
    }

private:
    void migrate() {
        transaction(*db_, [&] {
            // Nodes of a cluster start together: one migrates at a time (two
            // CREATE TABLE IF NOT EXISTS at once can both try to create).
            if (db_->postgres()) db_->query("SELECT pg_advisory_xact_lock(7469311)");
            db_->script(db_->dialect("CREATE TABLE IF NOT EXISTS accounts_schema (version {INT} NOT NULL)"));
            auto rows = db_->query("SELECT version FROM accounts_schema");
            if (rows.empty()) db_->query("INSERT INTO accounts_schema (version) VALUES (0)");
            int version = rows.empty() ? 0 : int(rows[0].i(0));
            if (version > ACCOUNTS_SCHEMA_VERSION)
                throw StoreError("the accounts tables are at version " + std::to_string(version) +
                                 ", newer than this program's " + std::to_string(ACCOUNTS_SCHEMA_VERSION));
            for (; version < ACCOUNTS_SCHEMA_VERSION; ++version) {
                db_->script(db_->dialect(MIGRATIONS[std::size_t(version)]));
                db_->query("UPDATE accounts_schema SET version = ?", {std::int64_t(version + 1)});
            }
            for (const auto& row : db_->query("SELECT id, name FROM accounts WHERE name_skeleton = ''"))
                db_->query("UPDATE accounts SET name_skeleton = ? WHERE id = ?", {name_skeleton(row.s(1)), row.i(0)});
        });
    }
    void insert_session(const SessionRecord& s) {
        db_->query("INSERT INTO account_sessions (hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                   {s.hash, s.account_id, s.created_at, s.expires_at});
    }
    void upsert_token(const std::string& token_hash, std::int64_t account_id, std::int64_t now) {
        db_->query(
            "INSERT INTO account_tokens (token_hash, account_id, linked_at) VALUES (?, ?, ?) ON CONFLICT (token_hash) "
            "DO UPDATE SET account_id = excluded.account_id, linked_at = excluded.linked_at",
            {token_hash, account_id, now});
    }

    std::unique_ptr<SqlConn> db_;
};

}  // namespace

std::unique_ptr<AccountStore> open_sqlite_account_store(const std::string& path) {
    return std::make_unique<SqlAccountStore>(sqlite_conn(path));
}
std::unique_ptr<AccountStore> open_postgres_account_store(const std::string& url) {
    return std::make_unique<SqlAccountStore>(postgres_conn(url));
}
std::unique_ptr<AccountStore> open_account_store(const std::string& url) {
    if (is_postgres_url(url)) return open_postgres_account_store(url);
    return open_sqlite_account_store(url);
}

}  // namespace echecs::server::accounts

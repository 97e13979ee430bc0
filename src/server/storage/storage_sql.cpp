// The storage, written once over SqlConn (server/accounts/sql_conn.h) for
// SQLite (a file in WAL mode) and PostgreSQL. What differs between the two is
// in SqlConn's adapters, in the migrations' {INT}-style words and in open()
// below (the lock that makes one server per database): nowhere else. The
// schema is versioned in the meta table and brought up to date by the
// migrations.
#include <chrono>
#include <string>
#include <thread>

#include "server/accounts/sql_conn.h"
#include "server/app/util.h"
#include "server/storage/storage_common.h"

namespace echecs::server {
namespace {

using accounts::SqlConn;
using accounts::SqlParams;
using accounts::SqlRow;

// Migration N takes the schema from version N to N+1, in both databases
// (SqlConn::dialect fills in the types). Never edit one that has shipped:
// add a new one.
const char* const MIGRATIONS[] = {
    R"sql(
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  initial_fen TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms {INT} NOT NULL,
  increment_ms {INT} NOT NULL,
  days INTEGER NOT NULL,
  white_name TEXT NOT NULL, white_token TEXT NOT NULL, white_level INTEGER NOT NULL,
  black_name TEXT NOT NULL, black_token TEXT NOT NULL, black_level INTEGER NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  termination TEXT NOT NULL,
  created_at {INT} NOT NULL,
  ended_at {INT} NOT NULL,
  white_ms {INT} NOT NULL,
  black_ms {INT} NOT NULL,
  clock_at {INT} NOT NULL,
  draw_offer TEXT NOT NULL,
  rematch_offer TEXT NOT NULL,
  rematch_game TEXT NOT NULL,
  ply INTEGER NOT NULL,
  fen TEXT NOT NULL
);
CREATE INDEX games_status_ended ON games(status, ended_at);
CREATE INDEX games_status_created ON games(status, created_at);
CREATE TABLE moves (
  game_id TEXT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  uci TEXT NOT NULL,
  san TEXT NOT NULL,
  white_ms {INT} NOT NULL,
  black_ms {INT} NOT NULL,
  at {INT} NOT NULL,
  PRIMARY KEY (game_id, ply)
);
CREATE TABLE seeks (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms {INT} NOT NULL,
  increment_ms {INT} NOT NULL,
  days INTEGER NOT NULL,
  color TEXT NOT NULL,
  nickname TEXT NOT NULL,
  token TEXT NOT NULL,
  is_private {BOOL} NOT NULL,
  created_at {INT} NOT NULL,
  game TEXT NOT NULL
);
)sql",
    // 2: the mover's clock with each move, direct-challenge games marked, the
    // last draw offer of each side, and the indexes of keyset listings.
    R"sql(
ALTER TABLE moves ADD COLUMN clock {INT};
UPDATE moves SET clock = CASE
    WHEN (ply + (SELECT CASE WHEN g.initial_fen LIKE '% b %' THEN 1 ELSE 0 END FROM games g
                 WHERE g.id = moves.game_id)) % 2 = 0 THEN white_ms ELSE black_ms END
  WHERE game_id IN (SELECT id FROM games WHERE time_kind = 'realtime');
ALTER TABLE games ADD COLUMN is_private {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE games ADD COLUMN white_draw_ply INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN black_draw_ply INTEGER NOT NULL DEFAULT -1;
UPDATE games SET is_private = {TRUE} WHERE id IN (SELECT game FROM seeks WHERE is_private = {TRUE} AND game <> '');
DROP INDEX games_status_ended;
DROP INDEX games_status_created;
CREATE INDEX games_list_ended ON games(status, is_private, ended_at, id);
CREATE INDEX games_list_created ON games(status, is_private, created_at, id);
)sql",
    // 3: accounts on seats (with the rating each had when the game began),
    // rated games and each side's rating change; rated seeks with the
    // creator's account and rating, and a rating range.
    R"sql(
ALTER TABLE games ADD COLUMN white_account {INT} NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_provisional {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE games ADD COLUMN black_account {INT} NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_provisional {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE games ADD COLUMN rated {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE games ADD COLUMN white_rating_diff INTEGER;
ALTER TABLE games ADD COLUMN black_rating_diff INTEGER;
CREATE INDEX games_white_token ON games(white_token);
CREATE INDEX games_black_token ON games(black_token);
ALTER TABLE seeks ADD COLUMN rated {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE seeks ADD COLUMN account {INT} NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN provisional {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE seeks ADD COLUMN rating_min INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating_max INTEGER NOT NULL DEFAULT 0;
)sql",
    // 4: the chat of each game (players' and spectators' rooms) and the
    // reports of chat lines.
    R"sql(
CREATE TABLE chat (
  id {ROWID},
  game_id TEXT NOT NULL,
  room TEXT NOT NULL,
  author TEXT NOT NULL,
  seat TEXT NOT NULL,
  author_key TEXT NOT NULL,
  text TEXT NOT NULL,
  at {INT} NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, room, id);
CREATE TABLE chat_reports (
  id {ROWID},
  game_id TEXT NOT NULL,
  room TEXT NOT NULL,
  reporter TEXT NOT NULL,
  author TEXT NOT NULL,
  author_key TEXT NOT NULL,
  text TEXT NOT NULL,
  reason TEXT NOT NULL,
  at {INT} NOT NULL
);
)sql",
    // 5: the computer review of finished games; a seek's starting position.
    R"sql(
CREATE TABLE reviews (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  requested_at {INT} NOT NULL,
  finished_at {INT} NOT NULL
);
ALTER TABLE seeks ADD COLUMN initial_fen TEXT NOT NULL DEFAULT '';
)sql",
    // 6: the computer levels were renumbered when two weaker levels were
    // added below the old level 1 (engine strength.cpp): a stored game's
    // level 1-8 is now level 3-10, the same settings it was played at.
    R"sql(
UPDATE games SET white_level = white_level + 2 WHERE white_level > 0;
UPDATE games SET black_level = black_level + 2 WHERE black_level > 0;
)sql",
    // 7: the account that claimed each anonymous seat (0: none), and the
    // operator's resolution of chat reports.
    R"sql(
ALTER TABLE games ADD COLUMN white_claimed {INT} NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_claimed {INT} NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN resolved_at {INT} NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
CREATE INDEX chat_reports_open ON chat_reports(resolved_at, id);
)sql",
    // 8: a finished game whose result the accounts do not yet hold (a
    // restart records it). Rated games that ended without their rating
    // changes were lost to a crash or a stop before this: pending, so the
    // next start records them (the accounts refuse a second record).
    R"sql(
ALTER TABLE games ADD COLUMN result_pending {BOOL} NOT NULL DEFAULT {FALSE};
CREATE INDEX games_result_pending ON games(result_pending);
UPDATE games SET result_pending = {TRUE}
  WHERE status = 'over' AND result <> '*' AND rated = {TRUE}
    AND white_rating_diff IS NULL AND black_rating_diff IS NULL;
)sql",
    // 9: browser tokens are stored as their keys (token_key: a hash), no
    // longer as sent, so that a reader of the database cannot take a seat.
    // The work is hash_stored_tokens(), in this migration's transaction (no
    // SQL of both databases computes the hash).
    R"sql(
SELECT 1;
)sql",
    // 10: the lease of each game run by a node of several (storage.h, Lease).
    // Rows stay when a game ends: a token is never reused.
    R"sql(
CREATE TABLE game_leases (
  game_id TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  token {INT} NOT NULL,
  expires_at {INT} NOT NULL
);
)sql",
    // 11: tournaments, their players, and the tournament that paired a game.
    R"sql(
CREATE TABLE tournaments (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  variant TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms {INT} NOT NULL,
  increment_ms {INT} NOT NULL,
  days INTEGER NOT NULL,
  rated {BOOL} NOT NULL,
  starts_at {INT} NOT NULL,
  duration_ms {INT} NOT NULL,
  status TEXT NOT NULL,
  created_by {INT} NOT NULL,
  created_at {INT} NOT NULL
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);
CREATE TABLE tournament_players (
  tournament_id TEXT NOT NULL,
  account {INT} NOT NULL,
  name TEXT NOT NULL,
  rating INTEGER NOT NULL,
  provisional {BOOL} NOT NULL,
  token TEXT NOT NULL,
  joined_at {INT} NOT NULL,
  paused {BOOL} NOT NULL,
  PRIMARY KEY (tournament_id, account)
);
ALTER TABLE games ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN white_berserk {BOOL} NOT NULL DEFAULT {FALSE};
ALTER TABLE games ADD COLUMN black_berserk {BOOL} NOT NULL DEFAULT {FALSE};
CREATE INDEX games_tournament ON games(tournament, ended_at);
)sql",
    // 12: Swiss tournaments: their rounds, and each round's boards (a bye:
    // black 0, no game), stored before they are announced.
    R"sql(
ALTER TABLE tournaments ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN round_interval_ms {INT} NOT NULL DEFAULT 0;
CREATE TABLE swiss_pairings (
  tournament_id TEXT NOT NULL,
  round INTEGER NOT NULL,
  board INTEGER NOT NULL,
  white {INT} NOT NULL,
  black {INT} NOT NULL,
  game_id TEXT NOT NULL,
  PRIMARY KEY (tournament_id, round, board)
);
)sql",
    // 13: a profile's older tournaments, found by the player's name in any case.
    R"sql(
CREATE INDEX tournament_players_name ON tournament_players(lower(name));
)sql",
    // 14: each game's own ladder of computer levels, neighbours about 200 Elo
    // apart (engine strength.cpp): a stored game's level 1-10 becomes the
    // level nearest the settings it was played at (the same settings for
    // level 1 and for full strength).
    R"sql(
UPDATE games SET white_level = CASE variant
  WHEN 'chess' THEN CASE white_level WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 5 WHEN 4 THEN 7 WHEN 5 THEN 9 WHEN 6 THEN 10 WHEN 7 THEN 12 WHEN 8 THEN 14 WHEN 9 THEN 16 WHEN 10 THEN 19 ELSE white_level END
  WHEN 'alice' THEN CASE white_level WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 6 WHEN 4 THEN 7 WHEN 5 THEN 9 WHEN 6 THEN 10 WHEN 7 THEN 11 WHEN 8 THEN 12 WHEN 9 THEN 14 WHEN 10 THEN 16 ELSE white_level END
  WHEN 'avalanche' THEN CASE white_level WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 5 WHEN 4 THEN 6 WHEN 5 THEN 7 WHEN 6 THEN 8 WHEN 7 THEN 9 WHEN 8 THEN 10 WHEN 9 THEN 12 WHEN 10 THEN 15 ELSE white_level END
  ELSE white_level END WHERE white_level > 0;
UPDATE games SET black_level = CASE variant
  WHEN 'chess' THEN CASE black_level WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 5 WHEN 4 THEN 7 WHEN 5 THEN 9 WHEN 6 THEN 10 WHEN 7 THEN 12 WHEN 8 THEN 14 WHEN 9 THEN 16 WHEN 10 THEN 19 ELSE black_level END
  WHEN 'alice' THEN CASE black_level WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 6 WHEN 4 THEN 7 WHEN 5 THEN 9 WHEN 6 THEN 10 WHEN 7 THEN 11 WHEN 8 THEN 12 WHEN 9 THEN 14 WHEN 10 THEN 16 ELSE black_level END
  WHEN 'avalanche' THEN CASE black_level WHEN 1 THEN 1 WHEN 2 THEN 3 WHEN 3 THEN 5 WHEN 4 THEN 6 WHEN 5 THEN 7 WHEN 6 THEN 8 WHEN 7 THEN 9 WHEN 8 THEN 10 WHEN 9 THEN 12 WHEN 10 THEN 15 ELSE black_level END
  ELSE black_level END WHERE black_level > 0;
)sql",
};
static_assert(std::size(MIGRATIONS) == SCHEMA_VERSION);

// The columns of each table, in the order they are bound and read.
constexpr const char* GAME_COLUMNS =
    "id, variant, initial_fen, time_kind, initial_ms, increment_ms, days, "
    "white_name, white_token, white_level, black_name, black_token, black_level, "
    "status, result, termination, created_at, ended_at, white_ms, black_ms, clock_at, "
    "draw_offer, rematch_offer, rematch_game, ply, fen, is_private, white_draw_ply, black_draw_ply, "
    "white_account, white_rating, white_provisional, black_account, black_rating, black_provisional, "
    "rated, white_rating_diff, black_rating_diff, result_pending, tournament, white_berserk, black_berserk";
constexpr const char* TOURNAMENT_COLUMNS =
    "id, kind, name, variant, time_kind, initial_ms, increment_ms, days, rated, starts_at, duration_ms, status, "
    "created_by, created_at, rounds, round_interval_ms";
constexpr const char* SWISS_PAIRING_COLUMNS = "tournament_id, round, board, white, black, game_id";
constexpr const char* TOURNAMENT_PLAYER_COLUMNS =
    "tournament_id, account, name, rating, provisional, token, joined_at, paused";
constexpr const char* SEEK_COLUMNS =
    "id, variant, time_kind, initial_ms, increment_ms, days, color, nickname, token, is_private, created_at, game, "
    "rated, account, rating, provisional, rating_min, rating_max, initial_fen";
constexpr const char* MOVE_COLUMNS = "game_id, ply, uci, san, white_ms, black_ms, at, clock";
constexpr const char* CHAT_COLUMNS = "game_id, room, author, seat, author_key, text, at";
constexpr const char* REPORT_COLUMNS = "game_id, room, reporter, author, author_key, text, reason, at";
constexpr const char* REVIEW_COLUMNS = "game_id, status, result, requested_at, finished_at";

// INSERT of every column; with `key`, an upsert that replaces the other columns.
std::string insert_sql(const char* table, const std::string& columns, const char* key = nullptr) {
    std::string sql = std::string("INSERT INTO ") + table + " (" + columns + ") VALUES (?";
    for (char c : columns)
        if (c == ',') sql += ",?";
    sql += ")";
    if (!key) return sql;
    sql += std::string(" ON CONFLICT (") + key + ") DO UPDATE SET ";
    const char* sep = "";
    for (std::size_t pos = 0; pos < columns.size();) {
        std::size_t end = std::min(columns.find(',', pos), columns.size());
        std::string c = columns.substr(pos, end - pos);
        c.erase(0, c.find_first_not_of(' '));
        if (c != key) sql += sep + c + " = excluded." + c, sep = ", ";
        pos = end + 1;
    }
    return sql;
}

// A row read column after column.
struct Cells {
    const SqlRow& row;
    std::size_t k = 0;
    std::int64_t i() { return row.i(k++); }
    int n() { return int(row.i(k++)); }
    bool b() { return row.b(k++); }
    std::string s() { return row.s(k++); }
    std::optional<std::int64_t> opt() {
        if (!row.null(k)) return i();
        ++k;
        return std::nullopt;
    }
};

template <class... T>
SqlParams params(const T&... v) {
    return {accounts::SqlValue(v)...};
}

SqlParams game_params(const GameRecord& g) {
    return params(g.id, std::string(variant_name(g.variant)), g.initial_fen, std::string(time_kind_name(g.time.kind)),
                  g.time.initial_ms, g.time.increment_ms, g.time.days, g.white.name, g.white.token, g.white.level,
                  g.black.name, g.black.token, g.black.level, g.status, g.result, g.termination, g.created_at,
                  g.ended_at, g.white_ms, g.black_ms, g.clock_at, g.draw_offer, g.rematch_offer, g.rematch_game, g.ply,
                  g.fen, g.is_private, g.white_draw_ply, g.black_draw_ply, g.white.account, g.white.rating,
                  g.white.provisional, g.black.account, g.black.rating, g.black.provisional, g.rated,
                  g.white_rating_diff, g.black_rating_diff, g.result_pending, g.tournament, g.white_berserk,
                  g.black_berserk);
}

GameRecord game_of(const SqlRow& row) {
    Cells c{row};
    GameRecord g;
    g.id = c.s();
    g.variant = variant_from(c.s());
    g.initial_fen = c.s();
    g.time = {time_kind_from(c.s()), c.i(), c.i(), c.n()};
    for (Seat* s : {&g.white, &g.black}) {
        s->name = c.s();
        s->token = c.s();
        s->level = c.n();
    }
    for (std::string* f : {&g.status, &g.result, &g.termination}) *f = c.s();
    for (std::int64_t* f : {&g.created_at, &g.ended_at, &g.white_ms, &g.black_ms, &g.clock_at}) *f = c.i();
    for (std::string* f : {&g.draw_offer, &g.rematch_offer, &g.rematch_game}) *f = c.s();
    g.ply = c.n();
    g.fen = c.s();
    g.is_private = c.b();
    g.white_draw_ply = c.n();
    g.black_draw_ply = c.n();
    for (Seat* s : {&g.white, &g.black}) {
        s->account = c.i();
        s->rating = c.n();
        s->provisional = c.b();
    }
    g.rated = c.b();
    for (std::optional<int>* d : {&g.white_rating_diff, &g.black_rating_diff})
        if (auto v = c.opt()) *d = int(*v);
    g.result_pending = c.b();
    g.tournament = c.s();
    g.white_berserk = c.b();
    g.black_berserk = c.b();
    return g;
}

SqlParams tournament_params(const TournamentRecord& t) {
    return params(t.id, t.kind, t.name, std::string(variant_name(t.variant)), std::string(time_kind_name(t.time.kind)),
                  t.time.initial_ms, t.time.increment_ms, t.time.days, t.rated, t.starts_at, t.duration_ms, t.status,
                  t.created_by, t.created_at, t.rounds, t.round_interval_ms);
}

TournamentRecord tournament_of(const SqlRow& row) {
    Cells c{row};
    TournamentRecord t;
    t.id = c.s();
    t.kind = c.s();
    t.name = c.s();
    t.variant = variant_from(c.s());
    t.time = {time_kind_from(c.s()), c.i(), c.i(), c.n()};
    t.rated = c.b();
    t.starts_at = c.i();
    t.duration_ms = c.i();
    t.status = c.s();
    t.created_by = c.i();
    t.created_at = c.i();
    t.rounds = c.n();
    t.round_interval_ms = c.i();
    return t;
}

SqlParams tournament_player_params(const TournamentPlayerRecord& p) {
    return params(p.tournament, p.account, p.name, p.rating, p.provisional, p.token, p.joined_at, p.paused);
}

TournamentPlayerRecord tournament_player_of(const SqlRow& row) {
    Cells c{row};
    TournamentPlayerRecord p;
    p.tournament = c.s();
    p.account = c.i();
    p.name = c.s();
    p.rating = c.n();
    p.provisional = c.b();
    p.token = c.s();
    p.joined_at = c.i();
    p.paused = c.b();
    return p;
}

SqlParams seek_params(const SeekRecord& s) {
    return params(s.id, std::string(variant_name(s.variant)), std::string(time_kind_name(s.time.kind)),
                  s.time.initial_ms, s.time.increment_ms, s.time.days, s.color, s.nickname, s.token, s.is_private,
                  s.created_at, s.game, s.rated, s.account, s.rating, s.provisional, s.rating_min, s.rating_max,
                  s.initial_fen);
}

SeekRecord seek_of(const SqlRow& row) {
    Cells c{row};
    SeekRecord s;
    s.id = c.s();
    s.variant = variant_from(c.s());
    s.time = {time_kind_from(c.s()), c.i(), c.i(), c.n()};
    for (std::string* f : {&s.color, &s.nickname, &s.token}) *f = c.s();
    s.is_private = c.b();
    s.created_at = c.i();
    s.game = c.s();
    s.rated = c.b();
    s.account = c.i();
    s.rating = c.n();
    s.provisional = c.b();
    s.rating_min = c.n();
    s.rating_max = c.n();
    s.initial_fen = c.s();
    return s;
}

// Any fixed number: PostgreSQL's session advisory lock that makes one server per database.
constexpr std::int64_t SERVER_LOCK_KEY = 0x6563686563735356;  // "echecsSV"

class SqlStorage final : public Storage {
public:
    enum class Mode { Writer, Reader };

    SqlStorage(const std::string& url, bool durable, bool exclusive, Mode mode)
        : url_(url), durable_(durable), mode_(mode) {
        const bool pg = accounts::is_postgres_url(url);
        const std::string name = pg ? "PostgreSQL database" : "SQLite database '" + url + "'";
        try {
            // SQLite's lock is taken before the file is opened, PostgreSQL's on the connection.
            if (!pg && mode == Mode::Writer && exclusive) lock_ = std::make_unique<FileLock>(url);
            db_ = accounts::sql_conn(url, {.name = name,
                                           .read_only = mode == Mode::Reader,
                                           .synchronous = durable ? "FULL" : "NORMAL",
                                           .checkpoints = mode == Mode::Writer});
            if (mode == Mode::Reader) return;
            if (pg && exclusive) {
                // A session's lock is released when its backend ends, which
                // PostgreSQL does a moment after the client has gone: a server
                // started again at once (a restart, a test) waits up to 2 s
                // for the lock of its former self.
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
                while (!db_->query("SELECT pg_try_advisory_lock(?)", {SERVER_LOCK_KEY}).at(0).b(0)) {
                    if (std::chrono::steady_clock::now() >= until)
                        throw StorageError(
                            "PostgreSQL database: another echecs server is using it (advisory lock held): "
                            "one database, one server");
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                }
                pg_locked_ = true;
            }
            migrate();
        } catch (const StorageError&) {
            throw;
        } catch (const std::exception& e) {
            throw StorageError(name + ": " + e.what());
        }
    }

    ~SqlStorage() override {
        // Released now rather than when the backend ends, so that the next
        // server (or a test's next storage) takes it at once.
        if (!pg_locked_) return;
        try {
            db_->query("SELECT pg_advisory_unlock(?)", {SERVER_LOCK_KEY});
        } catch (const std::exception&) {
            // the connection is gone, and its lock with it
        }
    }
    SqlStorage(const SqlStorage&) = delete;
    SqlStorage& operator=(const SqlStorage&) = delete;

    std::unique_ptr<Storage> open_reader() override {
        return std::make_unique<SqlStorage>(url_, durable_, false, Mode::Reader);
    }

    void apply(const std::vector<WriteOp>& ops) override {
        if (mode_ == Mode::Reader) throw StorageError("a read connection cannot write");
        guard("write", [&] {
            db_->begin();
            try {
                for (const WriteOp& op : ops) std::visit([this](const auto& o) { write(o); }, op);
                db_->commit();
            } catch (...) {
                db_->rollback();
                throw;
            }
        });
    }

    std::optional<GameRecord> load_game(const std::string& id) override {
        return guard("read", [&]() -> std::optional<GameRecord> {
            auto rows = db_->query(std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE id = ?", {id});
            if (rows.empty()) return std::nullopt;
            GameRecord g = game_of(rows[0]);
            load_moves(g);
            return g;
        });
    }

    std::vector<GameRecord> list_games(const GameFilter& f, bool with_moves) override {
        return guard("read", [&]() -> std::vector<GameRecord> {
            const std::string col = f.status == "over" ? "ended_at" : "created_at";
            std::string sql = std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE 1 = 1";
            SqlParams p;
            if (!f.status.empty()) sql += " AND status = ?", p.emplace_back(f.status);
            if (f.public_only) sql += " AND is_private = ?", p.emplace_back(false);
            if (!f.before.empty()) {
                auto k = db_->query("SELECT " + col + " FROM games WHERE id = ?", {f.before});
                if (k.empty()) return {};
                sql += " AND (" + col + " < ? OR (" + col + " = ? AND id < ?))";
                p.insert(p.end(), {k[0].i(0), k[0].i(0), f.before});
            }
            sql += " ORDER BY " + col + " DESC, id DESC LIMIT ? OFFSET ?";
            p.insert(p.end(), {f.limit, f.offset});
            std::vector<GameRecord> out;
            for (const SqlRow& r : db_->query(sql, p)) out.push_back(game_of(r));
            if (with_moves)
                for (GameRecord& g : out) load_moves(g);
            return out;
        });
    }

    std::vector<SeekRecord> open_seeks() override {
        return guard("read", [&] {
            std::vector<SeekRecord> out;
            for (const SqlRow& r : db_->query(std::string("SELECT ") + SEEK_COLUMNS +
                                              " FROM seeks WHERE game = '' ORDER BY created_at DESC, id"))
                out.push_back(seek_of(r));
            return out;
        });
    }

    std::optional<SeekRecord> load_seek(const std::string& id) override {
        return guard("read", [&]() -> std::optional<SeekRecord> {
            auto rows = db_->query(std::string("SELECT ") + SEEK_COLUMNS + " FROM seeks WHERE id = ?", {id});
            if (rows.empty()) return std::nullopt;
            return seek_of(rows[0]);
        });
    }

    std::vector<GameRecord> anonymous_games_of(const std::string& token, int limit) override {
        return guard("read", [&] {
            std::vector<GameRecord> out;
            for (const SqlRow& r :
                 db_->query(std::string("SELECT ") + GAME_COLUMNS +
                                " FROM games WHERE status = 'over' AND ((white_token = ? AND white_account = 0 AND "
                                "white_claimed = 0) OR (black_token = ? AND black_account = 0 AND black_claimed = 0))"
                                " ORDER BY ended_at DESC, id DESC LIMIT ?",
                            {token, token, limit}))
                out.push_back(game_of(r));
            return out;
        });
    }

    std::vector<GameRecord> games_with_results_pending() override {
        return guard("read", [&] {
            std::vector<GameRecord> out;
            for (const SqlRow& r : db_->query(std::string("SELECT ") + GAME_COLUMNS +
                                                  " FROM games WHERE result_pending = ? ORDER BY ended_at, id",
                                              {true}))
                out.push_back(game_of(r));
            for (GameRecord& g : out) load_moves(g);
            return out;
        });
    }

    std::vector<TournamentRecord> list_tournaments(const std::string& status, int limit) override {
        return guard("read", [&] {
            std::string sql = std::string("SELECT ") + TOURNAMENT_COLUMNS + " FROM tournaments";
            SqlParams p;
            if (!status.empty()) sql += " WHERE status = ?", p.emplace_back(status);
            sql += status == "finished" ? " ORDER BY starts_at DESC, id" : " ORDER BY starts_at, id";
            sql += " LIMIT ?";
            p.emplace_back(limit);
            std::vector<TournamentRecord> out;
            for (const SqlRow& r : db_->query(sql, p)) out.push_back(tournament_of(r));
            return out;
        });
    }

    std::optional<TournamentRecord> load_tournament(const std::string& id) override {
        return guard("read", [&]() -> std::optional<TournamentRecord> {
            for (const SqlRow& r :
                 db_->query(std::string("SELECT ") + TOURNAMENT_COLUMNS + " FROM tournaments WHERE id = ?", {id}))
                return tournament_of(r);
            return std::nullopt;
        });
    }

    std::vector<TournamentRecord> finished_tournaments_of(const std::string& name, std::int64_t before,
                                                          int limit) override {
        return guard("read", [&] {
            std::vector<TournamentRecord> out;
            for (const SqlRow& r : db_->query(
                     std::string("SELECT ") + TOURNAMENT_COLUMNS +
                         " FROM tournaments WHERE status = 'finished' AND starts_at < ? AND id IN (SELECT "
                         "tournament_id "
                         "FROM tournament_players WHERE lower(name) = lower(?)) ORDER BY starts_at DESC, id LIMIT ?",
                     {before, name, limit}))
                out.push_back(tournament_of(r));
            return out;
        });
    }

    std::vector<TournamentPlayerRecord> tournament_players(const std::string& id) override {
        return guard("read", [&] {
            std::vector<TournamentPlayerRecord> out;
            for (const SqlRow& r :
                 db_->query(std::string("SELECT ") + TOURNAMENT_PLAYER_COLUMNS +
                                " FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, account",
                            {id}))
                out.push_back(tournament_player_of(r));
            return out;
        });
    }

    std::vector<GameRecord> tournament_games(const std::string& id) override {
        return guard("read", [&] {
            std::vector<GameRecord> out;
            for (const SqlRow& r : db_->query(
                     std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE tournament = ? ORDER BY ended_at, id",
                     {id}))
                out.push_back(game_of(r));
            return out;
        });
    }

    std::optional<ReviewRecord> load_review(const std::string& game_id) override {
        return guard("read", [&]() -> std::optional<ReviewRecord> {
            auto rows =
                db_->query(std::string("SELECT ") + REVIEW_COLUMNS + " FROM reviews WHERE game_id = ?", {game_id});
            if (rows.empty()) return std::nullopt;
            Cells c{rows[0]};
            return ReviewRecord{c.s(), c.s(), c.s(), c.i(), c.i()};
        });
    }

    std::int64_t last_heartbeat() override {
        return guard("read", [&] {
            auto rows = db_->query("SELECT value FROM meta WHERE key = 'heartbeat'");
            return rows.empty() ? std::int64_t(0) : rows[0].i(0);
        });
    }

    std::vector<ChatRecord> load_chat(const std::string& game_id, int per_room) override {
        return guard("read", [&] {
            std::vector<ChatRecord> out;
            for (const char* room : {"players", "spectators"})
                for (const SqlRow& r :
                     db_->query(std::string("SELECT ") + CHAT_COLUMNS +
                                    " FROM (SELECT * FROM chat WHERE game_id = ? AND room = ? ORDER BY id DESC "
                                    "LIMIT ?) AS last ORDER BY id",
                                {game_id, room, per_room})) {
                    Cells c{r};
                    out.push_back(ChatRecord{c.s(), c.s(), c.s(), c.s(), c.s(), c.s(), c.i()});
                }
            return out;
        });
    }

    std::vector<StoredReport> list_reports(int limit, bool open_only) override {
        return guard("read", [&] {
            std::vector<StoredReport> out;
            for (const SqlRow& row : db_->query(
                     std::string("SELECT ") + REPORT_COLUMNS + ", id, resolved_at, resolution FROM chat_reports" +
                         (open_only ? " WHERE resolved_at = 0" : "") + " ORDER BY id DESC LIMIT ?",
                     {limit})) {
                Cells c{row};
                StoredReport r;
                for (std::string* f : {&r.game_id, &r.room, &r.reporter, &r.author, &r.author_key, &r.text, &r.reason})
                    *f = c.s();
                r.at = c.i();
                r.id = c.i();
                r.resolved_at = c.i();
                r.resolution = c.s();
                out.push_back(std::move(r));
            }
            return out;
        });
    }

    bool resolve_report(std::int64_t id, const std::string& resolution, std::int64_t at) override {
        return guard("write", [&] {
            return db_->exec("UPDATE chat_reports SET resolved_at = ?, resolution = ? WHERE id = ? AND resolved_at = 0",
                             {at, resolution, id}) == 1;
        });
    }

    int schema_version() override {
        return guard("read", [&] { return read_version(); });
    }

    // One statement, so that two nodes racing for a lapsed lease cannot both
    // win: PostgreSQL re-checks the WHERE on the row the winner wrote, SQLite
    // runs one writer at a time. SET reads the row as it was before.
    std::optional<Lease> acquire_lease(const std::string& game_id, const std::string& node, std::int64_t now,
                                       std::int64_t ttl_ms) override {
        return guard("write", [&]() -> std::optional<Lease> {
            auto rows = db_->query(
                "INSERT INTO game_leases (game_id, node, token, expires_at) VALUES (?, ?, 1, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET token = game_leases.token + CASE WHEN game_leases.node = "
                "excluded.node AND game_leases.expires_at > ? THEN 0 ELSE 1 END, node = excluded.node, "
                "expires_at = excluded.expires_at "
                "WHERE game_leases.node = excluded.node OR game_leases.expires_at <= ? RETURNING token",
                {game_id, node, now + ttl_ms, now, now});
            if (rows.empty()) return std::nullopt;
            return Lease{game_id, node, rows[0].i(0), now + ttl_ms};
        });
    }

    bool release_lease(const Lease& l) override {
        return guard("write", [&] {
            return db_->exec("UPDATE game_leases SET expires_at = 0 WHERE game_id = ? AND node = ? AND token = ?",
                             {l.game_id, l.node, l.token}) == 1;
        });
    }

    std::vector<std::string> renew_leases(const std::string& node, std::int64_t now, std::int64_t ttl_ms) override {
        return guard("write", [&] {
            std::vector<std::string> out;
            for (const SqlRow& r :
                 db_->query("UPDATE game_leases SET expires_at = ? WHERE node = ? AND expires_at > ? RETURNING game_id",
                            {now + ttl_ms, node, now}))
                out.push_back(r.s(0));
            return out;
        });
    }

    std::optional<Lease> lease_of(const std::string& game_id) override {
        return guard("read", [&]() -> std::optional<Lease> {
            auto rows = db_->query("SELECT node, token, expires_at FROM game_leases WHERE game_id = ?", {game_id});
            if (rows.empty()) return std::nullopt;
            return Lease{game_id, rows[0].s(0), rows[0].i(1), rows[0].i(2)};
        });
    }

    std::vector<std::string> orphaned_live_games(std::int64_t now, int limit) override {
        return guard("read", [&] {
            std::vector<std::string> out;
            for (const SqlRow& r : db_->query("SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id "
                                              "WHERE g.status = 'live' AND (l.game_id IS NULL OR l.expires_at <= ?) "
                                              "ORDER BY g.created_at, g.id LIMIT ?",
                                              {now, limit}))
                out.push_back(r.s(0));
            return out;
        });
    }

    std::vector<std::string> unrecorded_unheld_games(std::int64_t now, int limit) override {
        return guard("read", [&] {
            std::vector<std::string> out;
            for (const SqlRow& r : db_->query("SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id "
                                              "WHERE g.result_pending = ? AND (l.game_id IS NULL OR l.expires_at <= ?) "
                                              "ORDER BY g.ended_at, g.id LIMIT ?",
                                              {true, now, limit}))
                out.push_back(r.s(0));
            return out;
        });
    }

private:
    // Runs f; a database error becomes a StorageError naming what failed.
    template <class F>
    auto guard(const char* what, F f) -> decltype(f()) {
        try {
            return f();
        } catch (const StorageError&) {
            throw;
        } catch (const std::exception& e) {
            throw StorageError(std::string(what) + " failed: " + e.what());
        }
    }

    int read_version() {
        auto rows = db_->query("SELECT value FROM meta WHERE key = 'schema_version'");
        return rows.empty() ? 0 : int(rows[0].i(0));
    }

    void set_meta(const char* key, const std::string& value) {
        db_->exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                  {key, value});
    }

    // One transaction per migration. PostgreSQL's table lock serialises
    // servers migrating the same database (SQLite's BEGIN IMMEDIATE does).
    void migrate() {
        // Nodes of a cluster start together: two CREATE TABLE IF NOT EXISTS
        // at once can both try to create, so one at a time.
        db_->begin();
        try {
            if (db_->postgres()) db_->query("SELECT pg_advisory_xact_lock(7469312)");
            db_->script("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            db_->commit();
        } catch (...) {
            db_->rollback();
            throw;
        }
        for (bool done = false; !done;) {
            db_->begin();
            try {
                if (db_->postgres()) db_->script("LOCK TABLE meta IN EXCLUSIVE MODE");
                const int v = read_version();
                if (v > SCHEMA_VERSION)
                    throw StorageError("database schema version " + std::to_string(v) +
                                       " is newer than this server's (" + std::to_string(SCHEMA_VERSION) + ")");
                done = v == SCHEMA_VERSION;
                if (!done) {
                    db_->script(db_->dialect(MIGRATIONS[v]));
                    if (v + 1 == 9) hash_stored_tokens();
                    set_meta("schema_version", std::to_string(v + 1));
                }
                db_->commit();
            } catch (...) {
                db_->rollback();
                throw;
            }
        }
    }

    // Migration 9: every token of the games' seats and of the seeks replaced
    // by its key. Rows of one token are updated together (the token columns
    // are indexed).
    void hash_stored_tokens() {
        const std::pair<const char*, const char*> columns[] = {
            {"games", "white_token"}, {"games", "black_token"}, {"seeks", "token"}};
        for (const auto& [table, column] : columns) {
            const std::string col = column, tab = table;
            const auto tokens = db_->query("SELECT DISTINCT " + col + " FROM " + tab + " WHERE " + col + " <> ''");
            for (const SqlRow& r : tokens) {
                const std::string token = r.s(0);
                db_->exec("UPDATE " + tab + " SET " + col + " = ? WHERE " + col + " = ?", {token_key(token), token});
            }
        }
    }

    void write(const SaveGame& op) {
        static const std::string sql = insert_sql("games", GAME_COLUMNS, "id");
        db_->exec(sql, game_params(op.game));
    }
    void write(const AddMove& op) {
        const MoveRecord& m = op.move;
        static const std::string sql = insert_sql("moves", MOVE_COLUMNS);
        db_->exec(sql, {op.game_id, m.ply, m.uci, m.san, m.white_ms, m.black_ms, m.at, m.clock});
    }
    void write(const SaveProgress& op) {
        if (db_->exec("UPDATE games SET ply = ?, fen = ?, white_ms = ?, black_ms = ?, clock_at = ?, draw_offer = ? "
                      "WHERE id = ?",
                      {op.ply, op.fen, op.white_ms, op.black_ms, op.clock_at, op.draw_offer, op.game_id}) != 1)
            throw StorageError("no game " + op.game_id);
    }
    void write(const TakeBackMoves& op) {
        db_->exec("DELETE FROM moves WHERE game_id = ? AND ply >= ?", {op.game_id, op.from});
    }
    void write(const SaveSeek& op) {
        static const std::string sql = insert_sql("seeks", SEEK_COLUMNS, "id");
        db_->exec(sql, seek_params(op.seek));
    }
    void write(const DeleteSeek& op) { db_->exec("DELETE FROM seeks WHERE id = ?", {op.id}); }
    void write(const Heartbeat& op) { set_meta("heartbeat", std::to_string(op.at)); }
    std::vector<SwissPairingRecord> swiss_pairings(const std::string& id) override {
        return guard("read", [&] {
            std::vector<SwissPairingRecord> out;
            for (const SqlRow& r : db_->query(std::string("SELECT ") + SWISS_PAIRING_COLUMNS +
                                                  " FROM swiss_pairings WHERE tournament_id = ? ORDER BY round, board",
                                              {id})) {
                Cells c{r};
                SwissPairingRecord p;
                p.tournament = c.s();
                p.round = c.n();
                p.board = c.n();
                p.white = c.i();
                p.black = c.i();
                p.game = c.s();
                out.push_back(std::move(p));
            }
            return out;
        });
    }

    void write(const AddChat& op) {
        const ChatRecord& c = op.line;
        db_->exec(insert_sql("chat", CHAT_COLUMNS), {c.game_id, c.room, c.author, c.seat, c.author_key, c.text, c.at});
    }
    void write(const AddReport& op) {
        const ReportRecord& r = op.report;
        db_->exec(insert_sql("chat_reports", REPORT_COLUMNS),
                  {r.game_id, r.room, r.reporter, r.author, r.author_key, r.text, r.reason, r.at});
    }
    void write(const MarkClaimed& op) {
        for (const std::string& id : op.game_ids)
            db_->exec(
                "UPDATE games SET white_claimed = CASE WHEN white_token = ? AND white_claimed = 0 THEN ? ELSE "
                "white_claimed END, black_claimed = CASE WHEN black_token = ? AND black_claimed = 0 THEN ? "
                "ELSE black_claimed END WHERE id = ?",
                {op.token, op.account, op.token, op.account, id});
    }
    void write(const SaveTournament& op) {
        static const std::string sql = insert_sql("tournaments", TOURNAMENT_COLUMNS, "id");
        db_->exec(sql, tournament_params(op.tournament));
    }
    void write(const RemoveTournamentPlayer& op) {
        db_->exec("DELETE FROM tournament_players WHERE tournament_id = ? AND account = ?",
                  params(op.tournament, op.account));
    }
    void write(const AddSwissPairing& op) {
        static const std::string sql = insert_sql("swiss_pairings", SWISS_PAIRING_COLUMNS);
        const SwissPairingRecord& p = op.pairing;
        db_->exec(sql, params(p.tournament, p.round, p.board, p.white, p.black, p.game));
    }
    void write(const SaveTournamentPlayer& op) {
        static const std::string sql = insert_sql("tournament_players", TOURNAMENT_PLAYER_COLUMNS);
        // Inserted or replaced on the two-column key (insert_sql's upsert takes one).
        db_->exec("DELETE FROM tournament_players WHERE tournament_id = ? AND account = ?",
                  {op.player.tournament, op.player.account});
        db_->exec(sql, tournament_player_params(op.player));
    }
    void write(const SaveReview& op) {
        const ReviewRecord& r = op.review;
        db_->exec(insert_sql("reviews", REVIEW_COLUMNS, "game_id"),
                  {r.game_id, r.status, r.result, r.requested_at, r.finished_at});
    }

    // The UPDATE (that changes nothing) locks the lease's row until the
    // transaction ends: a node taking the game over waits for this write,
    // then loads what it wrote.
    void write(const Fence& op) {
        if (db_->exec("UPDATE game_leases SET token = token WHERE game_id = ? AND node = ? AND token = ?",
                      {op.game_id, op.node, op.token}) != 1)
            throw FencedOut("game " + op.game_id + ": node '" + op.node + "' no longer holds its lease (token " +
                            std::to_string(op.token) + ")");
    }

    void write(const TakeLease& op) {
        db_->exec("INSERT INTO game_leases (game_id, node, token, expires_at) VALUES (?, ?, 1, ?)",
                  {op.game_id, op.node, op.expires_at});
    }

    void load_moves(GameRecord& g) {
        for (const SqlRow& r :
             db_->query(std::string("SELECT ") + MOVE_COLUMNS + " FROM moves WHERE game_id = ? ORDER BY ply", {g.id})) {
            Cells c{r, 1};
            g.moves.push_back(MoveRecord{c.n(), c.s(), c.s(), c.i(), c.i(), c.i(), c.opt()});
        }
    }

    std::string url_;
    bool durable_;
    Mode mode_;
    std::unique_ptr<FileLock> lock_;  // before db_: taken before the file is opened, released after it is closed
    std::unique_ptr<SqlConn> db_;
    bool pg_locked_ = false;  // PostgreSQL's advisory lock, held by db_'s session
};

}  // namespace

std::unique_ptr<Storage> open_storage(const std::string& url, bool durable, bool exclusive) {
    return std::make_unique<SqlStorage>(url, durable, exclusive, SqlStorage::Mode::Writer);
}

}  // namespace echecs::server

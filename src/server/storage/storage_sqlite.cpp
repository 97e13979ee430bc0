// SQLite storage (SQLiteCpp): one file in WAL mode, schema versioned in the
// meta table and brought up to date by the migrations below. Over 400 lines:
// the migrations and the binding of each record's columns belong together.
#include <SQLiteCpp/SQLiteCpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include "server/storage/storage_common.h"

namespace echecs::server {
namespace {

// Migration N takes the schema from version N to N+1. Never edit one that has
// shipped: add a new one.
const char* const MIGRATIONS[] = {
    R"sql(
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  initial_fen TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms INTEGER NOT NULL,
  increment_ms INTEGER NOT NULL,
  days INTEGER NOT NULL,
  white_name TEXT NOT NULL, white_token TEXT NOT NULL, white_level INTEGER NOT NULL,
  black_name TEXT NOT NULL, black_token TEXT NOT NULL, black_level INTEGER NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  termination TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL,
  white_ms INTEGER NOT NULL,
  black_ms INTEGER NOT NULL,
  clock_at INTEGER NOT NULL,
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
  white_ms INTEGER NOT NULL,
  black_ms INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)
);
CREATE TABLE seeks (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms INTEGER NOT NULL,
  increment_ms INTEGER NOT NULL,
  days INTEGER NOT NULL,
  color TEXT NOT NULL,
  nickname TEXT NOT NULL,
  token TEXT NOT NULL,
  is_private INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  game TEXT NOT NULL
);
)sql",
    // 2: the mover's clock with each move, direct-challenge games marked, the
    // last draw offer of each side, and the indexes of keyset listings.
    R"sql(
ALTER TABLE moves ADD COLUMN clock INTEGER;
UPDATE moves SET clock = CASE
    WHEN (ply + (SELECT CASE WHEN g.initial_fen LIKE '% b %' THEN 1 ELSE 0 END FROM games g
                 WHERE g.id = moves.game_id)) % 2 = 0 THEN white_ms ELSE black_ms END
  WHERE game_id IN (SELECT id FROM games WHERE time_kind = 'realtime');
ALTER TABLE games ADD COLUMN is_private INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_draw_ply INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN black_draw_ply INTEGER NOT NULL DEFAULT -1;
UPDATE games SET is_private = 1 WHERE id IN (SELECT game FROM seeks WHERE is_private = 1 AND game <> '');
DROP INDEX games_status_ended;
DROP INDEX games_status_created;
CREATE INDEX games_list_ended ON games(status, is_private, ended_at, id);
CREATE INDEX games_list_created ON games(status, is_private, created_at, id);
)sql",
    // 3: accounts on seats (with the rating each had when the game began),
    // rated games and each side's rating change; rated seeks with the
    // creator's account and rating, and a rating range.
    R"sql(
ALTER TABLE games ADD COLUMN white_account INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_provisional INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_account INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_provisional INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating_diff INTEGER;
ALTER TABLE games ADD COLUMN black_rating_diff INTEGER;
CREATE INDEX games_white_token ON games(white_token);
CREATE INDEX games_black_token ON games(black_token);
ALTER TABLE seeks ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN account INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN provisional INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating_min INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating_max INTEGER NOT NULL DEFAULT 0;
)sql",
    // 4: the chat of each game (players' and spectators' rooms) and the
    // reports of chat lines.
    R"sql(
CREATE TABLE chat (
  id INTEGER PRIMARY KEY,
  game_id TEXT NOT NULL,
  room TEXT NOT NULL,
  author TEXT NOT NULL,
  seat TEXT NOT NULL,
  author_key TEXT NOT NULL,
  text TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, room, id);
CREATE TABLE chat_reports (
  id INTEGER PRIMARY KEY,
  game_id TEXT NOT NULL,
  room TEXT NOT NULL,
  reporter TEXT NOT NULL,
  author TEXT NOT NULL,
  author_key TEXT NOT NULL,
  text TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL
);
)sql",
    // 5: the computer review of finished games; a seek's starting position.
    R"sql(
CREATE TABLE reviews (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  requested_at INTEGER NOT NULL,
  finished_at INTEGER NOT NULL
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
ALTER TABLE games ADD COLUMN white_claimed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_claimed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN resolved_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
CREATE INDEX chat_reports_open ON chat_reports(resolved_at, id);
)sql",
};
static_assert(std::size(MIGRATIONS) == SCHEMA_VERSION);

std::string placeholders(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += i ? ",?" : "?";
    return s;
}

std::string upsert_sql(const char* table, const char* columns, int count) {
    std::string sql = std::string("INSERT INTO ") + table + " (" + columns + ") VALUES (" + placeholders(count) +
                      ") ON CONFLICT(id) DO UPDATE SET ";
    std::string cols = columns;
    bool first = true;
    std::size_t pos = 0;
    while (pos < cols.size()) {
        std::size_t end = cols.find(',', pos);
        if (end == std::string::npos) end = cols.size();
        std::string c = cols.substr(pos, end - pos);
        while (!c.empty() && c.front() == ' ') c.erase(0, 1);
        if (c != "id") {
            sql += (first ? "" : ", ") + c + " = excluded." + c;
            first = false;
        }
        pos = end + 1;
    }
    return sql;
}

class SqliteStorage final : public Storage {
public:
    enum class Mode { Writer, Reader };

    SqliteStorage(const std::string& path, bool durable, bool exclusive, Mode mode) try
        : path_(path),
          durable_(durable),
          mode_(mode),
          lock_(mode == Mode::Writer && exclusive ? std::make_unique<FileLock>(path) : nullptr),
          db_(path, mode == Mode::Writer ? SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE : SQLite::OPEN_READONLY, 5000) {
        if (mode_ == Mode::Reader) return;
        db_.exec("PRAGMA journal_mode=WAL");
        // With WAL, NORMAL keeps every committed transaction across a crash of
        // the process (SIGKILL); only a power loss may lose the last ones.
        db_.exec(durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
        db_.exec("PRAGMA foreign_keys=ON");
        // Checkpoints run on their own connection and thread (below), so that
        // a commit never waits for one; the automatic checkpoint stays as a
        // backstop at 40 MB of WAL.
        db_.exec("PRAGMA wal_autocheckpoint=10000");
        migrate();
        insert_game_ = std::make_unique<SQLite::Statement>(db_, upsert_sql("games", GAME_COLUMNS, GAME_COLUMN_COUNT));
        insert_move_ = std::make_unique<SQLite::Statement>(
            db_, std::string("INSERT INTO moves (game_id, ") + MOVE_COLUMNS + ") VALUES (?,?,?,?,?,?,?,?)");
        insert_seek_ = std::make_unique<SQLite::Statement>(db_, upsert_sql("seeks", SEEK_COLUMNS, SEEK_COLUMN_COUNT));
        save_progress_ = std::make_unique<SQLite::Statement>(
            db_,
            "UPDATE games SET ply = ?, fen = ?, white_ms = ?, black_ms = ?, clock_at = ?, draw_offer = ? WHERE id = ?");
        checkpointer_ = std::thread([this] { checkpoint_loop(); });  // last: nothing throws after it
    } catch (const SQLite::Exception& e) {
        throw StorageError("SQLite database '" + path + "': " + e.what());
    }

    ~SqliteStorage() override {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        cv_.notify_all();
        if (checkpointer_.joinable()) checkpointer_.join();
    }

    std::unique_ptr<Storage> open_reader() override {
        return std::make_unique<SqliteStorage>(path_, durable_, false, Mode::Reader);
    }

    void apply(const std::vector<WriteOp>& ops) override {
        if (mode_ == Mode::Reader) throw StorageError("SQLite: a read connection cannot write");
        try {
            SQLite::Transaction tx(db_);
            for (const WriteOp& op : ops) std::visit([this](const auto& o) { write(o); }, op);
            tx.commit();
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite write failed: ") + e.what());
        }
    }

    std::optional<GameRecord> load_game(const std::string& id) override {
        try {
            SQLite::Statement q(db_, std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE id = ?");
            q.bind(1, id);
            if (!q.executeStep()) return std::nullopt;
            GameRecord g = read_game(q);
            load_moves(g);
            return g;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::vector<GameRecord> list_games(const GameFilter& f, bool with_moves) override {
        try {
            const std::string col = list_order_column(f);
            std::vector<std::string> where;
            if (!f.status.empty()) where.push_back("status = ?");
            if (f.public_only) where.push_back("is_private = 0");
            std::int64_t key = 0;
            if (!f.before.empty()) {
                SQLite::Statement k(db_, "SELECT " + col + " FROM games WHERE id = ?");
                k.bind(1, f.before);
                if (!k.executeStep()) return {};
                key = k.getColumn(0).getInt64();
                where.push_back("(" + col + " < ? OR (" + col + " = ? AND id < ?))");
            }
            std::string sql = std::string("SELECT ") + GAME_COLUMNS + " FROM games";
            for (std::size_t i = 0; i < where.size(); ++i) sql += (i ? " AND " : " WHERE ") + where[i];
            sql += " ORDER BY " + col + " DESC, id DESC LIMIT ? OFFSET ?";
            SQLite::Statement q(db_, sql);
            int i = 1;
            if (!f.status.empty()) q.bind(i++, f.status);
            if (!f.before.empty()) {
                q.bind(i++, key);
                q.bind(i++, key);
                q.bind(i++, f.before);
            }
            q.bind(i++, f.limit);
            q.bind(i++, f.offset);
            std::vector<GameRecord> out;
            while (q.executeStep()) out.push_back(read_game(q));
            if (with_moves)
                for (GameRecord& g : out) load_moves(g);
            return out;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::vector<SeekRecord> open_seeks() override {
        try {
            SQLite::Statement q(db_, std::string("SELECT ") + SEEK_COLUMNS +
                                         " FROM seeks WHERE game = '' ORDER BY created_at DESC, id");
            std::vector<SeekRecord> out;
            while (q.executeStep()) out.push_back(read_seek(q));
            return out;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::optional<SeekRecord> load_seek(const std::string& id) override {
        try {
            SQLite::Statement q(db_, std::string("SELECT ") + SEEK_COLUMNS + " FROM seeks WHERE id = ?");
            q.bind(1, id);
            if (!q.executeStep()) return std::nullopt;
            return read_seek(q);
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::vector<GameRecord> anonymous_games_of(const std::string& token, int limit) override {
        try {
            SQLite::Statement q(db_,
                                std::string("SELECT ") + GAME_COLUMNS +
                                    " FROM games WHERE status = 'over' AND ((white_token = ? AND white_account = 0 "
                                    "AND white_claimed = 0) OR (black_token = ? AND black_account = 0 AND "
                                    "black_claimed = 0))"
                                    " ORDER BY ended_at DESC, id DESC LIMIT ?");
            q.bind(1, token);
            q.bind(2, token);
            q.bind(3, limit);
            std::vector<GameRecord> out;
            while (q.executeStep()) out.push_back(read_game(q));
            return out;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::optional<ReviewRecord> load_review(const std::string& game_id) override {
        try {
            SQLite::Statement q(
                db_, "SELECT game_id, status, result, requested_at, finished_at FROM reviews WHERE game_id = ?");
            q.bind(1, game_id);
            if (!q.executeStep()) return std::nullopt;
            return ReviewRecord{q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getString(),
                                q.getColumn(3).getInt64(), q.getColumn(4).getInt64()};
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::int64_t last_heartbeat() override {
        SQLite::Statement q(db_, "SELECT value FROM meta WHERE key = 'heartbeat'");
        return q.executeStep() ? std::stoll(q.getColumn(0).getString()) : 0;
    }

    std::vector<ChatRecord> load_chat(const std::string& game_id, int per_room) override {
        try {
            std::vector<ChatRecord> out;
            for (const char* room : {"players", "spectators"}) {
                SQLite::Statement q(db_,
                                    "SELECT room, author, seat, author_key, text, at FROM (SELECT * FROM chat WHERE "
                                    "game_id = ? AND room = ? ORDER BY id DESC LIMIT ?) ORDER BY id");
                q.bind(1, game_id);
                q.bind(2, room);
                q.bind(3, per_room);
                while (q.executeStep())
                    out.push_back(ChatRecord{game_id, q.getColumn(0).getString(), q.getColumn(1).getString(),
                                             q.getColumn(2).getString(), q.getColumn(3).getString(),
                                             q.getColumn(4).getString(), q.getColumn(5).getInt64()});
            }
            return out;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    std::vector<StoredReport> list_reports(int limit, bool open_only) override {
        try {
            SQLite::Statement q(db_,
                                std::string("SELECT game_id, room, reporter, author, author_key, text, reason, at, "
                                            "id, resolved_at, resolution FROM chat_reports") +
                                    (open_only ? " WHERE resolved_at = 0" : "") + " ORDER BY id DESC LIMIT ?");
            q.bind(1, limit);
            std::vector<StoredReport> out;
            while (q.executeStep()) {
                StoredReport r;
                int i = 0;
                for (std::string* f : {&r.game_id, &r.room, &r.reporter, &r.author, &r.author_key, &r.text, &r.reason})
                    *f = q.getColumn(i++).getString();
                r.at = q.getColumn(i++).getInt64();
                r.id = q.getColumn(i++).getInt64();
                r.resolved_at = q.getColumn(i++).getInt64();
                r.resolution = q.getColumn(i).getString();
                out.push_back(std::move(r));
            }
            return out;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite read failed: ") + e.what());
        }
    }

    bool resolve_report(std::int64_t id, const std::string& resolution, std::int64_t at) override {
        try {
            SQLite::Statement q(db_,
                                "UPDATE chat_reports SET resolved_at = ?, resolution = ? WHERE id = ? AND "
                                "resolved_at = 0");
            q.bind(1, at);
            q.bind(2, resolution);
            q.bind(3, id);
            return q.exec() == 1;
        } catch (const SQLite::Exception& e) {
            throw StorageError(std::string("SQLite write failed: ") + e.what());
        }
    }

    int schema_version() override { return read_version(); }

private:
    int read_version() {
        if (!db_.tableExists("meta")) return 0;
        SQLite::Statement q(db_, "SELECT value FROM meta WHERE key = 'schema_version'");
        return q.executeStep() ? std::stoi(q.getColumn(0).getString()) : 0;
    }

    void migrate() {
        db_.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        int v = read_version();
        if (v > SCHEMA_VERSION)
            throw StorageError("database schema version " + std::to_string(v) + " is newer than this server's (" +
                               std::to_string(SCHEMA_VERSION) + ")");
        for (; v < SCHEMA_VERSION; ++v) {
            SQLite::Transaction tx(db_);
            db_.exec(MIGRATIONS[v]);
            SQLite::Statement q(db_, "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)");
            q.bind(1, std::to_string(v + 1));
            q.exec();
            tx.commit();
        }
    }

    void write(const SaveGame& op) {
        const GameRecord& g = op.game;
        SQLite::Statement& q = *insert_game_;
        q.tryReset();
        q.clearBindings();
        int i = 1;
        q.bind(i++, g.id);
        q.bind(i++, std::string(variant_name(g.variant)));
        q.bind(i++, g.initial_fen);
        q.bind(i++, std::string(time_kind_name(g.time.kind)));
        q.bind(i++, g.time.initial_ms);
        q.bind(i++, g.time.increment_ms);
        q.bind(i++, g.time.days);
        for (const Seat* s : {&g.white, &g.black}) {
            q.bind(i++, s->name);
            q.bind(i++, s->token);
            q.bind(i++, s->level);
        }
        q.bind(i++, g.status);
        q.bind(i++, g.result);
        q.bind(i++, g.termination);
        q.bind(i++, g.created_at);
        q.bind(i++, g.ended_at);
        q.bind(i++, g.white_ms);
        q.bind(i++, g.black_ms);
        q.bind(i++, g.clock_at);
        q.bind(i++, g.draw_offer);
        q.bind(i++, g.rematch_offer);
        q.bind(i++, g.rematch_game);
        q.bind(i++, g.ply);
        q.bind(i++, g.fen);
        q.bind(i++, g.is_private ? 1 : 0);
        q.bind(i++, g.white_draw_ply);
        q.bind(i++, g.black_draw_ply);
        for (const Seat* st : {&g.white, &g.black}) {
            q.bind(i++, st->account);
            q.bind(i++, st->rating);
            q.bind(i++, st->provisional ? 1 : 0);
        }
        q.bind(i++, g.rated ? 1 : 0);
        for (const std::optional<int>* d : {&g.white_rating_diff, &g.black_rating_diff}) {
            if (*d)
                q.bind(i++, **d);
            else
                q.bind(i++);
        }
        q.exec();
    }

    void write(const AddMove& op) {
        SQLite::Statement& q = *insert_move_;
        q.tryReset();
        q.clearBindings();
        q.bind(1, op.game_id);
        q.bind(2, op.move.ply);
        q.bind(3, op.move.uci);
        q.bind(4, op.move.san);
        q.bind(5, op.move.white_ms);
        q.bind(6, op.move.black_ms);
        q.bind(7, op.move.at);
        if (op.move.clock)
            q.bind(8, *op.move.clock);
        else
            q.bind(8);
        q.exec();
    }

    void write(const SaveProgress& op) {
        SQLite::Statement& q = *save_progress_;
        q.tryReset();
        q.clearBindings();
        q.bind(1, op.ply);
        q.bind(2, op.fen);
        q.bind(3, op.white_ms);
        q.bind(4, op.black_ms);
        q.bind(5, op.clock_at);
        q.bind(6, op.draw_offer);
        q.bind(7, op.game_id);
        if (q.exec() != 1) throw StorageError("no game " + op.game_id);
    }

    void write(const SaveSeek& op) {
        const SeekRecord& s = op.seek;
        SQLite::Statement& q = *insert_seek_;
        q.tryReset();
        q.clearBindings();
        int i = 1;
        q.bind(i++, s.id);
        q.bind(i++, std::string(variant_name(s.variant)));
        q.bind(i++, std::string(time_kind_name(s.time.kind)));
        q.bind(i++, s.time.initial_ms);
        q.bind(i++, s.time.increment_ms);
        q.bind(i++, s.time.days);
        q.bind(i++, s.color);
        q.bind(i++, s.nickname);
        q.bind(i++, s.token);
        q.bind(i++, s.is_private ? 1 : 0);
        q.bind(i++, s.created_at);
        q.bind(i++, s.game);
        q.bind(i++, s.rated ? 1 : 0);
        q.bind(i++, s.account);
        q.bind(i++, s.rating);
        q.bind(i++, s.provisional ? 1 : 0);
        q.bind(i++, s.rating_min);
        q.bind(i++, s.rating_max);
        q.bind(i++, s.initial_fen);
        q.exec();
    }

    void write(const DeleteSeek& op) {
        SQLite::Statement q(db_, "DELETE FROM seeks WHERE id = ?");
        q.bind(1, op.id);
        q.exec();
    }

    void write(const Heartbeat& op) {
        SQLite::Statement q(db_, "INSERT OR REPLACE INTO meta (key, value) VALUES ('heartbeat', ?)");
        q.bind(1, std::to_string(op.at));
        q.exec();
    }

    void write(const AddChat& op) {
        const ChatRecord& c = op.line;
        SQLite::Statement q(db_,
                            "INSERT INTO chat (game_id, room, author, seat, author_key, text, at) VALUES "
                            "(?,?,?,?,?,?,?)");
        int i = 1;
        for (const std::string* f : {&c.game_id, &c.room, &c.author, &c.seat, &c.author_key, &c.text}) q.bind(i++, *f);
        q.bind(i, c.at);
        q.exec();
    }

    void write(const AddReport& op) {
        const ReportRecord& r = op.report;
        SQLite::Statement q(db_,
                            "INSERT INTO chat_reports (game_id, room, reporter, author, author_key, text, reason, at) "
                            "VALUES (?,?,?,?,?,?,?,?)");
        int i = 1;
        for (const std::string* f : {&r.game_id, &r.room, &r.reporter, &r.author, &r.author_key, &r.text, &r.reason})
            q.bind(i++, *f);
        q.bind(i, r.at);
        q.exec();
    }

    void write(const MarkClaimed& op) {
        SQLite::Statement q(db_,
                            "UPDATE games SET white_claimed = CASE WHEN white_token = ?1 AND white_claimed = 0 THEN ?2 "
                            "ELSE white_claimed END, black_claimed = CASE WHEN black_token = ?1 AND black_claimed = 0 "
                            "THEN ?2 ELSE black_claimed END WHERE id = ?3");
        for (const std::string& id : op.game_ids) {
            q.tryReset();
            q.bind(1, op.token);
            q.bind(2, op.account);
            q.bind(3, id);
            q.exec();
        }
    }

    void write(const SaveReview& op) {
        const ReviewRecord& r = op.review;
        SQLite::Statement q(db_,
                            "INSERT OR REPLACE INTO reviews (game_id, status, result, requested_at, finished_at) "
                            "VALUES (?,?,?,?,?)");
        q.bind(1, r.game_id);
        q.bind(2, r.status);
        q.bind(3, r.result);
        q.bind(4, r.requested_at);
        q.bind(5, r.finished_at);
        q.exec();
    }

    static GameRecord read_game(SQLite::Statement& q) {
        GameRecord g;
        int i = 0;
        g.id = q.getColumn(i++).getString();
        g.variant = variant_from(q.getColumn(i++).getString());
        g.initial_fen = q.getColumn(i++).getString();
        g.time.kind = time_kind_from(q.getColumn(i++).getString());
        g.time.initial_ms = q.getColumn(i++).getInt64();
        g.time.increment_ms = q.getColumn(i++).getInt64();
        g.time.days = q.getColumn(i++).getInt();
        for (Seat* s : {&g.white, &g.black}) {
            s->name = q.getColumn(i++).getString();
            s->token = q.getColumn(i++).getString();
            s->level = q.getColumn(i++).getInt();
        }
        g.status = q.getColumn(i++).getString();
        g.result = q.getColumn(i++).getString();
        g.termination = q.getColumn(i++).getString();
        g.created_at = q.getColumn(i++).getInt64();
        g.ended_at = q.getColumn(i++).getInt64();
        g.white_ms = q.getColumn(i++).getInt64();
        g.black_ms = q.getColumn(i++).getInt64();
        g.clock_at = q.getColumn(i++).getInt64();
        g.draw_offer = q.getColumn(i++).getString();
        g.rematch_offer = q.getColumn(i++).getString();
        g.rematch_game = q.getColumn(i++).getString();
        g.ply = q.getColumn(i++).getInt();
        g.fen = q.getColumn(i++).getString();
        g.is_private = q.getColumn(i++).getInt() != 0;
        g.white_draw_ply = q.getColumn(i++).getInt();
        g.black_draw_ply = q.getColumn(i++).getInt();
        for (Seat* st : {&g.white, &g.black}) {
            st->account = q.getColumn(i++).getInt64();
            st->rating = q.getColumn(i++).getInt();
            st->provisional = q.getColumn(i++).getInt() != 0;
        }
        g.rated = q.getColumn(i++).getInt() != 0;
        for (std::optional<int>* d : {&g.white_rating_diff, &g.black_rating_diff}) {
            if (!q.getColumn(i).isNull()) *d = q.getColumn(i).getInt();
            ++i;
        }
        return g;
    }

    static SeekRecord read_seek(SQLite::Statement& q) {
        SeekRecord s;
        int i = 0;
        s.id = q.getColumn(i++).getString();
        s.variant = variant_from(q.getColumn(i++).getString());
        s.time.kind = time_kind_from(q.getColumn(i++).getString());
        s.time.initial_ms = q.getColumn(i++).getInt64();
        s.time.increment_ms = q.getColumn(i++).getInt64();
        s.time.days = q.getColumn(i++).getInt();
        s.color = q.getColumn(i++).getString();
        s.nickname = q.getColumn(i++).getString();
        s.token = q.getColumn(i++).getString();
        s.is_private = q.getColumn(i++).getInt() != 0;
        s.created_at = q.getColumn(i++).getInt64();
        s.game = q.getColumn(i++).getString();
        s.rated = q.getColumn(i++).getInt() != 0;
        s.account = q.getColumn(i++).getInt64();
        s.rating = q.getColumn(i++).getInt();
        s.provisional = q.getColumn(i++).getInt() != 0;
        s.rating_min = q.getColumn(i++).getInt();
        s.rating_max = q.getColumn(i++).getInt();
        s.initial_fen = q.getColumn(i++).getString();
        return s;
    }

    void load_moves(GameRecord& g) {
        SQLite::Statement q(db_, std::string("SELECT ") + MOVE_COLUMNS + " FROM moves WHERE game_id = ? ORDER BY ply");
        q.bind(1, g.id);
        while (q.executeStep()) {
            MoveRecord m;
            m.ply = q.getColumn(0).getInt();
            m.uci = q.getColumn(1).getString();
            m.san = q.getColumn(2).getString();
            m.white_ms = q.getColumn(3).getInt64();
            m.black_ms = q.getColumn(4).getInt64();
            m.at = q.getColumn(5).getInt64();
            if (!q.getColumn(6).isNull()) m.clock = q.getColumn(6).getInt64();
            g.moves.push_back(std::move(m));
        }
    }

    // Small, frequent checkpoints: with one every 500 ms the load benchmark's
    // p99 was three times higher (docs/PERFORMANCE.md). An error (disk full,
    // the file replaced) is logged and the connection opened again: the
    // checkpoints never stop for good.
    void checkpoint_loop() {
        std::unique_lock lock(mutex_);
        std::unique_ptr<SQLite::Database> db;
        std::chrono::milliseconds pause(25);
        std::int64_t errors = 0;
        while (!cv_.wait_for(lock, pause, [this] { return stopping_; })) {
            lock.unlock();
            try {
                if (!db) db = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE, 5000);
                db->exec("PRAGMA wal_checkpoint(PASSIVE)");
                pause = std::chrono::milliseconds(25);
            } catch (const std::exception& e) {
                if (errors++ % 100 == 0) std::cerr << "echecs serve: SQLite checkpoint: " << e.what() << "\n";
                db.reset();
                pause = std::chrono::milliseconds(1000);
            }
            checkpoint_errors_ = errors;
            lock.lock();
        }
    }

    std::string path_;
    bool durable_;
    Mode mode_;
    std::unique_ptr<FileLock> lock_;  // before db_: taken before the file is opened
    SQLite::Database db_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::atomic<std::int64_t> checkpoint_errors_{0};
    std::thread checkpointer_;
    std::unique_ptr<SQLite::Statement> insert_game_, insert_move_, insert_seek_, save_progress_;
};

}  // namespace

std::unique_ptr<Storage> open_sqlite(const std::string& path, bool durable, bool exclusive) {
    return std::make_unique<SqliteStorage>(path, durable, exclusive, SqliteStorage::Mode::Writer);
}

}  // namespace echecs::server

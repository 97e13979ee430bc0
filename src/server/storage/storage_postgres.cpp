// PostgreSQL storage (libpqxx): the same tables and migrations as SQLite, in
// PostgreSQL's dialect.
#include <pqxx/pqxx>
#include <string>

#include "server/storage/storage_common.h"

namespace echecs::server {
namespace {

const char* const MIGRATIONS[] = {
    R"sql(
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  initial_fen TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms BIGINT NOT NULL,
  increment_ms BIGINT NOT NULL,
  days INTEGER NOT NULL,
  white_name TEXT NOT NULL, white_token TEXT NOT NULL, white_level INTEGER NOT NULL,
  black_name TEXT NOT NULL, black_token TEXT NOT NULL, black_level INTEGER NOT NULL,
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  termination TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  ended_at BIGINT NOT NULL,
  white_ms BIGINT NOT NULL,
  black_ms BIGINT NOT NULL,
  clock_at BIGINT NOT NULL,
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
  white_ms BIGINT NOT NULL,
  black_ms BIGINT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (game_id, ply)
);
CREATE TABLE seeks (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  time_kind TEXT NOT NULL,
  initial_ms BIGINT NOT NULL,
  increment_ms BIGINT NOT NULL,
  days INTEGER NOT NULL,
  color TEXT NOT NULL,
  nickname TEXT NOT NULL,
  token TEXT NOT NULL,
  is_private BOOLEAN NOT NULL,
  created_at BIGINT NOT NULL,
  game TEXT NOT NULL
);
)sql",
    // 2: as in SQLite (storage_sqlite.cpp).
    R"sql(
ALTER TABLE moves ADD COLUMN clock BIGINT;
UPDATE moves SET clock = CASE
    WHEN (moves.ply + CASE WHEN g.initial_fen LIKE '% b %' THEN 1 ELSE 0 END) % 2 = 0 THEN moves.white_ms
    ELSE moves.black_ms END
  FROM games g WHERE g.id = moves.game_id AND g.time_kind = 'realtime';
ALTER TABLE games ADD COLUMN is_private BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN white_draw_ply INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN black_draw_ply INTEGER NOT NULL DEFAULT -1;
UPDATE games SET is_private = TRUE WHERE id IN (SELECT game FROM seeks WHERE is_private AND game <> '');
DROP INDEX games_status_ended;
DROP INDEX games_status_created;
CREATE INDEX games_list_ended ON games(status, is_private, ended_at, id);
CREATE INDEX games_list_created ON games(status, is_private, created_at, id);
)sql",
    // 3: as in SQLite (storage_sqlite.cpp).
    R"sql(
ALTER TABLE games ADD COLUMN white_account BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN black_account BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN white_rating_diff INTEGER;
ALTER TABLE games ADD COLUMN black_rating_diff INTEGER;
CREATE INDEX games_white_token ON games(white_token);
CREATE INDEX games_black_token ON games(black_token);
ALTER TABLE seeks ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seeks ADD COLUMN account BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN provisional BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seeks ADD COLUMN rating_min INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN rating_max INTEGER NOT NULL DEFAULT 0;
)sql",
    // 4: as in SQLite (storage_sqlite.cpp).
    R"sql(
CREATE TABLE chat (
  id BIGSERIAL PRIMARY KEY,
  game_id TEXT NOT NULL,
  room TEXT NOT NULL,
  author TEXT NOT NULL,
  seat TEXT NOT NULL,
  author_key TEXT NOT NULL,
  text TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, room, id);
CREATE TABLE chat_reports (
  id BIGSERIAL PRIMARY KEY,
  game_id TEXT NOT NULL,
  room TEXT NOT NULL,
  reporter TEXT NOT NULL,
  author TEXT NOT NULL,
  author_key TEXT NOT NULL,
  text TEXT NOT NULL,
  reason TEXT NOT NULL,
  at BIGINT NOT NULL
);
)sql",
    // 5: as in SQLite (storage_sqlite.cpp).
    R"sql(
CREATE TABLE reviews (
  game_id TEXT PRIMARY KEY REFERENCES games(id),
  status TEXT NOT NULL,
  result TEXT NOT NULL,
  requested_at BIGINT NOT NULL,
  finished_at BIGINT NOT NULL
);
ALTER TABLE seeks ADD COLUMN initial_fen TEXT NOT NULL DEFAULT '';
)sql",
    // 6: as in SQLite (storage_sqlite.cpp).
    R"sql(
UPDATE games SET white_level = white_level + 2 WHERE white_level > 0;
UPDATE games SET black_level = black_level + 2 WHERE black_level > 0;
)sql",
    // 7: as in SQLite (storage_sqlite.cpp).
    R"sql(
ALTER TABLE games ADD COLUMN white_claimed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_claimed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN resolved_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
CREATE INDEX chat_reports_open ON chat_reports(resolved_at, id);
)sql",
};
static_assert(std::size(MIGRATIONS) == SCHEMA_VERSION);

std::string upsert_sql(const char* table, const char* columns, int count) {
    std::string sql = std::string("INSERT INTO ") + table + " (" + columns + ") VALUES (";
    for (int i = 1; i <= count; ++i) sql += (i > 1 ? ",$" : "$") + std::to_string(i);
    sql += ") ON CONFLICT (id) DO UPDATE SET ";
    std::string cols = columns;
    bool first = true;
    std::size_t pos = 0;
    while (pos < cols.size()) {
        std::size_t end = cols.find(',', pos);
        if (end == std::string::npos) end = cols.size();
        std::string c = cols.substr(pos, end - pos);
        while (!c.empty() && c.front() == ' ') c.erase(0, 1);
        if (c != "id") {
            sql += (first ? "" : ", ") + c + " = EXCLUDED." + c;
            first = false;
        }
        pos = end + 1;
    }
    return sql;
}

// Any fixed number: the session advisory lock that makes one server per database.
constexpr std::int64_t SERVER_LOCK_KEY = 0x6563686563735356;  // "echecsSV"

class PostgresStorage final : public Storage {
public:
    enum class Mode { Writer, Reader };

    PostgresStorage(const std::string& url, bool exclusive, Mode mode) try : url_(url), mode_(mode), conn_(url) {
        if (mode_ == Mode::Reader) return;
        if (exclusive) {
            // Session-level: held as long as this connection lives.
            pqxx::nontransaction n(conn_);
            if (!n.exec_params1("SELECT pg_try_advisory_lock($1)", SERVER_LOCK_KEY)[0].as<bool>())
                throw StorageError(
                    "PostgreSQL database: another echecs server is using it (advisory lock held): one database, one "
                    "server");
        }
        migrate();
        conn_.prepare("save_game", upsert_sql("games", GAME_COLUMNS, GAME_COLUMN_COUNT));
        conn_.prepare("save_seek", upsert_sql("seeks", SEEK_COLUMNS, SEEK_COLUMN_COUNT));
        conn_.prepare("save_progress",
                      "UPDATE games SET ply = $1, fen = $2, white_ms = $3, black_ms = $4, clock_at = $5, "
                      "draw_offer = $6 WHERE id = $7");
        conn_.prepare("add_move", std::string("INSERT INTO moves (game_id, ") + MOVE_COLUMNS +
                                      ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8)");
    } catch (const StorageError&) {
        throw;
    } catch (const std::exception& e) {
        throw StorageError("PostgreSQL database: " + std::string(e.what()));
    }

    std::unique_ptr<Storage> open_reader() override {
        return std::make_unique<PostgresStorage>(url_, false, Mode::Reader);
    }

    void apply(const std::vector<WriteOp>& ops) override {
        if (mode_ == Mode::Reader) throw StorageError("PostgreSQL: a read connection cannot write");
        try {
            pqxx::work w(conn_);
            for (const WriteOp& op : ops) std::visit([&](const auto& o) { write(w, o); }, op);
            w.commit();
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL write failed: ") + e.what());
        }
    }

    std::optional<GameRecord> load_game(const std::string& id) override {
        try {
            pqxx::read_transaction t(conn_);
            pqxx::result r = t.exec_params(std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE id = $1", id);
            if (r.empty()) return std::nullopt;
            GameRecord g = read_game(r[0]);
            load_moves(t, g);
            return g;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::vector<GameRecord> list_games(const GameFilter& f, bool with_moves) override {
        try {
            pqxx::read_transaction t(conn_);
            const std::string col = list_order_column(f);
            std::int64_t key = 0;
            if (!f.before.empty()) {
                pqxx::result k = t.exec_params("SELECT " + col + " FROM games WHERE id = $1", f.before);
                if (k.empty()) return {};
                key = k[0][0].as<std::int64_t>();
            }
            std::string sql = std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE ($1 = '' OR status = $1)";
            if (f.public_only) sql += " AND NOT is_private";
            if (!f.before.empty()) sql += " AND (" + col + " < $4 OR (" + col + " = $4 AND id < $5))";
            sql += " ORDER BY " + col + " DESC, id DESC LIMIT $2 OFFSET $3";
            pqxx::result r = f.before.empty() ? t.exec_params(sql, f.status, f.limit, f.offset)
                                              : t.exec_params(sql, f.status, f.limit, f.offset, key, f.before);
            std::vector<GameRecord> out;
            for (const auto& row : r) out.push_back(read_game(row));
            if (with_moves)
                for (GameRecord& g : out) load_moves(t, g);
            return out;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::vector<SeekRecord> open_seeks() override {
        try {
            pqxx::read_transaction t(conn_);
            pqxx::result r = t.exec(std::string("SELECT ") + SEEK_COLUMNS +
                                    " FROM seeks WHERE game = '' ORDER BY created_at DESC, id");
            std::vector<SeekRecord> out;
            for (const auto& row : r) out.push_back(read_seek(row));
            return out;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::optional<SeekRecord> load_seek(const std::string& id) override {
        try {
            pqxx::read_transaction t(conn_);
            pqxx::result r = t.exec_params(std::string("SELECT ") + SEEK_COLUMNS + " FROM seeks WHERE id = $1", id);
            if (r.empty()) return std::nullopt;
            return read_seek(r[0]);
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::vector<GameRecord> anonymous_games_of(const std::string& token, int limit) override {
        try {
            pqxx::read_transaction t(conn_);
            pqxx::result r = t.exec_params(std::string("SELECT ") + GAME_COLUMNS +
                                               " FROM games WHERE status = 'over' AND ((white_token = $1 AND "
                                               "white_account = 0 AND white_claimed = 0) OR (black_token = $1 AND "
                                               "black_account = 0 AND black_claimed = 0))"
                                               " ORDER BY ended_at DESC, id DESC LIMIT $2",
                                           token, limit);
            std::vector<GameRecord> out;
            for (const auto& row : r) out.push_back(read_game(row));
            return out;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::optional<ReviewRecord> load_review(const std::string& game_id) override {
        try {
            pqxx::read_transaction t(conn_);
            pqxx::result r = t.exec_params(
                "SELECT game_id, status, result, requested_at, finished_at FROM reviews WHERE game_id = $1", game_id);
            if (r.empty()) return std::nullopt;
            return ReviewRecord{r[0][0].as<std::string>(), r[0][1].as<std::string>(), r[0][2].as<std::string>(),
                                r[0][3].as<std::int64_t>(), r[0][4].as<std::int64_t>()};
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::int64_t last_heartbeat() override {
        pqxx::read_transaction t(conn_);
        pqxx::result r = t.exec("SELECT value FROM meta WHERE key = 'heartbeat'");
        return r.empty() ? 0 : std::stoll(r[0][0].as<std::string>());
    }

    std::vector<ChatRecord> load_chat(const std::string& game_id, int per_room) override {
        try {
            pqxx::read_transaction t(conn_);
            std::vector<ChatRecord> out;
            for (const char* room : {"players", "spectators"}) {
                pqxx::result r = t.exec_params(
                    "SELECT room, author, seat, author_key, text, at FROM (SELECT * FROM chat WHERE game_id = $1 AND "
                    "room = $2 ORDER BY id DESC LIMIT $3) AS last ORDER BY id",
                    game_id, std::string(room), per_room);
                for (const auto& row : r)
                    out.push_back(ChatRecord{game_id, row[0].as<std::string>(), row[1].as<std::string>(),
                                             row[2].as<std::string>(), row[3].as<std::string>(),
                                             row[4].as<std::string>(), row[5].as<std::int64_t>()});
            }
            return out;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    std::vector<StoredReport> list_reports(int limit, bool open_only) override {
        try {
            pqxx::read_transaction t(conn_);
            pqxx::result res = t.exec_params(
                std::string("SELECT game_id, room, reporter, author, author_key, text, reason, at, id, resolved_at, "
                            "resolution FROM chat_reports") +
                    (open_only ? " WHERE resolved_at = 0" : "") + " ORDER BY id DESC LIMIT $1",
                limit);
            std::vector<StoredReport> out;
            for (const auto& row : res) {
                StoredReport r;
                int i = 0;
                for (std::string* f : {&r.game_id, &r.room, &r.reporter, &r.author, &r.author_key, &r.text, &r.reason})
                    *f = row[i++].as<std::string>();
                r.at = row[i++].as<std::int64_t>();
                r.id = row[i++].as<std::int64_t>();
                r.resolved_at = row[i++].as<std::int64_t>();
                r.resolution = row[i].as<std::string>();
                out.push_back(std::move(r));
            }
            return out;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL read failed: ") + e.what());
        }
    }

    bool resolve_report(std::int64_t id, const std::string& resolution, std::int64_t at) override {
        try {
            pqxx::work w(conn_);
            pqxx::result r = w.exec_params(
                "UPDATE chat_reports SET resolved_at = $1, resolution = $2 WHERE id = $3 AND resolved_at = 0", at,
                resolution, id);
            w.commit();
            return r.affected_rows() == 1;
        } catch (const std::exception& e) {
            throw StorageError(std::string("PostgreSQL write failed: ") + e.what());
        }
    }

    int schema_version() override {
        pqxx::read_transaction t(conn_);
        return read_version(t);
    }

private:
    static int read_version(pqxx::transaction_base& t) {
        pqxx::result r = t.exec("SELECT value FROM meta WHERE key = 'schema_version'");
        return r.empty() ? 0 : std::stoi(r[0][0].as<std::string>());
    }

    void migrate() {
        {
            pqxx::work w(conn_);
            w.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            w.commit();
        }
        for (;;) {
            pqxx::work w(conn_);
            // Serialises concurrent servers migrating the same database.
            w.exec("LOCK TABLE meta IN EXCLUSIVE MODE");
            int v = read_version(w);
            if (v > SCHEMA_VERSION)
                throw StorageError("database schema version " + std::to_string(v) + " is newer than this server's (" +
                                   std::to_string(SCHEMA_VERSION) + ")");
            if (v == SCHEMA_VERSION) return;
            w.exec(MIGRATIONS[v]);
            w.exec_params(
                "INSERT INTO meta (key, value) VALUES ('schema_version', $1) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                std::to_string(v + 1));
            w.commit();
        }
    }

    static void write(pqxx::work& w, const SaveGame& op) {
        const GameRecord& g = op.game;
        w.exec_prepared("save_game", g.id, std::string(variant_name(g.variant)), g.initial_fen,
                        std::string(time_kind_name(g.time.kind)), g.time.initial_ms, g.time.increment_ms, g.time.days,
                        g.white.name, g.white.token, g.white.level, g.black.name, g.black.token, g.black.level,
                        g.status, g.result, g.termination, g.created_at, g.ended_at, g.white_ms, g.black_ms, g.clock_at,
                        g.draw_offer, g.rematch_offer, g.rematch_game, g.ply, g.fen, g.is_private, g.white_draw_ply,
                        g.black_draw_ply, g.white.account, g.white.rating, g.white.provisional, g.black.account,
                        g.black.rating, g.black.provisional, g.rated, g.white_rating_diff, g.black_rating_diff);
    }
    static void write(pqxx::work& w, const AddMove& op) {
        const MoveRecord& m = op.move;
        w.exec_prepared("add_move", op.game_id, m.ply, m.uci, m.san, m.white_ms, m.black_ms, m.at, m.clock);
    }
    static void write(pqxx::work& w, const SaveProgress& op) {
        pqxx::result r = w.exec_prepared("save_progress", op.ply, op.fen, op.white_ms, op.black_ms, op.clock_at,
                                         op.draw_offer, op.game_id);
        if (r.affected_rows() != 1) throw StorageError("no game " + op.game_id);
    }
    static void write(pqxx::work& w, const SaveSeek& op) {
        const SeekRecord& s = op.seek;
        w.exec_prepared("save_seek", s.id, std::string(variant_name(s.variant)),
                        std::string(time_kind_name(s.time.kind)), s.time.initial_ms, s.time.increment_ms, s.time.days,
                        s.color, s.nickname, s.token, s.is_private, s.created_at, s.game, s.rated, s.account, s.rating,
                        s.provisional, s.rating_min, s.rating_max, s.initial_fen);
    }
    static void write(pqxx::work& w, const DeleteSeek& op) { w.exec_params("DELETE FROM seeks WHERE id = $1", op.id); }
    static void write(pqxx::work& w, const Heartbeat& op) {
        w.exec_params(
            "INSERT INTO meta (key, value) VALUES ('heartbeat', $1) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            std::to_string(op.at));
    }

    static void write(pqxx::work& w, const AddChat& op) {
        const ChatRecord& c = op.line;
        w.exec_params(
            "INSERT INTO chat (game_id, room, author, seat, author_key, text, at) VALUES ($1,$2,$3,$4,$5,$6,$7)",
            c.game_id, c.room, c.author, c.seat, c.author_key, c.text, c.at);
    }
    static void write(pqxx::work& w, const AddReport& op) {
        const ReportRecord& r = op.report;
        w.exec_params(
            "INSERT INTO chat_reports (game_id, room, reporter, author, author_key, text, reason, at) VALUES "
            "($1,$2,$3,$4,$5,$6,$7,$8)",
            r.game_id, r.room, r.reporter, r.author, r.author_key, r.text, r.reason, r.at);
    }
    static void write(pqxx::work& w, const MarkClaimed& op) {
        for (const std::string& id : op.game_ids)
            w.exec_params(
                "UPDATE games SET white_claimed = CASE WHEN white_token = $1 AND white_claimed = 0 THEN $2 ELSE "
                "white_claimed END, black_claimed = CASE WHEN black_token = $1 AND black_claimed = 0 THEN $2 ELSE "
                "black_claimed END WHERE id = $3",
                op.token, op.account, id);
    }
    static void write(pqxx::work& w, const SaveReview& op) {
        const ReviewRecord& r = op.review;
        w.exec_params(
            "INSERT INTO reviews (game_id, status, result, requested_at, finished_at) VALUES ($1,$2,$3,$4,$5) "
            "ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status, result = EXCLUDED.result, "
            "requested_at = EXCLUDED.requested_at, finished_at = EXCLUDED.finished_at",
            r.game_id, r.status, r.result, r.requested_at, r.finished_at);
    }

    static GameRecord read_game(const pqxx::row& r) {
        GameRecord g;
        int i = 0;
        g.id = r[i++].as<std::string>();
        g.variant = variant_from(r[i++].as<std::string>());
        g.initial_fen = r[i++].as<std::string>();
        g.time.kind = time_kind_from(r[i++].as<std::string>());
        g.time.initial_ms = r[i++].as<std::int64_t>();
        g.time.increment_ms = r[i++].as<std::int64_t>();
        g.time.days = r[i++].as<int>();
        for (Seat* s : {&g.white, &g.black}) {
            s->name = r[i++].as<std::string>();
            s->token = r[i++].as<std::string>();
            s->level = r[i++].as<int>();
        }
        g.status = r[i++].as<std::string>();
        g.result = r[i++].as<std::string>();
        g.termination = r[i++].as<std::string>();
        g.created_at = r[i++].as<std::int64_t>();
        g.ended_at = r[i++].as<std::int64_t>();
        g.white_ms = r[i++].as<std::int64_t>();
        g.black_ms = r[i++].as<std::int64_t>();
        g.clock_at = r[i++].as<std::int64_t>();
        g.draw_offer = r[i++].as<std::string>();
        g.rematch_offer = r[i++].as<std::string>();
        g.rematch_game = r[i++].as<std::string>();
        g.ply = r[i++].as<int>();
        g.fen = r[i++].as<std::string>();
        g.is_private = r[i++].as<bool>();
        g.white_draw_ply = r[i++].as<int>();
        g.black_draw_ply = r[i++].as<int>();
        for (Seat* st : {&g.white, &g.black}) {
            st->account = r[i++].as<std::int64_t>();
            st->rating = r[i++].as<int>();
            st->provisional = r[i++].as<bool>();
        }
        g.rated = r[i++].as<bool>();
        for (std::optional<int>* d : {&g.white_rating_diff, &g.black_rating_diff}) {
            if (!r[i].is_null()) *d = r[i].as<int>();
            ++i;
        }
        return g;
    }

    static SeekRecord read_seek(const pqxx::row& r) {
        SeekRecord s;
        int i = 0;
        s.id = r[i++].as<std::string>();
        s.variant = variant_from(r[i++].as<std::string>());
        s.time.kind = time_kind_from(r[i++].as<std::string>());
        s.time.initial_ms = r[i++].as<std::int64_t>();
        s.time.increment_ms = r[i++].as<std::int64_t>();
        s.time.days = r[i++].as<int>();
        s.color = r[i++].as<std::string>();
        s.nickname = r[i++].as<std::string>();
        s.token = r[i++].as<std::string>();
        s.is_private = r[i++].as<bool>();
        s.created_at = r[i++].as<std::int64_t>();
        s.game = r[i++].as<std::string>();
        s.rated = r[i++].as<bool>();
        s.account = r[i++].as<std::int64_t>();
        s.rating = r[i++].as<int>();
        s.provisional = r[i++].as<bool>();
        s.rating_min = r[i++].as<int>();
        s.rating_max = r[i++].as<int>();
        s.initial_fen = r[i++].as<std::string>();
        return s;
    }

    static void load_moves(pqxx::transaction_base& t, GameRecord& g) {
        pqxx::result r =
            t.exec_params(std::string("SELECT ") + MOVE_COLUMNS + " FROM moves WHERE game_id = $1 ORDER BY ply", g.id);
        for (const auto& row : r) {
            MoveRecord m;
            m.ply = row[0].as<int>();
            m.uci = row[1].as<std::string>();
            m.san = row[2].as<std::string>();
            m.white_ms = row[3].as<std::int64_t>();
            m.black_ms = row[4].as<std::int64_t>();
            m.at = row[5].as<std::int64_t>();
            if (!row[6].is_null()) m.clock = row[6].as<std::int64_t>();
            g.moves.push_back(std::move(m));
        }
    }

    std::string url_;
    Mode mode_;
    pqxx::connection conn_;
};

}  // namespace

std::unique_ptr<Storage> open_postgres(const std::string& url, bool exclusive) {
    return std::make_unique<PostgresStorage>(url, exclusive, PostgresStorage::Mode::Writer);
}

}  // namespace echecs::server

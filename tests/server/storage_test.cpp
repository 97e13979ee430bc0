// The storage tests, one suite run against SQLite (server_tests) and against
// a real PostgreSQL server (server_postgres_tests): storage_database.h.
#include "server/storage/storage.h"

#include <gtest/gtest.h>

#include <string>

#include "core/game.h"
#include "engine/strength.h"
#include "storage_database.h"

using namespace echecs;
using namespace echecs::server;

namespace {

class StorageTest : public StorageDatabaseTest {
protected:
    std::unique_ptr<Storage> open() { return open_storage(url_); }
    static GameFilter filter(const std::string& status, int limit) {
        GameFilter f;
        f.status = status;
        f.limit = limit;
        return f;
    }

    static GameRecord sample(const std::string& id, std::int64_t created) {
        GameRecord g;
        g.id = id;
        g.variant = Variant::Alice;
        g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.fen = g.initial_fen;
        g.time = {TimeControl::Realtime, 300000, 3000, 0};
        g.white = {"Ann", "tokenAAAAAAAAAAAAAAAA", 0};
        g.black = {"Computer", "", 5};
        g.created_at = created;
        g.clock_at = created;
        g.white_ms = g.black_ms = 300000;
        return g;
    }
    static MoveRecord move(int ply, const std::string& uci, const std::string& san) {
        return MoveRecord{ply, uci, san, 300000 - ply, 299000 + ply, 1000 + ply, 300000 - ply};
    }
};

TEST_F(StorageTest, FreshDatabaseGetsTheCurrentSchema) {
    auto s = open();
    EXPECT_EQ(s->schema_version(), SCHEMA_VERSION);
    EXPECT_TRUE(s->list_games({}, false).empty());
    EXPECT_TRUE(s->open_seeks().empty());
    EXPECT_EQ(s->last_heartbeat(), 0);
}

TEST_F(StorageTest, GameAndMovesRoundTrip) {
    GameRecord g = sample("Game0001", 100);
    {
        auto s = open();
        s->apply({SaveGame{g}});
        MoveRecord m1 = move(0, "e2e4", "e4"), m2 = move(1, "d7d5", "d5");
        m2.clock = std::nullopt;  // as in unlimited games
        g.white_draw_ply = 5;
        g.is_private = true;
        g.ply = 2;
        g.fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
        g.draw_offer = "black";
        s->apply({AddMove{g.id, m1}, AddMove{g.id, m2}, SaveGame{g}});
        g.moves = {m1, m2};
        // A move that does not end the game updates only its progress.
        MoveRecord m3 = move(2, "g1f3", "Nf3");
        g.ply = 3;
        g.fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
        g.white_ms = 123;
        g.black_ms = 456;
        g.clock_at = 789;
        g.draw_offer = "";
        s->apply({AddMove{g.id, m3}, SaveProgress{g.id, g.ply, g.fen, g.white_ms, g.black_ms, g.clock_at, ""}});
        g.moves.push_back(m3);
        EXPECT_THROW(s->apply({SaveProgress{"Nothing1", 1, "", 0, 0, 0, ""}}), StorageError);
    }
    // Reopened: everything is there, byte for byte.
    auto s = open();
    auto loaded = s->load_game("Game0001");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, g);
    EXPECT_FALSE(s->load_game("Nothing1"));
}

// A takeback deletes the last moves and saves the position they leave; a
// move played after it takes the freed ply.
TEST_F(StorageTest, ATakebackDeletesTheLastMoves) {
    GameRecord g = sample("Game0009", 100);
    {
        auto s = open();
        const MoveRecord m1 = move(0, "e2e4", "e4"), m2 = move(1, "d7d5", "d5"), m3 = move(2, "g1f3", "Nf3");
        g.ply = 3;
        s->apply({SaveGame{g}, AddMove{g.id, m1}, AddMove{g.id, m2}, AddMove{g.id, m3}});
        g.ply = 1;
        g.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        s->apply({TakeBackMoves{g.id, 1}, SaveGame{g}});
        const MoveRecord other = move(1, "e7e5", "e5");
        g.ply = 2;
        s->apply({AddMove{g.id, other}, SaveProgress{g.id, 2, g.fen, g.white_ms, g.black_ms, g.clock_at, ""}});
        g.moves = {m1, other};
    }
    auto loaded = open()->load_game("Game0009");
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, g);
}

TEST_F(StorageTest, ATransactionIsAllOrNothing) {
    auto s = open();
    GameRecord g = sample("Game0002", 100);
    s->apply({SaveGame{g}, AddMove{g.id, move(0, "e2e4", "e4")}});
    // The second write repeats ply 0: the whole transaction must fail, the
    // game row update included.
    GameRecord changed = g;
    changed.status = "over";
    EXPECT_THROW(s->apply({SaveGame{changed}, AddMove{g.id, move(0, "d2d4", "d4")}}), StorageError);
    auto loaded = s->load_game(g.id);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->status, "live");
    ASSERT_EQ(loaded->moves.size(), 1u);
    EXPECT_EQ(loaded->moves[0].uci, "e2e4");
    // And the connection is still usable.
    s->apply({AddMove{g.id, move(1, "e7e5", "e5")}});
    EXPECT_EQ(s->load_game(g.id)->moves.size(), 2u);
}

TEST_F(StorageTest, ListsFilterAndOrder) {
    auto s = open();
    for (int i = 0; i < 5; ++i) {
        GameRecord g = sample("Game000" + std::to_string(i), 100 + i);
        if (i % 2) {
            g.status = "over";
            g.result = "1-0";
            g.termination = "checkmate";
            g.ended_at = 1000 - i;  // finished in the reverse order of creation
        }
        s->apply({SaveGame{g}, AddMove{g.id, move(0, "e2e4", "e4")}});
    }
    auto live = s->list_games(filter("live", 50), true);
    ASSERT_EQ(live.size(), 3u);
    EXPECT_EQ(live[0].id, "Game0004");  // newest first
    EXPECT_EQ(live[2].id, "Game0000");
    EXPECT_EQ(live[0].moves.size(), 1u);
    auto over = s->list_games(filter("over", 50), false);
    ASSERT_EQ(over.size(), 2u);
    EXPECT_EQ(over[0].id, "Game0001");  // ended last
    EXPECT_TRUE(over[0].moves.empty());
    GameFilter two = filter("", 2);
    two.offset = 1;
    auto page = s->list_games(two, false);
    ASSERT_EQ(page.size(), 2u);
    EXPECT_EQ(page[0].id, "Game0003");
}

TEST_F(StorageTest, SeeksAndHeartbeat) {
    auto s = open();
    // Designated: the fields left out have default initialisers; game and
    // initial_fen have none, and GCC's -Wmissing-field-initializers wants them named.
    SeekRecord a{.id = "SeekAAAA",
                 .variant = Variant::Avalanche,
                 .time = {TimeControl::Correspondence, 0, 0, 3},
                 .color = "white",
                 .nickname = "Zoé",
                 .token = "tok",
                 .is_private = true,
                 .created_at = 50,
                 .game = "",
                 .initial_fen = ""};
    SeekRecord b = a;
    b.id = "SeekBBBB";
    b.created_at = 60;
    b.time = {TimeControl::Unlimited, 0, 0, 0};
    b.initial_fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";  // a challenge from a set-up position
    s->apply({SaveSeek{a}, SaveSeek{b}, Heartbeat{12345}});
    auto open_ = s->open_seeks();
    ASSERT_EQ(open_.size(), 2u);
    EXPECT_EQ(open_[0], b);
    EXPECT_EQ(open_[1], a);
    b.game = "GameXXXX";
    s->apply({SaveSeek{b}, DeleteSeek{a.id}, Heartbeat{23456}});
    EXPECT_TRUE(s->open_seeks().empty());
    EXPECT_EQ(*s->load_seek(b.id), b);
    EXPECT_FALSE(s->load_seek(a.id));
    EXPECT_EQ(s->last_heartbeat(), 23456);
}

TEST_F(StorageTest, KeysetPagesAndPrivateGames) {
    auto s = open();
    // 30 finished games, ended in the reverse order of their ids; two ends tie.
    for (int i = 0; i < 30; ++i) {
        GameRecord g = sample("Game" + std::string(i < 10 ? "000" : "00") + std::to_string(i), 100 + i);
        g.status = "over";
        g.result = "1-0";
        g.termination = "checkmate";
        g.ended_at = i == 7 ? 5000 - 8 : 5000 - i;
        g.is_private = i % 10 == 3;
        s->apply({SaveGame{g}});
    }
    GameFilter f = filter("over", 4);
    f.public_only = true;
    std::vector<std::string> seen;
    for (int page = 0; page < 20; ++page) {
        auto games = s->list_games(f, false);
        for (const GameRecord& g : games) {
            EXPECT_FALSE(g.is_private) << g.id;
            seen.push_back(g.id);
        }
        if (games.size() < 4) break;
        f.before = games.back().id;
    }
    ASSERT_EQ(seen.size(), 27u);  // each public game once, in order
    EXPECT_EQ(seen[0], "Game0000");
    EXPECT_EQ(seen[6], "Game0008");  // ended_at ties with Game0007: the larger id first
    EXPECT_EQ(seen[7], "Game0007");
    EXPECT_EQ(seen.back(), "Game0029");
    f.before = "Unknown0";
    EXPECT_TRUE(s->list_games(f, false).empty());
    // The private flag reads back.
    EXPECT_TRUE(s->load_game("Game0013")->is_private);
    // Reads on the second connection see what the first committed.
    auto reader = s->open_reader();
    EXPECT_EQ(reader->list_games(filter("over", 100), false).size(), 30u);
    EXPECT_THROW(reader->apply({Heartbeat{1}}), StorageError);
}

TEST_F(StorageTest, OneServerPerDatabase) {
    auto first = open();
    try {
        auto second = open();
        FAIL() << "a second writer opened the same database";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("another echecs server"), std::string::npos) << e.what();
    }
    first.reset();
    EXPECT_NO_THROW(open());  // released with the first
}

#ifndef ECHECS_POSTGRES  // SQLite files only (a skipped test fails the postgres stage)
TEST_F(StorageTest, ALinkToTheDatabaseIsTheSameDatabase) {
    auto first = open();
    namespace fs = std::filesystem;
    const fs::path file(url_), soft = file.string() + "-symlink", hard = file.string() + "-hardlink";
    fs::create_symlink(file, soft);
    fs::create_hard_link(file, hard);
    for (const fs::path& other : {soft, hard}) {
        try {
            auto second = open_storage(other.string());
            ADD_FAILURE() << "a second server opened the database through " << other;
        } catch (const StorageError& e) {
            EXPECT_NE(std::string(e.what()).find("another echecs server"), std::string::npos) << e.what();
        }
    }
}
#endif

TEST_F(StorageTest, AnOldDatabaseIsMigrated) {
    // A database as version 1 of the schema wrote it.
    const char* v1 = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '1');
CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, initial_fen TEXT NOT NULL, time_kind TEXT NOT NULL,
  initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL, days INTEGER NOT NULL,
  white_name TEXT NOT NULL, white_token TEXT NOT NULL, white_level INTEGER NOT NULL,
  black_name TEXT NOT NULL, black_token TEXT NOT NULL, black_level INTEGER NOT NULL,
  status TEXT NOT NULL, result TEXT NOT NULL, termination TEXT NOT NULL, created_at BIGINT NOT NULL,
  ended_at BIGINT NOT NULL, white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL, clock_at BIGINT NOT NULL,
  draw_offer TEXT NOT NULL, rematch_offer TEXT NOT NULL, rematch_game TEXT NOT NULL, ply INTEGER NOT NULL,
  fen TEXT NOT NULL);
CREATE INDEX games_status_ended ON games(status, ended_at);
CREATE INDEX games_status_created ON games(status, created_at);
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, uci TEXT NOT NULL,
  san TEXT NOT NULL, white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL, at BIGINT NOT NULL,
  PRIMARY KEY (game_id, ply));
CREATE TABLE seeks (id TEXT PRIMARY KEY, variant TEXT NOT NULL, time_kind TEXT NOT NULL, initial_ms BIGINT NOT NULL,
  increment_ms BIGINT NOT NULL, days INTEGER NOT NULL, color TEXT NOT NULL, nickname TEXT NOT NULL,
  token TEXT NOT NULL, is_private BOOLEAN NOT NULL, created_at BIGINT NOT NULL, game TEXT NOT NULL);
INSERT INTO games VALUES ('Game0001', 'chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'realtime', 60000, 1000, 0, 'Ann', 'ta', 0, 'Bob', 'tb', 0, 'over', '1/2-1/2', 'fifty moves', 1, 2, 50000, 40000,
  2, '', '', '', 2, 'x');
INSERT INTO games VALUES ('Game0002', 'alice', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'unlimited', 0, 0, 0, 'Ann', 'ta', 0, 'Bob', 'tb', 0, 'over', '1/2-1/2', 'insufficient material', 1, 3, 0, 0,
  2, '', '', '', 0, 'x');
INSERT INTO games VALUES ('Game0003', 'chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'unlimited', 0, 0, 0, 'Computer', '', 8, 'Ann', 'ta', 0, 'over', '0-1', 'resignation', 1, 3, 0, 0,
  2, '', '', '', 0, 'x');
INSERT INTO games VALUES ('Game0004', 'alice', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'unlimited', 0, 0, 0, 'Ann', 'ta', 0, 'Computer', '', 1, 'over', '1-0', 'resignation', 1, 3, 0, 0,
  2, '', '', '', 0, 'x');
INSERT INTO moves VALUES ('Game0001', 0, 'e2e4', 'e4', 61000, 60000, 1);
INSERT INTO moves VALUES ('Game0001', 1, 'e7e5', 'e5', 61000, 59000, 2);
INSERT INTO seeks VALUES ('SeekPriv', 'alice', 'unlimited', 0, 0, 0, 'white', 'Ann', 'ta', TRUE, 1, 'Game0002');
)sql";
    sql(v1);
    auto s = open();
    EXPECT_EQ(s->schema_version(), SCHEMA_VERSION);
    auto g1 = s->load_game("Game0001");
    ASSERT_TRUE(g1);
    EXPECT_EQ(g1->termination, std::string(termination_name(Termination::FiftyMoves)));
    EXPECT_FALSE(g1->is_private);
    ASSERT_EQ(g1->moves.size(), 2u);
    EXPECT_EQ(g1->moves[0].clock, 61000);  // White moved first: white_ms
    EXPECT_EQ(g1->moves[1].clock, 59000);  // then Black: black_ms
    auto g2 = s->load_game("Game0002");
    EXPECT_EQ(g2->termination, std::string(termination_name(Termination::InsufficientMaterial)));
    EXPECT_TRUE(g2->is_private);  // the game of a direct challenge
    EXPECT_EQ(g2->white_draw_ply, -1);
    // Games from before accounts: anonymous seats, casual, no rating change.
    EXPECT_EQ(g1->white.account, 0);
    EXPECT_EQ(g1->white.rating, 0);
    EXPECT_FALSE(g1->rated);
    EXPECT_EQ(g1->white_rating_diff, std::nullopt);
    EXPECT_TRUE(s->games_with_results_pending().empty()) << "no account: nothing to record";
    auto seek = s->load_seek("SeekPriv");
    ASSERT_TRUE(seek);
    EXPECT_FALSE(seek->rated);
    EXPECT_EQ(seek->account, 0);
    EXPECT_EQ(seek->rating_max, 0);
    // Both seats' tokens are anonymous in a finished game: claimable.
    EXPECT_EQ(s->anonymous_games_of(token_key("ta"), 10).size(), 4u);
    // The tokens are kept as their keys (a hash), the seats' and seeks' alike.
    EXPECT_EQ(g1->white.token, token_key("ta"));
    EXPECT_EQ(g1->black.token, token_key("tb"));
    EXPECT_EQ(seek->token, token_key("ta"));
    EXPECT_EQ(s->load_game("Game0003")->white.token, "") << "the computer has no token";
    s.reset();
    auto reader = accounts::sql_conn(url_);
    EXPECT_EQ(reader
                  ->query("SELECT COUNT(*) FROM games WHERE white_token IN ('ta', 'tb') OR black_token IN "
                          "('ta', 'tb')")
                  .at(0)
                  .i(0),
              0);
    EXPECT_EQ(reader->query("SELECT COUNT(*) FROM seeks WHERE token = 'ta'").at(0).i(0), 0);
    s = open();
    // The computer's levels were renumbered twice (two weaker levels below
    // the old level 1, then each game's own ladder): a stored game keeps the
    // settings it was played at, or the nearest level's.
    auto g3 = s->load_game("Game0003"), g4 = s->load_game("Game0004");
    ASSERT_TRUE(g3 && g4);
    EXPECT_EQ(g3->white.level, engine::level_count(Variant::Chess));  // the old full strength
    EXPECT_TRUE(engine::level_strength(Variant::Chess, g3->white.level).full());
    EXPECT_EQ(g3->black.level, 0);  // a person stays a person
    EXPECT_EQ(g4->white.level, 0);
    // The first old level 1 (depth 2, 165 nodes) is Alice's level 6 now.
    const engine::Strength old1{2, 165, 83, 185}, now = engine::level_strength(Variant::Alice, g4->black.level);
    EXPECT_EQ(g4->black.level, 6);
    EXPECT_EQ(now.depth, old1.depth);
    EXPECT_NEAR(double(now.nodes), double(old1.nodes), 20.0);
    EXPECT_NEAR(now.noise, old1.noise, 2);
    EXPECT_EQ(g1->white.level, 0);
}

TEST_F(StorageTest, AccountsRatingsAndRatedSeeksRoundTrip) {
    auto s = open();
    GameRecord g = sample("Rated001", 100);
    g.black = {"BobK", "tokenBBBBBBBBBBBBBBBB", 0};
    g.white.name = "AnnLee";
    g.white.account = 7;
    g.white.rating = 1612;
    g.white.provisional = false;
    g.black.account = 9;
    g.black.rating = 1490;
    g.black.provisional = true;
    g.rated = true;
    s->apply({SaveGame{g}});
    auto back = s->load_game("Rated001");
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, g);
    EXPECT_EQ(back->white_rating_diff, std::nullopt);  // not yet recorded
    g.status = "over";
    g.result = "1-0";
    g.ended_at = 200;
    g.white_rating_diff = 6;
    g.black_rating_diff = -11;
    s->apply({SaveGame{g}});
    back = s->load_game("Rated001");
    EXPECT_EQ(*back, g);
    EXPECT_EQ(back->black_rating_diff, -11);
    // Seats with an account are never claimed; an anonymous one is.
    GameRecord anon = sample("Anon0001", 150);
    anon.white.token = g.white.token;
    anon.status = "over";
    anon.result = "0-1";
    anon.ended_at = 300;
    s->apply({SaveGame{anon}});
    auto mine = s->anonymous_games_of(g.white.token, 10);
    ASSERT_EQ(mine.size(), 1u);
    EXPECT_EQ(mine[0].id, "Anon0001");
    EXPECT_TRUE(s->anonymous_games_of("nobody00000000000000", 10).empty());

    SeekRecord sk;
    sk.id = "SeekRtd1";
    sk.variant = Variant::Avalanche;
    sk.time = {TimeControl::Realtime, 180000, 2000, 0};
    sk.nickname = "AnnLee";
    sk.token = "tokenAAAAAAAAAAAAAAAA";
    sk.created_at = 5;
    sk.rated = true;
    sk.account = 7;
    sk.rating = 1612;
    sk.provisional = false;
    sk.rating_min = 1400;
    sk.rating_max = 1800;
    s->apply({SaveSeek{sk}});
    auto seek = s->load_seek("SeekRtd1");
    ASSERT_TRUE(seek);
    EXPECT_EQ(*seek, sk);
}

// A game's computer review: queued when requested, replaced by the result;
// one per game; a review of an unknown game is refused with the transaction.
TEST_F(StorageTest, GamesWhoseResultIsPendingAreListedWithTheirMoves) {
    auto s = open();
    GameRecord pending = sample("Pend0001", 100), done = sample("Done0001", 110), live = sample("Live0001", 120);
    for (GameRecord* g : {&pending, &done}) g->status = "over", g->result = "1-0", g->ended_at = 200;
    pending.result_pending = true;
    s->apply({SaveGame{pending}, AddMove{"Pend0001", move(0, "e2e4", "e4")}, SaveGame{done}, SaveGame{live}});
    auto list = s->games_with_results_pending();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].id, "Pend0001");
    EXPECT_TRUE(list[0].result_pending);
    ASSERT_EQ(list[0].moves.size(), 1u);
    // Recorded: no longer listed.
    pending.result_pending = false;
    s->apply({SaveGame{pending}});
    EXPECT_TRUE(s->games_with_results_pending().empty());
    EXPECT_FALSE(s->load_game("Pend0001")->result_pending);
}

TEST_F(StorageTest, TournamentsTheirPlayersAndGamesRoundTrip) {
    TournamentRecord soon, running, over;
    soon.id = "Tn000001", soon.starts_at = 5'000, soon.variant = Variant::Avalanche;
    soon.time = {TimeControl::Realtime, 180'000, 2'000, 0};
    running.id = "Tn000002", running.starts_at = 1'000, running.status = "started", running.created_by = 7;
    running.name = "Ann's arena", running.rated = false, running.duration_ms = 3'600'000, running.created_at = 900;
    over.id = "Tn000003", over.starts_at = 500, over.status = "finished";
    TournamentPlayerRecord ann{"Tn000002", 7, "Ann", 1512, false, "tokenA", 1'100, false};
    TournamentPlayerRecord bob{"Tn000002", 9, "Bob", 1500, true, "tokenB", 1'200, false};
    GameRecord ended = sample("Game0001", 1'300), live = sample("Game0002", 1'400), other = sample("Game0003", 1'500);
    ended.tournament = live.tournament = "Tn000002";
    ended.status = "over", ended.result = "0-1", ended.ended_at = 1'350;
    {
        auto s = open();
        s->apply({SaveTournament{soon}, SaveTournament{running}, SaveTournament{over}, SaveTournamentPlayer{bob},
                  SaveTournamentPlayer{ann}, SaveGame{live}, SaveGame{ended}, SaveGame{other}});
        // Replaced, not added: Bob pauses and moves to another browser.
        bob.paused = true, bob.token = "tokenC";
        running.status = "finished";
        s->apply({SaveTournamentPlayer{bob}, SaveTournament{running}});
    }
    auto s = open();
    EXPECT_EQ(s->list_tournaments("created", 10), (std::vector<TournamentRecord>{soon}));
    EXPECT_EQ(s->list_tournaments("finished", 10), (std::vector<TournamentRecord>{running, over})) << "newest first";
    EXPECT_EQ(s->list_tournaments("", 10), (std::vector<TournamentRecord>{over, running, soon})) << "by start";
    EXPECT_EQ(s->list_tournaments("finished", 1).size(), 1u);
    EXPECT_EQ(s->tournament_players("Tn000002"), (std::vector<TournamentPlayerRecord>{ann, bob}));
    EXPECT_TRUE(s->tournament_players("Tn000001").empty());
    const std::vector<GameRecord> games = s->tournament_games("Tn000002");
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0], live) << "live first (no end yet), then by end";
    EXPECT_EQ(games[1], ended);
    EXPECT_EQ(s->load_game("Game0003")->tournament, "");
    // One by its id, whatever its status; a player's finished ones by name
    // (any case), those that started before the bound, newest first.
    EXPECT_EQ(s->load_tournament("Tn000001"), soon);
    EXPECT_EQ(s->load_tournament("Tn000002"), running);
    EXPECT_EQ(s->load_tournament("Nope0000"), std::nullopt);
    EXPECT_EQ(s->finished_tournaments_of("ann", 10'000, 10), (std::vector<TournamentRecord>{running}));
    EXPECT_EQ(s->finished_tournaments_of("BOB", 10'000, 10), (std::vector<TournamentRecord>{running}));
    EXPECT_TRUE(s->finished_tournaments_of("Ann", 1'000, 10).empty()) << "started at 1,000: not before it";
    EXPECT_TRUE(s->finished_tournaments_of("Cid", 10'000, 10).empty());
}

// A Swiss: its rounds and interval, its boards (a bye: black 0, no game),
// and a player removed before the start.
TEST_F(StorageTest, SwissRoundsAndPairingsRoundTrip) {
    TournamentRecord swiss;
    swiss.id = "Sw000001", swiss.kind = "swiss", swiss.rounds = 7, swiss.round_interval_ms = 10'000;
    swiss.starts_at = 2'000, swiss.status = "started";
    const std::vector<SwissPairingRecord> boards = {
        {"Sw000001", 1, 1, 7, 9, "Game0001"}, {"Sw000001", 1, 2, 11, 0, ""}, {"Sw000001", 2, 1, 9, 11, "Game0002"}};
    TournamentPlayerRecord ann{"Sw000001", 7, "Ann", 1512, false, "tokenA", 1'100, false};
    TournamentPlayerRecord bob{"Sw000001", 9, "Bob", 1500, true, "tokenB", 1'200, false};
    {
        auto s = open();
        // Stored out of order: read back by round, then board.
        s->apply({SaveTournament{swiss}, AddSwissPairing{boards[2]}, AddSwissPairing{boards[0]},
                  AddSwissPairing{boards[1]}, SaveTournamentPlayer{ann}, SaveTournamentPlayer{bob}});
        s->apply({RemoveTournamentPlayer{"Sw000001", 9}});
        // A board is never stored twice: the whole write fails.
        EXPECT_THROW(s->apply({AddSwissPairing{boards[0]}}), StorageError);
    }
    auto s = open();
    EXPECT_EQ(s->list_tournaments("started", 10), (std::vector<TournamentRecord>{swiss}));
    EXPECT_EQ(s->swiss_pairings("Sw000001"), boards);
    EXPECT_TRUE(s->swiss_pairings("Tn000001").empty());
    EXPECT_EQ(s->tournament_players("Sw000001"), (std::vector<TournamentPlayerRecord>{ann}));
}

TEST_F(StorageTest, ReviewsRoundTrip) {
    GameRecord g = sample("Game0001", 100);
    g.status = "over";
    {
        auto s = open();
        s->apply({SaveGame{g}});
        EXPECT_FALSE(s->load_review("Game0001"));
        s->apply({SaveReview{{"Game0001", "queued", "", 500, 0}}});
        ASSERT_TRUE(s->load_review("Game0001"));
        EXPECT_EQ(s->load_review("Game0001")->status, "queued");
        const std::string big(100'000, 'x');  // a long game's review
        s->apply({SaveReview{{"Game0001", "done", "{\"positions\":[\"" + big + "\"]}", 500, 900}}});
        EXPECT_THROW(s->apply({SaveReview{{"Nothing1", "queued", "", 1, 0}}}), StorageError);
    }
    auto s = open();
    auto r = s->load_review("Game0001");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, "done");
    EXPECT_EQ(r->requested_at, 500);
    EXPECT_EQ(r->finished_at, 900);
    EXPECT_EQ(r->result.size(), 100'000u + 18);
    EXPECT_FALSE(s->load_review("Nothing1"));
    EXPECT_FALSE(s->open_reader()->load_review("Nothing2"));
    EXPECT_EQ(s->open_reader()->load_review("Game0001"), r);
}

TEST_F(StorageTest, NewerSchemaIsRefused) {
    { open(); }
    sql("UPDATE meta SET value = '999' WHERE key = 'schema_version'");
    try {
        open();
        FAIL() << "opened a database with a newer schema";
    } catch (const StorageError& e) {
        EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
    }
}

TEST_F(StorageTest, UnreachableDatabaseIsAClearError) {
    EXPECT_THROW(
        open_storage(postgres() ? "postgresql://postgres@127.0.0.1:1/none" : (dir_ / "none" / "x.db").string()),
        StorageError);
}

}  // namespace

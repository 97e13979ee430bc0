// Persistent records of the game server and the storage interface, written
// once (storage_sql.cpp) for SQLite (a file, WAL mode) and PostgreSQL.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "core/types.h"

namespace echecs::server {

class StorageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
// A write refused because its node no longer holds the game's lease (Fence).
class FencedOut : public StorageError {
public:
    using StorageError::StorageError;
};

struct TimeControl {
    enum Kind { Realtime, Correspondence, Unlimited };
    Kind kind = Unlimited;
    std::int64_t initial_ms = 0;    // realtime
    std::int64_t increment_ms = 0;  // realtime
    int days = 0;                   // correspondence
    bool operator==(const TimeControl&) const = default;
};

std::string_view time_kind_name(TimeControl::Kind k);
TimeControl::Kind time_kind_from(std::string_view s);  // throws StorageError

struct Seat {
    std::string name = "Anonymous";
    std::string token;  // the browser token's key (token_key, app/util.h); "" for the computer
    int level = 0;      // 1..engine::level_count(variant) for the computer, 0 for a person
    // The player's account when their browser was logged in (0: anonymous),
    // with its rating in the game's category when the game began (0: none).
    std::int64_t account = 0;
    int rating = 0;
    bool provisional = false;
    bool computer() const { return level > 0; }
    bool operator==(const Seat&) const = default;
};

struct MoveRecord {
    int ply = 0;  // 0 for White's first move
    std::string uci;
    std::string san;
    std::int64_t white_ms = 0;  // clocks right after the move
    std::int64_t black_ms = 0;
    std::int64_t at = 0;  // epoch ms
    // The mover's time left with this move: real-time, right after it
    // (increment included); correspondence, what was left of the move's
    // days. None for unlimited games.
    std::optional<std::int64_t> clock;
    bool operator==(const MoveRecord&) const = default;
};

// A game as stored. The clocks white_ms/black_ms are the remaining times at
// the instant clock_at (the start of the game or the last move).
struct GameRecord {
    std::string id;
    Variant variant = Variant::Chess;
    std::string initial_fen;
    TimeControl time;
    Seat white, black;
    std::string status = "live";  // live | over
    std::string result = "*";     // 1-0 | 0-1 | 1/2-1/2 | *
    std::string termination;      // "" while live
    std::int64_t created_at = 0;
    std::int64_t ended_at = 0;
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
    std::int64_t clock_at = 0;
    std::string draw_offer;     // "" | white | black
    std::string rematch_offer;  // "" | white | black
    std::string rematch_game;   // id of the rematch, or ""
    int ply = 0;                // moves played (summary column, kept by the server)
    std::string fen;            // current position (summary column)
    bool is_private = false;    // from a direct challenge: never listed publicly
    int white_draw_ply = -1;    // the ply of each side's last draw offer, -1 for none
    int black_draw_ply = -1;
    bool rated = false;  // created rated (two accounts); the result moves their ratings
    // Each side's rating change, once the result is recorded (rated games).
    std::optional<int> white_rating_diff, black_rating_diff;
    // Over, and its result not yet recorded for the accounts (ratings, the
    // players' lists): set in the same write as the end, cleared once the
    // accounts hold it, so that a restart records what a crash left undone.
    bool result_pending = false;
    std::string tournament;  // the tournament that paired it, or ""
    // A tournament player who halved their own clock before their first move.
    bool white_berserk = false, black_berserk = false;
    std::vector<MoveRecord> moves;
    bool operator==(const GameRecord&) const = default;
};

// A tournament (docs/TOURNAMENTS.md): an arena or a Swiss. Its points are
// never stored: they are counted again from its finished games
// (GameRecord::tournament), which are, so a restart loses none.
struct TournamentRecord {
    std::string id;
    std::string kind = "arena";
    std::string name;  // "" for the server's daily arena (the client names it in its language)
    Variant variant = Variant::Chess;
    TimeControl time;
    bool rated = true;
    std::int64_t starts_at = 0;
    std::int64_t duration_ms = 0;        // an arena's length
    int rounds = 0;                      // a Swiss: its number of rounds
    std::int64_t round_interval_ms = 0;  // a Swiss: from the end of a round to the next pairing
    std::string status = "created";      // created | started | finished
    std::int64_t created_by = 0;         // the account; 0: the server (a daily arena)
    std::int64_t created_at = 0;
    bool operator==(const TournamentRecord&) const = default;
};

// A player who joined: accounts only. `token` is the key of the browser
// that joined last, the seat of the games it is paired in.
struct TournamentPlayerRecord {
    std::string tournament;
    std::int64_t account = 0;
    std::string name;
    int rating = 0;  // in the tournament's category when joining
    bool provisional = true;
    std::string token;
    std::int64_t joined_at = 0;
    bool paused = false;  // withdrawn: no longer paired, keeps the points
    bool operator==(const TournamentPlayerRecord&) const = default;
};

// One board of a Swiss round, stored before anyone is told of it: a game
// (white, black, game) or the bye (black 0, game "").
struct SwissPairingRecord {
    std::string tournament;
    int round = 0;  // from 1
    int board = 0;  // from 1; the bye last
    std::int64_t white = 0, black = 0;
    std::string game;
    bool operator==(const SwissPairingRecord&) const = default;
};

struct SeekRecord {
    std::string id;
    Variant variant = Variant::Chess;
    TimeControl time;
    std::string color = "random";  // creator's colour: white | black | random
    std::string nickname = "Anonymous";
    std::string token;  // the owner's token key (token_key)
    bool is_private = false;
    std::int64_t created_at = 0;
    std::string game;  // the game created when accepted, or ""
    bool rated = false;
    // The creator's account (0: anonymous) and rating in the seek's category.
    std::int64_t account = 0;
    int rating = 0;
    bool provisional = false;
    int rating_min = 0, rating_max = 0;  // the acceptor's rating must be within (0: no bound)
    std::string initial_fen;             // the position the game starts from; "" for the start position
    bool operator==(const SeekRecord&) const = default;
};

// The computer review of a finished game (server/review): one per game.
// `queued` is stored when it is requested; a review found `queued` after a
// restart was interrupted and may be requested again.
struct ReviewRecord {
    std::string game_id;
    std::string status = "queued";  // queued | done | failed
    std::string result;             // done: the review's JSON text; failed: the reason
    std::int64_t requested_at = 0;
    std::int64_t finished_at = 0;
    bool operator==(const ReviewRecord&) const = default;
};

// Writes, applied together in one transaction.
struct SaveGame {
    GameRecord game;  // every column but the moves
};
struct AddMove {
    std::string game_id;
    MoveRecord move;
};
// After a move that did not end the game: the columns a move changes.
struct SaveProgress {
    std::string game_id;
    int ply = 0;
    std::string fen;
    std::int64_t white_ms = 0, black_ms = 0, clock_at = 0;
    std::string draw_offer;
};
// A takeback: the moves from ply `from` on are deleted (with a SaveGame of
// the position and clocks they leave, in the same write).
struct TakeBackMoves {
    std::string game_id;
    int from = 0;
};
struct SaveSeek {
    SeekRecord seek;
};
struct DeleteSeek {
    std::string id;
};
struct Heartbeat {
    explicit Heartbeat(std::int64_t t = 0) : at(t) {}
    std::int64_t at;
};
// A chat line of a game (the lobby's chat is never stored), and a report of
// one line to the operator. `author_key` and `reporter` identify the person
// without the secret: a hash of the token, or the address.
struct ChatRecord {
    std::string game_id;
    std::string room;  // players | spectators
    std::string author;
    std::string seat;  // white | black | "" (a spectator)
    std::string author_key;
    std::string text;
    std::int64_t at = 0;
    bool operator==(const ChatRecord&) const = default;
};
struct ReportRecord {
    std::string game_id;  // "" for the lobby
    std::string room;     // players | spectators | lobby
    std::string reporter;
    std::string author;
    std::string author_key;
    std::string text;    // the reported line
    std::string reason;  // the reporter's words, may be ""
    std::int64_t at = 0;
    bool operator==(const ReportRecord&) const = default;
};
// A report as read back: its row's id, and when and how an operator
// resolved it (0 and "" while open).
struct StoredReport : ReportRecord {
    std::int64_t id = 0;
    std::int64_t resolved_at = 0;
    std::string resolution;
};
struct AddChat {
    ChatRecord line;
};
struct AddReport {
    ReportRecord report;
};
struct SaveTournament {  // inserted or replaced
    TournamentRecord tournament;
};
struct SaveTournamentPlayer {  // inserted or replaced
    TournamentPlayerRecord player;
};
struct RemoveTournamentPlayer {  // withdrawn before the start
    std::string tournament;
    std::int64_t account = 0;
};
struct AddSwissPairing {  // inserted (a board is never changed)
    SwissPairingRecord pairing;
};
struct SaveReview {  // inserted or replaced
    ReviewRecord review;
};
// Anonymous finished games claimed by an account at sign-up: the seats of
// `token` are marked, so that no other account signing up in the same
// browser claims them again (the other seat stays its own player's to claim).
struct MarkClaimed {
    std::vector<std::string> game_ids;
    std::string token;  // its key (token_key)
    std::int64_t account = 0;
};
// Several nodes on one database (docs/CLUSTER.md): each live game is run by
// one node at a time, under a lease. The lease's token grows each time the
// game changes hands (or its lease lapsed), so that a node that paused past
// its lease and lost the game can no longer write for it: its writes carry
// its old token in a Fence, which the database refuses in the same
// transaction (a fencing token; node clocks only decide when a lease may be
// taken over, never whether two nodes write).
struct Lease {
    std::string game_id;
    std::string node;
    std::int64_t token = 0;
    std::int64_t expires_at = 0;  // epoch ms, by the holder's clock
    bool operator==(const Lease&) const = default;
};
// First op of a transaction: the rest is applied only while `node` holds the
// game's lease with `token`; otherwise apply() throws FencedOut and writes
// nothing.
struct Fence {
    std::string game_id;
    std::string node;
    std::int64_t token = 0;
};
// A new game's first lease (token 1), in the transaction that stores the
// game: the node that created it runs it. Fails when the game has a lease.
struct TakeLease {
    std::string game_id;
    std::string node;
    std::int64_t expires_at = 0;
};
using WriteOp = std::variant<SaveGame, AddMove, SaveProgress, TakeBackMoves, SaveSeek, DeleteSeek, Heartbeat, AddChat,
                             AddReport, SaveReview, MarkClaimed, Fence, TakeLease, SaveTournament, SaveTournamentPlayer,
                             AddSwissPairing, RemoveTournamentPlayer>;

struct GameFilter {
    std::string status;  // "live", "over" or "" for all
    int limit = 50;
    int offset = 0;
    std::string before;        // keyset: only games listed after this one (same order)
    bool public_only = false;  // leave out direct-challenge games
};

// Not thread-safe: one thread uses a Storage at a time.
class Storage {
public:
    virtual ~Storage() = default;
    // All writes or none (throws StorageError, nothing applied).
    virtual void apply(const std::vector<WriteOp>& ops) = 0;
    virtual std::optional<GameRecord> load_game(const std::string& id) = 0;  // with its moves
    // Newest first (finished games: by ended_at); without moves unless with_moves.
    virtual std::vector<GameRecord> list_games(const GameFilter& f, bool with_moves) = 0;
    virtual std::vector<SeekRecord> open_seeks() = 0;  // not yet accepted
    virtual std::optional<SeekRecord> load_seek(const std::string& id) = 0;
    // A browser's finished games on a seat with no account, not yet claimed
    // (MarkClaimed), newest first, without moves. `token`: its key.
    virtual std::vector<GameRecord> anonymous_games_of(const std::string& token, int limit) = 0;
    // Finished games whose result the accounts do not yet hold (result_pending), with their moves.
    virtual std::vector<GameRecord> games_with_results_pending() = 0;
    // Tournaments: those of `status` ("" for all), by start (the finished
    // ones newest first); the players of one; its games, oldest end first
    // (live ones first), without moves.
    virtual std::vector<TournamentRecord> list_tournaments(const std::string& status, int limit) = 0;
    // One tournament by its id, whatever its status (nullopt: none): an old
    // finished one that the server no longer keeps in memory.
    virtual std::optional<TournamentRecord> load_tournament(const std::string& id) = 0;
    // The finished tournaments a player (by name, any case) took part in
    // that started before `before` (epoch ms), newest first: a profile's
    // older tournaments.
    virtual std::vector<TournamentRecord> finished_tournaments_of(const std::string& name, std::int64_t before,
                                                                  int limit) = 0;
    virtual std::vector<TournamentPlayerRecord> tournament_players(const std::string& id) = 0;
    virtual std::vector<GameRecord> tournament_games(const std::string& id) = 0;
    // A Swiss tournament's boards, by round then board.
    virtual std::vector<SwissPairingRecord> swiss_pairings(const std::string& id) = 0;
    virtual std::optional<ReviewRecord> load_review(const std::string& game_id) = 0;
    virtual std::int64_t last_heartbeat() = 0;  // 0 if none
    // The last `per_room` lines of each of the game's chat rooms, oldest first.
    virtual std::vector<ChatRecord> load_chat(const std::string& game_id, int per_room) = 0;
    // The newest reports first (for the operator and the tests); only those
    // not yet resolved when `open_only`.
    virtual std::vector<StoredReport> list_reports(int limit, bool open_only = false) = 0;
    // Marks report `id` resolved (at, with the operator's words); false when
    // there is no such report or it is resolved already.
    virtual bool resolve_report(std::int64_t id, const std::string& resolution, std::int64_t at) = 0;
    virtual int schema_version() = 0;
    // Takes the lease of a game for `node` until now + ttl_ms, or renews it:
    // when it is free, lapsed (expires_at <= now) or held by `node` already.
    // The token stays while `node` renews in time and grows by one otherwise
    // (never reused). nullopt: another node holds it.
    virtual std::optional<Lease> acquire_lease(const std::string& game_id, const std::string& node, std::int64_t now,
                                               std::int64_t ttl_ms) = 0;
    // Ends a lease early (the game ended or its node stops); false when `lease` is no longer held.
    virtual bool release_lease(const Lease& lease) = 0;
    virtual std::optional<Lease> lease_of(const std::string& game_id) = 0;
    // Renews, in one statement, every lease `node` holds that has not lapsed
    // at `now`, until now + ttl_ms; returns the ids renewed (the others were
    // lost: another node may have taken them).
    virtual std::vector<std::string> renew_leases(const std::string& node, std::int64_t now, std::int64_t ttl_ms) = 0;
    // Live games whose lease is missing or lapsed at `now`, oldest first: a
    // node takes them over when their node died.
    virtual std::vector<std::string> orphaned_live_games(std::int64_t now, int limit) = 0;
    // Finished games whose result the accounts do not hold yet
    // (result_pending) and whose lease is missing or lapsed at `now`: their
    // node died before recording it, or its recording failed and the room
    // left. A node loads them and records the result (several nodes).
    virtual std::vector<std::string> unrecorded_unheld_games(std::int64_t now, int limit) = 0;
    // A second connection to the same database for reads (listings, games
    // loaded on demand), so that they never wait behind the writes.
    virtual std::unique_ptr<Storage> open_reader() = 0;
};

// "postgresql://..." or "postgres://..." opens PostgreSQL, anything else is a
// SQLite file path. Creates or migrates the schema. Throws StorageError.
// SQLite: `durable` syncs every commit to disk (synchronous=FULL: survives a
// power cut); without it a commit survives the process being killed
// (synchronous=NORMAL in WAL mode). PostgreSQL follows its own settings.
// `exclusive`: one server per database. SQLite holds an flock() on
// "<file>.lock"; PostgreSQL a session advisory lock. A second one is refused
// (StorageError) before anything is changed.
std::unique_ptr<Storage> open_storage(const std::string& url, bool durable = false, bool exclusive = true);

constexpr int SCHEMA_VERSION = 14;

}  // namespace echecs::server

// Every setting of the game server, with its default. docs/API.md ("Limits")
// lists them for operators; the tests and benchmarks set them in-process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace echecs::server {

struct ServerOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 8080;  // 0: any free port (see Server::port)
    std::string db = "echecs.db";
    bool durable = false;  // SQLite: sync every commit to disk (survives a power cut)
    std::string web_root = "web/dist";
    // The puzzle files (<game>.jsonl); empty: share/echecs/puzzles of the
    // installation or build tree.
    std::string puzzles_dir;
    bool log = true;
    // The address players reach the server at (PGN Site tags), e.g.
    // "https://echecs.example.org"; empty: http:// and the request's Host.
    std::string public_url;
    // Origins (scheme://host[:port]) allowed besides the served host for
    // WebSocket upgrades and state-changing API requests; "*" allows any.
    std::vector<std::string> allowed_origins;
    // Take the client address from the last X-Forwarded-For entry (only
    // behind a reverse proxy that sets it).
    bool trust_forwarded_for = false;

    // Engine.
    int engine_threads = 1;  // searches and analyses running at once
    // The heavy work's threads in all (engine searches, analyses, password
    // hashes: work/scheduler.h); 0: one per core (at most 8). Always at
    // least engine_threads + 1, so that a log-in never waits for a search.
    int work_threads = 0;
    // The heavy work's threads run this much nicer than the process (Linux
    // nice, 0-19): searches, uploads, reviews, solves and password hashes
    // yield the cores to the I/O thread, which carries every player's moves.
    int engine_nice = 5;
    std::size_t engine_queue = 256;           // searches waiting, all clients together
    std::size_t engine_queue_per_client = 2;  // analysis searches waiting or running per client address
    std::uint64_t review_nodes = 150'000;     // a finished game's review: nodes per position
    int stream_max_depth = 40;                // continuous analysis (analysis_stream.h): depth cap,
    std::int64_t stream_max_ms = 60'000;      // time cap,
    std::size_t streams_per_client = 2;       // streams running per client address ...
    std::size_t max_streams = 16;             // ... and in all (each holds a 16 MB table)
    std::int64_t eval_min_ms = 50;            // /api/analysis/eval movetime_ms is clamped to this range
    std::int64_t eval_max_ms = 3000;
    double eval_rate_per_second = 1;  // evaluations per client address (token bucket)
    double eval_burst = 10;
    // Live games against the computer: per player (browser token, or account
    // when logged in) and, much higher, per address (a family or a school
    // shares one).
    int max_engine_games_per_player = 4;
    int max_engine_games_per_ip = 40;

    // Games and clocks.
    std::int64_t tournament_minute_ms = 60'000;             // a minute of a tournament's starts_in (tests shorten it)
    std::int64_t first_move_ms = 30'000;                    // real-time games: time for each side's first move
    std::int64_t min_initial_ms = 6'000;                    // real-time: at least this initial time ...
    std::int64_t min_increment_ms = 1'000;                  // ... or at least this increment
    std::int64_t lag_comp_max_ms = 150;                     // most of a move's time credited as network lag
    std::int64_t claim_realtime_ms = 30'000;                // a real-time player gone this long: the opponent may claim
    std::int64_t claim_slow_ms = 3 * 86'400'000LL;          // correspondence and unlimited games
    std::int64_t unlimited_archive_ms = 30 * 86'400'000LL;  // unlimited games with no move: ended
    std::int64_t computer_archive_ms = 86'400'000;          // ... against the computer: after a day
    int draw_offer_interval = 20;                           // plies between two draw offers of one player
    std::int64_t finished_ttl_ms = 60'000;                  // a finished game leaves memory this long after its end ...
    std::int64_t finished_player_ttl_ms = 600'000;          // ... or after this while a player still watches it
    std::size_t max_finished_rooms = 2'000;  // finished games in memory for watchers (the least used leave); 0: no cap

    // Seeks and lobby.
    std::int64_t seek_grace_ms = 20'000;  // a seek lasts this long after its creator's last socket closed
    int max_seeks_per_token = 20;
    int max_seeks_per_ip = 20;
    std::int64_t lobby_batch_ms = 500;  // lobby changes are sent at most this often ...
    // ... and, for a large audience, less often: at most this many lobby
    // messages a second in all (10,000 viewers: one delta a second), never
    // less than one delta every lobby_batch_max_ms. 0: no budget.
    std::int64_t lobby_sends_per_second = 10'000;
    std::int64_t lobby_batch_max_ms = 5'000;
    std::size_t lobby_seeks = 100;  // the lobby lists the most recent seeks ...
    std::size_t lobby_games = 50;   // ... and live games

    // Connections.
    int max_connections_per_ip = 64;        // HTTP and WebSocket sockets open at once
    int max_connections = 0;                // all clients; 0: the descriptor limit minus a reserve
    std::int64_t http_timeout_ms = 15'000;  // to receive a whole request (and keep-alive idle time)
    std::size_t max_http_body = 16 * 1024;  // larger bodies get 413 before they are read
    // The uploads (PGN, Popeye input: UPLOAD_PATHS in http_session.cpp) may be this large.
    std::size_t max_upload_body = 1024 * 1024;
    double http_rate_per_second = 20;  // API requests per client address (token bucket)
    double http_burst = 100;
    std::size_t read_queue = 256;  // storage reads waiting (listings, games); more get 503

    // WebSocket.
    std::size_t max_message = 16 * 1024;           // larger messages get `too_large` (read and dropped unbuffered)
    std::size_t max_frame = 1024 * 1024;           // larger messages close the socket (1009)
    std::size_t ws_send_budget = 2 * 1024 * 1024;  // bytes queued to a socket that does not read: then dropped
    std::size_t ws_socket_buffer = 0;              // the kernel's send buffer per socket (SO_SNDBUF); 0: its own
    std::int64_t ws_idle_timeout_ms = 30'000;      // no frame (pongs included) for this long: closed
    std::int64_t ws_ping_ms = 10'000;              // server pings, also to measure the lag
    double rate_per_second = 30;                   // WebSocket messages per socket
    double rate_burst = 60;
    int max_watched = 100;  // games one socket may watch

    // Accounts: Argon2id at libsodium's minimum cost (tests only: hundreds of
    // hashes in milliseconds); the server hashes at the interactive cost.
    bool fast_password_hash = false;
    // Sign-ups per client address and hour (the benchmarks open it: every
    // client of theirs comes from 127.0.0.1).
    int signups_per_ip = 5;
    // Chat (chat.h). Lines per connection and per client address, each a
    // token bucket; reports likewise, more slowly.
    bool chat = true;                   // --no-chat: every chat message refused (chat_disabled), the UI hides it
    std::size_t chat_max_chars = 300;   // code points, after trimming
    double chat_rate_per_second = 0.5;  // one line every 2 s ...
    double chat_burst = 5;              // ... after a burst of 5
    std::size_t chat_history = 100;     // lines kept per room (a joiner gets them); the lobby's in memory only
    double report_rate_per_second = 1.0 / 30;
    double report_burst = 5;

    std::int64_t heartbeat_ms = 1000;  // storage heartbeat (a restart knows how long the server was down)

    // Several nodes on one PostgreSQL (docs/CLUSTER.md). Empty: one server,
    // which holds the database alone.
    std::string cluster_node;
    std::string redis = "127.0.0.1:6379";  // the broker between nodes, host:port
    // A node's lease on each game it runs; renewed every fifth of it. A dead
    // node's games are taken over once it lapses.
    std::int64_t lease_ms = 3000;
};

}  // namespace echecs::server

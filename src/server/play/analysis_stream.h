// Continuous analysis for the analysis board, over the WebSocket: a client
// sends {type:"analyse", variant, fen, moves, multipv 1..3}; the engine
// searches that position on the server's engine pool (an analysis job: live
// games go first and take the thread back) and every completed depth is sent
// as {type:"analysis", ...} until a depth or time cap, {type:"analyse_stop"},
// a new `analyse` (which replaces it) or the socket's end. One stream per
// connection, a few per client address.
//
// A stream runs in slices (slice_ms of search each) so that it never holds
// an engine thread others wait for: after a slice it goes on at once when
// nothing waits, and otherwise goes back to the end of the queue (reviews and
// other clients' analyses take their turn). Its table is kept between
// slices, so a resumed stream, or one whose thread a live game took back,
// finds its work again and its depths go on rising.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "engine/engine.h"
#include "server/net/peer.h"
#include "server/protocol/messages.h"

namespace echecs::server {

class Hub;

struct StreamLimits {
    int max_depth = 40;
    std::int64_t max_ms = 60'000;  // a stream ends after this much search (the client may ask again)
    std::size_t per_client = 2;    // streams running per client address
    std::size_t total = 16;        // streams running in all: hash_mb each
    int hash_mb = 16;
    std::int64_t slice_ms = 1000;  // search before a stream lets waiting work in
};

class AnalysisStreams : public std::enable_shared_from_this<AnalysisStreams> {
public:
    AnalysisStreams(Hub& hub, StreamLimits limits);

    // Starts (or replaces) the peer's stream; throws ApiError for a bad
    // position, a position of the peer's own live game, or a limit.
    void start(const PeerPtr& p, const msg::Analyse& a, const std::string& id_json);
    // analyse_stop, or the socket closed: the peer's stream ends.
    void stop(const Peer& p);
    std::size_t running() const { return streams_.size(); }

private:
    struct Stream {
        std::uint64_t peer_id = 0;
        std::weak_ptr<Peer> peer;
        std::string client, id_json;
        engine::AnalysisRequest req;
        Variant variant = Variant::Chess;
        std::string fen_now;  // the analysed position (for the SAN of the lines)
        Color turn = WHITE;
        std::mutex mutex;                          // guards the two below (pool thread and I/O thread)
        std::atomic<bool>* engine_stop = nullptr;  // the pool's stop flag while the search runs
        bool halted = false;
        // Pool thread only (one slice runs at a time):
        std::shared_ptr<engine::AnalysisTable> table;  // kept between slices
        std::int64_t searched_ms = 0;                  // over all slices, against max_ms
        engine::AnalysisUpdate deepest;                // the last update sent
    };
    void submit(const std::shared_ptr<Stream>& s);
    void ended(const std::shared_ptr<Stream>& s, bool again);
    void halt(const std::shared_ptr<Stream>& s);
    void forget(const std::shared_ptr<Stream>& s);
    static std::string update_text(const Stream& s, const engine::AnalysisUpdate& u);

    Hub& hub_;
    StreamLimits limits_;
    std::unordered_map<std::uint64_t, std::shared_ptr<Stream>> streams_;  // by peer id
    std::unordered_map<std::string, std::size_t> per_client_;
};

}  // namespace echecs::server

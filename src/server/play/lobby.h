// The lobby as one small actor: the most recent public seeks and live games,
// and its subscribers. A subscriber gets one snapshot, then incremental
// changes (`lobby_delta`) batched at most every lobby_batch_ms (longer for a
// large audience: lobby_sends_per_second). Each delta is
// serialised once and the same buffer goes to every subscriber, in chunks so
// that a large audience never holds the I/O thread for long.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
// clang-format on
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/app/options.h"
#include "server/net/peer.h"
#include "server/storage/storage.h"

namespace echecs::server {

class Lobby {
public:
    Lobby(boost::asio::io_context& ioc, const ServerOptions& opt);

    void seek_added(const SeekRecord& s);  // public seeks only
    void seek_removed(const std::string& id);
    void game_started(const GameRecord& g);  // public live games only
    void game_moved(const std::string& id, int ply, const std::string& fen);
    void game_ended(const std::string& id);

    void subscribe(const PeerPtr& p);  // sends the snapshot
    void unsubscribe(std::uint64_t peer);
    // A message to every subscriber now (a lobby chat line).
    void send_all(const std::shared_ptr<const std::string>& text);

    // Several nodes (docs/CLUSTER.md): the live games of a node that does not
    // run the lobby go to the node that does. `to_leader` takes a change and
    // says whether it went there; apply() is that node's side.
    void set_forward(std::function<bool(const nlohmann::json&)> to_leader) { forward_ = std::move(to_leader); }
    void apply(const nlohmann::json& change);

    // GET /api/lobby: the lists as they are now, with `mine` for `token`.
    nlohmann::json http_view(const std::string& token) const;

    std::uint64_t seq() const { return seq_; }
    std::size_t subscribers() const { return subscribers_.size(); }
    std::uint64_t deltas_sent() const { return deltas_sent_; }
    // The time changes wait to go out as one delta, for the audience now.
    std::int64_t batch_ms() const;

private:
    // One list (seeks or games): all items, newest first; the lobby shows the
    // first `capacity`. `published` is what subscribers were last told.
    struct Item {
        std::int64_t created_at = 0;
        nlohmann::json value;
        std::string owner;   // seeks: the creator's token (never sent)
        bool moved = false;  // games: ply/fen changed since the last delta
    };
    struct List {
        std::size_t capacity = 0;
        std::unordered_map<std::string, Item> items;
        std::set<std::pair<std::int64_t, std::string>, std::greater<>> order;  // (created_at, id), newest first
        std::vector<std::string> published;                                    // ids, in order
        std::vector<std::string> window() const;
    };
    void add(List& l, const std::string& id, Item item);
    void remove(List& l, const std::string& id);
    void changed();
    void flush();
    std::shared_ptr<const std::string> snapshot();
    void fan_out(std::shared_ptr<const std::string> text, std::shared_ptr<std::vector<std::weak_ptr<Peer>>> to,
                 std::size_t from);

    const ServerOptions& opt_;
    boost::asio::steady_timer timer_;
    boost::asio::steady_timer fan_out_timer_;  // the pause between two chunks of a delta's fan-out
    bool timer_armed_ = false;
    bool fanning_out_ = false;
    List seeks_, games_;
    std::uint64_t seq_ = 0;
    std::uint64_t deltas_sent_ = 0;
    std::shared_ptr<const std::string> snapshot_;  // of the published lists, at seq_
    std::unordered_map<std::uint64_t, std::weak_ptr<Peer>> subscribers_;
    std::function<bool(const nlohmann::json&)> forward_;
};

}  // namespace echecs::server

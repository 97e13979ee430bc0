// A WebSocket connection (Beast): reads messages of bounded size without
// buffering oversized ones, writes a queue bounded in bytes (a client that
// does not read is dropped, nobody else waits for it), pings to measure
// the lag and to find dead connections.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <string>

#include "server/net/limits.h"
#include "server/net/peer.h"

namespace echecs::server {

class Hub;

class WsSession : public Peer {
public:
    WsSession(boost::asio::ip::tcp::socket&& socket, Hub& hub, std::unique_ptr<ConnectionSlot> slot, std::uint64_t id,
              std::string ip);
    ~WsSession() override;

    void run(boost::beast::http::request<boost::beast::http::string_body> req);
    void send(std::shared_ptr<const std::string> text) override;
    void close_later(const char* why) override;
    using Peer::send;

private:
    std::shared_ptr<WsSession> self() { return std::static_pointer_cast<WsSession>(shared_from_this()); }
    void read();
    void on_read(boost::beast::error_code ec);
    void write_next();
    void closed();                                                          // the connection is gone: tell the hub once
    void close(boost::beast::websocket::close_code code, const char* why);  // close handshake, then the socket
    void hard_close();  // the socket, now (a client that does not read)
    void arm_ping();

    struct Item {
        std::shared_ptr<const std::string> text;  // null: a ping
    };
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    Hub& hub_;
    std::unique_ptr<ConnectionSlot> slot_;
    boost::beast::flat_buffer buffer_;
    std::string message_;     // the message being read (at most max_message bytes)
    bool oversized_ = false;  // the current message is over max_message: dropped as it comes
    std::deque<Item> queue_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool closed_ = false;
    bool dropping_ = false;
    boost::asio::steady_timer ping_timer_;
    boost::asio::steady_timer close_timer_;
    std::chrono::steady_clock::time_point ping_sent_;
    bool ping_outstanding_ = false;
    // The last frame from the client, pongs included: the idle check's clock
    // (Beast 1.74's own idle timer restarts only when a read starts, so a
    // client that only reads and answers pings would be cut off).
    std::chrono::steady_clock::time_point last_heard_;
};

}  // namespace echecs::server

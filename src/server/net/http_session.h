// An HTTP connection (Beast): reads one request at a time (head and body
// bounded, the body refused by its Content-Length before it is read),
// hands it to the router, writes the answer with the security headers, and
// upgrades /ws to a WebSocket when the Origin is allowed.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <boost/beast.hpp>
#include <memory>
#include <optional>
#include <string>

#include "server/net/http_types.h"
#include "server/net/limits.h"

namespace echecs::server {

class Hub;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(boost::asio::ip::tcp::socket&& socket, Hub& hub, std::unique_ptr<ConnectionSlot> slot, std::string ip);
    void run();

private:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;
    void wait_for_client();
    void read();
    void on_header(boost::beast::error_code ec);
    void on_read(boost::beast::error_code ec);
    void upgrade(Request&& req);
    void answer(const Request& req, HttpResponse res);
    void write(std::shared_ptr<boost::beast::http::response<boost::beast::http::string_body>> res);
    void linger();
    void drain();

    // How long, and how much, a closing connection's late input is read and dropped.
    static constexpr std::int64_t LINGER_MS = 2000;
    static constexpr std::size_t LINGER_BYTES = 4 * 1024 * 1024;

    boost::beast::tcp_stream stream_;
    Hub& hub_;
    std::unique_ptr<ConnectionSlot> slot_;
    std::string ip_;
    boost::beast::flat_buffer buffer_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::size_t body_limit_ = 0;  // of the request being read
    std::size_t lingered_ = 0;    // bytes dropped since the answer that closes
};

}  // namespace echecs::server

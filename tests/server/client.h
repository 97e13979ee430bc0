// Test clients over real sockets: HTTP requests and a WebSocket client whose
// reads time out instead of hanging.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace echecs::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using nlohmann::json;
using namespace std::chrono_literals;

struct HttpResult {
    int status = 0;
    std::string body;
    std::string content_type;
    std::string disposition;
    std::map<std::string, std::string> headers;  // as sent (a repeated one: its last value)
    std::vector<std::string> set_cookies;        // every Set-Cookie, in order
    json j() const { return json::parse(body, nullptr, false); }
    std::string header(const std::string& name) const {
        auto it = headers.find(name);
        return it == headers.end() ? "" : it->second;
    }
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// The local address this thread's clients connect from ("": the system's
// choice, 127.0.0.1). The server counts its limits per peer address, and
// loopback answers on all of 127/8: a benchmark plays many addresses.
inline thread_local std::string client_source;
class FromAddress {
public:
    explicit FromAddress(std::string address) : old_(std::exchange(client_source, std::move(address))) {}
    ~FromAddress() { client_source = old_; }
    FromAddress(const FromAddress&) = delete;
    FromAddress& operator=(const FromAddress&) = delete;

private:
    std::string old_;
};

// Opens `socket` bound to client_source, when one is set.
inline void bind_source(tcp::socket& socket) {
    if (client_source.empty()) return;
    socket.open(tcp::v4());
    socket.bind(tcp::endpoint(asio::ip::make_address(client_source), 0));
}

// Runs `ioc` until `done` or `timeout`; then throws, naming `what`, on a
// timeout or an error. Beast's timeouts hold for asynchronous operations
// only: a synchronous read from a server that never answers would wait for
// ever (and the test runner kill the test without a word).
inline void run_bounded(asio::io_context& ioc, const bool& done, const beast::error_code& ec,
                        std::chrono::milliseconds timeout, const std::string& what) {
    ioc.restart();
    ioc.run_for(timeout);
    if (!done) throw std::runtime_error(what + ": no answer within " + std::to_string(timeout.count()) + " ms");
    if (ec) throw std::runtime_error(what + ": " + ec.message());
}

// `headers` are added or replace the defaults (Host, Content-Type).
inline HttpResult http_request(std::uint16_t port, http::verb method, const std::string& target,
                               const std::string& body = "", const std::string& token = "",
                               const Headers& headers = {}) {
    asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    if (!token.empty()) req.set("X-Echecs-Token", token);
    if (!body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = body;
    }
    for (const auto& [k, v] : headers) req.set(k, v);
    req.prepare_payload();
    beast::flat_buffer buf;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    beast::error_code ec;
    bool done = false;
    bind_source(stream.socket());
    stream.expires_after(30s);  // the whole exchange: generous, a guard against hangs only
    stream.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), [&](beast::error_code e) {
        if (e) return void((ec = e, done = true));
        http::async_write(stream, req, [&](beast::error_code e, std::size_t) {
            if (e) return void((ec = e, done = true));
            http::async_read(stream, buf, parser, [&](beast::error_code e, std::size_t) {
                ec = e;
                done = true;
            });
        });
    });
    run_bounded(ioc, done, ec, 35s, std::string(http::to_string(method)) + " " + target);
    auto& res = parser.get();
    HttpResult r;
    r.status = res.result_int();
    r.body = res.body();
    r.content_type = std::string(res[http::field::content_type]);
    r.disposition = std::string(res[http::field::content_disposition]);
    for (const auto& f : res) {
        r.headers[std::string(f.name_string())] = std::string(f.value());
        if (f.name() == http::field::set_cookie) r.set_cookies.emplace_back(f.value());
    }
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    return r;
}

inline json post_json(std::uint16_t port, const std::string& target, const json& body, const std::string& token) {
    HttpResult r = http_request(port, http::verb::post, target, body.dump(), token);
    json j = r.j();
    if (j.is_object()) j["_status"] = r.status;
    return j;
}

// GET as JSON, its HTTP status as "_status" when the body is an object.
inline json get_json(std::uint16_t port, const std::string& target, const std::string& token = "") {
    HttpResult r = http_request(port, http::verb::get, target, "", token);
    json j = r.j();
    if (j.is_object()) j["_status"] = r.status;
    return j;
}

// Polls `done` every few milliseconds until it holds (true) or `timeout`
// passes (false): the caller fails, saying what it waited for.
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (done()) return true;
        if (std::chrono::steady_clock::now() >= end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

// The orthodox initial position.
inline const char* const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class WsClient {
public:
    explicit WsClient(std::uint16_t port, const std::string& token = "", const std::string& origin = "") : ws_(ioc_) {
        ws_.read_message_max(64 * 1024 * 1024);
        if (!origin.empty())
            ws_.set_option(websocket::stream_base::decorator(
                [origin](websocket::request_type& req) { req.set(http::field::origin, origin); }));
        beast::error_code ec;
        bool done = false;
        auto& tcp_layer = beast::get_lowest_layer(ws_);
        bind_source(tcp_layer.socket());
        tcp_layer.expires_after(30s);
        tcp_layer.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), [&](beast::error_code e) {
            if (e) return void((ec = e, done = true));
            ws_.async_handshake("127.0.0.1:" + std::to_string(port), "/ws", [&](beast::error_code e) {
                ec = e;
                done = true;
            });
        });
        run_bounded(ioc_, done, ec, 35s, "WebSocket handshake");
        tcp_layer.expires_never();
        if (!token.empty()) send({{"type", "hello"}, {"token", token}});
    }
    ~WsClient() {
        beast::error_code ec;
        beast::get_lowest_layer(ws_).socket().close(ec);
    }

    void send(const json& j) { send_raw(j.dump()); }
    void send_raw(const std::string& text, bool binary = false) {
        ws_.binary(binary);
        beast::error_code ec;
        bool done = false;
        ws_.async_write(asio::buffer(text), [&](beast::error_code e, std::size_t) {
            ec = e;
            done = true;
        });
        run_or_cancel(done, 30s, "WebSocket write: not taken within 30 s");  // the server reads nothing
        if (ec) throw std::runtime_error("WebSocket write: " + ec.message());
    }

    // The next message; throws on timeout or when the socket is closed.
    json recv(std::chrono::milliseconds timeout = 5s) {
        beast::flat_buffer buf;
        beast::error_code ec;
        bool done = false;
        ws_.async_read(buf, [&](beast::error_code e, std::size_t) {
            ec = e;
            done = true;
        });
        run_or_cancel(done, timeout, "timeout waiting for a message");
        if (ec) {
            closed_ = true;
            close_code_ = ws_.reason().code;
            throw std::runtime_error("socket closed: " + ec.message());
        }
        return json::parse(beast::buffers_to_string(buf.data()));
    }

    // Reads until pred(message) (other messages are skipped).
    json recv_until(const std::function<bool(const json&)>& pred, std::chrono::milliseconds timeout = 10s) {
        auto end = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
            if (left <= 0ms) throw std::runtime_error("timeout waiting for a matching message");
            json j = recv(left);
            if (pred(j)) return j;
        }
    }
    json state(const std::string& game, int ply, std::chrono::milliseconds timeout = 10s) {
        return recv_until([&](const json& j) { return j["type"] == "state" && j["game"] == game && j["ply"] == ply; },
                          timeout);
    }
    json state_where(const std::string& game, const std::function<bool(const json&)>& pred,
                     std::chrono::milliseconds timeout = 10s) {
        return recv_until([&](const json& j) { return j["type"] == "state" && j["game"] == game && pred(j); }, timeout);
    }
    json error(std::chrono::milliseconds timeout = 5s) {
        return recv_until([](const json& j) { return j["type"] == "error"; }, timeout);
    }
    // True if the server closed the socket within the timeout.
    bool wait_closed(std::chrono::milliseconds timeout = 5s) {
        try {
            for (;;) recv(timeout);
        } catch (const std::exception&) {
        }
        return closed_;
    }
    int close_code() const { return close_code_; }

private:
    // Runs the pending operation until `done` or `timeout`; on a timeout
    // cancels it (its handler runs with operation_aborted) and throws `what`.
    void run_or_cancel(const bool& done, std::chrono::milliseconds timeout, const char* what) {
        ioc_.restart();
        ioc_.run_for(timeout);
        if (done) return;
        beast::get_lowest_layer(ws_).cancel();
        ioc_.restart();
        ioc_.run();
        throw std::runtime_error(what);
    }

    asio::io_context ioc_;
    websocket::stream<beast::tcp_stream> ws_;
    bool closed_ = false;
    int close_code_ = 0;
};

}  // namespace echecs::test

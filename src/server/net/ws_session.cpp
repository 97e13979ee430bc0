#include "server/net/ws_session.h"

#include "server/app/util.h"
#include "server/play/hub.h"

namespace echecs::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

namespace {
constexpr std::size_t READ_CHUNK = 4096;
}

WsSession::WsSession(asio::ip::tcp::socket&& socket, Hub& hub, std::unique_ptr<ConnectionSlot> slot, std::uint64_t id,
                     std::string ip)
    : Peer(id, std::move(ip), hub.options().rate_per_second, hub.options().rate_burst, now_ms()),
      ws_(std::move(socket)),
      hub_(hub),
      slot_(std::move(slot)),
      ping_timer_(ws_.get_executor()),
      close_timer_(ws_.get_executor()) {}

WsSession::~WsSession() = default;

void WsSession::run(http::request<http::string_body> req) {
    const ServerOptions& opt = hub_.options();
    websocket::stream_base::timeout t;
    t.handshake_timeout = std::chrono::seconds(10);
    // Idle connections are found by arm_ping, from every frame received.
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_.set_option(t);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "echecs"); }));
    // Above max_frame Beast fails the connection (1009) before reading the
    // payload; between max_message and max_frame the message is read in
    // chunks and dropped (on_read).
    ws_.read_message_max(opt.max_frame);
    // The kernel's buffer is on top of the send budget: a fixed one keeps the
    // bytes a frozen reader can hold bounded (and the budget meaningful).
    if (opt.ws_socket_buffer > 0) {
        beast::error_code ec;
        beast::get_lowest_layer(ws_).socket().set_option(
            asio::socket_base::send_buffer_size(static_cast<int>(opt.ws_socket_buffer)), ec);
    }
    last_heard_ = std::chrono::steady_clock::now();
    ws_.control_callback([this](websocket::frame_type kind, beast::string_view) {
        last_heard_ = std::chrono::steady_clock::now();
        if (kind != websocket::frame_type::pong || !ping_outstanding_) return;
        ping_outstanding_ = false;
        const auto rtt =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - ping_sent_)
                .count();
        const std::int64_t one_way = rtt / 2;
        lag_ms = lag_ms == 0 ? one_way : (3 * lag_ms + one_way) / 4;
    });
    ws_.async_accept(req, [self = self()](beast::error_code ec) {
        if (ec) return;
        self->hub_.peer_opened(self);
        self->read();
        self->arm_ping();
    });
}

void WsSession::read() {
    ws_.async_read_some(buffer_, READ_CHUNK, [self = self()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

void WsSession::on_read(beast::error_code ec) {
    if (ec) return closed();
    last_heard_ = std::chrono::steady_clock::now();
    const std::size_t limit = hub_.options().max_message;
    if (!oversized_) {
        if (message_.size() + buffer_.size() > limit) {
            oversized_ = true;
            message_.clear();
            message_.shrink_to_fit();
        } else {
            message_.append(static_cast<const char*>(buffer_.data().data()), buffer_.size());
        }
    }
    buffer_.consume(buffer_.size());
    if (ws_.is_message_done()) {
        const bool binary = !ws_.got_text();
        std::string text;
        text.swap(message_);
        const bool oversized = oversized_;
        oversized_ = false;
        hub_.on_message(self(), text, binary, oversized);
        // A large message must not keep its buffer: thousands of sockets.
        if (text.capacity() < 64 * 1024) {
            text.clear();
            message_.swap(text);
        }
    }
    if (!closed_) read();
}

void WsSession::send(std::shared_ptr<const std::string> text) {
    if (closed_ || dropping_) return;
    if (queued_bytes_ + text->size() > hub_.options().ws_send_budget) {
        // Too far behind: dropped, later (a broadcast may be iterating).
        dropping_ = true;
        asio::post(ws_.get_executor(), [self = self()] { self->hard_close(); });
        return;
    }
    queued_bytes_ += text->size();
    queue_.push_back(Item{std::move(text)});
    if (!writing_) write_next();
}

void WsSession::close_later(const char* why) {
    if (closed_ || dropping_) return;
    dropping_ = true;
    asio::post(ws_.get_executor(), [self = self(), why] { self->close(websocket::close_code::policy_error, why); });
}

void WsSession::write_next() {
    if (queue_.empty() || closed_) {
        writing_ = false;
        return;
    }
    writing_ = true;
    Item& item = queue_.front();
    auto done = [self = self()](beast::error_code ec, std::size_t = 0) {
        if (ec) return self->closed();
        if (!self->queue_.empty()) {
            if (self->queue_.front().text) self->queued_bytes_ -= self->queue_.front().text->size();
            self->queue_.pop_front();
        }
        self->write_next();
    };
    if (!item.text) {
        ping_sent_ = std::chrono::steady_clock::now();
        ping_outstanding_ = true;
        ws_.async_ping({}, [done](beast::error_code ec) { done(ec); });
        return;
    }
    ws_.text(true);
    ws_.async_write(asio::buffer(*item.text), done);
}

void WsSession::arm_ping() {
    const ServerOptions& opt = hub_.options();
    // Often enough to find an idle connection within a third of the timeout.
    const std::int64_t every = std::max<std::int64_t>(1, std::min(opt.ws_ping_ms, opt.ws_idle_timeout_ms / 3));
    ping_timer_.expires_after(std::chrono::milliseconds(every));
    ping_timer_.async_wait([self = self()](beast::error_code ec) {
        if (ec || self->closed_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - self->last_heard_ >= std::chrono::milliseconds(self->hub_.options().ws_idle_timeout_ms)) {
            self->dropping_ = true;  // nothing heard, not even a pong: a dead connection
            return self->hard_close();
        }
        if (!self->ping_outstanding_ &&
            now - self->ping_sent_ >= std::chrono::milliseconds(self->hub_.options().ws_ping_ms)) {
            self->queue_.push_back(Item{nullptr});
            if (!self->writing_) self->write_next();
        }
        self->arm_ping();
    });
}

void WsSession::closed() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    queued_bytes_ = 0;
    ping_timer_.cancel();
    close_timer_.cancel();
    hub_.peer_closed(*this);
}

void WsSession::close(websocket::close_code code, const char* why) {
    if (closed_) return;
    // The close handshake, but never more than 2 s of it.
    close_timer_.expires_after(std::chrono::seconds(2));
    close_timer_.async_wait([self = self()](beast::error_code ec) {
        if (!ec) self->hard_close();
    });
    ws_.async_close(websocket::close_reason(code, why), [self = self()](beast::error_code) {
        self->close_timer_.cancel();
        self->closed();
    });
}

void WsSession::hard_close() {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws_).socket().close(ec);
    closed();
}

}  // namespace echecs::server

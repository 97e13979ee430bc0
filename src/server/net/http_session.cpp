#include "server/net/http_session.h"

#include <algorithm>
#include <boost/beast/websocket.hpp>

#include "server/api/off_io.h"
#include "server/api/router.h"
#include "server/net/ws_session.h"
#include "server/play/hub.h"
#include "server/protocol/text.h"

namespace echecs::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

HttpSession::HttpSession(asio::ip::tcp::socket&& socket, Hub& hub, std::unique_ptr<ConnectionSlot> slot, std::string ip)
    : stream_(std::move(socket)), hub_(hub), slot_(std::move(slot)), ip_(std::move(ip)), buffer_(64 * 1024) {}

void HttpSession::run() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
}

// Waiting for its client, the connection may be closed to make room for a
// new one when the server is full (ClientLimits::open_connection).
void HttpSession::wait_for_client() {
    slot_->idle([weak = weak_from_this(), ex = stream_.get_executor()] {
        asio::post(ex, [weak] {
            if (auto self = weak.lock()) self->stream_.close();
        });
    });
}

void HttpSession::read() {
    wait_for_client();
    parser_.emplace();
    // Until the head is read the larger limit applies (Beast checks a
    // Content-Length against it then); on_header sets the target's own.
    body_limit_ = std::max(hub_.options().max_http_body, hub_.options().max_upload_body);
    parser_->body_limit(body_limit_);
    parser_->header_limit(8 * 1024);
    // The whole request (and a keep-alive connection's idle time) within
    // http_timeout_ms: a client sending a byte at a time is cut off.
    stream_.expires_after(std::chrono::milliseconds(hub_.options().http_timeout_ms));
    // The head first: its path decides how large a body may be.
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
}

namespace {
// The endpoints that take a file's text (PGN, Popeye input).
constexpr std::string_view UPLOAD_PATHS[] = {"/api/pgn/read", "/api/problems/popeye/read"};

bool is_upload(std::string_view target) {
    const std::string_view path = target.substr(0, target.find('?'));
    for (std::string_view p : UPLOAD_PATHS)
        if (path == p) return true;
    return false;
}

// The last X-Forwarded-For line: the one the proxy in front added (a client
// may send its own first). Beast's operator[] gives the first.
template <class Fields>
std::string forwarded_for(const Fields& f) {
    std::string last;
    for (auto [it, end] = f.equal_range("X-Forwarded-For"); it != end; ++it) last = std::string(it->value());
    return last;
}
}  // namespace

void HttpSession::on_header(beast::error_code ec) {
    if (ec) return on_read(ec);
    const auto target = parser_->get().target();
    const bool upload = is_upload(std::string_view(target.data(), target.size()));
    body_limit_ = upload ? hub_.options().max_upload_body : hub_.options().max_http_body;
    parser_->body_limit(body_limit_);
    // A declared length over the limit is refused before the body is read.
    if (auto n = parser_->content_length(); n && *n > body_limit_) return on_read(http::error::body_limit);
    // So is an upload that the engine's pool would refuse (its address has
    // work waiting): reading a MiB only to refuse it took the I/O thread's time.
    if (upload && !parser_->is_done()) {
        const std::string ip = client_ip(ip_, forwarded_for(parser_->get()), hub_.options());
        if (auto refusal = upload_refusal(hub_, ip)) {
            Request req;
            req.version(parser_->get().version());
            req.keep_alive(false);  // the body is not read: the connection closes (lingering)
            return answer(req, error_response(*refusal));
        }
    }
    if (parser_->is_done()) return on_read(ec);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

void HttpSession::on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::connection_reset ||
        ec == asio::error::operation_aborted) {
        beast::error_code ignored;
        stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        return;
    }
    if (ec) {
        Request req;
        req.version(11);
        req.keep_alive(false);
        const bool too_large = ec == http::error::body_limit;
        ApiError e =
            too_large ? ApiError(Reason::body_too_large, "request body over " + std::to_string(body_limit_) + " bytes",
                                 "", {{"max", body_limit_}})
            : ec == http::error::header_limit ? ApiError(Reason::header_too_large, "request head over 8 KiB")
                                              : ApiError(Reason::http_malformed, "malformed HTTP request");
        return answer(req, error_response(e));
    }
    slot_->busy();
    Request req = parser_->release();
    if (websocket::is_upgrade(req)) return upgrade(std::move(req));

    HttpRequest hr;
    hr.method = std::string(req.method_string());
    hr.target = std::string(req.target());
    hr.body = std::move(req.body());
    for (const auto& f : req) {
        std::string name(f.name_string());
        for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
        // Several Cookie headers are one list (RFC 6265); other repeated headers: the last one.
        std::string& slot = hr.headers[name];
        slot = name == "cookie" && !slot.empty() ? slot + "; " + std::string(f.value()) : std::string(f.value());
    }
    hr.ip = client_ip(ip_, hr.header("x-forwarded-for"), hub_.options());
    auto head = std::make_shared<Request>();
    head->version(req.version());
    head->keep_alive(req.keep_alive());
    head->method_string(req.method_string());  // method() throws on a method Beast does not know
    auto ctx = std::make_shared<HttpContext>(
        std::move(hr), [self = shared_from_this(), head](HttpResponse res) { self->answer(*head, std::move(res)); });
    hub_.router().dispatch(ctx);
}

void HttpSession::upgrade(Request&& req) {
    std::optional<ApiError> refusal;
    if (req.target() != "/ws") {
        refusal = ApiError(Reason::no_endpoint, "the WebSocket endpoint is /ws");
    } else if (from_another_site(std::string(req[http::field::origin]), std::string(req[http::field::host]),
                                 std::string(req["Sec-Fetch-Site"]), hub_.options())) {
        refusal = ApiError(Reason::origin_not_allowed, "WebSocket connections from another site are refused");
    } else {
        stream_.expires_never();
        const std::string ip = client_ip(ip_, forwarded_for(req), hub_.options());
        auto ws =
            std::make_shared<WsSession>(stream_.release_socket(), hub_, std::move(slot_), hub_.next_peer_id(), ip);
        ws->run(std::move(req));
        return;
    }
    req.keep_alive(false);
    answer(req, error_response(*refusal));
}

void HttpSession::answer(const Request& req, HttpResponse r) {
    auto res = std::make_shared<http::response<http::string_body>>(http::status(r.status), req.version());
    res->set(http::field::server, "echecs");
    res->set(http::field::content_type, r.content_type);
    bool cache_set = false;
    for (const auto& [k, v] : r.headers) {
        // Set-Cookie may repeat (a session and a device cookie); others replace.
        if (k == "Set-Cookie")
            res->insert(k, v);
        else
            res->set(k, v);
        cache_set = cache_set || k == "Cache-Control";
    }
    if (!cache_set) res->set(http::field::cache_control, "no-store");
    for (const auto& [k, v] : security_headers()) res->set(k, v);
    res->keep_alive(req.keep_alive());
    const std::size_t size = r.body.size();
    if (req.method() != http::verb::head) res->body() = std::move(r.body);
    res->prepare_payload();
    if (req.method() == http::verb::head) res->content_length(size);
    write(std::move(res));
}

void HttpSession::write(std::shared_ptr<http::response<http::string_body>> res) {
    const bool close = !res->keep_alive();
    stream_.expires_after(std::chrono::milliseconds(hub_.options().http_timeout_ms));
    http::async_write(stream_, *res, [self = shared_from_this(), res, close](beast::error_code ec, std::size_t) {
        if (ec) return;
        if (close) return self->linger();
        self->read();
    });
}

// Closing a socket with unread input makes the kernel answer with a reset,
// which can destroy the answer (a 413 before the body was read) in the
// client's buffers before the client reads it. So the server stops sending,
// then reads and drops what still comes, for a bounded time and size, and
// closes when the client does (RFC 9112 §9.6, nginx's lingering close).
void HttpSession::linger() {
    wait_for_client();
    beast::error_code ignored;
    stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::milliseconds(std::min(LINGER_MS, hub_.options().http_timeout_ms)));
    lingered_ = 0;
    drain();
}

void HttpSession::drain() {
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(16 * 1024),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                self->lingered_ += n;
                                if (ec || self->lingered_ > LINGER_BYTES)
                                    return;  // the client closed, or too much: close
                                self->drain();
                            });
}

}  // namespace echecs::server

#include "server/net/listener.h"

#include <sys/resource.h>

#include "server/net/http_session.h"
#include "server/play/hub.h"

namespace echecs::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

Listener::Listener(asio::io_context& ioc, const tcp::endpoint& ep, Hub* hub) : acceptor_(ioc), retry_(ioc), hub_(hub) {
    acceptor_.open(ep.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen(asio::socket_base::max_listen_connections);
}

std::uint16_t Listener::port() const { return acceptor_.local_endpoint().port(); }

void Listener::run() {
    max_connections_ = hub_->options().max_connections;
    if (max_connections_ <= 0) {
        // The descriptor limit, less what the database, the log and the
        // engine may need.
        rlimit rl{};
        const long limit =
            getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? long(rl.rlim_cur) : 4096;
        max_connections_ = int(std::max(16L, limit - std::max(64L, limit / 20)));
    }
    accept();
}

void Listener::stop() {
    boost::system::error_code ec;
    acceptor_.close(ec);
    retry_.cancel();
}

void Listener::back_off() {
    // Out of descriptors (or memory): wait for sessions to close instead of
    // retrying at once (which spins at 100% CPU and serves nobody).
    backoff_ms_ = backoff_ms_ ? std::min(1000, backoff_ms_ * 2) : 10;
    retry_.expires_after(std::chrono::milliseconds(backoff_ms_));
    retry_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (!ec) self->accept();
    });
}

void Listener::accept() {
    acceptor_.async_accept([self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !self->acceptor_.is_open()) return;
        if (ec) {
            if (self->accept_errors_++ % 1000 == 0) self->hub_->log("accept: " + ec.message());
            return self->back_off();
        }
        self->backoff_ms_ = 0;
        boost::system::error_code e2;
        const tcp::endpoint remote = socket.remote_endpoint(e2);
        if (e2) return self->accept();
        const std::string ip = remote.address().to_string();
        Hub& hub = *self->hub_;
        if (!hub.limits().open_connection(ip, self->max_connections_)) {
            ++self->refused_;
            socket.close(e2);  // over the address's (or the server's) limit
            return self->accept();
        }
        auto slot = std::make_unique<ConnectionSlot>(hub.limits_ptr(), ip);
        socket.set_option(tcp::no_delay(true), e2);
        std::make_shared<HttpSession>(std::move(socket), hub, std::move(slot), ip)->run();
        self->accept();
    });
}

}  // namespace echecs::server

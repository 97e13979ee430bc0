#include "server/app/server.h"

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <future>
#include <iostream>

#include "server/net/listener.h"
#include "server/play/hub.h"
#include "server/protocol/text.h"

namespace echecs::server {

namespace asio = boost::asio;

struct Server::Impl {
    explicit Impl(ServerOptions o) : opt(std::move(o)) {
        // The port first: a server that cannot listen changes nothing.
        listener = std::make_shared<Listener>(ioc, asio::ip::tcp::endpoint(asio::ip::make_address(opt.host), opt.port));
        // One server per database, unless this is one node of several (docs/CLUSTER.md).
        hub = std::make_unique<Hub>(ioc, opt, open_storage(opt.db, opt.durable, opt.cluster_node.empty()));
        listener->set_hub(*hub);
        hub->start();
    }
    ~Impl() {
        hub->shutdown();
        hub.reset();
    }

    ServerOptions opt;
    asio::io_context ioc{1};
    std::shared_ptr<Listener> listener;
    std::unique_ptr<Hub> hub;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Server::~Server() = default;

std::uint16_t Server::port() const { return impl_->listener->port(); }

void Server::stop() {
    asio::post(impl_->ioc, [impl = impl_.get()] {
        impl->listener->stop();
        impl->ioc.stop();
    });
}

ServerStats Server::stats() {
    auto done = std::make_shared<std::promise<ServerStats>>();
    auto result = done->get_future();
    asio::post(impl_->ioc, [impl = impl_.get(), done] {
        Hub& h = *impl->hub;
        ServerStats s;
        s.rooms = h.room_count();
        s.peers = h.peer_count();
        s.connections = h.limits().connections();
        s.lobby_subscribers = h.lobby().subscribers();
        s.lobby_seq = h.lobby().seq();
        s.seeks = h.seeks().size();
        s.accept_errors = impl->listener->accept_errors();
        s.refused = impl->listener->refused();
        s.evicted = h.limits().evicted();
        s.engine_preemptions = h.work().preemptions();
        done->set_value(s);
    });
    if (result.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
        throw std::runtime_error("the server did not answer within 10 s");
    return result.get();
}

void Server::run(bool handle_signals) {
    Impl& s = *impl_;
    asio::signal_set signals(s.ioc);
    if (handle_signals) {
        signals.add(SIGINT);
        signals.add(SIGTERM);
        signals.async_wait([this](boost::system::error_code ec, int) {
            if (!ec) stop();
        });
    }
    s.listener->run();
    // Every handler guards itself; this is the last line: a handler that
    // still throws is logged and the server goes on.
    for (;;) {
        try {
            s.ioc.run();
            break;
        } catch (const std::exception& e) {
            std::cerr << "echecs serve: unexpected error (the server goes on): " << to_valid_utf8(e.what()) << "\n";
        } catch (...) {
            std::cerr << "echecs serve: unexpected error (the server goes on)\n";
        }
    }
}

}  // namespace echecs::server

// Accepts connections: counted per client address (over the limit: closed
// at once), and when the process runs out of descriptors (EMFILE) the loop
// backs off instead of spinning.
#pragma once

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <cstdint>
#include <memory>

namespace echecs::server {

class Hub;

class Listener : public std::enable_shared_from_this<Listener> {
public:
    // Binds and listens at once (throws on failure).
    Listener(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& ep, Hub* hub = nullptr);
    void set_hub(Hub& hub) { hub_ = &hub; }
    void run();
    void stop();
    std::uint16_t port() const;
    std::uint64_t accept_errors() const { return accept_errors_; }
    std::uint64_t refused() const { return refused_; }

private:
    void accept();
    void back_off();

    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer retry_;
    Hub* hub_;
    int max_connections_ = 0;
    int backoff_ms_ = 0;
    std::uint64_t accept_errors_ = 0;
    std::uint64_t refused_ = 0;
};

}  // namespace echecs::server

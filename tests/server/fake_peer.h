// A Peer that keeps what it is sent (no socket): for the lobby and room tests.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/net/peer.h"

namespace echecs::test {

class FakePeer : public server::Peer {
public:
    FakePeer(std::uint64_t id, std::string token = "", std::string ip = "127.0.0.1")
        : Peer(id, std::move(ip), 1000, 1000, 0) {
        this->token = std::move(token);
    }
    void send(std::shared_ptr<const std::string> text) override { got.push_back(std::move(text)); }
    void close_later(const char*) override { closed = true; }
    using Peer::send;

    // The messages of one type, parsed.
    std::vector<nlohmann::json> of_type(const std::string& type) const {
        std::vector<nlohmann::json> out;
        for (const auto& t : got) {
            nlohmann::json j = nlohmann::json::parse(*t);
            if (j["type"] == type) out.push_back(std::move(j));
        }
        return out;
    }

    std::vector<std::shared_ptr<const std::string>> got;
    bool closed = false;
};

}  // namespace echecs::test

// The "your turn" list: the live games of a token (later: of an account) in
// which it is that player's move, whatever the time control. An index of the
// rooms by seat token (live games are always in memory) makes it cost only
// the player's own games; it is pushed to the player's sockets (`your_turn`)
// after every change of one of its games, and served at GET /api/your-turn.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>

namespace echecs::server {

class Hub;
class Router;

class TurnIndex {
public:
    void add(const std::string& token, const std::string& game);
    void remove(const std::string& token, const std::string& game);
    const std::set<std::string>& games_of(const std::string& token) const;
    std::size_t tokens() const { return by_token_.size(); }

private:
    std::unordered_map<std::string, std::set<std::string>> by_token_;
};

// {"games": [...]}: the games where `token` is to move, the most urgent first.
nlohmann::json your_turn_json(Hub& hub, const std::string& token);
// Sends `your_turn` to every socket of `token`.
void push_your_turn(Hub& hub, const std::string& token);

void add_your_turn_routes(Router& r, Hub& hub);

}  // namespace echecs::server

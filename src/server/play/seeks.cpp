#include "server/play/seeks.h"

#include "server/play/hub.h"
#include "server/protocol/server_messages.h"
#include "server/protocol/text.h"

namespace echecs::server {

void SeekBook::load(std::vector<SeekRecord> seeks) {
    for (SeekRecord& s : seeks) {
        const std::string token = s.token;
        Entry e{std::move(s), "", true};
        if (!e.seek.is_private) hub_.lobby().seek_added(e.seek);
        seeks_[e.seek.id] = std::move(e);
        owner_absent(token);
    }
}

const SeekRecord* SeekBook::find(const std::string& id) const {
    auto it = seeks_.find(id);
    return it == seeks_.end() ? nullptr : &it->second.seek;
}

int SeekBook::open_of_token(const std::string& token) const {
    int n = 0;
    for (const auto& [id, e] : seeks_) n += e.seek.token == token && e.seek.game.empty();
    return n;
}

void SeekBook::add(SeekRecord s, const std::string& ip) {
    hub_.limits().add_seek(ip, +1);
    const std::string id = s.id, token = s.token;
    seeks_[id] = Entry{std::move(s), ip, false};
    if (hub_.peers_of(token).empty()) owner_absent(token);
}

void SeekBook::stored(const std::string& id, bool ok) {
    auto it = seeks_.find(id);
    if (it == seeks_.end()) return;
    if (!ok) {
        hub_.limits().add_seek(it->second.ip, -1);
        seeks_.erase(it);
        return;
    }
    it->second.announced = true;
    if (!it->second.seek.is_private) hub_.lobby().seek_added(it->second.seek);
    tell_owner(it->second.seek.token);
}

void SeekBook::remove(const std::string& id) {
    auto it = seeks_.find(id);
    if (it == seeks_.end()) return;
    const std::string token = it->second.seek.token;
    hub_.limits().add_seek(it->second.ip, -1);
    seeks_.erase(it);
    hub_.lobby().seek_removed(id);
    tell_owner(token);
}

void SeekBook::mark_taken(const std::string& id, const std::string& game) {
    if (auto it = seeks_.find(id); it != seeks_.end()) it->second.seek.game = game;
}

void SeekBook::owner_present(const std::string& token) { expiry_.erase(token); }

void SeekBook::owner_absent(const std::string& token) {
    if (token.empty() || expiry_.count(token) || !open_of_token(token)) return;
    auto timer = std::make_unique<boost::asio::steady_timer>(hub_.ioc());
    timer->expires_after(std::chrono::milliseconds(hub_.options().seek_grace_ms));
    timer->async_wait([this, token](boost::system::error_code ec) {
        if (!ec) expire(token);
    });
    expiry_[token] = std::move(timer);
}

void SeekBook::expire(const std::string& token) {
    expiry_.erase(token);
    if (!hub_.peers_of(token).empty()) return;  // came back in the meantime
    std::vector<std::string> ids;
    for (const auto& [id, e] : seeks_)
        if (e.seek.token == token && e.seek.game.empty() && e.announced) ids.push_back(id);
    if (ids.empty()) return;
    std::vector<WriteOp> ops;
    for (const std::string& id : ids) ops.push_back(DeleteSeek{id});
    // Gone from the lobby once gone from storage (a reader must not find it
    // after the lobby said it left); one accepted meanwhile stays accepted.
    hub_.storage().write(std::move(ops), [this, ids](bool ok, std::string err) {
        if (!ok) return hub_.log("expired seeks not deleted: " + err);
        for (const std::string& id : ids)
            if (const SeekRecord* s = find(id); s && s->game.empty()) remove(id);
    });
}

std::string SeekBook::my_seeks_text(const std::string& token) const {
    out::MySeeks m;
    for (const auto& [id, e] : seeks_)
        if (e.seek.token == token && e.seek.game.empty() && e.announced) m.seeks.push_back(id);
    return out::to_text(m);
}

void SeekBook::tell_owner(const std::string& token) {
    if (token.empty()) return;
    std::vector<PeerPtr> peers = hub_.peers_of(token);
    if (peers.empty()) return;
    auto text = std::make_shared<const std::string>(my_seeks_text(token));
    for (const PeerPtr& p : peers) p->send(text);
}

}  // namespace echecs::server

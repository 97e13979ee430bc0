#include "server/play/analysis_stream.h"

// clang-format off
#include <chrono>
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio/post.hpp>
// clang-format on
#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/notation.h"
#include "server/api/input.h"
#include "server/play/hub.h"
#include "server/protocol/server_messages.h"

namespace echecs::server {

using nlohmann::json;

AnalysisStreams::AnalysisStreams(Hub& hub, StreamLimits limits) : hub_(hub), limits_(limits) {}

std::string AnalysisStreams::update_text(const Stream& s, const engine::AnalysisUpdate& u) {
    // Scores from White's side (the evaluation bar's), the lines in SAN too.
    const int sign = s.turn == WHITE ? 1 : -1;
    out::Analysis m{u.depth, u.nodes, u.nps, u.time_ms, u.final, {}, s.id_json};
    for (const engine::AnalysisLine& l : u.lines) {
        out::AnalysisLine line;
        try {
            Game g(s.variant, s.fen_now);
            for (const std::string& mv_text : l.pv) {
                const Move mv = parse_uci(g.position(), mv_text);
                line.san.push_back(to_san(g.position(), mv));
                if (!g.play(mv)) break;
            }
        } catch (const std::exception&) {
            // a line the core does not read (never expected): the moves it read so far
        }
        line.multipv = l.multipv;
        if (l.score_cp) line.cp = sign * *l.score_cp;
        if (l.mate) line.mate = sign * *l.mate;
        line.win = sign > 0 ? l.win : l.loss;
        line.draw = l.draw;
        line.loss = sign > 0 ? l.loss : l.win;
        line.depth = l.depth;
        line.moves = l.pv;
        m.lines.push_back(std::move(line));
    }
    return out::to_text(m);
}

void AnalysisStreams::start(const PeerPtr& p, const msg::Analyse& a, const std::string& id_json) {
    // The same checks as the analysis board's HTTP routes, the same errors.
    json body = {{"variant", a.variant}, {"fen", a.fen}, {"moves", a.moves}};
    Analysis an = replay_analysis(body);
    const Variant v = an.game->variant();
    if (hub_.plays_position(p->token, v, an.game->position().key()))
        throw ApiError(Reason::live_game_analysis, "no engine analysis of the position of a live game you play in");
    if (auto it = streams_.find(p->id()); it != streams_.end()) halt(it->second);  // replaced
    if (an.game->result().over()) {
        Stream s;
        s.id_json = id_json;
        engine::AnalysisUpdate none;
        none.final = true;
        return p->send(update_text(s, none));
    }
    if (per_client_[p->ip()] >= limits_.per_client) {
        if (per_client_[p->ip()] == 0) per_client_.erase(p->ip());
        throw ApiError(Reason::analysis_streams,
                       "this address already has " + std::to_string(limits_.per_client) + " analyses running", "",
                       {{"max", limits_.per_client}});
    }
    if (streams_.size() >= limits_.total)  // each holds a table of hash_mb: the memory is bounded
        throw ApiError(Reason::engine_busy,
                       "the server runs " + std::to_string(limits_.total) + " analyses already; try again later", "",
                       {{"max", limits_.total}});
    auto s = std::make_shared<Stream>();
    s->peer_id = p->id();
    s->peer = p;
    s->client = p->ip();
    s->id_json = id_json;
    s->variant = v;
    s->fen_now = an.game->position().fen();
    s->turn = an.game->position().side_to_move();
    s->req.variant = v;
    s->req.fen = an.fen;
    s->req.moves = an.uci;
    s->req.multipv = a.multipv;
    s->req.depth = limits_.max_depth;
    s->req.max_ms = limits_.max_ms;
    s->req.hash_mb = limits_.hash_mb;
    s->table = engine::make_analysis_table(limits_.hash_mb);
    streams_[p->id()] = s;
    ++per_client_[s->client];
    submit(s);
}

void AnalysisStreams::submit(const std::shared_ptr<Stream>& s) {
    auto self = shared_from_this();
    auto job = [self, s](const std::atomic<bool>& stop) {
        {
            std::lock_guard lock(s->mutex);
            if (s->halted) return;
            // The pool's own flag, so that analyse_stop ends the search as
            // promptly as a live game's preemption does.
            s->engine_stop = const_cast<std::atomic<bool>*>(&stop);
        }
        auto post = [&](engine::AnalysisUpdate u, bool final) {
            u.final = final;
            auto text = std::make_shared<const std::string>(update_text(*s, u));
            boost::asio::post(self->hub_.ioc(), [s, text] {
                std::lock_guard lock(s->mutex);
                if (s->halted) return;  // a message of a replaced or stopped stream is dropped
                if (PeerPtr p = s->peer.lock()) p->send(text);
            });
        };
        auto on_iteration = [&](const engine::AnalysisUpdate& u) {
            if (u.depth <= s->deepest.depth) return;  // a resumed slice passes the depths sent already
            s->deepest = u;
            post(u, false);
        };
        const StreamLimits& lim = self->limits_;
        bool finished = false;
        while (!stop) {
            engine::AnalysisRequest req = s->req;
            req.table = s->table;
            req.max_ms = std::max<std::int64_t>(1, std::min(lim.slice_ms, lim.max_ms - s->searched_ms));
            const auto t0 = std::chrono::steady_clock::now();
            engine::AnalysisUpdate u;
            try {
                u = engine::analyse(req, &stop, on_iteration);
            } catch (const std::exception& e) {
                self->hub_.log(std::string("analysis stream: ") + e.what());
                finished = true;
                break;
            }
            const std::int64_t spent =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
            s->searched_ms += spent;
            if (stop) break;
            // Done: the depth cap, the time cap, or a search that ended by itself.
            if (u.depth >= req.depth || s->searched_ms >= lim.max_ms || spent < req.max_ms / 2) {
                finished = true;
                break;
            }
            if (self->hub_.work().queued() > 0) break;  // others wait: back to the end of the queue
        }
        bool halted;
        {
            std::lock_guard lock(s->mutex);
            s->engine_stop = nullptr;
            halted = s->halted;
        }
        if (finished && !halted) post(s->deepest, true);
        const bool again = !halted && !finished;  // taken back by a live game, or yielded
        boost::asio::post(self->hub_.ioc(), [self, s, again] { self->ended(s, again); });
    };
    switch (hub_.work().submit_analysis("stream " + s->client, std::move(job), s.get())) {
        case work::Scheduler::Refusal::None: return;
        default: {
            forget(s);
            if (PeerPtr p = s->peer.lock())
                p->send(ws_error_text(ApiError(Reason::engine_busy, "the engine is busy; try again"), "", s->id_json));
        }
    }
}

void AnalysisStreams::ended(const std::shared_ptr<Stream>& s, bool again) {
    auto it = streams_.find(s->peer_id);
    if (it == streams_.end() || it->second != s) return;  // replaced or stopped meanwhile
    if (again && !s->peer.expired()) return submit(s);
    forget(s);
}

void AnalysisStreams::halt(const std::shared_ptr<Stream>& s) {
    {
        std::lock_guard lock(s->mutex);
        s->halted = true;
        if (s->engine_stop)
            *s->engine_stop = true;
        else
            s->table.reset();  // not searching: its memory goes now, not when its queued job comes up
    }
    // Its place in the scheduler is given back now, not when the stopped
    // search returns: a stream started at once after is not refused for it.
    hub_.work().cancel(s.get());
    forget(s);
}

void AnalysisStreams::forget(const std::shared_ptr<Stream>& stream) {
    // `stream` may be the map's own pointer (stop() passes it): keep the
    // stream alive past its erasure.
    const std::shared_ptr<Stream> s = stream;
    auto it = streams_.find(s->peer_id);
    if (it == streams_.end() || it->second != s) return;
    streams_.erase(it);
    if (auto c = per_client_.find(s->client); c != per_client_.end() && --c->second == 0) per_client_.erase(c);
}

void AnalysisStreams::stop(const Peer& p) {
    if (auto it = streams_.find(p.id()); it != streams_.end()) halt(std::shared_ptr<Stream>(it->second));
}

}  // namespace echecs::server

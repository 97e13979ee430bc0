#include "server/server.h"

// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
// clang-format on
#include <boost/beast.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>

#include "core/notation.h"
#include "engine/engine.h"
#include "server/live_game.h"
#include "server/storage_common.h"
#include "server/util.h"
#include "server/workers.h"

namespace echecs::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t MAX_HTTP_BODY = 16 * 1024;
constexpr std::size_t MAX_WS_FRAME = 1024 * 1024;  // above this Beast closes the socket (1009)
constexpr std::size_t MAX_WRITE_QUEUE = 4096;      // a client that reads nothing is dropped
constexpr std::size_t MAX_WAITING_ACTIONS = 64;    // per game, while a write is in flight
constexpr int MAX_VIOLATIONS = 200;                // rate-limit errors before closing
constexpr std::int64_t EVICT_AFTER_MS = 10 * 60 * 1000;

struct BadRequest : std::runtime_error {
    std::string code;
    int index = -1;  // analysis: the index of the bad move
    BadRequest(std::string c, const std::string& m, int i = -1) : std::runtime_error(m), code(std::move(c)), index(i) {}
};

std::string field_string(const json& j, const char* name, bool required = true) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) {
        if (required) throw BadRequest("bad_message", std::string("missing field '") + name + "'");
        return "";
    }
    if (!it->is_string()) throw BadRequest("bad_message", std::string("field '") + name + "' must be a string");
    return it->get<std::string>();
}

std::string clean_nickname(const json& j, const char* name) {
    std::string n = field_string(j, name, false);
    while (!n.empty() && (n.back() == ' ' || n.back() == '\t')) n.pop_back();
    while (!n.empty() && (n.front() == ' ' || n.front() == '\t')) n.erase(0, 1);
    if (n.empty()) return "Anonymous";
    // Characters, not bytes: count UTF-8 lead bytes.
    std::size_t chars = 0;
    for (unsigned char c : n) {
        if (c < 0x20 || c == 0x7f) throw BadRequest("bad_request", "nickname contains control characters");
        if ((c & 0xC0) != 0x80) ++chars;
    }
    if (chars > 20) throw BadRequest("bad_request", "nickname longer than 20 characters");
    return n;
}

double number_field(const json& j, const char* name, double lo, double hi, const char* where) {
    auto it = j.find(name);
    if (it == j.end() || !it->is_number())
        throw BadRequest("bad_request", std::string(where) + name + " must be a number");
    double v = it->get<double>();
    if (!(v >= lo && v <= hi))
        throw BadRequest("bad_request", std::string(where) + name + " must be between " + std::to_string(int(lo)) +
                                            " and " + std::to_string(int(hi)));
    return v;
}

TimeControl parse_time(const json& body, bool default_unlimited) {
    auto it = body.find("time");
    if (it == body.end() || it->is_null()) {
        if (default_unlimited) return {};
        throw BadRequest("bad_request", "missing field 'time'");
    }
    if (!it->is_object()) throw BadRequest("bad_request", "time must be an object");
    std::string kind = field_string(*it, "kind");
    TimeControl tc;
    if (kind == "realtime") {
        tc.kind = TimeControl::Realtime;
        tc.initial_ms = std::int64_t(number_field(*it, "minutes", 0, 180, "time.") * 60000 + 0.5);
        tc.increment_ms = std::int64_t(number_field(*it, "increment", 0, 180, "time.") * 1000 + 0.5);
        if (tc.initial_ms == 0 && tc.increment_ms == 0)
            throw BadRequest("bad_request", "time.minutes and time.increment cannot both be 0");
        if (tc.initial_ms == 0) tc.initial_ms = tc.increment_ms;  // 0+n: the first move gets n seconds
    } else if (kind == "correspondence") {
        tc.kind = TimeControl::Correspondence;
        double d = number_field(*it, "days", 1, 14, "time.");
        if (d != int(d)) throw BadRequest("bad_request", "time.days must be a whole number");
        tc.days = int(d);
    } else if (kind == "unlimited") {
        tc.kind = TimeControl::Unlimited;
    } else {
        throw BadRequest("bad_request", "time.kind must be realtime, correspondence or unlimited");
    }
    return tc;
}

Variant parse_variant(const json& body) {
    std::string v = field_string(body, "variant", false);
    if (v.empty()) return Variant::Chess;
    try {
        return variant_from(v);
    } catch (const StorageError&) {
        throw BadRequest("bad_request", "variant must be chess, alice or avalanche");
    }
}

std::string parse_color(const json& body) {
    std::string c = field_string(body, "color", false);
    if (c.empty()) return "random";
    if (c != "white" && c != "black" && c != "random")
        throw BadRequest("bad_request", "color must be white, black or random");
    return c;
}

// Analysis board: a position from `fen` (default: the start) and `moves`.
struct Analysis {
    std::unique_ptr<Game> game;
    std::string fen;
    std::vector<std::string> uci, san;
};

Analysis replay_analysis(const json& b) {
    Analysis a;
    Variant v = parse_variant(b);
    a.fen = field_string(b, "fen", false);
    if (a.fen.empty()) a.fen = std::string(Position::START_FEN);
    if (a.fen.size() > 200) throw BadRequest("bad_request", "fen: longer than 200 characters");
    try {
        a.game = std::make_unique<Game>(v, a.fen);
    } catch (const std::exception& e) {
        throw BadRequest("bad_request", std::string("fen: ") + e.what());
    }
    auto it = b.find("moves");
    if (it == b.end() || it->is_null()) return a;
    if (!it->is_array()) throw BadRequest("bad_request", "moves must be an array of strings");
    if (it->size() > 1000) throw BadRequest("bad_request", "at most 1000 moves");
    for (std::size_t i = 0; i < it->size(); ++i) {
        const json& m = (*it)[i];
        if (!m.is_string())
            throw BadRequest("bad_request", "moves[" + std::to_string(i) + "] must be a string", int(i));
        if (a.game->result().over())
            throw BadRequest("bad_request", "moves[" + std::to_string(i) + "]: the game is already over", int(i));
        Position& pos = a.game->position();
        Move mv;
        try {
            mv = parse_uci(pos, m.get<std::string>());
        } catch (const std::exception& e) {
            throw BadRequest("bad_request", "moves[" + std::to_string(i) + "]: " + e.what(), int(i));
        }
        a.san.push_back(to_san(pos, mv));
        a.uci.push_back(to_uci(mv));
        a.game->play(mv);
    }
    return a;
}

std::string content_type(const std::filesystem::path& p) {
    static const std::pair<const char*, const char*> TYPES[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".ico", "image/x-icon"},
        {".woff", "font/woff"},
        {".woff2", "font/woff2"},
        {".ttf", "font/ttf"},
        {".map", "application/json"},
        {".txt", "text/plain; charset=utf-8"},
        {".wasm", "application/wasm"},
        {".webmanifest", "application/manifest+json"},
    };
    std::string ext = p.extension().string();
    for (auto& [e, t] : TYPES)
        if (ext == e) return t;
    return "application/octet-stream";
}

using Response = http::response<http::string_body>;
using Request = http::request<http::string_body>;

Response make_response(const Request& req, http::status status, std::string body, std::string type) {
    Response res{status, req.version()};
    res.set(http::field::server, "echecs");
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-store");
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
}

Response json_response(const Request& req, http::status status, const json& j) {
    return make_response(req, status, j.dump(), "application/json");
}

Response error_response(const Request& req, http::status status, const std::string& code, const std::string& msg) {
    return json_response(req, status, {{"error", {{"code", code}, {"message", msg}}}});
}

http::status status_for(const std::string& code) {
    if (code == "not_found") return http::status::not_found;
    if (code == "forbidden" || code == "not_your_seat") return http::status::forbidden;
    if (code == "conflict" || code == "game_over" || code == "not_allowed") return http::status::conflict;
    if (code == "too_large") return http::status::payload_too_large;
    if (code == "unavailable") return http::status::service_unavailable;
    if (code == "internal") return http::status::internal_server_error;
    return http::status::bad_request;
}

}  // namespace

class WsSession;
using Send = std::function<void(Response)>;

struct GameEntry {
    GameEntry(asio::io_context& ioc, std::unique_ptr<LiveGame> g) : game(std::move(g)), timer(ioc), retry(ioc) {}
    std::unique_ptr<LiveGame> game;
    asio::steady_timer timer;
    asio::steady_timer retry;  // engine queue full: try again
    bool busy = false;         // a write is in flight: actions wait
    std::deque<std::function<void()>> waiting;
    std::unordered_map<std::uint64_t, std::weak_ptr<WsSession>> watchers;
    std::shared_ptr<std::atomic<bool>> engine_cancel = std::make_shared<std::atomic<bool>>(false);
    bool engine_pending = false;
};

struct Server::Impl {
    explicit Impl(ServerOptions o);

    ServerOptions opt;
    asio::io_context ioc{1};
    tcp::acceptor acceptor{ioc};
    asio::steady_timer lobby_timer{ioc};
    asio::steady_timer sweep_timer{ioc};
    std::unique_ptr<StorageWorker> storage;
    std::unique_ptr<EnginePool> engines;

    std::unordered_map<std::string, std::unique_ptr<GameEntry>> games;
    std::unordered_map<std::string, std::vector<std::function<void(GameEntry*)>>> loading;
    std::unordered_map<std::string, SeekRecord> seeks;
    std::unordered_map<std::uint64_t, std::weak_ptr<WsSession>> sessions;
    std::unordered_map<std::string, std::set<std::uint64_t>> sessions_by_token;
    std::set<std::uint64_t> lobby_subscribers;
    bool lobby_dirty = false;
    bool lobby_timer_armed = false;
    std::uint64_t next_session_id = 1;
    std::mt19937 rng{std::random_device{}()};

    void log(const std::string& s) {
        if (opt.log) std::cerr << "echecs serve: " << s << "\n";
    }

    // Networking.
    void accept();
    void handle_http(Request req, Send send);
    void handle_api(const Request& req, const std::string& path, const std::string& query, Send send);
    void serve_static(const Request& req, const std::string& path, Send send);

    // Games.
    void with_game(const std::string& id, std::function<void(GameEntry*)> fn);
    GameEntry* find(const std::string& id) {
        auto it = games.find(id);
        return it == games.end() ? nullptr : it->second.get();
    }
    GameEntry& add_game(std::unique_ptr<LiveGame> g);
    void commit(const std::vector<std::string>& ids, std::vector<WriteOp> ops, std::function<void()> then);
    void after_change(GameEntry& e);
    std::vector<WriteOp> move_ops(LiveGame& g);  // a move: the move, then the game's progress or its end
    void drain(const std::string& id);
    void broadcast(GameEntry& e);
    std::string state_text(GameEntry& e, std::optional<Color> you);
    std::optional<Color> seat_for(const LiveGame& g, const std::string& token);
    void schedule_timer(GameEntry& e);
    void maybe_engine(GameEntry& e);
    void on_engine_move(const std::string& id, int ply, std::string uci);
    std::string create_rematch(GameEntry& old);
    std::string new_game_id();

    // Lobby and sessions.
    json lobby_json(const std::string& token);
    void mark_lobby_dirty();
    void send_lobby();
    void sweep();

    void on_ws_message(WsSession& s, const std::string& text);
    void on_ws_close(WsSession& s);
    void ws_error(WsSession& s, const std::string& code, const std::string& msg, const json& request);
    void ws_action(WsSession& s, const std::string& type, const json& msg);

    void load_from_storage();
};

// ---------------------------------------------------------------------------
// WebSocket session

class WsSession : public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket&& socket, Server::Impl& srv, std::uint64_t id)
        : ws_(std::move(socket)), srv_(srv), id_(id), tokens_(srv.opt.rate_burst), last_(Clock::now()) {}

    void run(Request req) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.set_option(websocket::stream_base::decorator(
            [](websocket::response_type& res) { res.set(http::field::server, "echecs"); }));
        ws_.read_message_max(MAX_WS_FRAME);
        ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return;
            self->srv_.sessions[self->id_] = self;
            self->read();
        });
    }

    void send(std::shared_ptr<const std::string> msg) {
        if (closed_) return;
        if (queue_.size() >= MAX_WRITE_QUEUE) {
            close(websocket::close_code::policy_error, "not reading");
            return;
        }
        queue_.push_back(std::move(msg));
        if (queue_.size() == 1) write_next();
    }
    void send(const json& j) { send(std::make_shared<const std::string>(j.dump())); }

    void close(websocket::close_code code, const char* reason) {
        if (closed_) return;
        closed_ = true;
        queue_.clear();
        srv_.on_ws_close(*this);
        ws_.async_close(websocket::close_reason(code, reason), [self = shared_from_this()](beast::error_code) {});
    }

    // Token bucket; false when over the limit.
    bool take_token() {
        auto now = Clock::now();
        double dt = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        tokens_ = std::min(srv_.opt.rate_burst, tokens_ + dt * srv_.opt.rate_per_second);
        if (tokens_ < 1) {
            ++violations_;
            return false;
        }
        tokens_ -= 1;
        return true;
    }

    std::uint64_t id() const { return id_; }
    std::string token;
    std::set<std::string> watching;
    int violations_ = 0;

private:
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) {
                if (ec == websocket::error::message_too_big) {
                    // Beast has failed the connection with close code 1009.
                }
                if (!self->closed_) {
                    self->closed_ = true;
                    self->srv_.on_ws_close(*self);
                }
                return;
            }
            if (!self->ws_.got_text()) {
                self->buffer_.consume(self->buffer_.size());
                self->srv_.ws_error(*self, "bad_message", "binary messages are not accepted", json());
            } else {
                std::string text = beast::buffers_to_string(self->buffer_.data());
                self->buffer_.consume(self->buffer_.size());
                self->srv_.on_ws_message(*self, text);
            }
            // A large message must not keep its buffer: thousands of sockets.
            if (self->buffer_.capacity() > 64 * 1024) self->buffer_.shrink_to_fit();
            if (!self->closed_) self->read();
        });
    }

    void write_next() {
        ws_.text(true);
        ws_.async_write(asio::buffer(*queue_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) {
                if (!self->closed_) {
                    self->closed_ = true;
                    self->queue_.clear();
                    self->srv_.on_ws_close(*self);
                }
                return;
            }
            if (self->queue_.empty()) return;
            self->queue_.pop_front();
            if (!self->queue_.empty()) self->write_next();
        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    Server::Impl& srv_;
    std::uint64_t id_;
    beast::flat_buffer buffer_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    bool closed_ = false;
    double tokens_;
    Clock::time_point last_;
};

// ---------------------------------------------------------------------------
// HTTP session

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, Server::Impl& srv) : stream_(std::move(socket)), srv_(srv) {}

    void run() {
        asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
    }

private:
    void read() {
        parser_.emplace();
        parser_->body_limit(MAX_HTTP_BODY);
        parser_->header_limit(16 * 1024);
        stream_.expires_after(std::chrono::seconds(60));
        http::async_read(stream_, buffer_, *parser_,
                         [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
    }

    void on_read(beast::error_code ec) {
        if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::connection_reset) {
            beast::error_code ignored;
            stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
            return;
        }
        if (ec == http::error::body_limit) {
            Request req = parser_->release();
            req.keep_alive(false);
            write(error_response(req, http::status::payload_too_large, "too_large", "request body over 16 KiB"));
            return;
        }
        if (ec) {
            Request req;
            req.version(11);
            req.keep_alive(false);
            write(error_response(req, http::status::bad_request, "bad_request", "malformed HTTP request"));
            return;
        }
        Request req = parser_->release();
        if (websocket::is_upgrade(req)) {
            if (req.target() == "/ws") {
                stream_.expires_never();
                auto ws = std::make_shared<WsSession>(stream_.release_socket(), srv_, srv_.next_session_id++);
                ws->run(std::move(req));
                return;
            }
            req.keep_alive(false);
            write(error_response(req, http::status::not_found, "not_found", "WebSocket endpoint is /ws"));
            return;
        }
        // The completion keeps the session alive while a storage job runs.
        srv_.handle_http(std::move(req), [self = shared_from_this()](Response res) { self->write(std::move(res)); });
    }

    void write(Response res) {
        auto sp = std::make_shared<Response>(std::move(res));
        bool close = !sp->keep_alive();
        http::async_write(stream_, *sp, [self = shared_from_this(), sp, close](beast::error_code ec, std::size_t) {
            if (ec) return;
            if (close) {
                beast::error_code ignored;
                self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                return;
            }
            self->read();
        });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    Server::Impl& srv_;
};

// ---------------------------------------------------------------------------
// Server

Server::Impl::Impl(ServerOptions o) : opt(std::move(o)) {
    auto db = open_storage(opt.db, opt.durable);
    Storage& s = *db;
    // Restart: games resume where they were; the downtime is not charged.
    std::int64_t down_since = s.last_heartbeat();
    std::int64_t now = now_ms();
    for (GameRecord& rec : s.list_games({"live", 1'000'000, 0}, true)) {
        std::string id = rec.id;
        try {
            auto g = std::make_unique<LiveGame>(std::move(rec), opt.first_move_ms);
            g->resume(down_since, now);
            add_game(std::move(g));
        } catch (const std::exception& e) {
            log(std::string("cannot resume a game: ") + e.what());
        }
    }
    for (SeekRecord& sk : s.open_seeks()) seeks[sk.id] = std::move(sk);
    // Store the resumed clocks (the game rows only).
    for (auto& [id, e] : games) s.apply({SaveGame{e->game->meta()}});

    storage = std::make_unique<StorageWorker>(
        std::move(db), [this](std::function<void()> f) { asio::post(ioc, std::move(f)); }, opt.heartbeat_ms);
    engines = std::make_unique<EnginePool>(opt.engine_threads, opt.engine_queue);

    tcp::endpoint ep(asio::ip::make_address(opt.host), opt.port);
    acceptor.open(ep.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen(asio::socket_base::max_listen_connections);

    for (auto& [id, e] : games) {
        schedule_timer(*e);
        maybe_engine(*e);
    }
}

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Server::~Server() {
    // Engines first (their completions post into the I/O context), then storage
    // (finishes queued writes).
    impl_->engines.reset();
    impl_->storage.reset();
}

std::uint16_t Server::port() const { return impl_->acceptor.local_endpoint().port(); }

void Server::stop() {
    asio::post(impl_->ioc, [impl = impl_.get()] {
        beast::error_code ec;
        impl->acceptor.close(ec);
        impl->ioc.stop();
    });
}

void Server::run(bool handle_signals) {
    Impl& s = *impl_;
    asio::signal_set signals(s.ioc);
    if (handle_signals) {
        signals.add(SIGINT);
        signals.add(SIGTERM);
        signals.async_wait([this](beast::error_code ec, int) {
            if (!ec) stop();
        });
    }
    s.accept();
    s.sweep();
    s.ioc.run();
}

void Server::Impl::accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
        if (!ec) {
            socket.set_option(tcp::no_delay(true), ec);
            std::make_shared<HttpSession>(std::move(socket), *this)->run();
        }
        accept();
    });
}

void Server::Impl::sweep() {
    std::int64_t now = now_ms();
    for (auto it = games.begin(); it != games.end();) {
        GameEntry& e = *it->second;
        bool idle = !e.game->live() && !e.busy && e.waiting.empty() && !e.engine_pending &&
                    now - e.game->record().ended_at > EVICT_AFTER_MS;
        if (idle) {
            for (auto w = e.watchers.begin(); w != e.watchers.end();)
                w = w->second.expired() ? e.watchers.erase(w) : std::next(w);
        }
        if (idle && e.watchers.empty())
            it = games.erase(it);
        else
            ++it;
    }
    sweep_timer.expires_after(std::chrono::seconds(60));
    sweep_timer.async_wait([this](beast::error_code ec) {
        if (!ec) sweep();
    });
}

std::string Server::Impl::new_game_id() {
    std::string id;
    do id = random_id(8);
    while (games.count(id) || loading.count(id));
    return id;
}

GameEntry& Server::Impl::add_game(std::unique_ptr<LiveGame> g) {
    std::string id = g->id();
    auto e = std::make_unique<GameEntry>(ioc, std::move(g));
    GameEntry& ref = *e;
    games[id] = std::move(e);
    return ref;
}

void Server::Impl::with_game(const std::string& id, std::function<void(GameEntry*)> fn) {
    if (GameEntry* e = find(id)) {
        if (e->busy) {
            if (e->waiting.size() >= MAX_WAITING_ACTIONS) return fn(nullptr);
            e->waiting.push_back([this, id, fn = std::move(fn)]() mutable { with_game(id, std::move(fn)); });
            return;
        }
        return fn(e);
    }
    bool valid =
        id.size() == 8 && std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum((unsigned char)c); });
    if (!valid) return fn(nullptr);
    auto& pending = loading[id];
    pending.push_back(std::move(fn));
    if (pending.size() > 1) return;
    storage->run([this, id](Storage& s) {
        std::optional<GameRecord> rec;
        try {
            rec = s.load_game(id);
        } catch (const std::exception& e) {
            log(std::string("load game: ") + e.what());
        }
        asio::post(ioc, [this, id, rec = std::move(rec)]() mutable {
            auto callbacks = std::move(loading[id]);
            loading.erase(id);
            GameEntry* e = find(id);
            if (!e && rec) {
                try {
                    e = &add_game(std::make_unique<LiveGame>(std::move(*rec), opt.first_move_ms));
                } catch (const std::exception& ex) {
                    log(ex.what());
                }
            }
            for (auto& cb : callbacks) {
                if (e)
                    with_game(id, std::move(cb));
                else
                    cb(nullptr);
            }
        });
    });
}

void Server::Impl::commit(const std::vector<std::string>& ids, std::vector<WriteOp> ops, std::function<void()> then) {
    for (const std::string& id : ids)
        if (GameEntry* e = find(id)) e->busy = true;
    storage->write(std::move(ops), [this, ids, then = std::move(then)](bool ok, std::string err) {
        if (!ok) {
            // Nothing was stored: forget the in-memory state; it is reloaded
            // from the database on next use.
            for (const std::string& id : ids) {
                GameEntry* e = find(id);
                if (!e) continue;
                json error = {
                    {"type", "error"}, {"code", "internal"}, {"message", "storage failed: " + err}, {"game", id}};
                auto text = std::make_shared<const std::string>(error.dump());
                for (auto& [sid, w] : e->watchers)
                    if (auto s = w.lock()) s->send(text);
                auto waiting = std::move(e->waiting);
                e->engine_cancel->store(true);
                games.erase(id);
                for (auto& f : waiting) f();
            }
            return;
        }
        for (const std::string& id : ids)
            if (GameEntry* e = find(id)) {
                e->busy = false;
                after_change(*e);
            }
        if (then) then();
        for (const std::string& id : ids) drain(id);
    });
}

std::vector<WriteOp> Server::Impl::move_ops(LiveGame& g) {
    std::vector<WriteOp> ops;
    ops.reserve(2);
    ops.emplace_back(AddMove{g.id(), g.record().moves.back()});
    if (g.live()) {
        const GameRecord& r = g.record();
        ops.emplace_back(SaveProgress{g.id(), r.ply, r.fen, r.white_ms, r.black_ms, r.clock_at, r.draw_offer});
    } else {
        ops.emplace_back(SaveGame{g.meta()});
    }
    return ops;
}

void Server::Impl::after_change(GameEntry& e) {
    broadcast(e);
    schedule_timer(e);
    maybe_engine(e);
    if (!e.game->live()) e.engine_cancel->store(true);
    mark_lobby_dirty();
}

void Server::Impl::drain(const std::string& id) {
    for (;;) {
        GameEntry* e = find(id);
        if (!e || e->busy || e->waiting.empty()) return;
        auto f = std::move(e->waiting.front());
        e->waiting.pop_front();
        f();
    }
}

std::optional<Color> Server::Impl::seat_for(const LiveGame& g, const std::string& token) {
    std::vector<Color> seats = g.seats_of(token);
    if (seats.empty()) return std::nullopt;
    if (seats.size() == 2) return g.turn();
    return seats[0];
}

std::string Server::Impl::state_text(GameEntry& e, std::optional<Color> you) {
    bool connected[2] = {false, false};
    for (auto& [sid, w] : e.watchers)
        if (auto s = w.lock())
            for (Color c : e.game->seats_of(s->token)) connected[c] = true;
    return e.game->state_text(e.game->state_base(now_ms(), connected[WHITE], connected[BLACK]), you);
}

void Server::Impl::broadcast(GameEntry& e) {
    std::shared_ptr<const std::string> texts[3];
    std::string base;
    for (auto it = e.watchers.begin(); it != e.watchers.end();) {
        auto s = it->second.lock();
        if (!s) {
            it = e.watchers.erase(it);
            continue;
        }
        std::optional<Color> you = seat_for(*e.game, s->token);
        int k = you ? int(*you) : 2;
        if (!texts[k]) {
            if (base.empty()) {
                bool connected[2] = {false, false};
                for (auto& [sid, w] : e.watchers)
                    if (auto ws = w.lock())
                        for (Color c : e.game->seats_of(ws->token)) connected[c] = true;
                base = e.game->state_base(now_ms(), connected[WHITE], connected[BLACK]);
            }
            texts[k] = std::make_shared<const std::string>(e.game->state_text(base, you));
        }
        s->send(texts[k]);
        ++it;
    }
}

void Server::Impl::schedule_timer(GameEntry& e) {
    std::optional<std::int64_t> deadline = e.game->next_deadline();
    if (!deadline) {
        e.timer.cancel();
        return;
    }
    std::int64_t delay = std::max<std::int64_t>(0, *deadline - now_ms()) + 1;
    e.timer.expires_after(std::chrono::milliseconds(delay));
    std::string id = e.game->id();
    e.timer.async_wait([this, id](beast::error_code ec) {
        if (ec) return;
        with_game(id, [this, id](GameEntry* e) {
            if (!e) return;
            std::int64_t now = now_ms();
            if (e->game->check_time(now)) {
                commit({id}, {SaveGame{e->game->meta()}}, nullptr);
            } else {
                schedule_timer(*e);
            }
        });
    });
}

void Server::Impl::maybe_engine(GameEntry& e) {
    LiveGame& g = *e.game;
    if (!g.live() || e.engine_pending) return;
    const Seat& seat = g.seat(g.turn());
    if (!seat.computer()) return;
    std::int64_t budget = 150 * seat.level;
    std::int64_t now = now_ms();
    if (g.record().time.kind == TimeControl::Realtime) {
        std::int64_t left = g.remaining(g.turn(), now);
        budget = std::min(budget, left / 30 + g.record().time.increment_ms / 2);
        budget = std::max<std::int64_t>(budget, 10);
    }
    std::vector<std::string> moves;
    for (const MoveRecord& m : g.record().moves) moves.push_back(m.uci);
    std::string id = g.id();
    int ply = g.ply();
    auto cancel = e.engine_cancel;
    Variant v = g.record().variant;
    std::string fen = g.record().initial_fen;
    int level = seat.level;
    bool ok = engines->submit(
        [this, id, ply, cancel, v, fen, moves = std::move(moves), level, budget](const std::atomic<bool>& stopping) {
            std::string move;
            if (!stopping && !*cancel) {
                try {
                    move = engine::choose_move(v, fen, moves, level, budget, cancel.get());
                } catch (const std::exception& ex) {
                    log(std::string("engine: ") + ex.what());
                }
            }
            asio::post(ioc,
                       [this, id, ply, move = std::move(move)]() mutable { on_engine_move(id, ply, std::move(move)); });
        });
    if (ok) {
        e.engine_pending = true;
        return;
    }
    e.retry.expires_after(std::chrono::milliseconds(200));
    e.retry.async_wait([this, id](beast::error_code ec) {
        if (ec) return;
        if (GameEntry* e = find(id)) maybe_engine(*e);
    });
}

void Server::Impl::on_engine_move(const std::string& id, int ply, std::string uci) {
    with_game(id, [this, id, ply, uci = std::move(uci)](GameEntry* e) {
        if (!e) return;
        e->engine_pending = false;
        LiveGame& g = *e->game;
        if (!g.live() || g.ply() != ply || !g.seat(g.turn()).computer()) return;
        const auto& legal = g.legal_moves();
        std::string m = uci;
        if (std::find(legal.begin(), legal.end(), m) == legal.end()) {
            if (legal.empty()) return;
            if (!m.empty()) log("engine returned an illegal move '" + m + "' in game " + id);
            m = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
        }
        std::int64_t now = now_ms();
        if (ActionResult err = g.move(g.turn(), m, ply, now)) {
            if (g.live())
                maybe_engine(*e);
            else
                commit({id}, {SaveGame{g.meta()}}, nullptr);
            return;
        }
        commit({id}, move_ops(g), nullptr);
    });
}

std::string Server::Impl::create_rematch(GameEntry& old) {
    const GameRecord& r = old.game->record();
    std::string id = new_game_id();
    GameRecord rec = LiveGame::new_record(id, r.variant, r.time, r.black, r.white, now_ms());
    rec.initial_fen = r.initial_fen;
    rec.fen = r.initial_fen;
    add_game(std::make_unique<LiveGame>(std::move(rec), opt.first_move_ms));
    old.game->set_rematch_game(id);
    return id;
}

json Server::Impl::lobby_json(const std::string& token) {
    std::vector<const SeekRecord*> open;
    for (auto& [id, s] : seeks)
        if (s.game.empty() && !s.is_private) open.push_back(&s);
    std::sort(open.begin(), open.end(), [](auto* a, auto* b) { return a->created_at > b->created_at; });
    json js = json::array();
    for (std::size_t i = 0; i < open.size() && i < 100; ++i) js.push_back(seek_json(*open[i], open[i]->token == token));
    std::vector<const GameRecord*> live;
    for (auto& [id, e] : games)
        if (e->game->live()) live.push_back(&e->game->record());
    std::sort(live.begin(), live.end(), [](auto* a, auto* b) { return a->created_at > b->created_at; });
    json jg = json::array();
    for (std::size_t i = 0; i < live.size() && i < 100; ++i) jg.push_back(summary_json(*live[i]));
    return {{"seeks", std::move(js)}, {"games", std::move(jg)}};
}

void Server::Impl::mark_lobby_dirty() {
    lobby_dirty = true;
    if (lobby_timer_armed || lobby_subscribers.empty()) return;
    lobby_timer_armed = true;
    lobby_timer.expires_after(std::chrono::milliseconds(500));
    lobby_timer.async_wait([this](beast::error_code ec) {
        lobby_timer_armed = false;
        if (!ec) send_lobby();
    });
}

void Server::Impl::send_lobby() {
    if (!lobby_dirty) return;
    lobby_dirty = false;
    for (auto it = lobby_subscribers.begin(); it != lobby_subscribers.end();) {
        auto s = sessions.count(*it) ? sessions[*it].lock() : nullptr;
        if (!s) {
            it = lobby_subscribers.erase(it);
            continue;
        }
        json j = lobby_json(s->token);
        j["type"] = "lobby";
        s->send(j);
        ++it;
    }
}

// ---------------------------------------------------------------------------
// WebSocket messages

void Server::Impl::ws_error(WsSession& s, const std::string& code, const std::string& msg, const json& request) {
    json e = {{"type", "error"}, {"code", code}, {"message", msg}};
    if (request.is_object()) {
        if (auto it = request.find("game"); it != request.end() && it->is_string()) e["game"] = *it;
        if (auto it = request.find("id"); it != request.end() && (it->is_string() || it->is_number())) e["id"] = *it;
    }
    s.send(e);
}

void Server::Impl::on_ws_close(WsSession& s) {
    std::uint64_t sid = s.id();
    sessions.erase(sid);
    lobby_subscribers.erase(sid);
    if (!s.token.empty()) {
        auto it = sessions_by_token.find(s.token);
        if (it != sessions_by_token.end()) {
            it->second.erase(sid);
            if (it->second.empty()) sessions_by_token.erase(it);
        }
    }
    for (const std::string& gid : s.watching) {
        bool player = false;
        if (GameEntry* e = find(gid)) {
            e->watchers.erase(sid);
            player = !e->game->seats_of(s.token).empty();
        }
        if (player)
            with_game(gid, [this](GameEntry* e) {
                if (e) broadcast(*e);
            });
    }
    s.watching.clear();
}

void Server::Impl::on_ws_message(WsSession& s, const std::string& text) {
    if (!s.take_token()) {
        if (s.violations_ > MAX_VIOLATIONS) {
            s.close(websocket::close_code::policy_error, "flood");
            return;
        }
        if (s.violations_ % 10 == 1) ws_error(s, "rate_limited", "too many messages: slow down", json());
        return;
    }
    if (text.size() > opt.max_message) {
        ws_error(s, "too_large", "message over " + std::to_string(opt.max_message) + " bytes", json());
        return;
    }
    json msg = json::parse(text, nullptr, false);
    if (msg.is_discarded()) return ws_error(s, "bad_json", "the message is not valid JSON", json());
    if (!msg.is_object()) return ws_error(s, "bad_json", "the message must be a JSON object", json());
    std::string type;
    try {
        type = field_string(msg, "type");
        ws_action(s, type, msg);
    } catch (const BadRequest& e) {
        ws_error(s, e.code, e.what(), msg);
    } catch (const std::exception& e) {
        ws_error(s, "internal", e.what(), msg);
    }
}

void Server::Impl::ws_action(WsSession& s, const std::string& type, const json& msg) {
    auto self = std::static_pointer_cast<WsSession>(s.shared_from_this());
    if (type == "hello") {
        std::string token = field_string(msg, "token");
        if (!valid_token(token)) throw BadRequest("bad_message", "token must be 16-64 characters of [A-Za-z0-9_-]");
        if (!s.token.empty()) sessions_by_token[s.token].erase(s.id());
        s.token = token;
        sessions_by_token[token].insert(s.id());
        for (const std::string& gid : s.watching)
            with_game(gid, [this](GameEntry* e) {
                if (e) broadcast(*e);
            });
        return;
    }
    if (type == "ping") {
        json j = {{"type", "pong"}, {"t", msg.contains("t") ? msg["t"] : json(nullptr)}, {"server_time", now_ms()}};
        s.send(j);
        return;
    }
    if (type == "lobby_subscribe") {
        lobby_subscribers.insert(s.id());
        json j = lobby_json(s.token);
        j["type"] = "lobby";
        s.send(j);
        return;
    }
    if (type == "lobby_unsubscribe") {
        lobby_subscribers.erase(s.id());
        return;
    }
    static const std::set<std::string> GAME_TYPES = {"join",          "leave",          "move",           "draw_offer",
                                                     "draw_accept",   "draw_decline",   "resign",         "abort",
                                                     "rematch_offer", "rematch_accept", "rematch_decline"};
    if (!GAME_TYPES.count(type)) throw BadRequest("unknown_type", "unknown message type '" + type + "'");
    std::string gid = field_string(msg, "game");
    if (type == "leave") {
        s.watching.erase(gid);
        if (GameEntry* e = find(gid)) e->watchers.erase(s.id());
        return;
    }
    std::string uci;
    std::optional<int> ply;
    if (type == "move") {
        uci = field_string(msg, "move");
        if (uci.size() > 32) throw BadRequest("illegal_move", "illegal move: too long");
        if (auto it = msg.find("ply"); it != msg.end() && !it->is_null()) {
            if (!it->is_number_integer()) throw BadRequest("bad_message", "field 'ply' must be an integer");
            ply = it->get<int>();
        }
    }
    std::weak_ptr<WsSession> weak = self;
    with_game(gid, [this, weak, type, gid, uci, ply, msg](GameEntry* e) {
        auto s = weak.lock();
        if (!s) return;
        if (!e) return ws_error(*s, "not_found", "no game " + gid, msg);
        LiveGame& g = *e->game;
        if (type == "join") {
            bool first = e->watchers.emplace(s->id(), s).second;
            s->watching.insert(gid);
            std::optional<Color> you = seat_for(g, s->token);
            if (first && you)
                broadcast(*e);
            else
                s->send(std::make_shared<const std::string>(state_text(*e, you)));
            return;
        }
        std::optional<Color> seat = seat_for(g, s->token);
        if (!seat) return ws_error(*s, "not_your_seat", "this token holds no seat in game " + gid, msg);
        std::int64_t now = now_ms();
        ActionResult err;
        std::vector<WriteOp> ops;
        std::vector<std::string> ids = {gid};
        bool was_live = g.live();
        if (type == "move") {
            err = g.move(*seat, uci, ply, now);
            if (!err) {
                commit(ids, move_ops(g), nullptr);
                return;
            }
        } else if (type == "draw_offer")
            err = g.draw_offer(*seat, now);
        else if (type == "draw_accept")
            err = g.draw_accept(*seat, now);
        else if (type == "draw_decline")
            err = g.draw_decline(*seat);
        else if (type == "resign")
            err = g.resign(*seat, now);
        else if (type == "abort")
            err = g.abort(*seat, now);
        else if (type == "rematch_offer" || type == "rematch_accept") {
            bool agreed = type == "rematch_accept";
            err = type == "rematch_offer" ? g.rematch_offer(*seat, agreed) : g.rematch_accept(*seat);
            if (!err && agreed) {
                std::string nid = create_rematch(*e);
                ops.push_back(SaveGame{find(nid)->game->meta()});
                ids.push_back(nid);
            }
        } else if (type == "rematch_decline")
            err = g.rematch_decline(*seat);
        if (err) {
            // The action came after a flag fell: store the end of the game.
            if (was_live && !g.live()) commit({gid}, {SaveGame{g.meta()}}, nullptr);
            return ws_error(*s, err->code, err->message, msg);
        }
        ops.push_back(SaveGame{g.meta()});
        commit(ids, std::move(ops), nullptr);
    });
}

// ---------------------------------------------------------------------------
// HTTP

void Server::Impl::handle_http(Request req, Send send) {
    std::string target(req.target());
    std::string path = target.substr(0, target.find('?'));
    std::string query = target.size() > path.size() ? target.substr(path.size() + 1) : "";
    try {
        if (path.starts_with("/api/")) return handle_api(req, path, query, send);
        if (path.starts_with("/game/") && path.ends_with(".pgn") && req.method() == http::verb::get) {
            std::string id = path.substr(6, path.size() - 10);
            auto r = std::make_shared<Request>(std::move(req));
            return with_game(id, [r, send](GameEntry* e) {
                if (!e) return send(error_response(*r, http::status::not_found, "not_found", "no such game"));
                Response res = make_response(*r, http::status::ok, e->game->pgn(), "text/plain; charset=utf-8");
                res.set(http::field::content_disposition, "attachment; filename=\"" + e->game->id() + ".pgn\"");
                send(std::move(res));
            });
        }
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return send(error_response(req, http::status::method_not_allowed, "bad_request", "method not allowed"));
        serve_static(req, path, send);
    } catch (const BadRequest& e) {
        json j = {{"error", {{"code", e.code}, {"message", e.what()}}}};
        if (e.index >= 0) j["error"]["index"] = e.index;
        send(json_response(req, status_for(e.code), j));
    } catch (const std::exception& e) {
        send(error_response(req, http::status::internal_server_error, "internal", e.what()));
    }
}

void Server::Impl::serve_static(const Request& req, const std::string& path, Send send) {
    namespace fs = std::filesystem;
    if (path.find("..") != std::string::npos || path.find('\\') != std::string::npos ||
        path.find('\0') != std::string::npos || path.find("//") != std::string::npos || path.empty() ||
        path[0] != '/' || path.find('%') != std::string::npos)
        return send(error_response(req, http::status::bad_request, "bad_request", "bad path"));
    fs::path root(opt.web_root);
    fs::path file = root / path.substr(1);
    std::error_code ec;
    if (path == "/" || !fs::is_regular_file(file, ec)) {
        // SPA routes get index.html; a missing asset (with an extension) is a 404.
        bool asset = fs::path(path).has_extension() && !path.starts_with("/game/") && !path.starts_with("/challenge/");
        if (asset && path != "/")
            return send(error_response(req, http::status::not_found, "not_found", "no such file"));
        file = root / "index.html";
        if (!fs::is_regular_file(file, ec))
            return send(make_response(req, http::status::not_found,
                                      "<!doctype html><title>echecs</title><p>The web client is not built (no " +
                                          file.string() + "). Build it, or pass --web-root.</p>",
                                      "text/html; charset=utf-8"));
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    Response res = make_response(req, http::status::ok, body.str(), content_type(file));
    if (file.filename() != "index.html") res.set(http::field::cache_control, "public, max-age=300");
    if (req.method() == http::verb::head) {
        res.body().clear();
        res.content_length(body.str().size());
    }
    send(std::move(res));
}

void Server::Impl::handle_api(const Request& req, const std::string& path, const std::string& query, Send send) {
    auto method = req.method();
    std::string token;
    if (auto it = req.find("X-Echecs-Token"); it != req.end()) token = std::string(it->value());
    auto need_token = [&] {
        if (!valid_token(token))
            throw BadRequest("forbidden", "header X-Echecs-Token (16-64 characters of [A-Za-z0-9_-]) required");
    };
    auto body = [&]() -> json {
        if (req.body().empty()) return json::object();
        json j = json::parse(req.body(), nullptr, false);
        if (j.is_discarded()) throw BadRequest("bad_json", "the body is not valid JSON");
        if (!j.is_object()) throw BadRequest("bad_json", "the body must be a JSON object");
        return j;
    };
    auto reply_error = [&](const std::string& code, const std::string& msg) {
        send(error_response(req, status_for(code), code, msg));
    };
    std::vector<std::string> parts;
    for (std::size_t i = 1; i <= path.size();) {
        std::size_t j = path.find('/', i);
        if (j == std::string::npos) j = path.size();
        parts.push_back(path.substr(i, j - i));
        i = j + 1;
    }
    // parts[0] == "api"
    auto r = std::make_shared<Request>(req);

    if (parts.size() == 2 && parts[1] == "session" && method == http::verb::post)
        return send(json_response(req, http::status::ok, {{"token", random_token()}}));

    if (parts.size() == 2 && parts[1] == "lobby" && method == http::verb::get)
        return send(json_response(req, http::status::ok, lobby_json(token)));

    if (parts.size() == 2 && parts[1] == "seeks" && method == http::verb::post) {
        need_token();
        json b = body();
        SeekRecord sk;
        sk.id = random_id(8);
        sk.variant = parse_variant(b);
        sk.time = parse_time(b, false);
        sk.color = parse_color(b);
        sk.nickname = clean_nickname(b, "nickname");
        sk.token = token;
        if (auto it = b.find("private"); it != b.end() && !it->is_null()) {
            if (!it->is_boolean()) throw BadRequest("bad_request", "private must be true or false");
            sk.is_private = it->get<bool>();
        }
        sk.created_at = now_ms();
        std::size_t mine = 0;
        for (auto& [id, s] : seeks) mine += s.token == token && s.game.empty();
        if (mine >= 20) throw BadRequest("conflict", "too many open seeks for this token");
        seeks[sk.id] = sk;
        storage->write({SaveSeek{sk}}, [this, r, send, sk](bool ok, std::string err) {
            if (!ok) {
                seeks.erase(sk.id);
                return send(error_response(*r, http::status::internal_server_error, "internal", err));
            }
            mark_lobby_dirty();
            send(json_response(*r, http::status::created,
                               {{"seek", seek_json(sk, true)}, {"url", "/challenge/" + sk.id}}));
        });
        return;
    }

    if (parts.size() >= 3 && parts[1] == "seeks") {
        std::string id = parts[2];
        auto it = seeks.find(id);
        if (parts.size() == 3 && method == http::verb::get) {
            if (it != seeks.end())
                return send(
                    json_response(req, http::status::ok, {{"seek", seek_json(it->second, it->second.token == token)}}));
            storage->run([this, r, send, id, token](Storage& st) {
                std::optional<SeekRecord> sk;
                try {
                    sk = st.load_seek(id);
                } catch (const std::exception&) {
                }
                asio::post(ioc, [r, send, sk, token] {
                    if (!sk) return send(error_response(*r, http::status::not_found, "not_found", "no such seek"));
                    send(json_response(*r, http::status::ok, {{"seek", seek_json(*sk, sk->token == token)}}));
                });
            });
            return;
        }
        if (parts.size() == 3 && method == http::verb::delete_) {
            need_token();
            if (it == seeks.end()) return reply_error("not_found", "no such seek");
            if (it->second.token != token) return reply_error("forbidden", "not your seek");
            if (!it->second.game.empty()) return reply_error("conflict", "the seek was already accepted");
            seeks.erase(it);
            storage->write({DeleteSeek{id}}, [this, r, send](bool ok, std::string err) {
                if (!ok) return send(error_response(*r, http::status::internal_server_error, "internal", err));
                mark_lobby_dirty();
                send(json_response(*r, http::status::ok, {{"ok", true}}));
            });
            return;
        }
        if (parts.size() == 4 && parts[3] == "accept" && method == http::verb::post) {
            need_token();
            json b = body();
            if (it == seeks.end()) return reply_error("not_found", "no such seek");
            SeekRecord& sk = it->second;
            if (!sk.game.empty()) return reply_error("conflict", "the seek was already accepted");
            if (sk.token == token) return reply_error("conflict", "you cannot accept your own seek");
            Seat creator{sk.nickname, sk.token, 0};
            Seat acceptor{clean_nickname(b, "nickname"), token, 0};
            bool creator_white = sk.color == "white" || (sk.color == "random" && (rng() & 1));
            std::string gid = new_game_id();
            GameRecord rec = LiveGame::new_record(gid, sk.variant, sk.time, creator_white ? creator : acceptor,
                                                  creator_white ? acceptor : creator, now_ms());
            add_game(std::make_unique<LiveGame>(std::move(rec), opt.first_move_ms));
            sk.game = gid;
            std::string color = creator_white ? "black" : "white";
            commit({gid}, {SaveGame{find(gid)->game->meta()}, SaveSeek{sk}},
                   [this, r, send, gid, color, seek_id = sk.id, creator_token = sk.token, creator_white] {
                       send(json_response(*r, http::status::created, {{"game", gid}, {"color", color}}));
                       json note = {{"type", "seek_accepted"},
                                    {"seek", seek_id},
                                    {"game", gid},
                                    {"color", creator_white ? "white" : "black"}};
                       auto text = std::make_shared<const std::string>(note.dump());
                       if (auto t = sessions_by_token.find(creator_token); t != sessions_by_token.end())
                           for (std::uint64_t sid : t->second)
                               if (auto s = sessions[sid].lock()) s->send(text);
                   });
            return;
        }
    }

    if (parts.size() == 2 && parts[1] == "computer" && method == http::verb::post) {
        need_token();
        json b = body();
        Variant v = parse_variant(b);
        int level = int(number_field(b, "level", 1, 8, ""));
        TimeControl tc = parse_time(b, true);
        std::string color = parse_color(b);
        if (color == "random") color = (rng() & 1) ? "white" : "black";
        Seat human{clean_nickname(b, "nickname"), token, 0};
        Seat computer{"Computer", "", level};
        if (engines->queued() >= opt.engine_queue) return reply_error("unavailable", "the engine is busy; try again");
        std::string gid = new_game_id();
        GameRecord rec = LiveGame::new_record(gid, v, tc, color == "white" ? human : computer,
                                              color == "white" ? computer : human, now_ms());
        add_game(std::make_unique<LiveGame>(std::move(rec), opt.first_move_ms));
        commit({gid}, {SaveGame{find(gid)->game->meta()}}, [r, send, gid, color] {
            send(json_response(*r, http::status::created, {{"game", gid}, {"color", color}}));
        });
        return;
    }

    if (parts.size() == 2 && parts[1] == "analysis" && method == http::verb::post) {
        Analysis a = replay_analysis(body());
        Position& pos = a.game->position();
        GameResult res = a.game->result();
        json legal = json::array(), legal_san = json::array();
        if (!res.over()) {
            auto list = std::make_unique<MoveList>();
            a.game->legal_moves(*list);
            for (Move m : *list) legal.push_back(to_uci(m));
            for (std::string& s : to_san_all(pos, *list)) legal_san.push_back(std::move(s));
        }
        json winner = res.outcome == Outcome::WhiteWins   ? json("white")
                      : res.outcome == Outcome::BlackWins ? json("black")
                                                          : json(nullptr);
        return send(
            json_response(req, http::status::ok,
                          {{"variant", variant_name(a.game->variant())},
                           {"fen", pos.fen()},
                           {"turn", color_name(pos.side_to_move())},
                           {"check", pos.in_check()},
                           {"legal_moves", std::move(legal)},
                           {"legal_san", std::move(legal_san)},
                           {"uci", a.uci},
                           {"san", a.san},
                           {"status", res.over() ? "over" : "live"},
                           {"result", res.over() ? std::string(pgn_result(res.outcome)) : "*"},
                           {"termination", res.over() ? json(termination_text(res.termination)) : json(nullptr)},
                           {"winner", winner}}));
    }

    if (parts.size() == 3 && parts[1] == "analysis" && parts[2] == "eval" && method == http::verb::post) {
        json b = body();
        Analysis a = replay_analysis(b);
        std::int64_t ms = 1000;
        if (b.contains("movetime_ms")) ms = std::int64_t(number_field(b, "movetime_ms", 1, 1e9, ""));
        ms = std::clamp<std::int64_t>(ms, 50, 3000);
        if (a.game->result().over())
            return send(json_response(req, http::status::ok,
                                      {{"best_move", nullptr},
                                       {"score_cp", nullptr},
                                       {"mate", nullptr},
                                       {"pv", json::array()},
                                       {"depth", nullptr}}));
        Variant v = a.game->variant();
        bool ok =
            engines->submit([this, r, send, v, fen = a.fen, moves = a.uci, ms](const std::atomic<bool>& stopping) {
                engine::Analysis an;
                try {
                    if (!stopping) an = engine::analyse(v, fen, moves, ms, &stopping);
                } catch (const std::exception& e) {
                    log(std::string("engine: ") + e.what());
                }
                asio::post(ioc, [r, send, an] {
                    const bool found = !an.best_move.empty();
                    send(json_response(*r, http::status::ok,
                                       {{"best_move", found ? json(an.best_move) : json(nullptr)},
                                        {"score_cp", an.score_cp ? json(*an.score_cp) : json(nullptr)},
                                        {"mate", an.mate ? json(*an.mate) : json(nullptr)},
                                        {"pv", an.pv},
                                        {"depth", found ? json(an.depth) : json(nullptr)}}));
                });
            });
        if (!ok) return reply_error("unavailable", "the engine is busy; try again");
        return;
    }

    if (parts.size() == 3 && parts[1] == "games" && method == http::verb::get) {
        std::string id = parts[2];
        return with_game(id, [this, r, send, token](GameEntry* e) {
            if (!e) return send(error_response(*r, http::status::not_found, "not_found", "no such game"));
            send(make_response(*r, http::status::ok, state_text(*e, seat_for(*e->game, token)), "application/json"));
        });
    }

    if (parts.size() == 2 && parts[1] == "games" && method == http::verb::get) {
        GameFilter f;
        f.status = "over";
        std::istringstream q(query);
        std::string kv;
        while (std::getline(q, kv, '&')) {
            auto eq = kv.find('=');
            std::string k = kv.substr(0, eq), val = eq == std::string::npos ? "" : kv.substr(eq + 1);
            auto as_int = [&](int lo, int hi) {
                try {
                    std::size_t used = 0;
                    int x = std::stoi(val, &used);
                    if (used != val.size() || x < lo || x > hi) throw std::out_of_range("");
                    return x;
                } catch (const std::exception&) {
                    throw BadRequest("bad_request", k + " must be a whole number between " + std::to_string(lo) +
                                                        " and " + std::to_string(hi));
                }
            };
            if (k == "status") {
                if (val == "finished" || val == "over")
                    f.status = "over";
                else if (val == "live")
                    f.status = "live";
                else
                    throw BadRequest("bad_request", "status must be finished or live");
            } else if (k == "limit")
                f.limit = as_int(1, 100);
            else if (k == "offset")
                f.offset = as_int(0, 1'000'000'000);
        }
        storage->run([this, r, send, f](Storage& st) {
            json games = json::array();
            bool ok = true;
            try {
                for (const GameRecord& g : st.list_games(f, false)) games.push_back(summary_json(g));
            } catch (const std::exception&) {
                ok = false;
            }
            asio::post(ioc, [r, send, ok, games = std::move(games)] {
                if (!ok) return send(error_response(*r, http::status::internal_server_error, "internal", "storage"));
                send(json_response(*r, http::status::ok, {{"games", games}}));
            });
        });
        return;
    }

    std::string shown;  // the path as ASCII (it may hold any bytes)
    for (unsigned char c : path.substr(0, 100)) shown += c >= 0x20 && c < 0x7f ? char(c) : '?';
    reply_error("not_found", "no API endpoint " + std::string(req.method_string()) + " " + shown);
}

}  // namespace echecs::server

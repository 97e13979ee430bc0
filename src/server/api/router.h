// The HTTP API as a table of routes: method and path pattern ("/api/seeks/:id",
// "/game/:id.pgn") to handler. Every handler runs guarded: an exception
// becomes an error answer, with its status decided in one place (errors.h),
// and the answer is sent exactly once.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server/api/errors.h"
#include "server/net/http_types.h"

namespace echecs::server {

// The one HTTP answer of an error: the table's status, error_body(e), and
// Retry-After when the error says when (or for a 429).
HttpResponse error_response(const ApiError& e);

class HttpContext : public std::enable_shared_from_this<HttpContext> {
public:
    using Sender = std::function<void(HttpResponse)>;
    HttpContext(HttpRequest req, Sender send);

    const HttpRequest& request() const { return req_; }
    const std::string& path() const { return path_; }
    // A pattern's :name, a query parameter ("" when absent).
    const std::string& param(const std::string& name) const;
    const std::string& query(const std::string& name) const;
    bool has_query(const std::string& name) const { return query_.count(name) > 0; }
    // The key (token_key) of X-Echecs-Token, what seats and seeks hold;
    // token_required() throws `forbidden` when the token is absent or malformed.
    const std::string& token() const { return token_; }
    const std::string& token_required() const;
    // The token as sent: only for the accounts, which hash it themselves.
    const std::string& token_secret() const { return secret_; }
    // The body as a JSON object (parsed once); a non-empty body must be
    // sent as application/json.
    const nlohmann::json& body();
    // Throws body()'s refusal of a body not sent as JSON, without parsing it.
    void require_json() const;

    void send(HttpResponse res);
    void json(int status, const nlohmann::json& j);
    void json_text(int status, std::string text);
    void error(const ApiError& e);
    bool answered() const { return answered_; }
    // The request went to another node, which will answer (before(): the route's handler is not run).
    void hand_off() { handed_off_ = true; }
    bool handed_off() const { return handed_off_; }

    // Wraps a continuation (a storage or engine completion): exceptions in it
    // become error answers too.
    template <class F>
    std::function<void()> guard(F f) {
        return [self = shared_from_this(), f = std::move(f)]() mutable { self->run_guarded(f); };
    }
    void run_guarded(const std::function<void()>& f);

private:
    friend class Router;
    HttpRequest req_;
    Sender send_;
    std::string path_;
    std::map<std::string, std::string> params_, query_;
    std::string secret_, token_;
    nlohmann::json body_;
    bool body_parsed_ = false;
    bool answered_ = false;
    bool handed_off_ = false;
};

using HttpContextPtr = std::shared_ptr<HttpContext>;

class Router {
public:
    using Handler = std::function<void(const HttpContextPtr&)>;
    void add(const std::string& method, const std::string& pattern, Handler h);
    // For GET/HEAD paths that no route matches and that are not under /api/.
    void set_fallback(Handler h) { fallback_ = std::move(h); }
    // Runs before every API route (limits, origin checks); may answer.
    void set_before(Handler h) { before_ = std::move(h); }
    void dispatch(const HttpContextPtr& ctx) const;

private:
    struct Segment {
        std::string literal;  // when not a parameter
        std::string param;    // ":name" without the colon
        std::string suffix;   // ":id.pgn": ".pgn"
    };
    struct Route {
        std::string method;
        std::vector<Segment> segments;
        Handler handler;
    };
    static bool match(const Route& r, const std::vector<std::string>& parts, std::map<std::string, std::string>& out);

    std::vector<Route> routes_;
    Handler fallback_, before_;
};

}  // namespace echecs::server

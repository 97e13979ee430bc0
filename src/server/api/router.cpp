#include "server/api/router.h"

#include "server/api/input.h"
#include "server/app/util.h"
#include "server/protocol/text.h"

namespace echecs::server {

namespace {
std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    for (std::size_t i = 1; i <= path.size();) {
        std::size_t j = path.find('/', i);
        if (j == std::string::npos) j = path.size();
        parts.push_back(path.substr(i, j - i));
        i = j + 1;
    }
    return parts;
}

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string url_decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
            out += char(hex(s[i + 1]) * 16 + hex(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}
}  // namespace

HttpContext::HttpContext(HttpRequest req, Sender send) : req_(std::move(req)), send_(std::move(send)) {
    const std::string& target = req_.target;
    path_ = target.substr(0, target.find('?'));
    if (target.size() > path_.size()) {
        std::string q = target.substr(path_.size() + 1);
        for (std::size_t i = 0; i <= q.size();) {
            std::size_t j = q.find('&', i);
            if (j == std::string::npos) j = q.size();
            std::string kv = q.substr(i, j - i);
            if (!kv.empty()) {
                std::size_t eq = kv.find('=');
                query_[url_decode(kv.substr(0, eq))] = eq == std::string::npos ? "" : url_decode(kv.substr(eq + 1));
            }
            i = j + 1;
        }
    }
    secret_ = req_.header("x-echecs-token");
    token_ = token_key(secret_);
}

const std::string& HttpContext::param(const std::string& name) const {
    static const std::string none;
    auto it = params_.find(name);
    return it == params_.end() ? none : it->second;
}

const std::string& HttpContext::query(const std::string& name) const {
    static const std::string none;
    auto it = query_.find(name);
    return it == query_.end() ? none : it->second;
}

const std::string& HttpContext::token_required() const {
    if (!valid_token(secret_))
        throw ApiError(Reason::token_missing, "header X-Echecs-Token (16-64 characters of [A-Za-z0-9_-]) required");
    return token_;
}

const nlohmann::json& HttpContext::body() {
    if (!body_parsed_) {
        require_json();
        body_ = parse_body(req_.body);
        body_parsed_ = true;
    }
    return body_;
}

void HttpContext::require_json() const {
    if (req_.body.empty()) return;
    const std::string& type = req_.header("content-type");
    if (type.substr(0, type.find(';')) != "application/json")
        throw ApiError(Reason::content_type, "the body must be sent as Content-Type: application/json", "",
                       {{"expected", "application/json"}});
}

void HttpContext::send(HttpResponse res) {
    if (answered_) return;
    answered_ = true;
    Sender s = std::move(send_);
    s(std::move(res));
}

void HttpContext::json(int status, const nlohmann::json& j) { json_text(status, dump(j)); }

void HttpContext::json_text(int status, std::string text) {
    HttpResponse r;
    r.status = status;
    r.body = std::move(text);
    send(std::move(r));
}

HttpResponse error_response(const ApiError& e) {
    HttpResponse r;
    r.status = http_status(e);
    r.body = dump(error_body(e));
    if (const std::int64_t s = retry_after_seconds(e)) r.headers.emplace_back("Retry-After", std::to_string(s));
    return r;
}

void HttpContext::error(const ApiError& e) { send(error_response(e)); }

void HttpContext::run_guarded(const std::function<void()>& f) {
    try {
        f();
    } catch (const ApiError& e) {
        error(e);
    } catch (const std::exception& e) {
        error(internal_error(e));
    } catch (...) {
        error(ApiError(Reason::internal, "internal error"));
    }
}

void Router::add(const std::string& method, const std::string& pattern, Handler h) {
    Route r{method, {}, std::move(h)};
    for (const std::string& part : split_path(pattern)) {
        Segment s;
        if (!part.empty() && part[0] == ':') {
            std::size_t dot = part.find('.');
            s.param = part.substr(1, dot == std::string::npos ? std::string::npos : dot - 1);
            if (dot != std::string::npos) s.suffix = part.substr(dot);
        } else {
            s.literal = part;
        }
        r.segments.push_back(std::move(s));
    }
    routes_.push_back(std::move(r));
}

bool Router::match(const Route& r, const std::vector<std::string>& parts, std::map<std::string, std::string>& out) {
    if (parts.size() != r.segments.size()) return false;
    std::map<std::string, std::string> found;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Segment& s = r.segments[i];
        if (s.param.empty()) {
            if (parts[i] != s.literal) return false;
            continue;
        }
        if (!s.suffix.empty() && !(parts[i].size() > s.suffix.size() && parts[i].ends_with(s.suffix))) return false;
        found[s.param] = parts[i].substr(0, parts[i].size() - s.suffix.size());
    }
    out = std::move(found);
    return true;
}

void Router::dispatch(const HttpContextPtr& ctx) const {
    ctx->run_guarded([&] {
        const std::vector<std::string> parts = split_path(ctx->path());
        bool path_known = false;
        for (const Route& r : routes_) {
            std::map<std::string, std::string> params;
            if (!match(r, parts, params)) continue;
            path_known = true;
            const std::string& m = ctx->request().method;
            if (r.method != m && !(r.method == "GET" && m == "HEAD")) continue;
            ctx->params_ = std::move(params);
            if (before_) before_(ctx);
            if (ctx->answered() || ctx->handed_off()) return;
            r.handler(ctx);
            return;
        }
        if (path_known)
            throw ApiError(Reason::method_not_allowed,
                           "method " + ascii_excerpt(ctx->request().method, 16) + " not allowed on this path");
        if (ctx->path().starts_with("/api/") || ctx->path() == "/api")
            throw ApiError(Reason::no_endpoint, "no API endpoint " + ascii_excerpt(ctx->request().method, 16) + " " +
                                                    ascii_excerpt(ctx->path(), 100));
        if (ctx->request().method != "GET" && ctx->request().method != "HEAD")
            throw ApiError(Reason::method_not_allowed, "method not allowed");
        if (!fallback_) throw ApiError(Reason::file_not_found, "no such file");
        fallback_(ctx);
    });
}

}  // namespace echecs::server

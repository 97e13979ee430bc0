// accounts_serve: the accounts API alone over HTTP (Boost.Beast, one thread
// per connection, loopback), serving the web client's files too, so that the
// browser tests of the accounts pages (tests/e2e/accounts.test.mjs) can run
// before the game server serves the API. It takes `echecs serve`'s options
// (--host, --port, --db, --web-root), so tests/e2e/lib.mjs starts it with
// ECHECS_BIN pointing here. It is also the reference of what a route handler
// passes to AccountService::handle. A test tool: never installed.
// clang-format off
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange
#include <boost/asio.hpp>
#include <boost/beast.hpp>
// clang-format on
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "server/accounts/account_service.h"

namespace beast = boost::beast;
namespace http = beast::http;
using boost::asio::ip::tcp;
using namespace echecs::server::accounts;

namespace {

std::string decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += char(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += s[i] == '+' ? ' ' : s[i];
        }
    }
    return out;
}

std::map<std::string, std::string> parse_query(std::string_view q) {
    std::map<std::string, std::string> out;
    while (!q.empty()) {
        const std::size_t amp = std::min(q.find('&'), q.size());
        const std::string_view pair = q.substr(0, amp);
        const std::size_t eq = pair.find('=');
        if (eq != std::string_view::npos) out[decode(pair.substr(0, eq))] = decode(pair.substr(eq + 1));
        q.remove_prefix(std::min(amp + 1, q.size()));
    }
    return out;
}

struct Options {
    std::string host = "127.0.0.1", db = "accounts.db", web_root = "web/dist";
    unsigned short port = 8080;
};

std::optional<Endpoint> endpoint_of(http::verb method, const std::string& path, std::string& name) {
    if (path == "/api/account")
        return method == http::verb::post      ? std::optional(Endpoint::SignUp)
               : method == http::verb::get     ? std::optional(Endpoint::Me)
               : method == http::verb::delete_ ? std::optional(Endpoint::DeleteAccount)
                                               : std::nullopt;
    if (method == http::verb::post && path == "/api/login") return Endpoint::LogIn;
    if (method == http::verb::post && path == "/api/logout") return Endpoint::LogOut;
    if (method == http::verb::post && path == "/api/account/password") return Endpoint::ChangePassword;
    if (method == http::verb::get && path == "/api/leaderboard") return Endpoint::Leaderboard;
    const std::string users = "/api/users/";
    if (method == http::verb::get && path.rfind(users, 0) == 0) {
        std::string rest = path.substr(users.size());
        const std::string games = "/games";
        if (rest.size() > games.size() && rest.compare(rest.size() - games.size(), games.size(), games) == 0) {
            name = decode(rest.substr(0, rest.size() - games.size()));
            return Endpoint::UserGames;
        }
        if (rest.find('/') == std::string::npos) {
            name = decode(rest);
            return Endpoint::User;
        }
    }
    return std::nullopt;
}

http::response<http::string_body> answer(const http::request<http::string_body>& req, AccountService& service,
                                         const Options& opt) {
    http::response<http::string_body> res{http::status::ok, req.version()};
    res.keep_alive(false);
    const std::string target(req.target());
    const std::size_t qpos = target.find('?');
    const std::string path = target.substr(0, qpos);
    std::string name;
    if (auto e = endpoint_of(req.method(), path, name)) {
        HttpIn in;
        in.name = name;
        in.query = parse_query(qpos == std::string::npos ? "" : std::string_view(target).substr(qpos + 1));
        in.content_type = std::string(req[http::field::content_type]);
        in.cookie = std::string(req[http::field::cookie]);
        in.token = std::string(req["X-Echecs-Token"]);
        in.client_ip = "127.0.0.1";
        // The Origin check: an Origin that is not this host is cross-site.
        const std::string origin(req[http::field::origin]);
        in.cross_site = (!origin.empty() && origin != "http://" + std::string(req[http::field::host])) ||
                        req["Sec-Fetch-Site"] == "cross-site";
        if (!req.body().empty()) {
            in.body = nlohmann::json::parse(req.body(), nullptr, false);
            if (in.body.is_discarded()) {
                res.result(http::status::bad_request);
                res.set(http::field::content_type, "application/json");
                res.body() =
                    R"({"error":{"code":"bad_json","reason":"bad_json","message":"not JSON","field":null,"params":{}}})";
                res.prepare_payload();
                return res;
            }
        } else {
            in.body = nullptr;
        }
        std::promise<HttpAnswer> done;
        service.handle(*e, std::move(in), [&](HttpAnswer a) { done.set_value(std::move(a)); });
        const HttpAnswer a = done.get_future().get();
        res.result(http::status(a.status));
        res.set(http::field::content_type, "application/json");
        if (!a.set_cookie.empty()) res.set(http::field::set_cookie, a.set_cookie);
        if (!a.device_cookie.empty()) res.insert(http::field::set_cookie, a.device_cookie);
        if (a.retry_after_s > 0) res.set(http::field::retry_after, std::to_string(a.retry_after_s));
        res.body() = a.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        res.prepare_payload();
        return res;
    }
    if (path == "/api/lobby") {  // what tests/e2e/lib.mjs polls to know the server is up
        res.set(http::field::content_type, "application/json");
        res.body() = R"({"seeks":[],"games":[]})";
    } else if (path.rfind("/api/", 0) == 0 || path == "/ws") {
        res.result(http::status::not_found);
        res.set(http::field::content_type, "application/json");
        res.body() =
            R"({"error":{"code":"not_found","reason":"not_found","message":"not found","field":null,"params":{}}})";
    } else {
        namespace fs = std::filesystem;
        fs::path file = fs::path(opt.web_root) / fs::path(path).relative_path();
        std::error_code ec;
        if (path.find("..") != std::string::npos || !fs::is_regular_file(file, ec))
            file = fs::path(opt.web_root) / "index.html";  // the client's own routes
        std::ifstream in(file, std::ios::binary);
        std::ostringstream body;
        body << in.rdbuf();
        const std::string ext = file.extension().string();
        res.set(http::field::content_type, ext == ".js"    ? "text/javascript"
                                           : ext == ".css" ? "text/css"
                                           : ext == ".svg" ? "image/svg+xml"
                                           : ext == ".png" ? "image/png"
                                                           : "text/html; charset=utf-8");
        res.body() = body.str();
    }
    res.prepare_payload();
    return res;
}

void serve_connection(tcp::socket socket, AccountService& service, const Options& opt) {
    try {
        beast::flat_buffer buffer;
        http::request_parser<http::string_body> parser;
        parser.body_limit(64 * 1024);
        http::read(socket, buffer, parser);
        http::write(socket, answer(parser.get(), service, opt));
        socket.shutdown(tcp::socket::shutdown_send);
    } catch (const std::exception& e) {
        std::cerr << "connection: " << e.what() << "\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--host")
            opt.host = next();
        else if (a == "--port")
            opt.port = static_cast<unsigned short>(std::stoi(next()));
        else if (a == "--db")
            opt.db = next();
        else if (a == "--web-root")
            opt.web_root = next();
    }
    AccountsOptions accounts_options;
    accounts_options.cost = HashCost::minimal();  // a test tool: cheap hashes
    AccountService service(std::make_unique<Accounts>(open_account_store(opt.db), accounts_options));
    boost::asio::io_context io;
    tcp::acceptor acceptor(io, {boost::asio::ip::make_address(opt.host), opt.port});
    std::cerr << "accounts_serve on http://" << opt.host << ":" << acceptor.local_endpoint().port() << "\n";
    for (;;) {
        tcp::socket socket(io);
        acceptor.accept(socket);
        std::thread([s = std::move(socket), &service, &opt]() mutable {
            serve_connection(std::move(s), service, opt);
        }).detach();
    }
}

// HTTP request handling, through the router and the API handlers, without
// sockets: any bytes parsed as a request (Beast's parser, the server's
// limits) get an answer that is valid UTF-8 (JSON for the API), never a
// crash. The first byte picks the client address (limits per address).
#include <boost/beast/http.hpp>

#include "server_harness.h"

using namespace echecs;
namespace http = boost::beast::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fuzz::Harness harness;
    if (size < 1 || size > 20000) return 0;
    const std::string ip = "10.0.0." + std::to_string(data[0] % 8);
    http::request_parser<http::string_body> parser;
    parser.eager(true);
    parser.header_limit(8 * 1024);
    parser.body_limit(16 * 1024);
    boost::beast::error_code ec;
    parser.put(boost::asio::buffer(data + 1, size - 1), ec);
    if (!ec && !parser.is_done()) parser.put_eof(ec);
    if (ec || !parser.is_done()) return 0;  // the session answers these itself (400/413)
    const auto& req = parser.get();
    server::HttpRequest r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    r.body = req.body();
    r.ip = ip;
    for (const auto& f : req) {
        std::string name(f.name_string());
        for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
        r.headers[name] = std::string(f.value());
    }
    harness.dispatch(std::move(r));
    return 0;
}

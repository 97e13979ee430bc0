#include <algorithm>

#include "server/app/options.h"
#include "server/net/http_types.h"

namespace echecs::server {

const std::vector<std::pair<std::string, std::string>>& security_headers() {
    // The client is served from here and talks only to here; chessground
    // and the client set inline styles, and the piece images are data: URLs.
    static const std::vector<std::pair<std::string, std::string>> headers = {
        {"Content-Security-Policy",
         "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
         "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
         "frame-ancestors 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "same-origin"},
        {"X-Frame-Options", "DENY"},
        {"Cross-Origin-Opener-Policy", "same-origin"},
    };
    return headers;
}

bool origin_allowed(const std::string& origin, const std::string& host, const ServerOptions& opt) {
    if (origin.empty()) return true;
    for (const std::string& o : opt.allowed_origins)
        if (o == "*" || o == origin) return true;
    // scheme://host[:port] against the Host header (host[:port]).
    const std::size_t sep = origin.find("://");
    if (sep == std::string::npos || host.empty()) return false;
    std::string authority = origin.substr(sep + 3);
    if (authority.find('/') != std::string::npos) return false;
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        return s;
    };
    const std::string scheme = lower(origin.substr(0, sep));
    authority = lower(authority);
    std::string h = lower(host);
    // Default ports may be left out on one side.
    for (const char* suffix : {":80", ":443"}) {
        if (scheme == (std::string(suffix) == ":80" ? "http" : "https")) {
            if (authority.ends_with(suffix)) authority.resize(authority.size() - std::string(suffix).size());
            if (h.ends_with(suffix)) h.resize(h.size() - std::string(suffix).size());
        }
    }
    return authority == h;
}

std::string client_ip(const std::string& socket_ip, const std::string& forwarded_for, const ServerOptions& opt) {
    if (!opt.trust_forwarded_for || forwarded_for.empty()) return socket_ip;
    std::size_t comma = forwarded_for.rfind(',');
    std::string last = forwarded_for.substr(comma == std::string::npos ? 0 : comma + 1);
    while (!last.empty() && last.front() == ' ') last.erase(0, 1);
    while (!last.empty() && last.back() == ' ') last.pop_back();
    return last.empty() || last.size() > 64 ? socket_ip : last;
}

}  // namespace echecs::server

#include <algorithm>
#include <utility>

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

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// scheme://host[:port] as {scheme, host[:port]}, lower case, the scheme's
// default port left out; {"", ""} when it is not such an origin.
std::pair<std::string, std::string> split_origin(const std::string& origin) {
    const std::size_t sep = origin.find("://");
    if (sep == std::string::npos) return {};
    std::string scheme = lower(origin.substr(0, sep));
    std::string authority = lower(origin.substr(sep + 3));
    if (authority.empty() || authority.find('/') != std::string::npos) return {};
    const std::string def = scheme == "http" ? ":80" : scheme == "https" ? ":443" : "";
    if (!def.empty() && authority.ends_with(def)) authority.resize(authority.size() - def.size());
    return {scheme, authority};
}

std::string without_port(const std::string& authority) {
    if (authority.starts_with('[')) return authority.substr(0, authority.find(']') + 1);  // [::1]:8080
    return authority.substr(0, authority.rfind(':'));
}

// A name DNS cannot point elsewhere: an address, or localhost. A page of
// another site that had its own name resolve to this server (DNS rebinding)
// sends its own name as Host and Origin: only these are taken on trust.
bool unreboundable(const std::string& authority) {
    const std::string name = without_port(authority);
    if (name == "localhost" || name.starts_with('[')) return true;
    return !name.empty() && name.find_first_not_of("0123456789.") == std::string::npos;
}

}  // namespace

bool origin_allowed(const std::string& origin, const std::string& host, const ServerOptions& opt) {
    if (origin.empty()) return true;
    for (const std::string& o : opt.allowed_origins)
        if (o == "*" || o == origin) return true;
    const auto [scheme, authority] = split_origin(origin);
    if (authority.empty()) return false;
    if (!opt.public_url.empty()) {
        // The public URL's scheme://host[:port], without its path.
        const std::size_t path = opt.public_url.find('/', opt.public_url.find("://") + 3);
        return std::pair(scheme, authority) == split_origin(opt.public_url.substr(0, path));
    }
    const auto [host_scheme, h] = split_origin(scheme + "://" + host);
    return !h.empty() && authority == h && unreboundable(h);
}

bool from_another_site(const std::string& origin, const std::string& host, const std::string& sec_fetch_site,
                       const ServerOptions& opt) {
    return lower(sec_fetch_site) == "cross-site" || !origin_allowed(origin, host, opt);
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

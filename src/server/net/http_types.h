// HTTP requests and responses as the router and its handlers see them: no
// sockets and no Beast types, so that the fuzz target and the tests drive
// the whole API in-process.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace echecs::server {

struct HttpRequest {
    std::string method;  // "GET", "POST", ...
    std::string target;  // path and query, as received
    std::string body;
    std::string ip;                              // the client's address
    std::map<std::string, std::string> headers;  // names in lower case
    // Sent on by another node of the cluster (docs/CLUSTER.md): answered
    // here, never sent on again, and already counted in the address's rate.
    bool forwarded = false;
    const std::string& header(const std::string& lower_name) const {
        static const std::string none;
        auto it = headers.find(lower_name);
        return it == headers.end() ? none : it->second;
    }
};

struct HttpResponse {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // besides the security headers
};

// Headers on every response (docs/API.md, "Web hygiene").
const std::vector<std::pair<std::string, std::string>>& security_headers();

struct ServerOptions;
// A browser's Origin header is allowed when absent (not a browser, or a
// same-origin GET), when it is in allowed_origins ("*": any), and otherwise
// when it is public_url's origin; without public_url, when its host:port is
// the request's Host and that is an address or localhost (a name could be
// another site's, rebound to this server: docs/SECURITY.md).
bool origin_allowed(const std::string& origin, const std::string& host, const ServerOptions& opt);
// A browser request sent by another site: Sec-Fetch-Site says so, or the
// Origin is not allowed. State-changing requests and WebSockets are refused.
bool from_another_site(const std::string& origin, const std::string& host, const std::string& sec_fetch_site,
                       const ServerOptions& opt);
// The client address: the socket's peer, or with trust_forwarded_for the
// last X-Forwarded-For entry.
std::string client_ip(const std::string& socket_ip, const std::string& forwarded_for, const ServerOptions& opt);

}  // namespace echecs::server

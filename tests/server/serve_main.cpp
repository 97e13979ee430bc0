// `echecs serve` as its own small program, for the tests that kill the server
// process (SIGKILL) and start it again. Test-only options, which make it
// build the server itself instead of going through `echecs serve`:
//   --fd-limit N      the process's descriptor limit (RLIMIT_NOFILE)
//   --per-ip N        max_connections_per_ip
//   --max-connections N
//   --http-rate N     http_rate_per_second and http_burst: tests that make
//                     many requests
//   --fast-password-hash   the cheapest password hash (ServerOptions::fast_password_hash):
//                          tests that sign up many accounts
#include <sys/resource.h>

#include <iostream>
#include <string>
#include <vector>

#include "server/app/entry.h"
#include "server/app/server.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    echecs::server::ServerOptions o;
    bool own = false;
    auto flag = [](const std::string& a) { return a == "--quiet" || a == "--durable" || a == "--fast-password-hash"; };
    for (const std::string& a : args)
        if (a == "--fast-password-hash") o.fast_password_hash = own = true;
    for (std::size_t i = 0; i + 1 < args.size(); i += flag(args[i]) ? 1 : 2) {
        const std::string& k = args[i];
        const std::string& v = args[i + 1];
        if (k == "--fd-limit") {
            rlimit rl{};
            getrlimit(RLIMIT_NOFILE, &rl);
            rl.rlim_cur = std::stoul(v);
            setrlimit(RLIMIT_NOFILE, &rl);
            own = true;
        } else if (k == "--per-ip") {
            o.max_connections_per_ip = std::stoi(v);
            own = true;
        } else if (k == "--max-connections") {
            o.max_connections = std::stoi(v);
            own = true;
        } else if (k == "--http-rate") {
            o.http_rate_per_second = o.http_burst = std::stod(v);
            own = true;
        }
    }
    if (!own) return echecs::serve_main(args);
    o.log = false;
    for (std::size_t i = 0; i + 1 < args.size(); i += flag(args[i]) ? 1 : 2) {
        if (args[i] == "--port") o.port = std::uint16_t(std::stoi(args[i + 1]));
        if (args[i] == "--db") o.db = args[i + 1];
        if (args[i] == "--web-root") o.web_root = args[i + 1];
    }
    try {
        echecs::server::Server srv(o);
        std::cout << "echecs server listening on http://" << o.host << ":" << srv.port() << "/" << std::endl;
        srv.run(true);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "echecs serve: " << e.what() << "\n";
        return 1;
    }
}

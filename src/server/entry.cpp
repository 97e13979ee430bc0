// `echecs serve [--host H] [--port P] [--db PATH|postgresql://...] [--web-root DIR]`
#include "server/entry.h"

#include <iostream>
#include <string>

#include "server/server.h"

namespace echecs {

namespace {
int usage(const std::string& problem) {
    if (!problem.empty()) std::cerr << "echecs serve: " << problem << "\n";
    std::cerr << "usage: echecs serve [--host 127.0.0.1] [--port 8080] [--db echecs.db|postgresql://...]\n"
                 "                    [--web-root web/dist] [--durable] [--engine-threads 1]\n"
                 "                    [--first-move-seconds 30] [--quiet]\n";
    return 2;
}
}  // namespace

int serve_main(const std::vector<std::string>& args) {
    server::ServerOptions opt;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* {
            if (i + 1 >= args.size()) return nullptr;
            return &args[++i];
        };
        if (a == "--help" || a == "-h") {
            usage("");
            return 0;
        } else if (a == "--quiet") {
            opt.log = false;
        } else if (a == "--durable") {
            opt.durable = true;
        } else if (a == "--host" || a == "--port" || a == "--db" || a == "--web-root" || a == "--engine-threads" ||
                   a == "--first-move-seconds") {
            const std::string* v = value();
            if (!v) return usage(a + " needs a value");
            if (a == "--host")
                opt.host = *v;
            else if (a == "--db")
                opt.db = *v;
            else if (a == "--web-root")
                opt.web_root = *v;
            else {
                long n = -1;
                try {
                    std::size_t used = 0;
                    n = std::stol(*v, &used);
                    if (used != v->size()) n = -1;
                } catch (const std::exception&) {
                }
                if (a == "--port") {
                    if (n < 0 || n > 65535) return usage("--port must be 0-65535");
                    opt.port = std::uint16_t(n);
                } else if (a == "--engine-threads") {
                    if (n < 1 || n > 64) return usage("--engine-threads must be 1-64");
                    opt.engine_threads = int(n);
                } else {
                    if (n < 1 || n > 3600) return usage("--first-move-seconds must be 1-3600");
                    opt.first_move_ms = n * 1000;
                }
            }
        } else {
            return usage("unknown argument '" + a + "'");
        }
    }
    try {
        server::Server srv(opt);
        std::cout << "echecs server listening on http://" << opt.host << ":" << srv.port() << "/ (db: " << opt.db
                  << ", web root: " << opt.web_root << ")" << std::endl;
        srv.run(true);
        std::cout << "echecs server stopped" << std::endl;
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "echecs serve: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace echecs

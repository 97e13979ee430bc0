// The server's half of the `echecs` command: `echecs serve` and `echecs
// reports` run this binary in their place (exec, the same process), so that
// the engine, the solver and the other subcommands start without loading the
// server's libraries (PostgreSQL's client, ICU, libsodium, SQLite, hiredis:
// 7 of an `echecs solve`'s 11 ms). Installed out of the PATH
// (libexec/echecs/echecs-server): users type `echecs serve`.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "server/app/entry.h"
#include "server/play/chat_reports.h"

int main(int argc, char** argv) {
    const std::string_view command = argc > 1 ? argv[1] : "";
    const std::vector<std::string> args(argv + (argc > 1 ? 2 : 1), argv + argc);
    try {
        if (command == "serve") return echecs::serve_main(args);
        if (command == "reports") return echecs::server::reports_main(args, std::cout, std::cerr);
    } catch (const std::exception& e) {
        std::cerr << "echecs: " << e.what() << '\n';
        return 1;
    }
    std::cerr << "echecs-server: run it as `echecs serve` or `echecs reports`\n";
    return 2;
}

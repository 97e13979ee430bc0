// `echecs reports`: the operator's view of the chat reports stored in the
// server's database (SQLite file or PostgreSQL URL, as `serve --db`). It
// lists them, the open ones by default, and resolves one with a note. It
// runs beside a live server: it opens the database without the server's
// exclusive lock, and a SQLite file that does not exist is refused rather
// than created.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace echecs::server {

// Exit codes: 0 done, 1 the database failed, 2 bad arguments or an unknown
// or already resolved report.
int reports_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace echecs::server

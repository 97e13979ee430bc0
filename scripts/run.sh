#!/bin/sh
# The main job (Debian 12, as root): install what is missing, build the
# engine, server and web client, then start the server on SQLite.
#   sh scripts/run.sh                 (PORT=8080, HOST=127.0.0.1, DB=echecs.db by default)
#   PORT=9000 DB=/var/lib/echecs.db sh scripts/run.sh
#   DB=postgresql://user@host/db sh scripts/run.sh
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
# Tests and benchmarks stay as configured before (off in a fresh build tree).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build echecs
ninja -C build web
echo "echecs: serving on http://${HOST:-127.0.0.1}:${PORT:-8080}/ (database ${DB:-echecs.db}); Ctrl-C stops"
# The build tree's share/echecs/web is the web client just built.
exec build/src/cli/echecs serve --host "${HOST:-127.0.0.1}" --port "${PORT:-8080}" --db "${DB:-echecs.db}" "$@"

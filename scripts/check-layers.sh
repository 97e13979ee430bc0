#!/bin/sh
# Fails when an #include points up the layers (docs/ARCHITECTURE.md):
#   platform <- core <- engine, solver <- puzzle <- server <- cli
# and the server's libraries (accounts, problems, review, study, tournament) and its
# storage include nothing of the server above them, except the one error
# type and its table (server/api/reasons.h, header only), the one reader
# of game names (server/api/game_names.h, header only) and, for the storage,
# the accounts' SQL connection (server/accounts/sql_conn.h); the engine reads
# the build's version (platform/version.h: its name in UCI and xboard); the
# engine and the solver map their tables with platform/huge_pages.h; the
# scheduler of heavy work (server/work, below the accounts, which hash on it)
# and the storage reader lower their threads' priority
# (platform/thread_priority.h, the bottom layer). Prints each offending
# line as file:line: "include" (not allowed in <layer>: <allowed prefixes>).
#   sh scripts/check-layers.sh [SOURCE_DIR]
set -eu
cd "${1:-$(dirname "$0")/..}/src"

# A file's layer is the longest folder of this table that holds it; it may
# include the project headers (quoted, with a folder) under these prefixes.
RULES='
platform            platform/
core                core/
engine              core/ engine/ platform/version.h platform/huge_pages.h
puzzle              core/ engine/ puzzle/
solver              core/ solver/ platform/huge_pages.h
server/work         server/work/ platform/thread_priority.h
server/accounts     core/ server/accounts/ server/api/reasons.h server/work/
server/problems     core/ solver/ server/problems/ server/api/reasons.h server/api/game_names.h
server/review       core/ engine/ server/review/
server/study        core/ server/study/ server/api/reasons.h
server/tournament   server/tournament/
server/storage      core/ server/storage/ server/app/ server/accounts/sql_conn.h platform/thread_priority.h
server              platform/ core/ engine/ solver/ puzzle/ server/
cli                 platform/ core/ engine/ solver/ puzzle/ server/ cli/
'

find . \( -name '*.h' -o -name '*.cpp' \) | sed 's|^\./||' | sort | xargs awk -v rules="$RULES" '
BEGIN {
    n = split(rules, lines, "\n")
    for (i = 1; i <= n; ++i) {
        k = split(lines[i], f, " ")
        if (k < 2) continue
        folder[++nf] = f[1]
        allowed[f[1]] = substr(lines[i], index(lines[i], f[2]))
    }
    bad = 0
}
FNR == 1 {
    layer = ""
    for (i = 1; i <= nf; ++i)
        if (index(FILENAME, folder[i] "/") == 1 && length(folder[i]) > length(layer)) layer = folder[i]
    files++
    if (layer == "") { print "src/" FILENAME ": in no layer (add its folder to scripts/check-layers.sh)"; bad = 1 }
}
layer != "" && /^[ \t]*#[ \t]*include[ \t]*"[a-z_]+\// {
    inc = $0
    sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
    k = split(allowed[layer], p, " ")
    ok = 0
    for (i = 1; i <= k; ++i) if (index(inc, p[i]) == 1) ok = 1
    if (!ok) { print "src/" FILENAME ":" FNR ": \"" inc "\" (not allowed in " layer ": " allowed[layer] ")"; bad = 1 }
}
END {
    if (!bad) print "layers: " files " files, every include points down"
    exit bad
}'

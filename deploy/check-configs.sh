#!/bin/sh
# Checks the balancer examples of deploy/ with the tools themselves:
#   haproxy -dW -c -f deploy/haproxy/echecs.cfg (a warning fails too)
#   nginx -t on a minimal nginx.conf whose `http` block includes
#   deploy/nginx/echecs.conf
# A tool that is not installed is skipped, and said so; exit status 1 when a
# check that ran failed. Writes nothing outside a temporary directory.
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
PATH=$PATH:/usr/sbin:/sbin
status=0

if command -v haproxy >/dev/null 2>&1; then
    echo "-- haproxy -dW -c -f $DIR/haproxy/echecs.cfg"
    haproxy -dW -c -f "$DIR/haproxy/echecs.cfg" || status=1
else
    echo "-- haproxy is not installed: deploy/haproxy/echecs.cfg not checked"
fi

if command -v nginx >/dev/null 2>&1; then
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
    trap 'exit 1' INT TERM
    # Only the checked file and what nginx needs to read it: no user switch,
    # the error log and the pid file in the temporary directory (nginx -t
    # opens them), the MIME types if installed.
    MIME=
    if [ -f /etc/nginx/mime.types ]; then MIME="include /etc/nginx/mime.types;"; fi
    cat >"$TMP/nginx.conf" <<EOF
pid $TMP/nginx.pid;
error_log $TMP/error.log;
events {}
http {
    $MIME
    access_log off;
    client_body_temp_path $TMP/body;
    proxy_temp_path $TMP/proxy;
    fastcgi_temp_path $TMP/fastcgi;
    uwsgi_temp_path $TMP/uwsgi;
    scgi_temp_path $TMP/scgi;
    include $DIR/nginx/echecs.conf;
}
EOF
    echo "-- nginx -t -c (a minimal nginx.conf including $DIR/nginx/echecs.conf)"
    nginx -t -q -p "$TMP" -c "$TMP/nginx.conf" && echo "nginx: the configuration is valid" || status=1
else
    echo "-- nginx is not installed: deploy/nginx/echecs.conf not checked"
fi
exit $status

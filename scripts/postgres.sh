#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and benchmarks, from Debian's packages
# (scripts/install-deps.sh installs them).
#
#   bash scripts/postgres.sh start   # initdb in a temporary folder, start on 127.0.0.1, print the URL
#   bash scripts/postgres.sh url     # print the URL of the running server
#   bash scripts/postgres.sh log     # print the path of the server's log
#   bash scripts/postgres.sh stop    # stop the server and delete its folder
#
# The server runs as an unprivileged user (the caller, or the `postgres` system user when the
# caller is root: initdb refuses root), listens on loopback only (and a Unix socket in its own
# folder), and trades durability for speed (fsync off): it holds nothing worth keeping. Its
# write-ahead log carries logical decoding (`wal_level=logical`), so changes can be streamed
# to replication clients (slots and senders for 20 of them). Every statement that writes
# (data or schema) is logged with the program that sent it (`app=quarry`, `app=psql`) in
# `bash scripts/postgres.sh log`'s file, so a read-only session can be shown to write nothing. The
# role `quarry` has a random password, written to the folder's pgpass file: point PGPASSFILE
# at `$(bash scripts/postgres.sh pgpass)` (or export PGPASSWORD) before connecting.
# QUARRY_PG_DIR chooses the folder (default: /tmp/quarry-postgres-$UID).
set -euo pipefail
dir=${QUARRY_PG_DIR:-/tmp/quarry-postgres-$(id -u)}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "postgres.sh: no PostgreSQL server installed (run scripts/install-deps.sh)" >&2; exit 2; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url() { echo "postgres://quarry@127.0.0.1:$(cat "$dir/port")/quarry"; }

running() { [ -f "$dir/port" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; }

case "${1:-}" in
  start)
    if running; then url; exit 0; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    chmod 700 "$dir"
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    printf '%s\n' "$password" > "$dir/password"
    printf '127.0.0.1:%s:*:quarry:%s\n' "$port" "$password" > "$dir/pgpass"
    chmod 600 "$dir/pgpass" "$dir/password"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir/password"
    as_owner "$bin/initdb" -D "$dir/data" -U quarry --pwfile="$dir/password" --auth=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    echo "$port" > "$dir/port"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
      "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=400 \
       -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=256MB \
       -c wal_level=logical -c max_replication_slots=20 -c max_wal_senders=20 \
       -c log_statement=mod -c log_parameter_max_length=0 -c log_line_prefix='%m [%p] app=%a user=%u '" \
      >/dev/null || { tail -20 "$dir/server.log" >&2; exit 1; }
    PGPASSFILE="$dir/pgpass" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U quarry -d postgres \
      -c "CREATE DATABASE quarry" >/dev/null
    url
    ;;
  url)
    running || { echo "postgres.sh: no server running in $dir" >&2; exit 1; }
    url
    ;;
  pgpass)
    echo "$dir/pgpass"
    ;;
  log)
    echo "$dir/server.log"
    ;;
  stop)
    if running; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null; fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: bash scripts/postgres.sh start|url|pgpass|log|stop" >&2
    exit 2
    ;;
esac

#!/usr/bin/env bash
# The Supabase SQL of docs/providers.md on a real PostgreSQL (issue 22): a throwaway
# PostgreSQL 15 cluster (Debian's postgresql-15) listening only on a Unix socket in a temporary
# folder gets a stand-in for Supabase's auth schema and roles (supabase-auth-stand-in.sql), then
# exactly the ```sql blocks of docs/providers.md (extract_sql.py), applied as `postgres` as the
# SQL editor does; test_providers_sql.py then acts as `anon` and `authenticated` users through
# the `authenticator` role as PostgREST does (test_extract_sql.py checks the extractor). The
# cluster and its folder are removed at the end, also on failure.
# Usage: tests/sql/run.sh
set -euo pipefail
started=$(date +%s%N)
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
"$ROOT/scripts/ensure-deps.sh" postgresql-15
PG_BIN=/usr/lib/postgresql/15/bin

# initdb refuses to run as root: as root the server runs as the `postgres` system user
# (created by the package), otherwise as whoever runs this. The folder is under /tmp (not
# $TMPDIR): the server's user must reach it, and a socket's path must stay under 108 bytes.
as_server=()
WORK="$(mktemp -d /tmp/sesame-sql.XXXXXX)"
if [ "$(id -u)" -eq 0 ]; then
    as_server=(runuser -u postgres --)
    chown postgres: "$WORK"
fi
cleanup() {
    if [ -f "$WORK/data/postmaster.pid" ]; then
        "${as_server[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# Supabase's bootstrap superuser is `supabase_admin`; `postgres` is an ordinary role there
# (made by the stand-in). Trust is enough: nothing but this socket, in a folder only the
# server's user (and root) can enter, reaches the cluster.
"${as_server[@]}" "$PG_BIN/initdb" -D "$WORK/data" -U supabase_admin --auth=trust --no-sync \
    --no-locale -E UTF8 >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; exit 1; }
cat >>"$WORK/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$WORK'
fsync = off
CONF
if ! "${as_server[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 30 start >/dev/null; then
    cat "$WORK/server.log" >&2
    exit 1
fi

sql() { # sql USER FILE: runs FILE as USER in one transaction (as the SQL editor does), stopping at the first error.
    psql -X -q -v ON_ERROR_STOP=1 --single-transaction -h "$WORK" -d postgres -U "$1" -f "$2"
}
sql supabase_admin "$HERE/supabase-auth-stand-in.sql"
python3 "$HERE/extract_sql.py" "$ROOT/docs/providers.md" >"$WORK/providers.sql"
sql postgres "$WORK/providers.sql"

cd "$HERE"
SESAME_PG_SOCKET_DIR="$WORK" PYTHONDONTWRITEBYTECODE=1 python3 -m unittest -v test_extract_sql test_providers_sql
echo "tests/sql: done in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2

#!/usr/bin/env bash
# Conformance: runs Google's firebase-admin (Python) and Supabase's supabase-auth (Python)
# against a sesame-emulator binary.
# Usage: tests/conformance/run.sh PATH_TO_sesame-emulator
# Creates tests/conformance/.venv (gitignored), installs firebase-admin, supabase-auth (pinned)
# and pytest from PyPI, starts the emulator on ephemeral ports, runs pytest, stops the emulator,
# exits with pytest's status. The Supabase tests start their own emulator (conftest.py, fixture
# `supabase`) from SESAME_EMULATOR_BINARY.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH_TO_sesame-emulator_BINARY" >&2
    exit 2
fi
BINARY="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
VENV="$HERE/.venv"

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check firebase-admin pytest 'supabase-auth==2.34.1'

WORK="$(mktemp -d)"
: >"$WORK/stdout"
"$BINARY" --auth-port 0 --database-port 0 --project demo-project >"$WORK/stdout" 2>"$WORK/stderr" &
EMULATOR=$!
cleanup() {
    if kill -0 "$EMULATOR" 2>/dev/null; then
        kill -TERM "$EMULATOR" 2>/dev/null || true
        wait "$EMULATOR" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

for _ in $(seq 1 600); do
    READY="$(grep -c ' listening on http://' "$WORK/stdout" 2>/dev/null || true)"
    if [ "${READY:-0}" -ge 2 ]; then break; fi
    if ! kill -0 "$EMULATOR" 2>/dev/null; then
        echo "sesame-emulator exited before it was ready:" >&2
        cat "$WORK/stderr" >&2
        exit 1
    fi
    sleep 0.1
done
AUTH_HOST="$(sed -n 's|^sesame-emulator: auth listening on http://||p' "$WORK/stdout")"
DATABASE_HOST="$(sed -n 's|^sesame-emulator: database listening on http://||p' "$WORK/stdout")"
if [ -z "$AUTH_HOST" ] || [ -z "$DATABASE_HOST" ]; then
    echo "sesame-emulator did not print its ready lines" >&2
    cat "$WORK/stdout" "$WORK/stderr" >&2
    exit 1
fi
export FIREBASE_AUTH_EMULATOR_HOST="$AUTH_HOST"
export FIREBASE_DATABASE_EMULATOR_HOST="$DATABASE_HOST"
export SESAME_EMULATOR_BINARY="$BINARY"
echo "conformance: auth at $AUTH_HOST, database at $DATABASE_HOST"

set +e
(cd "$HERE" && "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$HERE")
STATUS=$?
set -e
kill -TERM "$EMULATOR"
wait "$EMULATOR" || true
exit $STATUS

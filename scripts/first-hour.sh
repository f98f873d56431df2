#!/usr/bin/env bash
# A new user's first hour, replayed: for each backend, starts `make run` (scripts/run.sh with the
# built binaries, in a temporary run directory, on free ports), runs README.md's commands against
# it and checks each one's exit status and output, stops it with a Ctrl-C (SIGINT to its process
# group, as a terminal sends), starts it again (the session must be the same, usable at the
# backend, and a sign-in must work), then deletes the emulator's data and starts once more (a
# fresh guest; the old keyring moved aside). `make test-first-hour` (part of `make test`) runs it.
#
# Usage: scripts/first-hour.sh BIN_DIR [firebase] [supabase]   (both backends by default)
#
# README.md's commands are in one place, scripts/first-hour/readme.sh; keep them in step with
# it. Each check prints `ok` or `FAIL`; the exit status is 1 when any failed, 2 when it cannot run.
set -uo pipefail

if [ $# -lt 1 ] || [ ! -x "$1/sesamectl" ] || [ ! -x "$1/sesamed" ] || [ ! -x "$1/sesame-emulator" ]; then
    echo "usage: $0 BIN_DIR [firebase] [supabase]  (BIN_DIR holds the built sesamed, sesamectl, sesame-emulator)" >&2
    exit 2
fi
BIN=$(cd "$1" && pwd)
shift
PROVIDERS=("$@")
[ ${#PROVIDERS[@]} -gt 0 ] || PROVIDERS=(firebase supabase)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
for tool in python3 curl timeout; do
    command -v "$tool" > /dev/null || { echo "first-hour: $tool is missing" >&2; exit 2; }
done
# Short: the socket path must stay under 108 bytes.
WORK=$(mktemp -d /tmp/first-hour.XXXXXX)
PASSWORD="first-hour-Pw1"

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
source "$HERE/first-hour/checks.sh"
source "$HERE/first-hour/readme.sh"
source "$HERE/first-hour/messages.sh"

# --- make run, in the background ------------------------------------------------------------------
runner=""
api=""
cleanup() {
    [ -n "$runner" ] && kill -TERM -- "-$runner" 2> /dev/null && wait "$runner" 2> /dev/null
    [ -n "$api" ] && kill "$api" 2> /dev/null && wait "$api" 2> /dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT


# The stand-in for https://api.example.com/me: answers the subject of the bearer token.
python3 - > "$WORK/api.port" << 'PY' &
import base64, http.server, json, socketserver, sys
class Me(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        token = self.headers.get("Authorization", "").removeprefix("Bearer ")
        try:
            payload = token.split(".")[1]
            claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            body, status = claims["sub"].encode(), 200
        except Exception:
            body, status = b"no bearer token", 401
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = socketserver.TCPServer(("127.0.0.1", 0), Me)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
api=$!
wait_until 20 grep -q . "$WORK/api.port" || { echo "first-hour: the stand-in API did not start" >&2; exit 2; }
API="http://127.0.0.1:$(cat "$WORK/api.port")"

for PROVIDER in "${PROVIDERS[@]}"; do
    provider=$PROVIDER
    echo "--- make run PROVIDER=$provider"
    RUN="$WORK/run-$provider"
    export SESAME_RUN_DIR=$RUN SESAME_AUTH_PORT SESAME_DATABASE_PORT SESAME_SUPABASE_PORT
    SESAME_AUTH_PORT=$(free_port)
    SESAME_DATABASE_PORT=$(free_port)
    SESAME_SUPABASE_PORT=$(free_port)
    MAILBOX="http://127.0.0.1:$SESAME_AUTH_PORT/emulator/v1/projects/demo-project/oobCodes"
    [ "$provider" = supabase ] && MAILBOX="http://127.0.0.1:$SESAME_SUPABASE_PORT/sesame/v1/supabase/messages"
    guest="" member="" ann=""

    start_make_run "$provider" "$WORK/make-run-1.out" || continue
    out=$(cat "$WORK/make-run-1.out")
    expect "make run shows the anonymous session" "anonymous"
    readme_quick_start
    readme_shell
    readme_python
    stop_make_run

    start_make_run "$provider" "$WORK/make-run-2.out" || continue
    readme_after_restart
    first_hour_messages "$WORK/make-run-2.out"
    stop_make_run

    # The emulator's data deleted, the keyring kept: a fresh guest, not a session the backend forgot.
    rm -rf "$RUN/emulator"
    start_make_run "$provider" "$WORK/make-run-3.out" || continue
    out=$(cat "$WORK/make-run-3.out")
    expect "without the emulator's data, make run says it starts on a fresh guest" "starting on a fresh guest"
    run "a fresh guest: sesamectl status" sesamectl status && expect "a fresh guest" "anonymous"
    differ "a fresh guest: a new uid" "$(uid_now)" "$member"
    run "a fresh guest: sesamectl token --force" sesamectl token --force
    state=state
    [ "$provider" = firebase ] || state="state-$provider"
    if ls -d "$RUN/$state.orphaned-"* > /dev/null 2>&1; then ok "the old keyring is kept aside"; else fail "no $RUN/$state.orphaned-*"; fi
    stop_make_run
done

echo
if [ "$failures" -ne 0 ]; then
    echo "first-hour: $failures check(s) FAILED"
    exit 1
fi
echo "first-hour: all checks passed (${PROVIDERS[*]})"

#!/usr/bin/env bash
# `make run`: starts sesame-emulator and sesamed with a socket in ./run, shows the anonymous
# session, and stops both on Ctrl-C.
set -euo pipefail
BIN=${1:-.build/debug}
ROOT=$(pwd)
RUN="$ROOT/run"
mkdir -p "$RUN/state"
AUTH_PORT=${SESAME_AUTH_PORT:-9099}
DB_PORT=${SESAME_DATABASE_PORT:-9000}

cat > "$RUN/sesamed.toml" <<TOML
# Written by make run: the daemon against the local emulator.
[firebase]
api_key = "demo-api-key"
project_id = "demo-project"
auth_emulator_host = "127.0.0.1:$AUTH_PORT"
database_emulator_host = "127.0.0.1:$DB_PORT"
[socket]
path = "$RUN/sesamed.sock"
mode = "0600"
[merge]
hold = 600
TOML

pids=()
cleanup() {
    trap - INT TERM EXIT
    echo
    echo "Stopping sesamed and sesame-emulator ..."
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

"$BIN/sesame-emulator" --auth-port "$AUTH_PORT" --database-port "$DB_PORT" --project demo-project \
    > "$RUN/emulator.out" 2> "$RUN/emulator.log" &
pids+=($!)
for _ in $(seq 1 100); do
    grep -q "database listening" "$RUN/emulator.out" 2>/dev/null && break
    if ! kill -0 "${pids[0]}" 2>/dev/null; then
        echo "sesame-emulator did not start; see $RUN/emulator.log (is port $AUTH_PORT or $DB_PORT taken? set SESAME_AUTH_PORT / SESAME_DATABASE_PORT)" >&2
        exit 1
    fi
    sleep 0.1
done
cat "$RUN/emulator.out"

"$BIN/sesamed" --config "$RUN/sesamed.toml" --state-dir "$RUN/state" 2> >(tee "$RUN/sesamed.log" >&2) &
pids+=($!)
export SESAME_SOCKET="$RUN/sesamed.sock"
for _ in $(seq 1 100); do
    "$BIN/sesamectl" status --json 2>/dev/null | grep -q '"anonymous"\|"authenticated"' && break
    sleep 0.1
done
echo
"$BIN/sesamectl" status || true
cat <<TXT

sesamed is running with its socket at $RUN/sesamed.sock (keyring in $RUN/state).
In another terminal, try:

  export SESAME_SOCKET=$RUN/sesamed.sock
  $BIN/sesamectl status
  $BIN/sesamectl token
  $BIN/sesamectl watch
  $BIN/sesamectl sign-up you@example.com        # link a password: the uid stays the same
  $BIN/sesamectl sign-out --reset               # back to a fresh guest

Emails (sign-in links, resets) are not sent: read them at
  http://127.0.0.1:$AUTH_PORT/emulator/v1/projects/demo-project/oobCodes

Press Ctrl-C to stop both.
TXT
wait "${pids[1]}"

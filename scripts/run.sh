#!/usr/bin/env bash
# `make run [PROVIDER=supabase]`: starts sesame-emulator and sesamed with a socket in ./run,
# shows the anonymous session, and stops both on Ctrl-C. PROVIDER (the second argument) is
# firebase (the default) or supabase (the emulator's Supabase surface).
set -euo pipefail
BIN=${1:-.build/debug}
PROVIDER=${2:-firebase}
ROOT=$(pwd)
RUN="$ROOT/run"
AUTH_PORT=${SESAME_AUTH_PORT:-9099}
DB_PORT=${SESAME_DATABASE_PORT:-9000}
SUPABASE_PORT=${SESAME_SUPABASE_PORT:-54321}
case "$PROVIDER" in
    firebase) EMULATOR_ARGS=() ; READY="database listening" ;;
    supabase) EMULATOR_ARGS=(--supabase-port "$SUPABASE_PORT") ; READY="supabase service_role key" ;;
    *) echo "PROVIDER must be firebase or supabase, not $PROVIDER" >&2; exit 2 ;;
esac
# A keyring belongs to one backend: keep one state directory per provider.
STATE="$RUN/state"
[ "$PROVIDER" = firebase ] || STATE="$RUN/state-$PROVIDER"
mkdir -p "$RUN"
mkdir -p -m 0700 "$STATE"  # sesamed refuses a state directory others can write in

write_config() {
    if [ "$PROVIDER" = supabase ]; then
        local anon_key
        anon_key=$(sed -n 's/^sesame-emulator: supabase anon key //p' "$RUN/emulator.out")
        cat > "$RUN/sesamed.toml" <<TOML
# Written by make run PROVIDER=supabase: the daemon against the emulator's Supabase surface.
[backend]
provider = "supabase"
[supabase]
url = "http://127.0.0.1:$SUPABASE_PORT"
anon_key = "$anon_key"
[socket]
path = "$RUN/sesamed.sock"
mode = "0600"
[merge]
hold = 600
TOML
        return
    fi
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
}

pids=()
cleanup() {
    trap - INT TERM EXIT
    echo
    echo "Stopping sesamed and sesame-emulator ..."
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

"$BIN/sesame-emulator" --auth-port "$AUTH_PORT" --database-port "$DB_PORT" --project demo-project "${EMULATOR_ARGS[@]}" \
    > "$RUN/emulator.out" 2> "$RUN/emulator.log" &
pids+=($!)
for _ in $(seq 1 100); do
    grep -q "$READY" "$RUN/emulator.out" 2>/dev/null && break
    if ! kill -0 "${pids[0]}" 2>/dev/null; then
        echo "sesame-emulator did not start; see $RUN/emulator.log (is port $AUTH_PORT, $DB_PORT or $SUPABASE_PORT taken? set SESAME_AUTH_PORT / SESAME_DATABASE_PORT / SESAME_SUPABASE_PORT)" >&2
        exit 1
    fi
    sleep 0.1
done
cat "$RUN/emulator.out"
write_config

"$BIN/sesamed" --config "$RUN/sesamed.toml" --state-dir "$STATE" 2> >(tee "$RUN/sesamed.log" >&2) &
pids+=($!)
export SESAME_SOCKET="$RUN/sesamed.sock"
for _ in $(seq 1 100); do
    "$BIN/sesamectl" status --json 2>/dev/null | grep -q '"anonymous"\|"authenticated"' && break
    sleep 0.1
done
echo
"$BIN/sesamectl" status || true
cat <<TXT

sesamed is running against $PROVIDER with its socket at $RUN/sesamed.sock (keyring in $STATE).
In another terminal, try:

  export SESAME_SOCKET=$RUN/sesamed.sock
  $BIN/sesamectl status
  $BIN/sesamectl token
  $BIN/sesamectl watch
  $BIN/sesamectl sign-up you@example.com        # link a password: the uid stays the same
  $BIN/sesamectl sign-out --reset               # back to a fresh guest

Emails (sign-in links, codes, resets) are not sent: read them at
  http://127.0.0.1:$AUTH_PORT/emulator/v1/projects/demo-project/oobCodes   (firebase)
  http://127.0.0.1:$SUPABASE_PORT/sesame/v1/supabase/messages              (supabase)

Press Ctrl-C to stop both.
TXT
wait "${pids[1]}"

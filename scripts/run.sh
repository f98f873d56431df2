#!/usr/bin/env bash
# `make run [PROVIDER=supabase]`: starts sesame-emulator and sesamed with a socket in ./run,
# shows the anonymous session, and stops both on Ctrl-C. PROVIDER (the second argument) is
# firebase (the default) or supabase (the emulator's Supabase surface).
#
# Both keep their state in ./run across restarts: the daemon its keyring (run/state, or
# run/state-supabase), the emulator its accounts (run/emulator, --data-dir), so a restarted
# `make run` continues the same session. SESAME_RUN_DIR moves ./run elsewhere.
set -euo pipefail
BIN=${1:-.build/debug}
PROVIDER=${2:-firebase}
ROOT=$(pwd)
RUN=${SESAME_RUN_DIR:-$ROOT/run}
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
# The emulator's accounts, both backends' (sesame-emulator --data-dir; docs/emulator.md).
EMULATOR_DATA="$RUN/emulator"
ACCOUNTS="$EMULATOR_DATA/auth_export/accounts.json"
[ "$PROVIDER" = firebase ] || ACCOUNTS="$EMULATOR_DATA/supabase_export/state.json"
# A keyring without the emulator's accounts names an account that no longer exists (run/emulator
# was deleted, or it was written by a make run that did not keep them): start on a fresh one.
if [ ! -f "$ACCOUNTS" ] && [ -n "$(ls -A "$STATE" 2>/dev/null)" ]; then
    aside="$STATE.orphaned-$(date +%Y%m%d-%H%M%S)"
    mv "$STATE" "$aside"
    echo "make run: the emulator has no accounts ($EMULATOR_DATA is missing or empty), so the session"
    echo "in $STATE is gone at the backend: starting on a fresh guest; the old state is in $aside."
fi
mkdir -p "$RUN"
mkdir -p -m 0700 "$STATE"  # sesamed refuses a state directory others can write in

write_config() {
    if [ "$PROVIDER" = supabase ]; then
        local anon_key  # the publishable key, as a new project's dashboard shows it
        anon_key=$(sed -n 's/^sesame-emulator: supabase publishable key //p' "$RUN/emulator.out")
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
trap cleanup EXIT
# Ctrl-C is how make run ends: stop both and exit 0 (not by the signal, so make stays quiet).
trap 'cleanup; exit 0' INT TERM

"$BIN/sesame-emulator" --auth-port "$AUTH_PORT" --database-port "$DB_PORT" --project demo-project \
    --data-dir "$EMULATOR_DATA" "${EMULATOR_ARGS[@]}" > "$RUN/emulator.out" 2> "$RUN/emulator.log" &
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

# tee ignores Ctrl-C: it shows the daemon's last lines, and the daemon gets no SIGPIPE writing them.
"$BIN/sesamed" --config "$RUN/sesamed.toml" --state-dir "$STATE" 2> >(trap "" INT; exec tee "$RUN/sesamed.log" >&2) &
pids+=($!)
export SESAME_SOCKET="$RUN/sesamed.sock"
for _ in $(seq 1 100); do
    "$BIN/sesamectl" status --json 2>/dev/null | grep -q '"anonymous"\|"authenticated"' && break
    sleep 0.1
done
echo
"$BIN/sesamectl" status || true
if [ "$PROVIDER" = supabase ]; then
    CUSTOM_TOKEN="key=\$(sed -n 's/^sesame-emulator: supabase secret key //p' $RUN/emulator.out)
  curl -s http://127.0.0.1:$SUPABASE_PORT/auth/v1/admin/generate_link -H \"apikey: \$key\" -H \"Authorization: Bearer \$key\" \\
    -H 'Content-Type: application/json' -d '{\"type\":\"magiclink\",\"email\":\"kiosk@example.com\"}' \\
    | python3 -c 'import json, sys; print(json.load(sys.stdin)[\"hashed_token\"])' | $BIN/sesamectl sign-in --custom-token-file -"
else
    CUSTOM_TOKEN="echo '{\"uid\":\"kiosk-42\"}' | $BIN/sesamectl sign-in --custom-token-file -"
fi
cat <<TXT

sesamed is running against $PROVIDER with its socket at $RUN/sesamed.sock (keyring in $STATE,
the emulator's accounts in $EMULATOR_DATA: both are kept when you stop and start make run again;
delete $RUN to start afresh).
In another terminal, try:

  export SESAME_SOCKET=$RUN/sesamed.sock
  $BIN/sesamectl status
  $BIN/sesamectl token
  $BIN/sesamectl watch
  $BIN/sesamectl sign-up you@example.com        # link a password: the uid stays the same
  $BIN/sesamectl sign-out --reset               # back to a fresh guest

Signing in with a provider (sign out of an account first: sesamed never switches accounts by itself):
  $BIN/sesamectl sign-in google --device
prints a page on 127.0.0.1, the emulator's stand-in for every provider, which a phone cannot
reach: open it in a browser on this machine (over ssh: ssh -L PORT:127.0.0.1:PORT), type the code
and any email (no password), and approve. A custom token, as a fleet server would mint one:
  $CUSTOM_TOKEN

Emails (sign-in links, codes, resets) are not sent: read them at
  http://127.0.0.1:$AUTH_PORT/emulator/v1/projects/demo-project/oobCodes   (firebase)
  http://127.0.0.1:$SUPABASE_PORT/sesame/v1/supabase/messages              (supabase)

Press Ctrl-C to stop both.
TXT
wait "${pids[1]}"

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
# README.md's commands are in one place below ("README.md's commands"); keep them in step with
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

failures=0
ok() { echo "ok    $1"; }
fail() {
    echo "FAIL  $1"
    [ -n "${2:-}" ] && sed 's/^/      | /' <<< "$2" | tail -20
    failures=$((failures + 1))
}
# run NAME CMD...: runs CMD, keeps its output in $out; FAIL on a non-zero exit.
out=""
run() {
    local name=$1 status=0; shift
    out=$("$@" 2>&1) || status=$?
    if [ $status -eq 0 ]; then ok "$name"; return 0; fi
    fail "$name (exit $status)" "$out"
    return 1
}
# expect NAME PATTERN: the last command's output matches the extended regular expression.
expect() { if grep -Eq -- "$2" <<< "$out"; then ok "$1"; else fail "$1: no /$2/ in the output" "$out"; fi; }
# same NAME A B / differ NAME A B
same() { if [ -n "$2" ] && [ "$2" = "$3" ]; then ok "$1"; else fail "$1 ('$2' vs '$3')"; fi; }
differ() { if [ -n "$2" ] && [ -n "$3" ] && [ "$2" != "$3" ]; then ok "$1"; else fail "$1 ('$2' vs '$3')"; fi; }
# json_field FIELD: a field of the JSON on stdin (dots for nesting), empty when absent.
json_field() {
    python3 -c 'import json, sys
value = json.load(sys.stdin)
for key in sys.argv[1].split("."):
    value = value.get(key) if isinstance(value, dict) else None
print("" if value is None else value)' "$1" 2> /dev/null
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_until SECONDS CMD...: polls CMD every 0.1 s; false after SECONDS.
wait_until() {
    local limit=$(($1 * 10)); shift
    for _ in $(seq 1 "$limit"); do "$@" > /dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}

# --- README.md's commands -----------------------------------------------------------------------
# `sesamectl` is the path `make run` prints ($BIN/sesamectl), given 60 s per command; where
# README.md lets a command ask for the password on the terminal, `with_password` gives it on
# standard input (--password-stdin).
sesamectl() { timeout 60 "$BIN/sesamectl" "$@"; }
with_password() { printf '%s\n' "$PASSWORD" | sesamectl "$@" --password-stdin; }
uid_now() { sesamectl status --json | json_field user.uid; }

# Quick start, "In another terminal".
readme_quick_start() {
    export SESAME_SOCKET=$RUN/sesamed.sock
    run "sesamectl status" sesamectl status && expect "status: a guest" "anonymous"
    guest=$(uid_now)
    run "sesamectl token" sesamectl token && expect "token: a JWT" '^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$'
    # sesamectl watch: one line per change, until stopped (a background job of a script ignores
    # SIGINT, so SIGTERM stands in for the Ctrl-C).
    timeout 60 "$BIN/sesamectl" watch > "$WORK/watch.out" 2>&1 &
    local watcher=$!
    wait_until 20 grep -q . "$WORK/watch.out" && ok "sesamectl watch: the current state" \
        || fail "sesamectl watch printed nothing" "$(cat "$WORK/watch.out")"
    run "sesamectl sign-up you@example.com" with_password sign-up you@example.com \
        && expect "sign-up: you@example.com" "you@example.com"
    same "sign-up keeps the guest's uid" "$(uid_now)" "$guest"
    wait_until 20 test "$(grep -c . "$WORK/watch.out")" -ge 2 && ok "sesamectl watch: a line for the sign-up" \
        || fail "sesamectl watch: no line for the sign-up" "$(cat "$WORK/watch.out")"
    kill -TERM "$watcher" 2> /dev/null
    wait "$watcher" 2> /dev/null
    member=$guest
    # Emails are read at the emulator.
    run "the emulator's mailbox ($MAILBOX)" curl -fsS --max-time 30 "$MAILBOX"
    run "sesamectl sign-out --reset" sesamectl sign-out --reset
    differ "sign-out --reset: a new guest" "$(uid_now)" "$member"
}

# "Using Sesame from a shell" (https://api.example.com/me is a local stand-in that answers the
# token's subject).
readme_shell() {
    out=$(curl -fsS --max-time 30 -H "Authorization: Bearer $(sesamectl token)" "$API/me" 2>&1)
    same "curl -H \"Authorization: Bearer \$(sesamectl token)\" …/me: the API sees the uid" "$out" "$(uid_now)"
    local guest
    guest=$(uid_now)
    run "sesamectl sign-in you@example.com" with_password sign-in you@example.com \
        && expect "sign-in: you@example.com" "you@example.com"
    same "sign-in: back to the account" "$(uid_now)" "$member"
    run "sesamectl merges" sesamectl merges && expect "merges: the guest's data waits to be handed over" "$guest"
    if [ "$PROVIDER" = supabase ]; then
        # Supabase mails a one-time code too: complete-link --code CODE --email EMAIL.
        run "sesamectl sign-out (before the code)" sesamectl sign-out
        run "sesamectl send-link kim@example.com" sesamectl send-link kim@example.com
        local code
        code=$(one_time_code kim@example.com)
        [ -n "$code" ] && ok "the one-time code is in the emulator's mailbox" || fail "no code for kim@example.com"
        run "sesamectl complete-link --code CODE --email kim@example.com" \
            sesamectl complete-link --code "$code" --email kim@example.com && expect "complete-link --code" "kim@example.com"
    fi
    run "sesamectl sign-out --reset (before the link)" sesamectl sign-out --reset
    guest=$(uid_now)
    run "sesamectl send-link ann@example.com" sesamectl send-link ann@example.com
    local link
    link=$(sign_in_link ann@example.com)
    [ -n "$link" ] && ok "the link is in the emulator's mailbox" || fail "no link for ann@example.com" "$(curl -s "$MAILBOX")"
    run "sesamectl complete-link '<link>'" sesamectl complete-link "$link" && expect "complete-link: ann@example.com" "ann@example.com"
    # docs/providers.md: Firebase links the guest in place; GoTrue signs in to the address's
    # account and the guest is merged into it.
    ann=$(uid_now)
    if [ "$PROVIDER" = firebase ]; then
        same "complete-link upgrades the guest in place" "$ann" "$guest"
    else
        run "complete-link: sesamectl merges" sesamectl merges && expect "complete-link: the guest is merged" "$guest -> $ann"
    fi
    out=$(sesamectl token --header | curl -fsS --max-time 30 -H @- "$API/me" 2>&1)
    same "sesamectl token --header | curl -H @- …/me: the API sees the uid" "$out" "$(uid_now)"
    out=$(sesamectl exec -- sh -c 'curl -fsS --max-time 30 -H "Authorization: Bearer $SESAME_ID_TOKEN" "$0/me"' "$API" 2>&1)
    same "sesamectl exec -- sh -c 'curl -H \"Authorization: Bearer \$SESAME_ID_TOKEN\" …/me'" "$out" "$(uid_now)"
}

# "Using Sesame from Python" (sesame_client from clients/python, as `pip install` would give it).
readme_python() {
    out=$(PYTHONPATH="$ROOT/clients/python/src" timeout 60 python3 - 2>&1 << 'PY'
import threading
from sesame_client import Sesame

sesame = Sesame()
token = sesame.id_token()
seen = threading.Event()
listener = sesame.on_state_change(lambda state: (print(state.status, state.uid, state.reason), seen.set()))
assert seen.wait(20), "no state"
listener.remove()
print("token parts", len(token.token.split(".")))
PY
    )
    expect "python: on_state_change prints the state" "^[a-z]+ $ann "
    expect "python: id_token() gives a JWT" "^token parts 3$"
}

# After a Ctrl-C and `make run` again: the same session, alive at the backend.
readme_after_restart() {
    run "after the restart: sesamectl status" sesamectl status && expect "status: ann@example.com" "ann@example.com"
    same "after the restart: the same uid" "$(uid_now)" "$ann"
    run "after the restart: sesamectl token --force (a refresh at the backend)" sesamectl token --force
    refused "after the restart: sesamectl sign-in you@example.com while ann is signed in" \
        with_password sign-in you@example.com
    run "after the restart: sesamectl sign-out" sesamectl sign-out
    run "after the restart: sesamectl sign-in you@example.com" with_password sign-in you@example.com
    same "after the restart: signed in to the account" "$(uid_now)" "$member"
    run "sesamectl delete-account --yes" sesamectl delete-account --yes
    differ "delete-account: a new guest" "$(uid_now)" "$member"
}

# Issue 31: the messages and rules a new user meets in the first hour (after delete-account: a
# guest). The banner's own commands are run as printed.
first_hour_messages() {
    local banner=$1 provider_uid
    out=$(cat "$banner")
    expect "the banner: the device page is the emulator's stand-in, reachable from this machine" \
        "stand-in for every provider"
    local custom
    custom=$(awk '/A custom token, as a fleet server would mint one:/ { f = 1; next } f && /^$/ { exit } f' "$banner")
    run "the banner's custom-token command" bash -c "$custom" || return
    if [ "$PROVIDER" = firebase ]; then
        expect "a custom token's account without a name: signed in as uid kiosk-42" "^signed in as uid kiosk-42$"
    else
        expect "a custom token: signed in as kiosk@example.com" "^signed in as kiosk@example\.com \(uid "
    fi
    local kiosk
    kiosk=$(uid_now)
    # Item 7: no way of signing in replaces an account; each says to sign out first.
    refused "sign-in EMAIL while an account is signed in" with_password sign-in you@example.com
    refused "sign-in google --device while an account is signed in" sesamectl sign-in google --device --no-qr
    refused "sign-in --custom-token-file while an account is signed in" \
        bash -c "echo '{\"uid\":\"kiosk-43\"}' | $BIN/sesamectl sign-in --custom-token-file -"
    same "the refused sign-ins left the account signed in" "$(uid_now)" "$kiosk"
    run "sesamectl sign-out" sesamectl sign-out

    # Item 10: the device flow finished on this machine, as the banner says (any email).
    device_sign_in "sign-in google --device" dev@example.com sesamectl sign-in google --device --json || return
    expect "the device flow signs in dev@example.com" '"email":"dev@example\.com"'
    # Item 13: an account without a password reauthenticates with its provider.
    device_sign_in "reauth of a Google-only account" dev@example.com \
        env -u DISPLAY -u WAYLAND_DISPLAY "$BIN/sesamectl" reauth --json
    expect "reauth: a recent sign-in, through the provider" '"validUntil"'
    expect "reauth: says it uses the provider" "signs in with google\.com"
    run "sesamectl sign-out (of the Google account)" sesamectl sign-out

    # Item 12: a password reset of the account signed in here ends its session and says why.
    run "sign-up reset@example.com" with_password sign-up reset@example.com
    run "sesamectl reset-password reset@example.com" sesamectl reset-password reset@example.com
    local link
    link=$(sign_in_link reset@example.com)
    out=$(printf 'Another-Pw-56\n' | sesamectl reset-password --complete "$link" --password-stdin 2>&1)
    expect "reset-password --complete: sign in with the new password" "sign in"
    out=$(sesamectl status 2>&1)
    expect "after the reset: the session ended at once" "^status: +(anonymous|signed out)"
    run "after the reset: sesamectl token" sesamectl token
    if grep -q "deleted, disabled" <<< "$out"; then fail "after the reset: blamed a deleted account" "$out"; else ok "after the reset: no wrong cause"; fi
    out=$(printf 'Another-Pw-56\n' | sesamectl sign-in reset@example.com --password-stdin 2>&1) \
        && ok "sign-in with the new password" || fail "sign-in with the new password" "$out"

    # Item 6 and 9 (Firebase): an address change confirmed by its link; status says what to do.
    if [ "$PROVIDER" = firebase ]; then
        local member_uid
        member_uid=$(uid_now)
        run "sesamectl change-email moved@example.com" sesamectl change-email moved@example.com
        run "status with a pending address" sesamectl status \
            && expect "status: the pending address says to open its link" \
                "pending email: +moved@example\.com \(not yet confirmed: open the link mailed to moved@example\.com\)"
        link=$(curl -fsS --max-time 30 "$MAILBOX" | python3 -c 'import json, sys
items = [i for i in json.load(sys.stdin).get("oobCodes", []) if i.get("requestType") == "VERIFY_AND_CHANGE_EMAIL"]
print(items[-1]["oobLink"] if items else "")')
        run "the owner opens the change link" curl -fsS --max-time 30 "$link"
        out=$(sesamectl status 2>&1)
        expect "after the confirmation: status no longer shows the old account" "^status: +anonymous"
        expect "after the confirmation: status says to sign in with the new address" \
            "changed to moved@example\.com.*sesamectl sign-in moved@example\.com"
        if grep -q "deleted, disabled" <<< "$out"; then fail "after the change: blamed a deleted account" "$out"; else ok "after the change: no wrong cause"; fi
        out=$(printf 'Another-Pw-56\n' | sesamectl sign-in moved@example.com --password-stdin 2>&1)
        expect "sign-in with the new address: the same account" "moved@example\.com \(uid $member_uid\)"
    fi

    # Item 9: exec names itself once.
    local status=0
    out=$(sesamectl exec -- first-hour-no-such-command 2>&1) || status=$?
    same "exec of a missing command: exit 127" "$status" 127
    expect "exec: one prefix" "^sesamectl: exec: cannot run first-hour-no-such-command"
}

# refused NAME CMD...: CMD fails (exit 1) saying to sign out first.
refused() {
    local name=$1 status=0; shift
    out=$("$@" 2>&1 < /dev/null) || status=$?
    if [ $status -eq 1 ] && grep -q 'run `sesamectl sign-out` first' <<< "$out"; then ok "$name: refused, sign out first"
    else fail "$name: not refused as it should be (exit $status)" "$out"; fi
}

# device_sign_in NAME EMAIL CMD...: runs CMD (a device flow with --json), opens its page as a
# person would on this machine (the emulator's stand-in provider), approves with EMAIL; CMD's
# output is in $out.
device_sign_in() {
    local name=$1 email=$2; shift 2
    "$@" > "$WORK/device.out" 2>&1 < /dev/null &
    local pid=$!
    if ! wait_until 30 grep -q verificationUri "$WORK/device.out"; then
        kill "$pid" 2> /dev/null; wait "$pid" 2> /dev/null
        fail "$name: no device flow started" "$(cat "$WORK/device.out")"
        return 1
    fi
    local flow page code
    flow=$(grep -m1 verificationUri "$WORK/device.out")
    page=$(json_field verificationUri <<< "$flow")
    code=$(json_field userCode <<< "$flow")
    curl -fsS --max-time 30 -o /dev/null --data-urlencode "user_code=$code" --data-urlencode "email=$email" \
        --data-urlencode "name=Dev" --data-urlencode "action=approve" "$page" \
        && ok "$name: the page on $page approves" || fail "$name: the page did not take the approval"
    local status=0
    wait "$pid" || status=$?
    out=$(cat "$WORK/device.out")
    if [ $status -eq 0 ]; then ok "$name: finished"; else fail "$name: exit $status" "$out"; return 1; fi
}

# --- make run, in the background ------------------------------------------------------------------
runner=""
api=""
cleanup() {
    [ -n "$runner" ] && kill -TERM -- "-$runner" 2> /dev/null && wait "$runner" 2> /dev/null
    [ -n "$api" ] && kill "$api" 2> /dev/null && wait "$api" 2> /dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_make_run PROVIDER LOG: scripts/run.sh in its own process group, with SIGINT handled as
# in a terminal (a background job of a script starts with it ignored); waits until it runs.
start_make_run() {
    (cd "$ROOT" && exec python3 -c 'import os, signal, sys
os.setpgid(0, 0)
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' scripts/run.sh "$BIN" "$1") > "$2" 2>&1 < /dev/null &
    runner=$!
    if wait_until 90 grep -q "Press Ctrl-C to stop both" "$2"; then
        ok "make run PROVIDER=$1 starts"
    else
        fail "make run PROVIDER=$1 did not start" "$(cat "$2")"
        return 1
    fi
}

# group_alive PGID: a process of the group still runs (zombies, not yet reaped, do not count).
group_alive() { ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'; }

# stop_make_run: Ctrl-C (SIGINT to the process group), then wait for everything to end.
stop_make_run() {
    kill -INT -- "-$runner"
    if wait_until 30 eval '! group_alive "$runner"'; then
        ok "Ctrl-C stops make run (emulator and daemon included)"
    else
        fail "Ctrl-C did not stop make run" "$(ps -o pid,stat,cmd -g "$runner")"
        kill -KILL -- "-$runner" 2> /dev/null
    fi
    wait "$runner" 2> /dev/null
    runner=""
}

# sign_in_link EMAIL: the newest sign-in link mailed to EMAIL, read at the emulator.
sign_in_link() {
    curl -fsS --max-time 30 "$MAILBOX" | python3 -c 'import json, sys
data = json.load(sys.stdin)
items = data.get("oobCodes") or data.get("messages") or []
links = [i.get("oobLink") or i.get("link") for i in items if i.get("email") == sys.argv[1]]
print(links[-1] if links else "")' "$1"
}

one_time_code() {
    curl -fsS --max-time 30 "$MAILBOX" | python3 -c 'import json, sys
items = json.load(sys.stdin).get("messages") or []
codes = [i.get("otp") for i in items if i.get("email") == sys.argv[1] and i.get("otp")]
print(codes[-1] if codes else "")' "$1"
}

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

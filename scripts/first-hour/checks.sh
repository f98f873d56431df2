# Sourced by scripts/first-hour.sh: the checks (ok, fail, run, expect, same, differ), small
# helpers, `make run` in the background, and the emulator's mailbox. Uses its ROOT, BIN, WORK, MAILBOX.

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

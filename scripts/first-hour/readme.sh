# Sourced by scripts/first-hour.sh (uses its BIN, WORK, PASSWORD, MAILBOX, API, provider and
# the checks of first-hour/checks.sh). README.md's commands, in one place; keep them in step with it.

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

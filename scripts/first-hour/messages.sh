# Sourced by scripts/first-hour.sh (uses its BIN, WORK, PASSWORD, MAILBOX, API, provider and
# the checks of first-hour/checks.sh). Issue 31's first-hour messages and rules.

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

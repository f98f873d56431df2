# Sourced by scripts/test-systemd.sh (uses its on, check, ok, fail, wait_for, machine_root, uid).
# (/tmp inside the machine is a tmpfs of its own: files the host reads go to /root.)
# A fleet machine enrols itself (issue 20): a custom token delivered as a systemd credential
# (LoadCredential=enroll:/etc/fleet/token, provisioning.token_file = "enroll") signs a machine
# with no keyring in at its first start, is read once, and never reaches the journal.

# The device flow under systemd: sesamectl shows a code, the "phone" approves it at the
# emulator's fake Google, and the journal holds none of the flow's secrets or the provider's tokens.
rm -f "$machine_root/root/device.out"
# ann is signed in, and sesamectl never signs in over an account: sign out first, as a person would.
check "device flow: sesamectl sign-out before signing in with another account" on sesamectl sign-out
on sh -c 'setsid sesamectl sign-in google --device --no-qr > /root/device.out 2>&1 < /dev/null &'
device_code_shown() { grep -qE '^ +[A-Z]{4}-[A-Z]{4}$' "$machine_root/root/device.out"; }
if wait_for 30 device_code_shown; then
    user_code=$(grep -oE '^ +[A-Z]{4}-[A-Z]{4}$' "$machine_root/root/device.out" | tr -d ' ')
    nsenter -t "$leader" -n curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
        -d "{\"userCode\":\"$user_code\",\"email\":\"device@example.com\"}" \
        http://127.0.0.1:9099/emulator/v1/idp/google.com/device/approve
    device_signed_in() { on sesamectl status --json | grep -q '"providers":\["google.com"\]'; }
    check "device flow under systemd: sesamectl sign-in google --device, approved on the phone: signed in" \
        wait_for 30 device_signed_in
    device_journal=$(on journalctl -o export -u sesamed.service | tr -d '\0')
    # The fake provider's access tokens start emu_at_, its ID tokens with the header {"alg":"ES256".
    check "device flow: no provider access token or ID token in the journal" \
        eval '! grep -qE "emu_at_|eyJhbGciOiJFUzI1NiIs" <<< "$device_journal"'
else
    fail "device flow under systemd: sesamectl printed no code ($(head -c 300 "$machine_root/root/device.out"))"
fi

# An unsigned Firebase custom token, as firebase-admin mints one for an emulator.
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
now=$(date +%s)
fleet_uid="fleet-$(head -c 4 /dev/urandom | od -An -tx1 | tr -d ' \n')"
audience=https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit
payload="{\"aud\":\"$audience\",\"iat\":$now,\"exp\":$((now + 3600)),\"uid\":\"$fleet_uid\",\"iss\":\"fleet@demo-project.iam.gserviceaccount.com\",\"sub\":\"fleet@demo-project.iam.gserviceaccount.com\"}"
fleet_token="$(printf '%s' '{"alg":"none","typ":"JWT"}' | b64url).$(printf '%s' "$payload" | b64url)."
install -d -m 0700 "$machine_root/etc/fleet"
printf '%s\n' "$fleet_token" > "$machine_root/etc/fleet/token"
chmod 0600 "$machine_root/etc/fleet/token"
on sh -c 'printf "[Service]\nLoadCredential=enroll:/etc/fleet/token\n" > /etc/systemd/system/sesamed.service.d/fleet.conf'
if ! grep -q '^\[provisioning\]' "$machine_root/etc/sesame/sesamed.toml"; then
    printf '[provisioning]\ntoken_file = ""\n' >> "$machine_root/etc/sesame/sesamed.toml"
fi
sed -i 's/^token_file = ""/token_file = "enroll"/' "$machine_root/etc/sesame/sesamed.toml"
on systemctl daemon-reload
# A machine at its first start: no keyring yet (the key credential stays).
on systemctl stop sesamed.service
rm -f "$machine_root/var/lib/sesame/keyring"
fleet_started=$(on date '+%Y-%m-%d %H:%M:%S')
on systemctl start sesamed.service
enrolled() { on sesamectl status --json | grep -q "\"uid\":\"$fleet_uid\""; }
check "provisioning: LoadCredential=enroll + token_file = \"enroll\": the machine signs in as $fleet_uid at first start" \
    wait_for 30 enrolled
on systemctl restart sesamed.service
check "provisioning: after a restart the same account (the token is read once, nothing re-spent)" wait_for 30 enrolled
fleet_journal=$(on journalctl -o export -u sesamed.service --since "$fleet_started" | tr -d '\0')
check "provisioning: the journal never holds the token" eval '! grep -qF "$fleet_token" <<< "$fleet_journal"'
check "provisioning: nor the token's signature-less body" eval '! grep -qF "${fleet_token#*.}" <<< "$fleet_journal"'
check "provisioning: the token is not in the keyring file" eval '! grep -qaF "$fleet_token" "$machine_root/var/lib/sesame/keyring"'
uid=$fleet_uid

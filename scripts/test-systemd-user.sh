# Sourced by scripts/test-systemd.sh (uses its on, as, check, uid).
# The user instance: alice runs her own sesamed (systemctl --user), with her own guest.

# docs/systemd.md's steps: the package's example, readable by anyone (bob, in no group, too),
# unlike /etc/sesame/sesamed.toml; then the backend's settings.
check "bob may read the example configuration, not /etc/sesame/sesamed.toml" \
    eval 'as bob cat /usr/share/doc/sesame/examples/sesamed.toml > /dev/null && ! as bob cat /etc/sesame/sesamed.toml > /dev/null 2>&1'
as alice mkdir -p /home/alice/.config/sesame
as alice cp /usr/share/doc/sesame/examples/sesamed.toml /home/alice/.config/sesame/
as alice sed -i -e 's/^api_key = ""/api_key = "test-key"/' -e 's/^project_id = ""/project_id = "demo-project"/' \
    -e 's/^auth_emulator_host = ""/auth_emulator_host = "127.0.0.1:9099"/' \
    -e 's/^database_emulator_host = ""/database_emulator_host = "127.0.0.1:9000"/' /home/alice/.config/sesame/sesamed.toml
# The minimal machine has no pam_systemd to set XDG_RUNTIME_DIR for the user manager.
on install -d /etc/systemd/system/user@1000.service.d
on sh -c 'printf "[Service]\nEnvironment=XDG_RUNTIME_DIR=/run/user/1000\n" > /etc/systemd/system/user@1000.service.d/runtime.conf'
on systemctl daemon-reload
on systemctl start user@1000.service
user_env=(env XDG_RUNTIME_DIR=/run/user/1000)
as alice "${user_env[@]}" systemctl --user enable --now sesamed.socket > /dev/null 2>&1
user_socket=$(on stat -c '%a %U' /run/user/1000/sesame/sesamed.sock 2>&1)
check "user instance: socket /run/user/1000/sesame/sesamed.sock 600 alice (is: $user_socket)" test "$user_socket" = "600 alice"
out=$(as alice "${user_env[@]}" sesamectl status --json 2>&1)
user_uid=$(sed -n 's/.*"uid":"\([^"]*\)".*/\1/p' <<< "$out")
check "user instance: alice's own guest ($user_uid), not the system session" eval '[ -n "$user_uid" ] && [ "$user_uid" != "$uid" ]'
check "user instance: sesamed.service active in alice's manager" test "$(as alice "${user_env[@]}" systemctl --user show -p ActiveState --value sesamed.service)" = active

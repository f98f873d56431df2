#!/usr/bin/env bash
# Sesame under a real systemd: boots a minimal Debian 12 on systemd-nspawn, installs the .deb
# of `make deb` (the machine has no Swift: this proves the static runtime too), runs
# sesame-emulator in its network, and checks the units, socket activation, readiness, the journal,
# the keyring and its credential (plain, then encrypted), the watchdog, roles, the user instance, a clean stop,
# and remove, reinstall and purge of the package.
# `make test-systemd` calls it. Root only.
#
# Usage: scripts/test-systemd.sh DEB EMULATOR
#   DEB       the sesame_*.deb to install
#   EMULATOR  a sesame-emulator (the build's own: it runs on this host, in the machine's network)
#
# The Debian root (240 MB) is debootstrapped once into /var/cache/sesame/test-systemd, or
# SESAME_ROOTFS_CACHE, from Debian's mirror (DEBIAN_MIRROR) and copied for each run. Each check
# prints one `ok` or `FAIL` line; it exits 1 when any check fails, 2 when it cannot run at all.
set -uo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 DEB EMULATOR" >&2
    exit 2
fi
deb=$(readlink -f "$1")
emulator=$(readlink -f "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
cache="$root/.build-systemd"
machine_root="$cache/machine"
rootfs_cache="${SESAME_ROOTFS_CACHE:-/var/cache/sesame/test-systemd}"
for tool in systemd-nspawn debootstrap nsenter curl; do
    command -v "$tool" > /dev/null || { echo "test-systemd: $tool is missing: apt-get install systemd-container debootstrap util-linux curl" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "test-systemd: needs root (systemd-nspawn)" >&2; exit 2; }
[ -f "$deb" ] && [ -x "$emulator" ] || { echo "test-systemd: $deb or $emulator is missing: run make deb" >&2; exit 2; }

failures=0
ok() { echo "ok    $1"; }
fail() { echo "FAIL  $1${2:+: $2}"; failures=$((failures + 1)); }
# check NAME COMMAND...: ok when COMMAND succeeds.
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }

# --- The machine -------------------------------------------------------------------------
# The machine has what the package's Depends names (dpkg -i resolves nothing): systemd, and the
# shared libraries the binaries link (libqrencode4 for sesamectl's QR codes); a cached root made
# with another list is made again.
packages=systemd,systemd-sysv,dbus,libqrencode4
if [ "$(cat "$rootfs_cache/rootfs/.sesame-packages" 2> /dev/null)" != "$packages" ]; then
    echo "test-systemd: debootstrapping Debian 12 into $rootfs_cache/rootfs (once)"
    rm -rf "$rootfs_cache/rootfs.tmp" "$rootfs_cache/rootfs" && mkdir -p "$rootfs_cache"
    debootstrap --variant=minbase --include="$packages" bookworm "$rootfs_cache/rootfs.tmp" \
        "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" > "$rootfs_cache/debootstrap.log" 2>&1 \
        || { echo "test-systemd: debootstrap failed, see $rootfs_cache/debootstrap.log" >&2; exit 2; }
    echo "$packages" > "$rootfs_cache/rootfs.tmp/.sesame-packages"
    mv "$rootfs_cache/rootfs.tmp" "$rootfs_cache/rootfs"
fi
rm -rf "$machine_root" && mkdir -p "$cache"
cp -a "$rootfs_cache/rootfs" "$machine_root"
cp "$deb" "$machine_root/root/sesame.deb"
# No Swift on this machine: the package must bring everything it needs.
if [ -n "$(find "$machine_root" -name 'libswiftCore.so*' -print -quit)" ]; then
    echo "test-systemd: the machine has a Swift runtime; it must not" >&2
    exit 2
fi

log="$cache/boot.log"
systemd-nspawn --register=no --keep-unit --private-network -D "$machine_root" -M sesametest \
    --console=pipe -b > "$log" 2>&1 &
nspawn=$!
leader=""
emulator_pid=""  # the emulator (not packaged): this host's build, in the machine's network only
cleanup() {
    if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2> /dev/null || true; fi
    if [ -n "$leader" ]; then nsenter -t "$leader" -a systemctl poweroff > /dev/null 2>&1 || true; fi
    for _ in $(seq 1 100); do kill -0 "$nspawn" 2> /dev/null || break; sleep 0.1; done
    kill "$nspawn" 2> /dev/null || true
    wait "$nspawn" 2> /dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 300); do
    leader=$(pgrep -P "$nspawn" -x systemd || true)
    [ -n "$leader" ] && break
    sleep 0.1
done
[ -n "$leader" ] || { echo "test-systemd: the machine did not boot, see $log" >&2; exit 2; }
# on CMD...: runs CMD inside the machine, as root, with a clean environment.
on() { nsenter -t "$leader" -a env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
# as USER CMD...: runs CMD inside the machine as USER (with the groups of the group database).
as() { local user=$1; shift; on runuser -u "$user" -- "$@"; }
# wait_for SECONDS CMD...: polls CMD every 0.2 s until it succeeds; false after SECONDS.
wait_for() {
    local limit=$(($1 * 5)); shift
    for _ in $(seq 1 "$limit"); do "$@" > /dev/null 2>&1 && return 0; sleep 0.2; done
    return 1
}
running() { local s; s=$(on systemctl is-system-running 2> /dev/null); [ "$s" = running ] || [ "$s" = degraded ]; }
wait_for 60 running || { echo "test-systemd: the machine's systemd did not come up, see $log" >&2; exit 2; }
echo "test-systemd: machine up (systemd $(on systemctl --version | head -1 | cut -d' ' -f2))"

# --- The package -------------------------------------------------------------------------
if out=$(on dpkg -i /root/sesame.deb 2>&1); then ok "dpkg -i sesame.deb on a machine without Swift"; else fail "dpkg -i" "$out"; fi
check "the Node client's tarball is shipped (/usr/share/sesame/sesame-client.tgz holds package/package.json)" \
    test "$(on tar -tzf /usr/share/sesame/sesame-client.tgz | grep -cx package/package.json)" = 1
check "sysusers: user and group sesame exist" eval 'on getent passwd sesame > /dev/null && on getent group sesame > /dev/null'
mode=$(on stat -c '%a %U %G' /etc/sesame/sesamed.toml)
check "/etc/sesame/sesamed.toml is 0640 root:sesame (is: $mode)" test "$mode" = "640 root sesame"
check "sesamed.socket enabled by the package" test "$(on systemctl is-enabled sesamed.socket)" = enabled
check "sesamed.socket listening, sesamed.service not started yet" \
    test "$(on systemctl is-active sesamed.socket)/$(on systemctl is-active sesamed.service)" = "active/inactive"
out=$(on systemd-analyze verify sesamed.service sesamed.socket 2>&1)
check "systemd-analyze verify on the installed units: no output${out:+ ($out)}" test -z "$out"
exposure=$(on systemd-analyze security --no-pager sesamed.service 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
check "systemd-analyze security: exposure ${exposure:-?} <= 1.5" awk -v e="${exposure:-99}" 'BEGIN { exit !(e <= 1.5) }'

# --- Backend, configuration, credential ----------------------------------------------------
nsenter -t "$leader" -n "$emulator" --auth-port 9099 --database-port 9000 --project demo-project \
    > "$cache/emulator.log" 2>&1 & emulator_pid=$!
check "sesame-emulator runs in the machine's network" wait_for 30 grep -q 'database listening' "$cache/emulator.log"
on sed -i -e 's/^api_key = ""/api_key = "test-key"/' -e 's/^project_id = ""/project_id = "demo-project"/' \
    -e 's/^auth_emulator_host = ""/auth_emulator_host = "127.0.0.1:9099"/' \
    -e 's/^database_emulator_host = ""/database_emulator_host = "127.0.0.1:9000"/' /etc/sesame/sesamed.toml
# The keyring key as a credential, and a short watchdog so its check is quick.
on install -d -m 0700 /etc/credstore /etc/systemd/system/sesamed.service.d
on sh -c 'head -c 32 /dev/urandom | od -An -tx1 | tr -d " \n" > /etc/credstore/sesame-keyring.key; chmod 0600 /etc/credstore/sesame-keyring.key'
on sh -c 'printf "[Service]\nLoadCredential=keyring.key:/etc/credstore/sesame-keyring.key\n" > /etc/systemd/system/sesamed.service.d/test.conf'
on systemctl daemon-reload

# --- Socket activation, readiness, status ------------------------------------------------
status=$(on sesamectl status 2>&1)
check "socket activation: the first sesamectl status starts sesamed and shows the guest" grep -q 'anonymous (guest)' <<< "$status"
check "sesamed.service active after READY=1" test "$(on systemctl show -p ActiveState --value sesamed.service)" = active
pid=$(on systemctl show -p MainPID --value sesamed.service)
check "runs as user sesame" test "$(on stat -c %U "/proc/$pid")" = sesame
nofile=$(on awk '/^Max open files/ { print $4 "/" $5 }' "/proc/$pid/limits")
check "open files: soft and hard limit 8192 (LimitNOFILE, above socket.max_connections; is: $nofile)" \
    test "$nofile" = "8192/8192"
statustext=$(on systemctl show -p StatusText --value sesamed.service)
check "STATUS= reaches systemd: StatusText '$statustext'" grep -q anonymous <<< "$statustext"
uid=$(on sesamectl status --json | sed -n 's/.*"uid":"\([^"]*\)".*/\1/p')
check "a guest uid ($uid)" test -n "$uid"

# --- Keyring and credential ----------------------------------------------------------------
keyring=$(on stat -c '%a %U' /var/lib/sesame/keyring 2>&1)
check "keyring /var/lib/sesame/keyring is 0600 sesame (is: $keyring)" test "$keyring" = "600 sesame"
check "the key came from the credential: no keyring.key on disk" test ! -e "$machine_root/var/lib/sesame/keyring.key"

# --- Restart keeps the session -------------------------------------------------------------
on systemctl restart sesamed.service
after=$(on sesamectl status --json | sed -n 's/.*"uid":"\([^"]*\)".*/\1/p')
check "systemctl restart keeps the uid ($after)" test "$after" = "$uid"

# --- Hostile files: a link planted at the keyring is refused (78), never followed or replaced ---
on systemctl stop sesamed.service
on mv /var/lib/sesame/keyring /var/lib/sesame/keyring.saved
on ln -s /var/lib/sesame/keyring.saved /var/lib/sesame/keyring
on systemctl start sesamed.service 2> /dev/null || true
check "a link at the keyring path: sesamed stops with 78, no restart loop (ExecMainStatus $(on systemctl show -p ExecMainStatus --value sesamed.service))" \
    test "$(on systemctl show -p ExecMainStatus --value sesamed.service)" = 78
check "a link at the keyring path is left as it was" test -L "$machine_root/var/lib/sesame/keyring"
check "the journal says why, naming the keyring" \
    eval 'on journalctl -u sesamed.service -n 20 --no-pager | grep -q "/var/lib/sesame/keyring"'
on rm /var/lib/sesame/keyring
on mv /var/lib/sesame/keyring.saved /var/lib/sesame/keyring
on systemctl reset-failed sesamed.service
on systemctl start sesamed.service
after=$(on sesamectl status --json | sed -n 's/.*"uid":"\([^"]*\)".*/\1/p')
check "with the keyring back, the same uid ($after)" test "$after" = "$uid"

# --- The key as an encrypted credential (docs/systemd.md's recommended set-up) -------------
# Encrypted with the machine's credential key (no TPM here), the plain file then destroyed:
# the same keyring must open with the key systemd decrypts for the service.
on install -d -m 0700 /etc/credstore.encrypted
if on systemd-creds encrypt --name=keyring.key /etc/credstore/sesame-keyring.key \
        /etc/credstore.encrypted/sesame-keyring.key 2> /dev/null; then
    on shred -u /etc/credstore/sesame-keyring.key
    on sh -c 'printf "[Service]\nLoadCredentialEncrypted=keyring.key:/etc/credstore.encrypted/sesame-keyring.key\n" > /etc/systemd/system/sesamed.service.d/test.conf'
    on systemctl daemon-reload
    on systemctl restart sesamed.service
    after=$(on sesamectl status --json | sed -n 's/.*"uid":"\([^"]*\)".*/\1/p')
    check "LoadCredentialEncrypted: the keyring opens with the decrypted key, uid kept ($after)" test "$after" = "$uid"
    check "LoadCredentialEncrypted: no plain key left in /etc/credstore" test ! -e "$machine_root/etc/credstore/sesame-keyring.key"
else
    fail "systemd-creds encrypt failed inside the machine"
fi

# --- An account: secrets never reach the journal -------------------------------------------
password="Pw-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
out=$(on sh -c "printf '%s\n' '$password' | sesamectl sign-up ann@example.com --password-stdin" 2>&1)
check "sign-up ann@example.com keeps the uid" grep -q "$uid" <<< "$out"
token=$(on sesamectl token)
check "sesamectl token prints a JWT" test "$(tr -cd . <<< "$token" | wc -c)" -eq 2
on sesamectl send-link ann@example.com > /dev/null
oob=$(nsenter -t "$leader" -n curl -s http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes)
code=$(sed -n 's/.*"oobCode":"\([^"]*\)".*/\1/p' <<< "$oob" | tail -1)
statustext=$(on systemctl show -p StatusText --value sesamed.service)
check "StatusText does not show the email: '$statustext'" eval '! grep -q "ann@example.com" <<< "$statustext"'
journal=$(on journalctl -o export -u sesamed.service | tr -d '\0')
check "journal: PRIORITY and SYSLOG_IDENTIFIER=sesamed" eval 'grep -q "^PRIORITY=[0-7]$" <<< "$journal" && grep -q "^SYSLOG_IDENTIFIER=sesamed$" <<< "$journal"'
check "journal: Sesame's own fields (SESAME_LOGGER, SESAME_KEYRING_PATH)" eval 'grep -q "^SESAME_LOGGER=" <<< "$journal" && grep -q "^SESAME_KEYRING_PATH=/var/lib/sesame/keyring$" <<< "$journal"'
leaks=""
grep -qF "$token" <<< "$journal" && leaks+=" id-token"
grep -qF "$password" <<< "$journal" && leaks+=" password"
[ -n "$code" ] && grep -qF "$code" <<< "$journal" && leaks+=" oob-code"
# The emulator's refresh tokens are base64 JSON with this marker; any alignment of it.
for marker in X0F1dGhFbXVsYXRvclJlZnJlc2hUb2tl 9BdXRoRW11bGF0b3JSZWZyZXNoVG9r fQXV0aEVtdWxhdG9yUmVmcmVzaFRv; do
    grep -qF "$marker" <<< "$journal" && leaks+=" refresh-token"
done
found_code=found; [ -n "$code" ] || found_code="missing: send-link made no code"
check "journal: no ID token, refresh token, password or one-time code (code $found_code)${leaks:+, leaked:$leaks}" test -z "$leaks" -a -n "$code"

# --- Roles ----------------------------------------------------------------------------------
on useradd -m -u 1000 -G sesame alice
on useradd -m -u 1001 bob
out=$(as bob sesamectl status 2>&1); rc=$?
check "bob (not in group sesame) gets 69: permission denied, join group sesame" \
    eval '[ $rc -eq 69 ] && grep -q "permission denied on /run/sesame/sesamed.sock: join group sesame" <<< "$out"'
check "alice (group sesame) is served a token" eval 'as alice sesamectl token > /dev/null'
. "$(dirname "$0")/test-systemd-access.sh"  # a unit: entry holds for one transient unit only

# --- Idle memory: code pages given back inside the unit's sandbox ---------------------------
# memory.release_when_idle (5 s by default): madvise and malloc_trim must pass the unit's
# SystemCallFilter and MemoryDenyWriteExecute; the watchdog's pings run meanwhile.
code_kib() { on awk '/^[0-9a-f]+-[0-9a-f]+ / { code = ($2 == "r-xp" && $6 ~ /sesamed$/); next }
                     code && /^Rss:/ { kib += $2 } END { print kib + 0 }' "/proc/$1/smaps"; }
pid=$(on systemctl show -p MainPID --value sesamed.service)
as alice sesamectl token > /dev/null
busy_kib=$(code_kib "$pid")
sleep 11
idle_kib=$(code_kib "$pid")
check "idle: the daemon gave back its code pages (${busy_kib} KiB serving, ${idle_kib} KiB after 11 s idle)" \
    test "$idle_kib" -le $((busy_kib / 4))
check "idle: the next request is served as before" eval 'as alice sesamectl token > /dev/null'

# --- Watchdog: a hung daemon is replaced, the session kept ---------------------------------
# The package's runtime is static and finds no backtracer helper, so SIGABRT is fatal even
# without these settings; a dynamically linked build (make install) needs them (docs/systemd.md,
# Crashes): check the unit carries them.
crash="$(on systemctl show -p Environment --value sesamed.service) abort=$(on systemctl show -p TimeoutAbortUSec --value sesamed.service) core=$(on systemctl show -p LimitCORE --value sesamed.service)"
check "crash settings: SWIFT_BACKTRACE=enable=no, TimeoutAbortSec=5s, LimitCORE=0 (is: $crash)" \
    test "$crash" = "SWIFT_BACKTRACE=enable=no abort=5s core=0"
# With the package's own WatchdogSec= (chosen for few wake-ups, docs/systemd.md): a hung daemon
# must still be replaced within a minute.
watchdog=$(on systemctl show -p WatchdogUSec --value sesamed.service)
pid=$(on systemctl show -p MainPID --value sesamed.service)
started=$(date +%s)
on systemctl kill --kill-whom=main --signal=SIGSTOP sesamed.service
replaced() { local now; now=$(on systemctl show -p MainPID --value sesamed.service); [ "$now" != "$pid" ] && [ "$now" != 0 ] && [ "$(on systemctl is-active sesamed.service)" = active ]; }
if wait_for 90 replaced; then
    elapsed=$(($(date +%s) - started))
    check "watchdog: SIGSTOPped daemon replaced after ${elapsed} s (WatchdogSec=${watchdog}; limit 60 s)" test "$elapsed" -le 60
else
    fail "watchdog: SIGSTOPped daemon not replaced within 90 s (Swift's backtracer holding SIGABRT?)"
fi
after=$(on sesamectl status --json | sed -n 's/.*"uid":"\([^"]*\)".*/\1/p')
check "watchdog restart keeps the uid" test "$after" = "$uid"
on journalctl -u sesamed.service -o cat > "$cache/sesamed-journal.txt"
check "watchdog: the journal names the SIGABRT" grep -q "Watchdog timeout" "$cache/sesamed-journal.txt"

# shellcheck source=scripts/test-systemd-user.sh
. "$(dirname "$0")/test-systemd-user.sh"  # the user instance

# shellcheck source=scripts/test-systemd-fleet.sh
. "$(dirname "$0")/test-systemd-fleet.sh"  # fleet enrolment: a custom token as a systemd credential

. "$(dirname "$0")/test-systemd-libsesame.sh"  # libsesame0/-dev: pkg-config, the C example gets a token

# --- Clean stop ------------------------------------------------------------------------------
on systemd-analyze log-level debug
pid=$(on systemctl show -p MainPID --value sesamed.service)
on systemctl stop sesamed.service 2> /dev/null
on systemd-analyze log-level info
result="$(on systemctl show -p Result --value sesamed.service) $(on systemctl show -p ExecMainStatus --value sesamed.service)"
check "systemctl stop: Result=success, exit status 0 (is: $result)" test "$result" = "success 0"
notes=$(on journalctl -o cat _PID=1 | grep "Got notification message from PID $pid" || true)
check "STOPPING=1 sent on SIGTERM" grep -q 'STOPPING=1' <<< "$notes"
after_stopping=$(sed -n '/STOPPING=1/,$p' <<< "$notes" | grep -o 'STATUS=[^,)]*' | grep -vi 'stop' || true)
check "no STATUS= after STOPPING=1 other than one saying it stops${after_stopping:+ ($after_stopping)}" test -z "$after_stopping"

# --- Remove, reinstall, purge ---------------------------------------------------------------
# remove keeps the keyring (and masks the units, as debhelper's postrm does); a reinstall must
# lift those masks, listen again and serve the same session; purge deletes everything.
if out=$(on dpkg -r sesame 2>&1); then ok "dpkg -r sesame"; else fail "dpkg -r" "$out"; fi
check "after remove: sesamed.socket not listening" eval '! on systemctl is-active --quiet sesamed.socket'
check "after remove: the keyring is kept" test -f "$machine_root/var/lib/sesame/keyring"
if out=$(on dpkg -i /root/sesame.deb 2>&1); then ok "dpkg -i again after remove"; else fail "dpkg -i again" "$out"; fi
enabled="$(on systemctl is-enabled sesamed.socket 2>&1)/$(on systemctl is-enabled sesamed.service 2>&1)"
check "after reinstall: socket enabled, service not masked (is: $enabled)" test "$enabled" = "enabled/disabled"
check "after reinstall: sesamed.socket listening" test "$(on systemctl is-active sesamed.socket)" = active
after=$(on sesamectl status --json 2>&1 | sed -n 's/.*"uid":"\([^"]*\)".*/\1/p')
check "after reinstall: the same session, uid kept ($after)" test "$after" = "$uid"
if out=$(on dpkg -P sesame 2>&1); then ok "dpkg -P sesame"; else fail "dpkg -P" "$out"; fi
check "after purge: /var/lib/sesame and /etc/sesame are gone" \
    eval '[ ! -e "$machine_root/var/lib/sesame" ] && [ ! -e "$machine_root/etc/sesame" ]'
left=$(on sh -c 'ls -d /etc/systemd/system/sesamed.socket /etc/systemd/system/sesamed.service /etc/systemd/system/*.wants/sesamed.* /var/lib/systemd/deb-systemd-helper-*/sesamed.* /var/lib/systemd/deb-systemd-helper-*/*/sesamed.* 2> /dev/null' || true)
check "after purge: no mask, enablement link or deb-systemd-helper state left${left:+ ($left)}" test -z "$left"
check "after purge: no statoverride left" eval '! on dpkg-statoverride --list /etc/sesame/sesamed.toml > /dev/null'

echo
if [ "$failures" -ne 0 ]; then
    echo "test-systemd: $failures check(s) FAILED (boot log: $log, journal: $cache/sesamed-journal.txt)"
    exit 1
fi
echo "test-systemd: all checks passed"

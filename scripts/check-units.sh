#!/usr/bin/env bash
# Checks the systemd units in systemd/ against the built daemon.
#
# Usage: scripts/check-units.sh BINARY_DIR     (e.g. .build/debug; must contain sesamed)
#
# 1. Copies the units to a temporary directory with ExecStart= pointing at BINARY_DIR/sesamed
#    (systemd-analyze verify fails on a missing binary).
# 2. `systemd-analyze verify` on the system and the user units: any output at all is a
#    failure, since verify exits 0 on unknown keys and bad values and only warns.
# 3. `systemd-analyze security --offline=true --threshold=20` on the system service: the
#    overall exposure must be at most 2.0.
# 4. `systemd-sysusers --root=TMP` with sysusers.d/sesame.conf must create user and group sesame.
# Exits non-zero when any check fails; prints the exposure score.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 BINARY_DIR" >&2
    exit 2
fi
binary_dir=$(cd "$1" && pwd)
binary="$binary_dir/sesamed"
if [ ! -x "$binary" ]; then
    echo "check-units: $binary is not an executable (build it: swift build --product sesamed)" >&2
    exit 2
fi
units=$(cd "$(dirname "$0")/../systemd" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A user manager needs a runtime directory, even for an offline verify.
mkdir -m 0700 "$work/runtime"

failed=0
for scope in system user; do
    mkdir -p "$work/$scope"
    for unit in "$units/$scope"/*; do
        sed "s#^ExecStart=/usr/bin/sesamed#ExecStart=$binary#" "$unit" > "$work/$scope/$(basename "$unit")"
    done
    if ! grep -q "^ExecStart=$binary" "$work/$scope/sesamed.service"; then
        echo "check-units: $scope/sesamed.service: ExecStart= does not start with /usr/bin/sesamed" >&2
        failed=1
    fi
done

# verify: run from inside the directory so sesamed.service finds its sesamed.socket.
verify() {
    local scope=$1
    shift
    local output status=0
    output=$(cd "$work/$scope" && XDG_RUNTIME_DIR="$work/runtime" systemd-analyze "$@" verify --man=no \
        sesamed.service sesamed.socket 2>&1) || status=$?
    if [ "$status" -ne 0 ] || [ -n "$output" ]; then
        echo "check-units: systemd-analyze verify ($scope units) failed (exit $status):" >&2
        echo "$output" >&2
        failed=1
    else
        echo "check-units: verify $scope units: clean"
    fi
}
verify system --system
verify user --user

security_output=$(systemd-analyze security --offline=true --threshold=20 --no-pager \
    "$work/system/sesamed.service" 2>&1) && security_status=0 || security_status=$?
exposure=$(printf '%s\n' "$security_output" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
if [ "$security_status" -ne 0 ] || [ -z "$exposure" ]; then
    echo "check-units: systemd-analyze security failed (exit $security_status, exposure '${exposure:-?}', threshold 2.0):" >&2
    printf '%s\n' "$security_output" | grep -v '^✓' >&2 || true
    failed=1
else
    echo "check-units: system sesamed.service exposure $exposure (threshold 2.0)"
fi

# sysusers.d: applying it to an empty root must create user and group "sesame".
sysroot="$work/sysroot"
mkdir -p "$sysroot/etc" "$sysroot/usr/lib/sysusers.d"
cp "$units/sysusers.d/sesame.conf" "$sysroot/usr/lib/sysusers.d/"
if sysusers_output=$(systemd-sysusers --root="$sysroot" 2>&1) \
    && grep -q '^sesame:x:[0-9]*:[0-9]*:' "$sysroot/etc/passwd" && grep -q '^sesame:x:' "$sysroot/etc/group"; then
    echo "check-units: sysusers.d/sesame.conf: creates user and group sesame"
else
    echo "check-units: sysusers.d/sesame.conf failed:" >&2
    echo "$sysusers_output" >&2
    failed=1
fi

if [ "$failed" -ne 0 ]; then
    echo "check-units: FAILED" >&2
    exit 1
fi
echo "check-units: OK"

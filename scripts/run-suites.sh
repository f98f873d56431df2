#!/usr/bin/env bash
# Runs make test's suites in order (`make test`), stopping at the first that fails as make
# would, and ends with how long each took, so a slow CI run says where its time went.
# Usage: scripts/run-suites.sh [VAR=VALUE...] -- SUITE...   (each suite a make target; MAKE is
# make's own command; the assignments are given to each make, as BUILD_DIR, so that it is found once)
set -uo pipefail
assignments=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
    assignments+=("$1")
    shift
done
shift
started=$(date +%s)
report=()
status=0
for suite in "$@"; do
    begin=$(date +%s)
    "${MAKE:-make}" --no-print-directory "${assignments[@]}" "$suite"
    status=$?
    report+=("$suite $(($(date +%s) - begin)) s")
    if [ "$status" -ne 0 ]; then
        report+=("(failed)")
        break
    fi
done
echo
echo "== make test: the suites' times, $(($(date +%s) - started)) s in all =="
printf '  %s\n' "${report[@]}"
exit "$status"

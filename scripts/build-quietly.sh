#!/usr/bin/env bash
# `make run`'s build: scripts/build-quietly.sh LOG SWIFT-BUILD-COMMAND... -- PRODUCT...
# Builds each product with the given `swift build` command, its output in LOG; prints one line
# while it works and, when a build fails, its errors (or the log's end) and the log's path.
set -uo pipefail
log=$1
shift
build=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do build+=("$1"); shift; done
shift
mkdir -p "$(dirname "$log")"
: > "$log"
echo "building $* (output in $log; a first build takes several minutes) ..."
for product in "$@"; do
    if ! "${build[@]}" --product "$product" >> "$log" 2>&1; then
        echo "make run: building $product failed; its errors (the whole output is in $log):" >&2
        if grep -q 'error:' "$log"; then
            grep -A 3 'error:' "$log" >&2
        else
            tail -n 40 "$log" >&2
        fi
        exit 1
    fi
done

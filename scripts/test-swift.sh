#!/usr/bin/env bash
# Runs the Swift test suite (`make test-swift`). On failure it ends with a short summary, so the
# last lines of a CI log say what failed: the failing tests, and for a crash the crashed
# thread's first frames (a Swift backtrace ends with the list of loaded images, which says
# nothing). The whole output is also kept in $BUILD_DIR/../test-swift.log.
# Usage: scripts/test-swift.sh BUILD_DIR [swift test arguments...]
set -uo pipefail
BUILD_DIR="$1"
shift
LOG="$(dirname "$BUILD_DIR")/test-swift.log"
SESAME_BIN_DIR="$BUILD_DIR" "${SWIFT:-swift}" test --skip-build "$@" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "== test-swift failed (exit $status); the whole output is in $LOG =="
    grep -E '^(✘ Test .*(recorded an issue|failed after)|.*: error: -\[|Test Case .* failed)' "$LOG" | head -40
    if grep -q '\*\*\* Program crashed' "$LOG"; then
        grep -m1 '\*\*\* Program crashed' "$LOG"
        awk '/ crashed:$/ { on = 1; n = 0 } on { print; if (++n > 16) exit }' "$LOG"
    fi
fi
exit "$status"

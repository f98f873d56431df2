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
# A hung test must fail the run, not hold CI to its own limit: the whole suite gets 30 minutes
# (it takes 3 here). Output is line-buffered so the log shows what had started when it hung.
SESAME_BIN_DIR="$BUILD_DIR" timeout -k 30 "${SWIFT_TEST_TIMEOUT:-1800}" \
    stdbuf -oL -eL "${SWIFT:-swift}" test --skip-build "$@" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo
    echo "== test-swift did not finish in ${SWIFT_TEST_TIMEOUT:-1800} s: a test hangs. Started and not finished: =="
    python3 - "$LOG" <<'PY'
import re, sys
started, done = [], set()
for line in open(sys.argv[1], errors="replace"):
    line = line.strip()
    m = re.match(r"◇ Test (.+?) started\.$", line)
    if m and m.group(1) != "run" and not m.group(1).startswith("case passing"):
        started.append(m.group(1))
    m = re.match(r"[✔✘] Test (.+?)( with \d+ test cases?)? (passed|failed)", line)
    if m:
        done.add(m.group(1))
print("\n".join(name for name in started if name not in done))
PY
fi
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

#!/usr/bin/env bash
# `make test-sanitizers`: the Swift test suite under AddressSanitizer and, separately,
# ThreadSanitizer, each in its own scratch path (.build-asan, .build-tsan).
#
# Settings, each for a reason:
# - SWIFT_BACKTRACE=enable=no: Swift's crash backtracer fights the sanitizers' own signal
#   handlers (reference: platform.md, fuzzing and sanitizers).
# - ASAN_OPTIONS=detect_leaks=0: LeakSanitizer reports leaks inside XCTest's own machinery
#   (expectation waiting), which is not our code; heap errors are still fatal.
# - TSAN_OPTIONS=halt_on_error=1: the first race fails the run with its report.
# The end-to-end tests spawn the sanitized sesamed and sesame-emulator (SESAME_BIN_DIR), so
# the daemon's own threads run under the sanitizer too.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-address thread}"
export SWIFT_BACKTRACE=enable=no
for sanitizer in $which; do
    scratch=".build-$( [ "$sanitizer" = address ] && echo asan || echo tsan )"
    echo "== swift test under the $sanitizer sanitizer ($scratch)"
    swift build --build-tests --sanitize "$sanitizer" --scratch-path "$scratch"
    bin=$(swift build --sanitize "$sanitizer" --scratch-path "$scratch" --show-bin-path)
    ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=1 SESAME_BIN_DIR="$bin" \
        swift test --skip-build --sanitize "$sanitizer" --scratch-path "$scratch" --parallel --num-workers 2
done

#!/usr/bin/env bash
# Fuzzes the request decoder (SesameLocalAPI) with libFuzzer + AddressSanitizer.
# Usage: scripts/fuzz.sh [SECONDS]   (default 30). Crashes land in fuzz-artifacts/.
set -euo pipefail
seconds=${1:-30}
swift build -c release --product FuzzLocalAPI --scratch-path .build-fuzz \
    --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address >/dev/null
mkdir -p fuzz-artifacts .build-fuzz/corpus
cp Fuzz/corpus/* .build-fuzz/corpus/
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
    .build-fuzz/release/FuzzLocalAPI .build-fuzz/corpus -max_total_time="$seconds" -max_len=70000 \
    -dict=Fuzz/json.dict -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 2>&1 | tail -12

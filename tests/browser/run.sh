#!/usr/bin/env bash
# The browser sign-in flow in a real browser (issue 20): headless Chromium driven by WebDriver
# (Debian's chromium and chromium-driver, Selenium from PyPI) runs `sesamectl sign-in google
# --browser` through the emulator's authorize page back to sesamectl's loopback listener, on
# both backends; plus a forged `state` and a replayed callback.
# Usage: tests/browser/run.sh BIN_DIR (the folder with sesamed, sesamectl and sesame-emulator).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1/sesamed" ] || [ ! -x "$1/sesamectl" ] || [ ! -x "$1/sesame-emulator" ]; then
    echo "usage: $0 BIN_DIR (the folder holding built sesamed, sesamectl and sesame-emulator)" >&2
    exit 2
fi
BIN_DIR="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"
"$HERE/../../scripts/ensure-deps.sh" chromium chromium-driver
VENV="$HERE/.venv"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'selenium>=4.20,<5' pytest
cd "$HERE" && SESAME_BIN_DIR="$BIN_DIR" "$VENV/bin/python" -m pytest -q -p no:cacheprovider .

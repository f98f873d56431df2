#!/usr/bin/env bash
# Tests of sesame-client: clients/python/run-tests.sh BIN_DIR (the folder with sesamed and
# sesame-emulator). Creates clients/python/.venv (gitignored), installs the package with its test
# extras from PyPI, runs mypy --strict on the package and pytest against the real binaries.
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1/sesamed" ] || [ ! -x "$1/sesame-emulator" ]; then
    echo "usage: $0 BIN_DIR (the folder holding built sesamed and sesame-emulator)" >&2
    exit 2
fi
BIN_DIR="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"
VENV="$HERE/.venv"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$HERE[test]"
"$VENV/bin/python" "$HERE/scripts/generate_reasons.py" --check
"$VENV/bin/python" "$HERE/scripts/generate_calls.py" --check
"$VENV/bin/python" "$HERE/scripts/generate_methods.py" --check
(cd "$HERE" && "$VENV/bin/python" -m mypy --strict src && cd tests && "$VENV/bin/python" -m mypy --strict .)
cd "$HERE/tests" && SESAME_BIN_DIR="$BIN_DIR" "$VENV/bin/python" -m pytest -q -p no:cacheprovider .

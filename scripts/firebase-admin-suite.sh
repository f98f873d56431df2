#!/usr/bin/env bash
# Runs firebase-admin-python's own integration tests for Auth and the Realtime Database
# (integration/test_auth.py, integration/test_db.py), unchanged, against sesame-emulator as
# Google's emulator would serve them. Not part of `make test`: it needs the suite's source.
#
#   scripts/firebase-admin-suite.sh DIR [pytest arguments…]   (files: test_auth.py test_db.py unless named)
#
# DIR is a clone of firebase-admin-python (holding firebase_admin/ and integration/). The
# package under test is installed from DIR into a venv under .build/ (from PyPI with its
# dependencies); the emulator is the debug build (built when missing). The suite's --cert is a
# service account made here with a fresh key (the emulator accepts any signature, as Google's
# does), --apikey any key. Its own HTTPS calls to Google's hosts go to the emulator through
# scripts/firebase-admin-suite/googleapis_redirect.py, a pytest plugin (see there). The options
# are given as --cert=PATH: pytest reads them before it loads the suite's conftest, and would
# take a separate PATH for a test to collect. The rest of integration/ (Firestore, Storage,
# ML, …) is not the emulator's to serve: without arguments only the two files run.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 FIREBASE_ADMIN_PYTHON_DIR [pytest args…]" >&2; exit 2; }
suite=$(cd "$1" && pwd); shift
[ -d "$suite/integration" ] && [ -d "$suite/firebase_admin" ] \
    || { echo "$suite has no integration/ and firebase_admin/" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/.build/firebase-admin-suite"
venv="$work/venv"
mkdir -p "$work"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q "$suite" pytest pytest-asyncio pytest-localserver pytest-mock respx

project=demo-project
openssl genrsa -out "$work/key.pem" 2048 2>/dev/null
"$venv/bin/python" - "$work" "$project" <<'PY'
import json, pathlib, sys
work, project = pathlib.Path(sys.argv[1]), sys.argv[2]
(work / "cert.json").write_text(json.dumps({
    "type": "service_account", "project_id": project, "private_key_id": "sesame-emulator",
    "private_key": (work / "key.pem").read_text(), "client_email": f"suite@{project}.iam.gserviceaccount.com",
    "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
}))
(work / "apikey.txt").write_text("fake-api-key\n")
PY

emulator="$root/.build/debug/sesame-emulator"
[ -x "$emulator" ] || (cd "$root" && swift build --product sesame-emulator)
ready="$work/emulator.out"
"$emulator" --auth-port 0 --database-port 0 --project "$project" >"$ready" 2>"$work/emulator.err" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
    [ "$(grep -c ' listening on http://' "$ready" 2>/dev/null || true)" -ge 2 ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/emulator.err" >&2; exit 1; }
    sleep 0.1
done
auth=$(sed -n 's|^sesame-emulator: auth listening on http://||p' "$ready")
database=$(sed -n 's|^sesame-emulator: database listening on http://||p' "$ready")

cd "$suite/integration"
# Unless a test file is named (`x.py` or `x.py::test`), the two files; other arguments are options.
names=0
for arg in "$@"; do [[ $arg == *.py || $arg == *.py::* ]] && names=1; done
[ "$names" = 1 ] || set -- "$@" test_auth.py test_db.py
FIREBASE_AUTH_EMULATOR_HOST="$auth" FIREBASE_DATABASE_EMULATOR_HOST="$database" \
    PYTHONPATH="$root/scripts/firebase-admin-suite" \
    "$venv/bin/python" -m pytest -p googleapis_redirect -p no:cacheprovider \
    --cert="$work/cert.json" --apikey="$work/apikey.txt" "$@"

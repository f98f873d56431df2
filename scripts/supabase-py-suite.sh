#!/usr/bin/env bash
# Runs supabase-py's own auth test suite, unchanged, against one sesame-emulator configured as
# the suite's four GoTrue servers (its infra/docker-compose.yml: ports 9999, 9998, 9997, 9996,
# one shared database). Not part of `make test`: it needs the suite's source.
#
#   scripts/supabase-py-suite.sh DIR [pytest arguments…]
#
# DIR is supabase-py's src/auth (holding tests/ and infra/docker-compose.yml) from a clone, or
# its tests/ directory. The test dependencies go into a venv under .build/ (from PyPI); the
# emulator is the debug build (built when missing). The ports must be free.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 SUPABASE_PY_AUTH_DIR [pytest args…]" >&2; exit 2; }
suite=$(cd "$1" && pwd); shift
[ "$(basename "$suite")" = tests ] && suite=$(dirname "$suite")
compose="$suite/infra/docker-compose.yml"
[ -d "$suite/tests" ] && [ -f "$compose" ] || { echo "$suite has no tests/ and infra/docker-compose.yml" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/.build/supabase-py-suite"
venv="$work/venv"
mkdir -p "$work"

if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
# The package under test from the suite's own tree, and its test dependency group (pyproject.toml).
"$venv/bin/pip" install -q "$suite" Faker 'respx>=0.20.2,<0.23.0' pytest pytest-mock pytest-depends \
    pytest-asyncio pyotp pyyaml

# The four servers' GoTrue settings, read from the compose file, as --supabase-extra-port values.
mapfile -t extra < <("$venv/bin/python" - "$compose" "$work" <<'PY'
import pathlib, sys, yaml
compose, work = yaml.safe_load(open(sys.argv[1])), pathlib.Path(sys.argv[2])
for name, service in compose["services"].items():
    env = service.get("environment") or {}
    if "PORT" not in env or "GOTRUE_JWT_SECRET" not in env:
        continue
    flag = lambda key, default: str(env.get(key, default)).lower()
    settings = [
        "layout=gotrue",
        "autoconfirm=" + flag("GOTRUE_MAILER_AUTOCONFIRM", "false"),
        "signup=" + ("false" if flag("GOTRUE_DISABLE_SIGNUP", "false") == "true" else "true"),
        "anonymous=" + flag("GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED", "false"),
        "phone=" + flag("GOTRUE_EXTERNAL_PHONE_ENABLED", "false"),
        "jwt-secret=" + str(env["GOTRUE_JWT_SECRET"]),
        "jwt-expiry=" + str(env.get("GOTRUE_JWT_EXP", 3600)),
    ]
    if "GOTRUE_JWT_KEYS" in env:
        keys = work / f"{name}-jwt-keys.json"
        keys.write_text(env["GOTRUE_JWT_KEYS"])
        settings.append(f"jwt-keys={keys}")
    else:
        settings.append("signing-key=hs256")  # GoTrue without a key set signs with the secret
    print(f"{env['PORT']}:{','.join(settings)}")
PY
)
[ ${#extra[@]} -gt 0 ] || { echo "no GoTrue servers found in $compose" >&2; exit 1; }

emulator="$root/.build/debug/sesame-emulator"
[ -x "$emulator" ] || (cd "$root" && swift build --product sesame-emulator)
args=(--auth-port 0 --database-port 0 --supabase-port 0)
for value in "${extra[@]}"; do args+=(--supabase-extra-port "$value"); done
ready="$work/emulator.out"
"$emulator" "${args[@]}" >"$ready" 2>"$work/emulator.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    grep -q "service_role key" "$ready" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/emulator.log" >&2; exit 1; }
    sleep 0.1
done
grep "extra port" "$ready" >&2

cd "$suite"
"$venv/bin/python" -m pytest tests -p no:cacheprovider -o asyncio_mode=auto "$@"

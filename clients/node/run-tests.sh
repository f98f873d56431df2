#!/usr/bin/env bash
# Tests of the Node client: clients/node/run-tests.sh BIN_DIR (the folder with sesamed and
# sesame-emulator). Checks the generated reason classes, type-checks test/typed-usage.ts with
# `tsc --noEmit --strict`, packs the tarball offline and loads it, then runs node --test against
# the real binaries. Installs what is missing on Debian (as root with apt-get; otherwise prints
# the command to run).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1/sesamed" ] || [ ! -x "$1/sesame-emulator" ]; then
    echo "usage: $0 BIN_DIR (the folder holding built sesamed and sesame-emulator)" >&2
    exit 2
fi
BIN_DIR="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"

"$HERE/../../scripts/ensure-deps.sh" node=nodejs tsc=node-typescript npm=npm
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
    echo "Node $(node --version) is too old: the client needs Node 18 or later" >&2
    exit 1
fi

cd "$HERE"
node scripts/generate-reasons.mjs --check
node scripts/generate-methods.mjs --check
tsc -p test/tsconfig.json

# The tarball, packed offline, must load through both entries.
PACK_DIR="$(mktemp -d)"
trap 'rm -rf "$PACK_DIR"' EXIT
npm pack --silent --offline --pack-destination "$PACK_DIR" >/dev/null
mkdir -p "$PACK_DIR/app/node_modules"
tar -xzf "$PACK_DIR"/sesame-client-*.tgz -C "$PACK_DIR"
mv "$PACK_DIR/package" "$PACK_DIR/app/node_modules/sesame-client"
(cd "$PACK_DIR/app" && node -e 'const c = require("sesame-client"); import("sesame-client").then((m) => {
  if (m.Sesame !== c.Sesame || typeof m.EmailAlreadyInUse !== "function") process.exit(1);
  console.log("npm pack: " + require("fs").readdirSync("..").filter((f) => f.endsWith(".tgz"))[0] + " loads through import and require");
})')

SESAME_BIN_DIR="$BIN_DIR" node --test test/*.test.mjs

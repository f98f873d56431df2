#!/usr/bin/env bash
# Installs the Debian packages named on the command line when any is missing.
# As root: with apt-get. Otherwise: prints the exact command and fails.
# Usage: scripts/ensure-deps.sh [PACKAGE | COMMAND=PACKAGE | pc:MODULE=PACKAGE]...
#   PACKAGE            installed unless dpkg has it
#   COMMAND=PACKAGE    installed unless COMMAND is on the PATH (from Debian or elsewhere)
#   pc:MODULE=PACKAGE  installed unless pkg-config knows MODULE
set -euo pipefail
missing=()
for wanted in "$@"; do
    package="${wanted#*=}"
    case "$wanted" in
        pc:*=*) module="${wanted%%=*}"; pkg-config --exists "${module#pc:}" 2>/dev/null && continue ;;
        *=*) command -v "${wanted%%=*}" >/dev/null 2>&1 && continue ;;
        *) dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" && continue ;;
    esac
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "Missing packages: ${missing[*]}" >&2
    echo "Install them with:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "Installing ${missing[*]} ..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null

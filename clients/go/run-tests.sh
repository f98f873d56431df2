#!/usr/bin/env bash
# Tests of the Go client: clients/go/run-tests.sh BIN_DIR (the folder with sesamed and
# sesame-emulator). Checks the generated files (go run ./internal/gen -check), runs go vet and
# go test (unit tests, the shared stream-tracker fixture, the example, and end-to-end tests
# against the real binaries, under the race detector when it is available). Offline: the
# module has no dependencies; the build cache lives in clients/go/.cache. Installs Debian's
# golang-go when go is missing (as root with apt-get; otherwise prints the command to run).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1/sesamed" ] || [ ! -x "$1/sesame-emulator" ]; then
    echo "usage: $0 BIN_DIR (the folder holding built sesamed and sesame-emulator)" >&2
    exit 2
fi
BIN_DIR="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"

if ! command -v go >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing golang-go (for go)" >&2
        apt-get install -y golang-go >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y golang-go >/dev/null; }
    else
        echo "go is missing: run sudo apt-get install golang-go" >&2
        exit 1
    fi
fi

export GOTOOLCHAIN=local GOPROXY=off GOFLAGS= GO111MODULE=on GOCACHE="$HERE/.cache/go-build"
cd "$HERE"
echo "$(go version)" >&2
go run ./internal/gen -check
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then echo "not gofmt-formatted: $unformatted" >&2; exit 1; fi
go vet ./...
race=()
# -race needs cgo and a C compiler; without them the tests run as they are.
if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null 2>&1; then race=(-race); fi
SESAME_BIN_DIR="$BIN_DIR" go test "${race[@]}" -count=1 ./...

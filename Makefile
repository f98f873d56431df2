# Sesame: `make run` starts a local emulator and the daemon; `make test` runs every test.
# Both install what is missing on Debian 12 (as root with apt-get; otherwise they print the
# command to run).

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BUILD_DIR := $(shell $(SWIFT) build --show-bin-path 2>/dev/null || echo .build/debug)
APT_PACKAGES := libsystemd-dev pkg-config systemd python3-venv socat

.PHONY: all deps build run test test-swift test-units test-conformance test-fuzz fuzz bench install clean help

all: build

help:
	@echo "make run     start sesame-emulator and sesamed here; shows the anonymous session"
	@echo "             (make run PROVIDER=supabase: the same against the emulator's Supabase surface)"
	@echo "make test    build and run every test (Swift tests, unit-file checks, firebase-admin conformance)"
	@echo "make bench   build in release mode and run the benchmarks (see docs/BENCHMARKS.md)"
	@echo "make install install binaries, units, sysusers entry, man page and completions (PREFIX, DESTDIR)"

deps:
	@scripts/ensure-deps.sh $(APT_PACKAGES)

build: deps
	$(SWIFT) build

run: deps
	$(SWIFT) build --product sesame-emulator
	$(SWIFT) build --product sesamed
	$(SWIFT) build --product sesamectl
	@scripts/run.sh "$(BUILD_DIR)" "$(PROVIDER)"

test: deps
	$(SWIFT) build --build-tests
	$(MAKE) test-swift test-units test-conformance test-fuzz

test-swift:
	SESAME_BIN_DIR="$(BUILD_DIR)" $(SWIFT) test --skip-build --parallel --num-workers 2

test-units:
	scripts/check-units.sh "$(BUILD_DIR)"

test-conformance:
	tests/conformance/run.sh "$(BUILD_DIR)/sesame-emulator"

test-fuzz:
	scripts/fuzz.sh 30

fuzz:
	scripts/fuzz.sh 600

bench: deps
	for product in sesamed sesame-emulator sesame-bench sesame-emulator-bench; do \
		$(SWIFT) build -c release --product $$product || exit 1; \
	done
	$$($(SWIFT) build -c release --show-bin-path)/sesame-emulator-bench
	$$($(SWIFT) build -c release --show-bin-path)/sesame-bench --bin-dir "$$($(SWIFT) build -c release --show-bin-path)"

install: deps
	$(SWIFT) build -c release --product sesamed
	$(SWIFT) build -c release --product sesamectl
	$(SWIFT) build -c release --product sesame-emulator
	scripts/install.sh "$$($(SWIFT) build -c release --show-bin-path)" "$(DESTDIR)" "$(PREFIX)"

clean:
	rm -rf .build run

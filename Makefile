# Sesame: `make run` starts a local emulator and the daemon; `make test` runs every test.
# Both install what is missing on Debian 12 (as root with apt-get; otherwise they print the
# command to run).

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# `swift build` re-plans (re-reads and re-evaluates every package's manifest) whenever its
# environment differs from the previous build's in any variable: a new terminal's, make's own
# MAKEFLAGS and MAKELEVEL, or a variable given on make's command line (PROVIDER=supabase), which
# make exports. Measured here (2 shared cores): 19-27 s per `make run` after any such change,
# instead of 4-8 s. So every `swift build` below runs in one fixed environment: these
# variables, when set, and nothing else.
SWIFT_BUILD_ENV := PATH HOME TERM LANG LC_ALL TMPDIR XDG_CACHE_HOME XDG_CONFIG_HOME PKG_CONFIG_PATH \
	SSL_CERT_FILE SSL_CERT_DIR GIT_SSL_CAINFO http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY
SWIFT_BUILD := env -i $(foreach v,$(SWIFT_BUILD_ENV),$(if $($(v)),$(v)='$($(v))')) $(SWIFT) build
# $(call swift_build,ARGS): runs `swift build ARGS` so, and shows it without the environment.
swift_build = @echo "$(SWIFT) build $(1)" && $(SWIFT_BUILD) $(1)
BUILD_DIR := $(shell $(SWIFT_BUILD) --show-bin-path 2>/dev/null || echo .build/debug)
APT_PACKAGES := libsystemd-dev libqrencode-dev pkg-config systemd python3-venv socat dbus iproute2
# `make deb` and `make test-systemd` only.
DEB_APT_PACKAGES := dpkg-dev lintian binutils debootstrap systemd-container curl libjson-c-dev
# Release binaries with the Swift runtime linked statically, for the package (own scratch path).
DEB_SCRATCH := .build-deb
DEB_BIN_DIR = $(shell $(SWIFT_BUILD) -c release --static-swift-stdlib --scratch-path $(DEB_SCRATCH) --show-bin-path)

.PHONY: all deps deb-deps build run test lint format test-swift test-units test-conformance test-fuzz test-python \
	test-first-hour test-make-run test-node test-go test-c test-browser test-sql fuzz bench soak \
	install deb deb-binaries test-systemd test-sanitizers clean help figures fleet-sim test-fleet-sim

all: build

help:
	@echo "make run     start sesame-emulator and sesamed here; shows the anonymous session (both keep their state in ./run)"
	@echo "             (make run PROVIDER=supabase: the same against the emulator's Supabase surface)"
	@echo "make test    build and run every test (Swift tests, unit files, firebase-admin and supabase-auth conformance, Python, Node, Go and C clients,"
	@echo "             the browser sign-in in headless Chromium, 200 daemons under the emulator's rate limits: make test-fleet-sim,"
	@echo "             and README.md's commands against make run: make test-first-hour)"
	@echo "make test-make-run  make run in a pseudo-terminal: a quiet build, the session, a clean Ctrl-C (part of make test)"
	@echo "make format / make lint  apply / check the .swift-format style (make test checks it)"
	@echo "make figures the house's figures: how much the session's owner holds, unstructured tasks, long files"
	@echo "make bench   build in release mode and run the benchmarks (see docs/BENCHMARKS.md)"
	@echo "make test-sanitizers  the Swift suite under ASan, then TSan (own scratch paths; slow)"
	@echo "make fleet-sim  N sesamed (N=1000) against the emulator's documented per-address limits, behind 1 address then ADDRESSES"
	@echo "             (ADDRESSES=1,10; PROVIDER=firebase|supabase; MINUTES=cap per phase; SMOKE=1: 20 machines, about 90 s; root)"
	@echo "make soak    SIGKILL sesamed 1,000 times under a mixed workload, then check nothing was lost (ROUNDS=N)"
	@echo "make install install binaries, units, sysusers entry, man page and completions (PREFIX, DESTDIR)"
	@echo "make deb     build dist/sesame_VERSION_ARCH.deb (Swift runtime linked statically) and lint it"
	@echo "make test-systemd  install that .deb in a booted Debian 12 (systemd-nspawn) and check it under systemd (root)"

deps:
	@scripts/ensure-deps.sh $(APT_PACKAGES)

build: deps
	$(call swift_build,)

# The build's output goes to a log, shown only when the build fails. `exec`: the shell make starts
# is replaced by run.sh, so Ctrl-C reaches a script that stops its children and exits 0 (a shell
# in between would die of the SIGINT and make would report "Interrupt").
RUN_BUILD_LOG := .build/make-run-build.log
run: deps
	@scripts/build-quietly.sh "$(RUN_BUILD_LOG)" $(SWIFT_BUILD) -- sesame-emulator sesamed sesamectl
	@exec scripts/run.sh "$(BUILD_DIR)" "$(PROVIDER)"

# The suites run in this order and stop at the first failure; the last lines say how long each took.
TEST_SUITES := lint test-swift test-units test-conformance test-fuzz test-python test-node test-go test-c test-browser \
	test-sql test-fleet-sim test-first-hour test-make-run
test: deps
	@start=$$(date +%s); echo "$(SWIFT) build --build-tests"; $(SWIFT_BUILD) --build-tests && \
		echo "== the build took $$(($$(date +%s) - start)) s =="
	@MAKE="$(MAKE)" scripts/run-suites.sh BUILD_DIR="$(BUILD_DIR)" -- $(TEST_SUITES)

test-swift:
	SWIFT="$(SWIFT)" scripts/test-swift.sh "$(BUILD_DIR)" --parallel --num-workers 2

test-units:
	scripts/check-units.sh "$(BUILD_DIR)"

test-conformance:
	tests/conformance/run.sh "$(BUILD_DIR)/sesame-emulator"

test-python:
	clients/python/run-tests.sh "$(BUILD_DIR)"

test-node:
	clients/node/run-tests.sh "$(BUILD_DIR)"

test-go:
	clients/go/run-tests.sh "$(BUILD_DIR)"

# libsesame, the C client (clients/c): -Werror build, unit and tracker tests, end-to-end under ASan, Valgrind.
test-c:
	clients/c/run-tests.sh "$(BUILD_DIR)"

test-fuzz:
	scripts/fuzz.sh 30

# The browser sign-in flow in headless Chromium (WebDriver), on both backends (tests/browser).
test-browser:
	tests/browser/run.sh "$(BUILD_DIR)"

# The Supabase SQL of docs/providers.md on a throwaway PostgreSQL 15 cluster, as anon and as users (tests/sql).
test-sql:
	tests/sql/run.sh

# `make run` in a pseudo-terminal: a quiet build, the session, and a clean Ctrl-C.
test-make-run:
	python3 scripts/test-make-run.py

# README.md's commands against `make run` on both backends, with a restart (scripts/first-hour.sh).
test-first-hour:
	scripts/first-hour.sh "$(BUILD_DIR)"

# The style of .swift-format (modelled on SwiftNIO's): `make format` rewrites, `make lint` checks.
FORMAT_PATHS := Package.swift Sources Tests Fuzz Examples
lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
	SWIFT='$(SWIFT)' python3 scripts/local-api.py --check

# Informational (exits 0): scripts/house-figures.sh itself exits 1 while a goal is missed.
figures:
	@scripts/house-figures.sh || true

format:
	$(SWIFT) format format --in-place --recursive $(FORMAT_PATHS)

fuzz:
	scripts/fuzz.sh 600

bench: deps
	for product in sesamed sesame-emulator sesame-emulator-bench sesame-nio-echo; do \
		$(SWIFT_BUILD) -c release --product $$product || exit 1; \
	done
	mkdir -p .build/bench-tools
	$(CC) -O2 -Wall -Wextra -o .build/bench-tools/echo-floor bench/echo-floor.c
	$(CC) -O2 -Wall -Wextra -o .build/bench-tools/sesame-load bench/sesame-load.c
	$(MAKE) -C clients/c
	$(CC) -O2 -Wall -Wextra -Werror -Iclients/c/include -o .build/bench-tools/libsesame-load bench/libsesame-load.c \
		-Lclients/c/build -lsesame -Wl,-rpath,$(CURDIR)/clients/c/build
	python3 scripts/bench/bench.py --bin-dir "$$($(SWIFT_BUILD) -c release --show-bin-path)" --tools .build/bench-tools
	$$($(SWIFT_BUILD) -c release --show-bin-path)/sesame-emulator-bench
	python3 scripts/bench/idle_wakeups.py --bin-dir "$$($(SWIFT_BUILD) -c release --show-bin-path)" $(IDLE_BENCH_FLAGS)

test-sanitizers: deps
	scripts/test-sanitizers.sh

# N sesamed against one emulator with the documented limits, hours compressed (docs/BENCHMARKS.md, Fleets).
N ?= 1000
ADDRESSES ?= 1,10
# In make test: 200 daemons (the debug build) spread over 10 addresses, so every machine signs
# up within the limits' bursts; fails on a machine without a session, a sign-out, a dead daemon
# or any 429.
test-fleet-sim:
	python3 -m unittest discover -s scripts/fleet-sim
	python3 scripts/fleet-sim/fleet_sim.py --bin-dir "$(BUILD_DIR)" -n 200 --addresses 10 --steady-hours 1 \
		--minutes 3 --no-429 --out .build/test-fleet-sim

fleet-sim: deps
	$(call swift_build,-c release --product sesamed)
	$(call swift_build,-c release --product sesame-emulator)
	python3 -m unittest discover -s scripts/fleet-sim
	python3 scripts/fleet-sim/fleet_sim.py --bin-dir "$$($(SWIFT_BUILD) -c release --show-bin-path)" -n $(N) \
		--addresses $(ADDRESSES) $(if $(PROVIDER),--providers $(PROVIDER)) $(if $(MINUTES),--minutes $(MINUTES)) \
		$(if $(SMOKE),--smoke)

ROUNDS ?= 1000
soak: deps
	$(call swift_build,--product sesame-emulator)
	$(call swift_build,--product sesamed)
	python3 scripts/soak/soak.py --bin-dir "$(BUILD_DIR)" --rounds $(ROUNDS)

install: deps
	$(call swift_build,-c release --product sesamed)
	$(call swift_build,-c release --product sesamectl)
	$(call swift_build,-c release --product sesame-emulator)
	scripts/install.sh "$$($(SWIFT_BUILD) -c release --show-bin-path)" "$(DESTDIR)" "$(PREFIX)"

deb-deps:
	@scripts/ensure-deps.sh $(APT_PACKAGES) $(DEB_APT_PACKAGES)

deb-binaries: deb-deps
	for product in sesamed sesamectl; do \
		$(SWIFT_BUILD) -c release --static-swift-stdlib --scratch-path $(DEB_SCRATCH) --product $$product || exit 1; \
	done

deb: deb-binaries
	scripts/build-deb.sh "$(DEB_BIN_DIR)" dist
	scripts/build-deb-libsesame.sh dist

# The emulator (not packaged) is the debug build's, run on this host in the machine's network.
test-systemd: deb
	$(call swift_build,--product sesame-emulator)
	scripts/test-systemd.sh "$$(ls -t dist/sesame_*.deb | head -1)" "$(BUILD_DIR)/sesame-emulator"

clean:
	rm -rf .build run dist clients/c/build clients/c/build-asan

#!/usr/bin/env bash
# Tests of libsesame: clients/c/run-tests.sh BIN_DIR (the folder with sesamed and
# sesame-emulator). Checks the generated files, builds the library with -Wall -Wextra -Werror
# (and its exports: soname, LIBSESAME_0 only), runs the unit tests, the shared stream-tracker
# fixture and the end-to-end tests against the real daemon under AddressSanitizer and UBSan,
# a 1,000-call sesame_get_id_token loop under Valgrind (no leak, no error), and compiles the
# examples (C, GLib, and the Rust declarations when rustc is there), which then get a token.
# Installs what is missing on Debian (as root with apt-get; otherwise prints the command).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1/sesamed" ] || [ ! -x "$1/sesame-emulator" ]; then
    echo "usage: $0 BIN_DIR (the folder holding built sesamed and sesame-emulator)" >&2
    exit 2
fi
BIN_DIR="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

"$REPO/scripts/ensure-deps.sh" cc=gcc make=make pkg-config=pkg-config python3=python3 valgrind=valgrind \
    pc:json-c=libjson-c-dev pc:glib-2.0=libglib2.0-dev

cd "$HERE"
python3 scripts/generate.py --check
CFLAGS_TEST=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -Iinclude -Isrc -Itests $(pkg-config --cflags json-c))

# The manual pages format without a warning.
if command -v groff >/dev/null 2>&1; then
    for page in man/*.3; do
        warnings=$(groff -man -ww -z "$page" 2>&1)
        [ -z "$warnings" ] || { echo "$page: $warnings" >&2; exit 1; }
    done
fi

# The library as shipped, and its exports.
make -s BUILD=build
soname=$(readelf -d build/libsesame.so.0 | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libsesame.so.0 ] || { echo "soname is '$soname', expected libsesame.so.0" >&2; exit 1; }
exports=$(objdump -T build/libsesame.so.0 | awk '$2 == "g" && $4 != "*UND*" {print $6, $7}')
if echo "$exports" | grep -v '^LIBSESAME_0 sesame_[a-z]' | grep -v '^LIBSESAME_0 LIBSESAME_0$' | grep .; then
    echo "libsesame exports symbols outside LIBSESAME_0 sesame_*" >&2
    exit 1
fi
echo "ok   exports: $(echo "$exports" | grep -c ' sesame_') symbols, all LIBSESAME_0 (soname $soname)"

# Under AddressSanitizer and UBSan: the unit tests, the tracker fixture, the end-to-end tests.
make -s BUILD=build-asan SANITIZE=1
SAN=(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
cc "${CFLAGS_TEST[@]}" "${SAN[@]}" -o build-asan/test-unit tests/unit.c src/*.c $(pkg-config --libs json-c)
cc "${CFLAGS_TEST[@]}" "${SAN[@]}" -o build-asan/test-tracker tests/tracker.c src/*.c $(pkg-config --libs json-c)
cc "${CFLAGS_TEST[@]}" "${SAN[@]}" -o build-asan/test-e2e tests/e2e.c tests/examples.c tests/harness.c \
    -Lbuild-asan -lsesame -Wl,-rpath,"$HERE/build-asan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
build-asan/test-unit
build-asan/test-tracker "$REPO/tests/fixtures/stream-tracker.json"

# The examples compile against the built library (as `pkg-config --cflags --libs sesame` says once installed).
mkdir -p build/examples
cc -std=c11 -Wall -Wextra -Werror -Iinclude -o build/examples/token examples/token.c -Lbuild -lsesame -Wl,-rpath,"$HERE/build"
cc -std=c11 -Wall -Wextra -Werror -Iinclude $(pkg-config --cflags glib-2.0) -o build/examples/glib-watch examples/glib-watch.c \
    -Lbuild -lsesame $(pkg-config --libs glib-2.0) -Wl,-rpath,"$HERE/build"
# The headers serve C++ too (Qt): they compile and link from a C++17 translation unit.
if command -v g++ >/dev/null 2>&1; then
    printf '#include <sesame.h>\nint main() { sesame_error e; char *t = sesame_get_id_token(nullptr, 0, &e); return t == nullptr; }\n' \
        | g++ -x c++ -std=c++17 -Wall -Wextra -Werror -Iinclude -o build/examples/cxx-token - -Lbuild -lsesame
    echo "ok   the headers compile and link as C++17"
fi
examples=(build/examples/token build/examples/glib-watch)
if command -v rustc >/dev/null 2>&1; then
    rustc --edition 2021 -O -L build -C link-args="-Wl,-rpath,$HERE/build" -o build/examples/tauri-token examples/tauri/sesame.rs
    examples+=(build/examples/tauri-token)
else
    echo "rustc is not installed: the Rust declarations (examples/tauri/sesame.rs) are not compiled" >&2
fi
unset ASAN_OPTIONS
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 build-asan/test-e2e "$BIN_DIR" "${examples[@]/#/$HERE/}"

# Valgrind: 1,000 sesame_get_id_token calls leak nothing.
cc "${CFLAGS_TEST[@]}" -o build/test-leaks tests/leaks.c tests/harness.c -Lbuild -lsesame -Wl,-rpath,"$HERE/build"
valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    build/test-leaks "$BIN_DIR"

# New methods in api/local-api.json (new object types too) generate and compile with no hand edit.
rm -rf build/new-methods
python3 tests/new_methods.py build/new-methods
cp include/sesame.h include/sesame-types.h build/new-methods/include/
cp src/internal.h build/new-methods/src/
cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wmissing-prototypes -fsyntax-only -Ibuild/new-methods/include \
    $(pkg-config --cflags json-c) build/new-methods/src/methods-*.c
echo "ok   the rendered methods compile"

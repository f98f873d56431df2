#!/usr/bin/env bash
# Builds the Debian packages of libsesame, the C client (clients/c): libsesame0 (the shared
# library, soname libsesame.so.0, symbols versioned LIBSESAME_0) and libsesame-dev (headers,
# sesame.pc, manual pages, examples), then runs lintian on both. `make deb` calls it after
# scripts/build-deb.sh.
#
# Usage: scripts/build-deb-libsesame.sh OUT_DIR
#
# The library is built with Debian's hardening flags and installed by clients/c's Makefile
# (PREFIX=/usr, the multiarch libdir); the files are split between the two packages here. The
# DEBIAN/symbols file lists every exported symbol at this version, DEBIAN/shlibs names the
# package, and an ldconfig trigger runs on install. Depends comes from dpkg-shlibdeps. lintian
# (pedantic) must report nothing: there are no overrides.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
mkdir -p "$1"
out_dir=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture lintian strip objdump pkg-config make cc; do
    if ! command -v "$tool" > /dev/null; then
        echo "build-deb-libsesame: $tool is missing: apt-get install dpkg-dev lintian binutils gcc make pkg-config" >&2
        exit 1
    fi
done
pkg-config --exists json-c || { echo "build-deb-libsesame: json-c is missing: apt-get install libjson-c-dev" >&2; exit 1; }

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/SesameLocalAPI/SesameVersion.swift")
[ -n "$version" ] || { echo "build-deb-libsesame: no version in Sources/SesameLocalAPI/SesameVersion.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir="/usr/lib/$multiarch"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Build with Debian's hardening flags (as dpkg-buildflags gives them), install into a stage.
make -s -C "$root/clients/c" BUILD="$work/build" \
    CFLAGS="-O2 -g -ffile-prefix-map=$root=. -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2" \
    LDFLAGS="-Wl,-z,relro -Wl,-z,now" > /dev/null
make -s -C "$root/clients/c" BUILD="$work/build" DESTDIR="$work/all" PREFIX=/usr LIBDIR="$libdir" \
    MANDIR=/usr/share/man install > /dev/null
soname=libsesame.so.0
real=$(readlink "$work/all$libdir/$soname")

# 2. libsesame0: the library and its link; libsesame-dev: the rest.
lib="$work/libsesame0"
dev="$work/libsesame-dev"
install -d "$lib$libdir" "$dev$libdir" "$dev/usr/share/man/man3"
mv "$work/all$libdir/$real" "$work/all$libdir/$soname" "$lib$libdir/"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$lib$libdir/$real"
chmod 0644 "$lib$libdir/$real"
mv "$work/all$libdir/libsesame.so" "$work/all$libdir/pkgconfig" "$dev$libdir/"
mv "$work/all/usr/include" "$dev/usr/include"
# Manual pages compressed; the other calls' names link to the page that describes them.
for page in "$work/all/usr/share/man/man3"/*.3; do
    name=$(basename "$page")
    if [ -L "$page" ]; then
        ln -s "$(readlink "$page").gz" "$dev/usr/share/man/man3/$name.gz"
    else
        gzip -9n < "$page" > "$dev/usr/share/man/man3/$name.gz"
        chmod 0644 "$dev/usr/share/man/man3/$name.gz"
    fi
done
for package in libsesame0 libsesame-dev; do
    doc="$work/$package/usr/share/doc/$package"
    install -d "$doc"
    install -m 0644 "$root/debian/libsesame.copyright" "$doc/copyright"
    sed "s/@VERSION@/$version/" "$root/debian/libsesame.changelog" | gzip -9n > "$doc/changelog.gz"
    chmod 0644 "$doc/changelog.gz"
done
examples="$dev/usr/share/doc/libsesame-dev/examples"
install -d "$examples/tauri"
install -m 0644 "$root/clients/c/examples/token.c" "$root/clients/c/examples/glib-watch.c" "$examples/"
install -m 0644 "$root/clients/c/examples/tauri/sesame.rs" "$examples/tauri/"
install -m 0644 "$root/clients/c/README.md" "$dev/usr/share/doc/libsesame-dev/README.md"

# 3. Depends of the library (libc6, libjson-c5), as dpkg-shlibdeps computes it.
mkdir -p "$work/src/debian"
printf 'Source: sesame\n\nPackage: libsesame0\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O -e"$lib$libdir/$real" 2> /dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb-libsesame: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# 4. DEBIAN/: control, and for the library shlibs, symbols and the ldconfig trigger; md5sums.
for package in libsesame0 libsesame-dev; do
    stage="$work/$package"
    install -d -m 0755 "$stage/DEBIAN"
    size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
    sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
        "$root/debian/$package.control" > "$stage/DEBIAN/control"
done
echo "libsesame 0 libsesame0 (>= $version)" > "$lib/DEBIAN/shlibs"
{
    echo "libsesame.so.0 libsesame0 #MINVER#"
    echo "* Build-Depends-Package: libsesame-dev"
    objdump -T "$lib$libdir/$real" | awk '$2 == "g" && $4 != "*UND*" { print $NF "@" $(NF-1) }' | LC_ALL=C sort -u \
        | sed "s/^/ /; s/\$/ $version/"
} > "$lib/DEBIAN/symbols"
echo "activate-noawait ldconfig" > "$lib/DEBIAN/triggers"
for package in libsesame0 libsesame-dev; do
    stage="$work/$package"
    (cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
        > "$stage/DEBIAN/md5sums"
    chmod 0644 "$stage/DEBIAN"/*
    find "$stage" -type d -exec chmod 0755 {} +
    deb="$out_dir/${package}_${version}_${arch}.deb"
    dpkg-deb --root-owner-group -Zgzip --build "$stage" "$deb" > /dev/null
    echo "build-deb-libsesame: $deb ($(du -h "$deb" | cut -f1))"
done
echo "build-deb-libsesame: libsesame0 Depends: $depends; $(grep -c '@LIBSESAME_0' "$lib/DEBIAN/symbols") symbols at LIBSESAME_0"

# 5. lintian, pedantic: any tag fails the build (no overrides).
if ! lintian_output=$(lintian --fail-on error,warning,info,pedantic --display-info --pedantic \
        "$out_dir/libsesame0_${version}_${arch}.deb" "$out_dir/libsesame-dev_${version}_${arch}.deb" 2>&1); then
    echo "build-deb-libsesame: lintian found problems:" >&2
    echo "$lintian_output" >&2
    exit 1
fi
echo "build-deb-libsesame: lintian clean (pedantic, no overrides)"

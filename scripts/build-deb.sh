#!/usr/bin/env bash
# Builds the Debian package `sesame` from release binaries linked with the Swift runtime
# statically, then runs lintian on it. `make deb` calls it.
#
# Usage: scripts/build-deb.sh BIN_DIR OUT_DIR
#   BIN_DIR  holds sesamed and sesamectl built with
#            `swift build -c release --static-swift-stdlib` (see the Makefile)
#   OUT_DIR  where sesame_VERSION_ARCH.deb is written
#
# The tree is staged by scripts/install.sh (PREFIX=/usr), moved to Debian's paths, stripped,
# and packed by dpkg-deb with debian/{control,conffiles,postinst,prerm,postrm}. Depends comes
# from dpkg-shlibdeps. lintian must report nothing but the overrides explained in
# debian/sesame.lintian-overrides; any other tag fails the build.
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 BIN_DIR OUT_DIR" >&2
    exit 2
fi
bin_dir=$(cd "$1" && pwd)
mkdir -p "$2"
out_dir=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in dpkg-deb dpkg-shlibdeps lintian strip; do
    if ! command -v "$tool" > /dev/null; then
        echo "build-deb: $tool is missing: apt-get install dpkg-dev lintian binutils" >&2
        exit 1
    fi
done
for binary in sesamed sesamectl; do
    if ldd "$bin_dir/$binary" | grep -q libswiftCore; then
        echo "build-deb: $bin_dir/$binary links the Swift runtime dynamically: build with --static-swift-stdlib" >&2
        exit 1
    fi
done

version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' "$root/Sources/SesameLocalAPI/SesameVersion.swift")
[ -n "$version" ] || { echo "build-deb: no version in Sources/SesameLocalAPI/SesameVersion.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage="$work/sesame"

# 1. The files, as `make install DESTDIR=… PREFIX=/usr` lays them out.
# The emulator is a development tool and is not packaged (docs/systemd.md, "The package").
SESAME_BINARIES="sesamed sesamectl" "$root/scripts/install.sh" "$bin_dir" "$stage" /usr > /dev/null
# Debian's paths: zsh vendor completions, compressed manual pages, the daemon's page.
mkdir -p "$stage/usr/share/zsh/vendor-completions" "$stage/usr/share/man/man8"
mv "$stage/usr/share/zsh/site-functions/_sesamectl" "$stage/usr/share/zsh/vendor-completions/_sesamectl"
rmdir "$stage/usr/share/zsh/site-functions"
install -m 0644 "$root/debian/sesamed.8" "$stage/usr/share/man/man8/sesamed.8"
# bash-completion files are sourced, not run: no #! line.
sed -i '1{/^#!/d}' "$stage/usr/share/bash-completion/completions/sesamectl"
gzip -9n "$stage/usr/share/man/man1/sesamectl.1" "$stage/usr/share/man/man8/sesamed.8"
# The package ships sesamed.toml 0644 root:root; postinst makes it 0640 root:sesame with
# dpkg-statoverride (install.sh's 0640 without the group would lock the daemon out).
chmod 0644 "$stage/etc/sesame/sesamed.toml"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/sesamed" "$stage/usr/bin/sesamectl"

doc="$stage/usr/share/doc/sesame"
install -d "$doc" "$doc/examples" "$stage/usr/share/lintian/overrides"
# The configuration as shipped, readable by everyone (/etc/sesame/sesamed.toml is 0640 root:sesame):
# the starting point of a user instance's ~/.config/sesame/sesamed.toml (docs/systemd.md).
install -m 0644 "$root/etc/sesamed.toml" "$doc/examples/sesamed.toml"
install -m 0644 "$root/debian/copyright" "$doc/copyright"
# A native package (no Debian revision): its changelog is changelog.gz.
sed "s/@VERSION@/$version/" "$root/debian/changelog" | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"
install -m 0644 "$root/debian/sesame.lintian-overrides" "$stage/usr/share/lintian/overrides/sesame"
# The Node client as `npm pack` lays it out (its files under package/), reproducibly, for
# `npm install /usr/share/sesame/sesame-client.tgz` (clients/node/README.md). No npm needed here.
node_version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$root/clients/node/package.json")
install -d "$stage/usr/share/sesame"
tar -C "$root/clients/node" --transform 's,^,package/,' --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime=@0 -cf - package.json README.md index.mjs lib types examples \
    | gzip -9n > "$stage/usr/share/sesame/sesame-client-$node_version.tgz"
ln -s "sesame-client-$node_version.tgz" "$stage/usr/share/sesame/sesame-client.tgz"
chmod 0644 "$stage/usr/share/sesame/sesame-client-$node_version.tgz"

# 2. Depends: the shared libraries the binaries still use (glibc, libstdc++, libsystemd, …).
mkdir -p "$work/src/debian"
printf 'Source: sesame\n\nPackage: sesame\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O -e"$stage/usr/bin/sesamed" -e"$stage/usr/bin/sesamectl" 2> /dev/null \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# 3. DEBIAN/: control with the computed fields, conffiles, maintainer scripts, md5sums.
install -d -m 0755 "$stage/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    "$root/debian/control" > "$stage/DEBIAN/control"
install -m 0644 "$root/debian/conffiles" "$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do
    install -m 0755 "$root/debian/$script" "$stage/DEBIAN/$script"
done
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
    > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +

deb="$out_dir/sesame_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zgzip --build "$stage" "$deb" > /dev/null
echo "build-deb: $deb ($(du -h "$deb" | cut -f1)), Depends: $depends, systemd (>= 252)"

# 4. lintian: every tag fails unless overridden (with its reason) in debian/sesame.lintian-overrides.
if ! lintian_output=$(lintian --fail-on error,warning,info,pedantic --display-info --pedantic "$deb" 2>&1); then
    echo "build-deb: lintian found problems:" >&2
    echo "$lintian_output" >&2
    exit 1
fi
overrides=$(grep -c '^sesame:' "$root/debian/sesame.lintian-overrides" || true)
echo "build-deb: lintian clean (pedantic; $overrides overrides, each explained in debian/sesame.lintian-overrides)"

#!/bin/sh
# Installs Sesame: `make install` calls it with the release build directory.
#
# Usage: scripts/install.sh BIN_DIR DESTDIR PREFIX
#   BIN_DIR  holds the built sesamed, sesamectl and sesame-emulator
#   DESTDIR  staging root for packagers ("" for the live system)
#   PREFIX   e.g. /usr/local or /usr
#
# Installs:
#   $DESTDIR$PREFIX/bin/{sesamed,sesamectl,sesame-emulator}
#   $DESTDIR$PREFIX/share/man/man1/sesamectl.1                   (sesamectl help-man)
#   $DESTDIR$PREFIX/share/bash-completion/completions/sesamectl  (and zsh, fish)
#   $DESTDIR/lib/systemd/{system,user}/sesamed.{service,socket}  (ExecStart= → $PREFIX/bin/sesamed)
#   $DESTDIR/usr/lib/sysusers.d/sesame.conf
#   $DESTDIR/etc/sesame/sesamed.toml                             (never over an existing one)
set -eu

if [ $# -ne 3 ]; then
    echo "usage: $0 BIN_DIR DESTDIR PREFIX   (e.g. $0 .build/release \"\" /usr/local)" >&2
    exit 2
fi
bin_dir=$1
destdir=$2
prefix=$3
root=$(cd "$(dirname "$0")/.." && pwd)

for binary in sesamed sesamectl sesame-emulator; do
    if [ ! -x "$bin_dir/$binary" ]; then
        echo "install: $bin_dir/$binary is missing (build it: swift build -c release --product $binary)" >&2
        exit 1
    fi
done

bindir="$destdir$prefix/bin"
mandir="$destdir$prefix/share/man/man1"
bashdir="$destdir$prefix/share/bash-completion/completions"
zshdir="$destdir$prefix/share/zsh/site-functions"
fishdir="$destdir$prefix/share/fish/vendor_completions.d"
systemdir="$destdir/lib/systemd/system"
userdir="$destdir/lib/systemd/user"
sysusersdir="$destdir/usr/lib/sysusers.d"
etcdir="$destdir/etc/sesame"

install -d "$bindir" "$mandir" "$bashdir" "$zshdir" "$fishdir" "$systemdir" "$userdir" "$sysusersdir" "$etcdir"
for binary in sesamed sesamectl sesame-emulator; do
    install -m 0755 "$bin_dir/$binary" "$bindir/$binary"
done

# Generated from the ArgumentParser definitions by the binary just installed.
ctl="$bin_dir/sesamectl"
"$ctl" help-man > "$mandir/sesamectl.1.tmp"
mv "$mandir/sesamectl.1.tmp" "$mandir/sesamectl.1"
chmod 0644 "$mandir/sesamectl.1"
"$ctl" --generate-completion-script bash > "$bashdir/sesamectl"
"$ctl" --generate-completion-script zsh > "$zshdir/_sesamectl"
"$ctl" --generate-completion-script fish > "$fishdir/sesamectl.fish"
chmod 0644 "$bashdir/sesamectl" "$zshdir/_sesamectl" "$fishdir/sesamectl.fish"

# Units, with ExecStart= pointing at this PREFIX.
for kind in system user; do
    for unit in "$root/systemd/$kind"/*; do
        [ -f "$unit" ] || continue
        target="$destdir/lib/systemd/$kind/$(basename "$unit")"
        sed "s|^ExecStart=/usr/bin/sesamed|ExecStart=$prefix/bin/sesamed|" "$unit" > "$target"
        chmod 0644 "$target"
    done
done

install -m 0644 "$root/systemd/sysusers.d/sesame.conf" "$sysusersdir/sesame.conf"

# The configuration is the administrator's: never overwrite it.
if [ -e "$etcdir/sesamed.toml" ]; then
    echo "install: keeping the existing $etcdir/sesamed.toml (the new default is $root/etc/sesamed.toml)"
else
    install -m 0644 "$root/etc/sesamed.toml" "$etcdir/sesamed.toml"
fi

echo "install: installed Sesame under $destdir$prefix"
if [ -z "$destdir" ]; then
    echo "install: next: systemd-sysusers && systemctl daemon-reload && systemctl enable --now sesamed.socket"
fi

#!/bin/sh
# Installs Sesame: `make install` calls it with the release build directory.
#
# Usage: scripts/install.sh BIN_DIR DESTDIR PREFIX
#   BIN_DIR  holds the built sesamed, sesamectl and sesame-emulator
#   DESTDIR  staging root for packagers ("" for the live system)
#   PREFIX   e.g. /usr/local or /usr
# SESAME_BINARIES, when set, names the binaries to install (the package: "sesamed sesamectl").
#
# Installs:
#   $DESTDIR$PREFIX/bin/{sesamed,sesamectl,sesame-emulator}
#   $DESTDIR$PREFIX/share/man/man1/sesamectl.1                   (sesamectl help-man)
#   $DESTDIR$PREFIX/share/bash-completion/completions/sesamectl  (and zsh, fish)
#   $DESTDIR/lib/systemd/system/sesamed.{service,socket}         (ExecStart= → $PREFIX/bin/sesamed)
#   $DESTDIR/usr/lib/systemd/user/sesamed.{service,socket}
#   $DESTDIR/usr/lib/sysusers.d/sesame.conf
#   $DESTDIR/etc/sesame/sesamed.toml                             (0640 root:sesame; never over an
#                                                                  existing one)
# On the live system (DESTDIR empty) it also applies the sysusers entry, so group sesame exists
# for the configuration's group. In a staging DESTDIR the file stays root:root 0640 and the
# package's postinst must give it to group sesame (debian/postinst does).
set -eu

if [ $# -ne 3 ]; then
    echo "usage: $0 BIN_DIR DESTDIR PREFIX   (e.g. $0 .build/release \"\" /usr/local)" >&2
    exit 2
fi
bin_dir=$1
destdir=$2
prefix=$3
root=$(cd "$(dirname "$0")/.." && pwd)

binaries=${SESAME_BINARIES:-sesamed sesamectl sesame-emulator}
for binary in $binaries; do
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
userdir="$destdir/usr/lib/systemd/user"
sysusersdir="$destdir/usr/lib/sysusers.d"
etcdir="$destdir/etc/sesame"

install -d "$bindir" "$mandir" "$bashdir" "$zshdir" "$fishdir" "$systemdir" "$userdir" "$sysusersdir" "$etcdir"
for binary in $binaries; do
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
        if [ "$kind" = system ]; then target="$systemdir/$(basename "$unit")"; else target="$userdir/$(basename "$unit")"; fi
        sed "s|^ExecStart=/usr/bin/sesamed|ExecStart=$prefix/bin/sesamed|" "$unit" > "$target"
        chmod 0644 "$target"
    done
done

install -m 0644 "$root/systemd/sysusers.d/sesame.conf" "$sysusersdir/sesame.conf"

# The configuration is the administrator's: never overwrite it.
if [ -e "$etcdir/sesamed.toml" ]; then
    echo "install: keeping the existing $etcdir/sesamed.toml (the new default is $root/etc/sesamed.toml)"
else
    # Readable by the daemon (group sesame), not by everyone: it may hold a private project's
    # settings. The group must exist first: on the live system, apply the sysusers entry.
    if [ -z "$destdir" ] && ! getent group sesame > /dev/null && command -v systemd-sysusers > /dev/null; then
        systemd-sysusers "$sysusersdir/sesame.conf"
    fi
    install -m 0640 "$root/etc/sesamed.toml" "$etcdir/sesamed.toml"
    if [ -z "$destdir" ]; then
        if getent group sesame > /dev/null; then
            chgrp sesame "$etcdir/sesamed.toml"
        else
            echo "install: group sesame does not exist: run systemd-sysusers, then chgrp sesame $etcdir/sesamed.toml" >&2
        fi
    fi
fi

echo "install: installed Sesame under $destdir$prefix"
if [ -z "$destdir" ]; then
    echo "install: next: systemd-sysusers && systemctl daemon-reload && systemctl enable --now sesamed.socket"
fi

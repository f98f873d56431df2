# libsesame in the booted Debian of scripts/test-systemd.sh, which sources this file after the
# system instance, the user instance and fleet enrolment are up (it uses that script's `on`,
# `as`, `check`, `fail`, $deb, $cache, $machine_root, $uid and $user_uid). Installs
# libsesame0 and libsesame-dev from beside the sesame .deb, then checks that
# `pkg-config --cflags --libs sesame` works and that the 20-line example (token.c, shipped in
# libsesame-dev) compiles there and gets a token from the system and the user instance.
#
# The machine has no network and no compiler: gcc, libc6-dev, pkg-config and libjson-c-dev
# (libsesame-dev's Depends) are downloaded on the host by apt, resolved against the machine's
# own package status, into $cache/libsesame-build-debs (emptied first, so only this run's set
# is installed), and installed with dpkg -i.

libsesame_dir=$(dirname "$deb")
libsesame0_deb=$(ls -t "$libsesame_dir"/libsesame0_*.deb 2> /dev/null | head -1)
libsesame_dev_deb=$(ls -t "$libsesame_dir"/libsesame-dev_*.deb 2> /dev/null | head -1)
if [ -z "$libsesame0_deb" ] || [ -z "$libsesame_dev_deb" ]; then
    fail "libsesame: libsesame0 and libsesame-dev .debs beside $deb (make deb builds them)"
else
    build_debs="$cache/libsesame-build-debs"
    rm -rf "$build_debs"
    mkdir -p "$build_debs/partial"
    download_build_debs() {
        apt-get -q -y -o Dir::State::status="$machine_root/var/lib/dpkg/status" -o Dir::Cache::archives="$build_debs" \
            --download-only --no-install-recommends install gcc libc6-dev pkg-config libjson-c-dev
    }
    # The host's package lists may be older than the mirror: refresh them once when a download fails.
    if download_build_debs > "$cache/libsesame-apt.log" 2>&1 \
            || { apt-get -q update >> "$cache/libsesame-apt.log" 2>&1 && download_build_debs >> "$cache/libsesame-apt.log" 2>&1; }; then
        rm -rf "$machine_root/root/libsesame-build-debs"
        mkdir -p "$machine_root/root/libsesame-build-debs"
        cp "$build_debs"/*.deb "$machine_root/root/libsesame-build-debs/" 2> /dev/null || true
        if out=$(on sh -c 'ls /root/libsesame-build-debs/*.deb > /dev/null 2>&1 || exit 0; dpkg -i /root/libsesame-build-debs/*.deb' 2>&1); then
            ok "libsesame: a compiler, pkg-config and libjson-c-dev installed in the machine (from $build_debs)"
        else
            fail "libsesame: installing the compiler" "$(tail -5 <<< "$out")"
        fi
    else
        fail "libsesame: apt-get could not download gcc, libc6-dev, pkg-config, libjson-c-dev (see $cache/libsesame-apt.log)"
    fi
    cp "$libsesame0_deb" "$machine_root/root/libsesame0.deb"
    cp "$libsesame_dev_deb" "$machine_root/root/libsesame-dev.deb"
    if out=$(on dpkg -i /root/libsesame0.deb /root/libsesame-dev.deb 2>&1); then
        ok "dpkg -i libsesame0 libsesame-dev"
    else
        fail "dpkg -i libsesame0 libsesame-dev" "$(tail -5 <<< "$out")"
    fi
    flags=$(on pkg-config --cflags --libs sesame 2>&1)
    check "pkg-config --cflags --libs sesame: '$flags'" grep -q -- '-lsesame' <<< "$flags"
    # Not `ldconfig -p | grep -q`: grep leaving early makes ldconfig die of SIGPIPE, and pipefail fails it.
    linker_cache=$(on ldconfig -p)
    check "libsesame.so.0 is in the linker cache (the ldconfig trigger ran)" grep -q "libsesame.so.0 " <<< "$linker_cache"
    if out=$(on sh -c 'cc -std=c11 -Wall -Wextra -Werror /usr/share/doc/libsesame-dev/examples/token.c $(pkg-config --cflags --libs sesame) -o /usr/local/bin/sesame-token-example' 2>&1); then
        ok "the 20-line example (token.c) compiles in the machine with pkg-config's flags"
    else
        fail "the 20-line example compiles" "$out"
    fi
    # The subject of a JWT (its payload's "sub").
    jwt_sub() {
        local payload
        payload=$(cut -d. -f2 <<< "$1" | tr '_-' '/+')
        while [ $((${#payload} % 4)) -ne 0 ]; do payload="$payload="; done
        base64 -d <<< "$payload" 2> /dev/null | sed -n 's/.*"sub":"\([^"]*\)".*/\1/p'
    }
    system_token=$(as alice /usr/local/bin/sesame-token-example 2>&1)
    check "the example gets a token from the system instance as alice (subject $(jwt_sub "$system_token"), session $uid)" \
        test "$(jwt_sub "$system_token")" = "$uid"
    user_token=$(as alice env XDG_RUNTIME_DIR=/run/user/1000 /usr/local/bin/sesame-token-example 2>&1)
    check "with XDG_RUNTIME_DIR, the example finds alice's user instance (subject $(jwt_sub "$user_token"), guest $user_uid)" \
        test -n "$user_uid" -a "$(jwt_sub "$user_token")" = "$user_uid"
    out=$(as bob /usr/local/bin/sesame-token-example 2>&1); rc=$?
    check "bob (not in group sesame) gets no token (exit $rc) and is told to join group sesame" \
        eval '[ $rc -eq 1 ] && grep -q "join group sesame" <<< "$out"'
fi

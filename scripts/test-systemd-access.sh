# Sourced by scripts/test-systemd.sh (uses its on, check).
# Access by what the peer is (issue 34): a `unit:` entry gives its role to the programs of that
# systemd unit only, read by the daemon from the peer's cgroup, under the real system manager.
# alice (group sesame, so the socket's mode lets her connect) runs the same sesamectl in two
# transient units while the readers are that one unit alone.
on sed -i 's/^readers = .*/readers = ["unit:sesame-probe.service"]/' /etc/sesame/sesamed.toml
on systemctl restart sesamed.service
probe() { on systemd-run --quiet --wait --pipe -p User=alice --unit="$1" /usr/bin/sesamectl token > /dev/null 2>&1; }
check "access: alice's sesamectl in unit sesame-probe.service is a reader (readers = [\"unit:sesame-probe.service\"])" \
    probe sesame-probe.service
check "access: the same program in unit sesame-other.service has no role" eval '! probe sesame-other.service'
on sed -i 's/^readers = .*/readers = ["group:sesame"]/' /etc/sesame/sesamed.toml
on systemctl restart sesamed.service
check "access: back to readers = [\"group:sesame\"], alice is served a token" eval 'as alice sesamectl token > /dev/null'

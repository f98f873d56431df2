#!/usr/bin/env python3
"""`make bench`'s idle wake-ups: how often an idle sesamed wakes, watchdog included.

Starts a release sesame-emulator and sesamed as systemd starts it (NOTIFY_SOCKET and
WATCHDOG_USEC of the shipped units' WatchdogSec), lets it sign in and settle, then counts the
voluntary context switches of every thread of the daemon (/proc/PID/task/*/status) over a
window: first with no client, then with 50 subscribers that said nothing after their
`subscribe`. A thread that sleeps, wakes and sleeps again adds one voluntary switch, so the sum
over the threads is the number of wake-ups. Nonvoluntary switches (the thread preempted while
it runs, by this script or anything else on the core) are not wake-ups and are left out: with
them, two runs in five read 6 or 7 where strace showed 3 wake-ups (2 watchdog pings, 1 idle
tick). Prints each figure against the
goal (at most 4 wake-ups per idle minute) with a mark.

The default window is 60 s per case; `--minutes 10` gives the 10-minute form of issue 36.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_processes import Processes  # noqa: E402

GOAL_PER_MINUTE = 4.0
SUBSCRIBE = b'{"jsonrpc":"2.0","id":1,"method":"subscribe"}\n'


def unit_watchdog_seconds(unit: str) -> float:
    """WatchdogSec= of the shipped system unit, in seconds."""
    for line in open(unit):
        match = re.match(r"\s*WatchdogSec=(\d+)s?\s*$", line)
        if match:
            return float(match.group(1))
    raise RuntimeError(f"no WatchdogSec= in {unit}")


def per_thread(pid: int) -> dict[str, int]:
    """Voluntary context switches (wake-ups) of each thread of `pid` so far."""
    counts: dict[str, int] = {}
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        tid = status.split("/")[-2]
        try:
            tid += " " + open(status.replace("/status", "/comm")).read().strip()
            counts[tid] = sum(int(line.split()[1]) for line in open(status)
                              if line.startswith("voluntary_ctxt_switches:"))
        except OSError:
            pass
    return counts


def measure(pid: int, seconds: float) -> tuple[float, dict[str, int]]:
    """Wake-ups per minute over `seconds`, and the switches of each thread in the window."""
    before = per_thread(pid)
    time.sleep(seconds)
    after = per_thread(pid)
    delta = {tid: after[tid] - before.get(tid, 0) for tid in after}
    return sum(delta.values()) * 60.0 / seconds, {tid: n for tid, n in delta.items() if n}


def drain(notify: socket.socket, stop: threading.Event) -> None:
    """Reads the daemon's sd_notify datagrams (WATCHDOG=1 …) as systemd would."""
    notify.settimeout(0.5)
    while not stop.is_set():
        try:
            notify.recv(4096)
        except (socket.timeout, OSError):
            pass


def subscribers(path: str, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(path)
        connection.sendall(SUBSCRIBE)
        data = b""
        while b"\n" not in data:
            data += connection.recv(65536)
        held.append(connection)
    return held


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=".build/release", help="release sesamed and sesame-emulator")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per case (default 60)")
    parser.add_argument("--minutes", type=float, help="measured minutes per case (the 10-minute form: 10)")
    parser.add_argument("--settle", type=float, default=15.0,
                        help="seconds left after sign-in and after subscribing before counting (the idle "
                             "memory release comes 5 s after the last request)")
    parser.add_argument("--subscribers", type=int, default=50)
    parser.add_argument("--unit", default=os.path.join(os.path.dirname(__file__), "../../systemd/system/sesamed.service"))
    parser.add_argument("--threads", action="store_true", help="also print the switches of each thread")
    args = parser.parse_args()
    seconds = args.minutes * 60 if args.minutes else args.seconds
    watchdog = unit_watchdog_seconds(args.unit)

    with tempfile.TemporaryDirectory(prefix="sesame-idle-") as work, Processes(work, args.bin_dir, "") as p:
        # As systemd starts it: a notify socket read by the manager, and the unit's watchdog.
        p.start_daemon_twice(environment={"WATCHDOG_USEC": str(int(watchdog * 1_000_000))})
        stop = threading.Event()
        reader = threading.Thread(target=drain, args=(p.notify, stop), daemon=True)
        reader.start()
        pid = p.daemon.pid
        time.sleep(args.settle)
        alone, alone_threads = measure(pid, seconds)
        held = subscribers(p.daemon_socket, args.subscribers)
        time.sleep(args.settle)
        with_subscribers, subscriber_threads = measure(pid, seconds)
        for connection in held:
            connection.close()
        stop.set()
        reader.join()

    print(f"Idle wake-ups of sesamed (context switches of all its threads per minute; WatchdogSec={watchdog:g}s, "
          f"so WATCHDOG=1 every {watchdog / 2:g} s; window {seconds:g} s per case)")
    print()
    print("| case | wake-ups per minute | goal | |")
    print("|---|---|---|---|")
    for name, value in (("no clients", alone), (f"{args.subscribers} idle subscribers", with_subscribers)):
        met = value <= GOAL_PER_MINUTE
        print(f"| {name} | {value:.1f} | ≤ {GOAL_PER_MINUTE:g} | {'✔' if met else '✘'} |")
    if args.threads:
        print(f"\nper thread, no clients: {alone_threads}\nper thread, subscribers: {subscriber_threads}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Instructions per request of sesamed's local API, counted by callgrind.

Wall-clock figures on a shared machine are noise; instruction counts are not. This starts a
release sesame-emulator and sesamed (which signs in a guest and stores it), restarts sesamed
under `valgrind --tool=callgrind` on that stored session, warms each request up, then for each
request line: zeroes the counters, sends exactly --requests requests with
`bench/sesame-load count`, dumps the counters and divides. Every thread of the daemon is
counted (event loops and the concurrency pool alike). The dumps are kept in --out, with a
`callgrind_annotate` summary of the hottest functions next to each.

    python3 scripts/bench/callgrind.py --bin-dir .build/release --tools .build/bench-tools

Where valgrind cannot run the daemon (valgrind 3.19, Debian 12's, crashes while loading the
Swift 6.3 runtime), `--cpu` counts the daemon's CPU time per request over the same fixed
number of requests instead: less exact than instructions, but still a per-request cost that a
busy machine disturbs far less than it does wall-clock latency.
"""

from __future__ import annotations

import argparse
import atexit
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_processes import Processes, cpu_seconds  # noqa: E402

LINES = {
    "getIdToken": '{"jsonrpc":"2.0","id":{ID},"method":"getIdToken","params":{"minValidity":60}}',
    "getState": '{"jsonrpc":"2.0","id":{ID},"method":"getState"}',
}


def start_under_callgrind(p: Processes, out: str) -> subprocess.Popen:
    """Starts sesamed under callgrind on the stored session; returns once it sent READY=1."""
    notify_path = os.path.join(p.work, "notify-cg.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(notify_path)
        notify.settimeout(600)
        env = dict(os.environ, NOTIFY_SOCKET=notify_path)
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/callgrind.out.%p",
                os.path.join(p.bin_dir, "sesamed"), "--config", os.path.join(p.work, "d.toml"),
                "--state-dir", os.path.join(p.work, "state"), "--log-level", "warning"]
        daemon = p._spawn(argv, core=1, env=env)
        while b"READY=1" not in notify.recv(4096):
            pass
    return daemon


def run_count(tools: str, path: str, clients: int, requests: int, line: str) -> None:
    subprocess.run([os.path.join(tools, "sesame-load"), "count", path, str(clients), str(requests), line],
                   check=True, capture_output=True, timeout=1800)


def dump(pid: int, out: str) -> str:
    """Dumps the counters collected since the last zeroing; returns the dump's path."""
    before = set(glob.glob(os.path.join(out, f"callgrind.out.{pid}*")))
    subprocess.run(["callgrind_control", "--dump", str(pid)], check=True, capture_output=True, timeout=300)
    for _ in range(600):
        new = set(glob.glob(os.path.join(out, f"callgrind.out.{pid}*"))) - before
        if new:
            time.sleep(0.5)  # let callgrind finish writing it
            return new.pop()
        time.sleep(0.1)
    raise RuntimeError("callgrind wrote no dump")


def total_instructions(path: str) -> int:
    with open(path) as data:
        for line in data:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no totals in {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=".build/release", help="release sesamed and sesame-emulator")
    parser.add_argument("--emulator-bin-dir", help="where sesame-emulator is, when not in --bin-dir (it only "
                        "signs the guest in: a debug build will do)")
    parser.add_argument("--tools", required=True, help="directory with the built sesame-load")
    parser.add_argument("--requests", type=int, default=2000, help="requests counted per line")
    parser.add_argument("--clients", type=int, default=1, help="connections sharing those requests")
    parser.add_argument("--out", default=".build/callgrind", help="where the dumps and summaries go")
    parser.add_argument("--methods", default=",".join(LINES), help="which request lines to count")
    parser.add_argument("--cpu", action="store_true",
                        help="no valgrind: the daemon's CPU time (user + system, from /proc) per request instead")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    results = {}
    # valgrind 3.19 (Debian 12) cannot read the DWARF 5 Swift emits: callgrind runs a copy
    # without debug info (the symbol table still names every function).
    bin_dir = tempfile.mkdtemp(prefix="sesame-cg-bin-")
    atexit.register(shutil.rmtree, bin_dir, True)
    subprocess.run(["objcopy", "--strip-debug", os.path.join(args.bin_dir, "sesamed"),
                    os.path.join(bin_dir, "sesamed")], check=True)
    emulator_dir = args.emulator_bin_dir or args.bin_dir
    os.symlink(os.path.abspath(os.path.join(emulator_dir, "sesame-emulator")), os.path.join(bin_dir, "sesame-emulator"))
    with tempfile.TemporaryDirectory(prefix="sesame-cg-") as work, Processes(work, bin_dir, args.tools) as p:
        p.start_daemon_twice()
        if args.cpu:
            for method in args.methods.split(","):
                run_count(args.tools, p.daemon_socket, args.clients, 2000, LINES[method])
                before = cpu_seconds(p.daemon.pid)
                run_count(args.tools, p.daemon_socket, args.clients, args.requests, LINES[method])
                results[method] = (cpu_seconds(p.daemon.pid) - before) * 1e6 / args.requests
            print(f"daemon CPU per request, {args.requests} requests over {args.clients} connection(s)")
            print("| request | CPU µs / request |\n|---|---|")
            for method, per_request in results.items():
                print(f"| {method} | {per_request:.2f} |")
            return 0
        p.daemon.send_signal(signal.SIGTERM)
        p.daemon.wait(timeout=20)
        daemon = start_under_callgrind(p, out)
        for method in args.methods.split(","):
            line = LINES[method]
            run_count(args.tools, p.daemon_socket, args.clients, 200, line)  # warm up caches and pools
            subprocess.run(["callgrind_control", "--zero", str(daemon.pid)], check=True, capture_output=True)
            run_count(args.tools, p.daemon_socket, args.clients, args.requests, line)
            path = dump(daemon.pid, out)
            target = os.path.join(out, f"{method}.callgrind")
            os.replace(path, target)
            results[method] = total_instructions(target) / args.requests
            with open(os.path.join(out, f"{method}.annotate.txt"), "w") as summary:
                subprocess.run(["callgrind_annotate", "--threshold=95", target], stdout=summary, check=False)
    print(f"callgrind: {args.requests} requests per line over {args.clients} connection(s); dumps in {out}")
    print("| request | instructions / request |")
    print("|---|---|")
    for method, per_request in results.items():
        print(f"| {method} | {per_request:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

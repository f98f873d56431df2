#!/usr/bin/env python3
"""The daemon's CPU time per request (of one client, or of --clients), for two builds side by side.

Starts a release sesamed (and its emulator) from each of two bin dirs, and the SwiftNIO floor,
then in every round sends COUNT requests of one client (`sesame-load count`) to each in turn:
getIdToken and getState to both daemons, getIdToken to the NIO floor. A server's CPU time is
read from `/proc/PID/task/*/schedstat` (nanoseconds, every thread, user and system together),
so a request's cost is measured, not sampled. This machine's speed moves by 20 % between
rounds; what can be compared is the ratio of the two builds within a round, whose median is
printed with every round's ratio.

    python3 scripts/bench/cpu_pairs.py --tools .build/bench-tools BASE_BIN_DIR NEW_BIN_DIR
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench import GET_ID_TOKEN, GET_STATE, round_trip  # noqa: E402
from bench_processes import Processes, cpu_nanoseconds  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="bin dir of the first release build (sesamed, sesame-emulator)")
    parser.add_argument("new", help="bin dir of the second release build")
    parser.add_argument("--tools", required=True, help="directory with the built sesame-load")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--count", type=int, default=30000, help="requests per server and round")
    parser.add_argument("--clients", type=int, default=1,
                        help="connections sharing the COUNT requests, each with one in flight (100: make bench's "
                             "throughput case)")
    args = parser.parse_args()

    costs: dict[str, list[float]] = {}
    with contextlib.ExitStack() as stack:
        daemons = []
        for name, bin_dir in (("base", args.base), ("new", args.new)):
            work = stack.enter_context(tempfile.TemporaryDirectory(prefix="cpu-pairs-"))
            processes = stack.enter_context(Processes(work, bin_dir, args.tools))
            processes.start_daemon_twice()
            daemons.append((name, processes))
        reply = round_trip(daemons[0][1].daemon_socket, GET_ID_TOKEN.replace("{ID}", "1"))
        nio = daemons[0][1].start_nio_echo(len(reply.encode()))
        for _ in range(args.rounds):
            cases = [("NIO floor", nio[0], GET_ID_TOKEN, nio[1])] if nio else []
            for name, processes in daemons:
                cases.append((f"{name} getIdToken", processes.daemon_socket, GET_ID_TOKEN, processes.daemon.pid))
                cases.append((f"{name} getState", processes.daemon_socket, GET_STATE, processes.daemon.pid))
            for case, path, line, pid in cases:
                before = cpu_nanoseconds(pid)
                subprocess.run([os.path.join(args.tools, "sesame-load"), "count", path, str(args.clients), str(args.count),
                                line],
                               capture_output=True, check=True, preexec_fn=Processes.pin(0))
                costs.setdefault(case, []).append((cpu_nanoseconds(pid) - before) / args.count / 1000)

    for case, values in costs.items():
        print(f"{case:20s} {statistics.median(values):6.2f} µs CPU per request (median of {len(values)} rounds)")
    for method in ("getIdToken", "getState"):
        ratios = [new / base for base, new in zip(costs[f"base {method}"], costs[f"new {method}"])]
        print(f"{method}: new / base {statistics.median(ratios):.3f} (rounds: "
              f"{', '.join(f'{r:.2f}' for r in sorted(ratios))})")
    if "NIO floor" in costs:
        for name in ("base", "new"):
            above = [d - n for n, d in zip(costs["NIO floor"], costs[f"{name} getIdToken"])]
            print(f"{name} getIdToken above the NIO floor: {statistics.median(above):.2f} µs (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

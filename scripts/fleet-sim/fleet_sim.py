#!/usr/bin/env python3
"""`make fleet-sim`: N real sesamed against one sesame-emulator with the documented per-address
limits, behind one source address and then spread over several (network namespaces of its
own), with real hours compressed: every limit's window, the token lifetime and the refresh
margin are divided by --scale (60: a simulated hour is a real minute).

Needs root (`ip netns`). Prints, per provider and address count: the time until every machine
has a session, requests per operation per simulated hour against each limit, 429s, the refresh
spread over the token lifetime, sign-outs (must be 0) and private memory per daemon; writes
results.json and an SVG plot per phase to --out. Exit status 1 when a machine never got a
session (within the phase), signed out, or a daemon died. See docs/BENCHMARKS.md (Fleets).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fleet_net import HOST_ADDRESS, Network  # noqa: E402
from fleet_phase import Settings, run_phase  # noqa: E402
from fleet_processes import Emulator, raise_open_files  # noqa: E402
from fleet_report import lines, plot, summary  # noqa: E402

THREADS_PER_DAEMON = 8  # 4 measured (release and debug); room for the HTTP client's
MIB_PER_DAEMON = 12  # private memory with room: 4 MiB measured here (debug and release), 6.5 MiB in make bench


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", required=True, help="where sesamed and sesame-emulator are (release)")
    parser.add_argument("-n", "--machines", type=int, default=1000)
    parser.add_argument("--addresses", default="1,10",
                        help="address counts to run, comma-separated (default 1,10: behind one, then spread over 10)")
    parser.add_argument("--providers", default="firebase,supabase")
    parser.add_argument("--scale", type=int, default=60, help="simulated seconds per real second (at most 60)")
    parser.add_argument("--window-factor", type=float, default=1.1,
                        help="first_guest_window as this many times the hours the sign-up limit needs")
    parser.add_argument("--steady-hours", type=float, default=2.0,
                        help="simulated hours watched after the last machine's first session")
    parser.add_argument("--restart-offline-hours", type=float, default=0.0,
                        help="then stop every daemon, keep them off this many simulated hours, start them together")
    parser.add_argument("--minutes", type=float, default=None, help="cap on each phase, in real minutes")
    parser.add_argument("--poll", type=float, default=None, help="seconds between readings (default by N)")
    parser.add_argument("--out", default=".build/fleet-sim", help="results.json and the SVG plots")
    parser.add_argument("--no-429", dest="no_429", action="store_true",
                        help="fail when the emulator refused any request for a limit (make test-fleet-sim)")
    parser.add_argument("--keep", action="store_true", help="keep the daemons' directories (logs, metrics)")
    parser.add_argument("--smoke", action="store_true",
                        help="20 machines, firebase behind 1 address, supabase behind 2, "
                             "each until every machine refreshed once")
    options = parser.parse_args()
    if options.smoke:
        options.machines, options.minutes = min(options.machines, 20), options.minutes or 1.5
    if not 1 <= options.scale <= 60 or 3600 % options.scale:
        parser.error("--scale must divide 3600 and be at most 60 (a token lives at least 60 s)")
    return options


def preflight(machines: int) -> None:
    """Refuses what this machine cannot hold: pids, open files, memory; and non-root."""
    if os.geteuid() != 0:
        sys.exit("fleet-sim: needs root (network namespaces: ip netns add)")
    if shutil.which("ip") is None:
        sys.exit("fleet-sim: needs ip (iproute2)")
    pid_max = int(open("/proc/sys/kernel/pid_max").read())
    threads_max = int(open("/proc/sys/kernel/threads-max").read())
    running = len(os.listdir("/proc"))
    if machines * THREADS_PER_DAEMON + running > min(pid_max, threads_max):
        sys.exit(f"fleet-sim: {machines} daemons need about {machines * THREADS_PER_DAEMON} threads; "
                 f"kernel.pid_max is {pid_max}, threads-max {threads_max}")
    open_files = raise_open_files()
    if open_files < 4 * machines + 256:
        sys.exit(f"fleet-sim: the emulator holds a connection per daemon: the open-files limit "
                 f"{open_files} is under {4 * machines + 256} (ulimit -n)")
    available = 0
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            available = int(line.split()[1]) // 1024
    if machines * MIB_PER_DAEMON > available:
        sys.exit(f"fleet-sim: {machines} daemons may need {machines * MIB_PER_DAEMON} MiB; "
                 f"{available} MiB available")


def main() -> int:
    options = arguments()
    preflight(options.machines)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    signal.signal(signal.SIGHUP, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    work = tempfile.mkdtemp(prefix="sesame-fleet-")
    os.makedirs(options.out, exist_ok=True)
    ttl = 3600 // options.scale
    margin = 25 if options.smoke else max(1, round(300 / options.scale))
    poll = options.poll or (1.0 if options.machines <= 200 else 2.0)
    settings = Settings(options.machines, options.scale, margin, options.window_factor, options.steady_hours,
                        options.minutes, poll, os.path.abspath(options.bin_dir), work,
                        stop_when_refreshed=options.smoke, restart_offline_hours=options.restart_offline_hours)
    phases = ([(p, 1 if p == "firebase" else 2) for p in options.providers.split(",")] if options.smoke else
              [(p, int(a)) for p in options.providers.split(",") for a in options.addresses.split(",")])

    def log(text: str) -> None:
        print(text, flush=True)

    log(f"fleet-sim: {options.machines} machines; 1 simulated hour = {3600 / options.scale:g} real s: every limit's "
        f"window / {options.scale}, token lifetime {ttl} s (Firebase tokenTtlSeconds, Supabase --supabase-jwt-expiry), "
        f"refresh_margin {margin} s; work {work}")
    reports, failed, network, emulator = [], False, None, None
    try:
        network = Network()
        emulator = Emulator(settings.bin_dir, work, HOST_ADDRESS, options.scale, ttl)
        for provider, addresses in phases:
            result = run_phase(settings, emulator, network, provider, addresses, log)
            report = summary(result, emulator.limits)
            reports.append(report)
            for line in lines(report):
                log(line)
            svg_path = os.path.join(options.out, f"fleet-{provider}-{addresses}.svg")
            with open(svg_path, "w") as svg:
                svg.write(plot(result, emulator.limits, bin_seconds=max(poll, result.settings.hour / 6)))
            log(f"   plot: {svg_path}")
            failed |= (report["all_sessions_h"] is None or report["sign_outs"] > 0 or bool(report["died"])
                       or (report["restart"] is not None and report["restart"]["all_fresh_h"] is None))
            refused = sum(limit["refused"] for limit in report["emulator_limits"].values())
            if options.no_429 and refused:
                log(f"   FAILED: the emulator refused {refused} requests for a limit (--no-429)")
                failed = True
    except KeyboardInterrupt:
        log("fleet-sim: interrupted; stopping everything")
        failed = True
    finally:
        if emulator:
            emulator.close()
        if network:
            network.close()
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(options.out, "results.json"), "w") as out:
        json.dump({"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "phases": reports}, out, indent=1,
                  default=lambda v: None if isinstance(v, float) and math.isnan(v) else str(v))
    log(f"fleet-sim: {'FAILED' if failed else 'ok'}; results in {options.out}/results.json")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""One phase of a fleet simulation: N fresh machines of one provider behind some addresses,
watched through their metrics files and the emulator's counters until every machine has a
session and has lived some simulated hours with it."""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field

from fleet_metrics import DaemonReading, counter_deltas, parse_prometheus, reading
from fleet_processes import Daemon, Emulator, Gate, private_kib, start_daemon, stop_all, write_config

# The operation each provider's first guest counts against, and the limit of its refreshes.
SIGN_UP_LIMIT = {"firebase": "account_creation", "supabase": "anonymous_users"}
REFRESH_LIMIT = {"firebase": None, "supabase": "token_refresh"}


@dataclass
class Settings:
    machines: int
    scale: int  # real seconds are simulated seconds divided by this
    margin: int  # session.refresh_margin (real seconds)
    window_factor: float  # first_guest_window = factor x the time the per-address limit needs
    steady_hours: float  # simulated hours watched after the last machine got its session
    minutes: float | None  # a cap on each phase, in real minutes
    poll: float  # seconds between two readings of every metrics file
    bin_dir: str
    work: str
    stop_when_refreshed: bool = False  # the smoke test: stop once every machine refreshed once
    restart_offline_hours: float = 0.0  # then stop every daemon, wait this long, start them all again

    @property
    def hour(self) -> float:
        return 3600 / self.scale


@dataclass
class Machine:
    daemon: Daemon
    source: str
    last: DaemonReading | None = None
    first_issued: float = 0.0
    refreshes: list[float] = field(default_factory=list)  # moments as fractions of the lifetime
    lost_session: int = 0
    sign_outs_before: float = 0.0  # counted before a restart (the counters start again at 0)
    stopped: bool = False  # stopped on purpose, for a restart
    restart_issued: float = 0.0  # the first token issued after the restart


@dataclass
class PhaseResult:
    provider: str
    addresses: int
    settings: Settings
    window: int
    start: float
    end: float = 0.0
    spawn_seconds: float = 0.0
    machines: list[Machine] = field(default_factory=list)
    events: list[tuple[float, str, float]] = field(default_factory=list)  # daemon counters
    backend: list[tuple[float, str, float]] = field(default_factory=list)  # emulator calls
    limits_before: dict = field(default_factory=dict)
    limits_after: dict = field(default_factory=dict)
    memory_kib: list[int] = field(default_factory=list)
    died: list[tuple[int, int]] = field(default_factory=list)  # (machine, exit status)
    killed: int = 0
    stopped_by: str = ""
    restart_at: float = 0.0  # when the daemons were started again (0: no restart)
    restart_spawn_seconds: float = 0.0
    restart_stopped_by: str = ""


def first_guest_window(settings: Settings, emulator: Emulator, provider: str, per_address: int) -> int:
    """Real seconds over which a machine spreads its first guest: the time the per-address
    limit needs for the machines beyond its burst, times the factor."""
    rate, burst = emulator.limits[SIGN_UP_LIMIT[provider]]
    hours = max(0, per_address - burst) / rate * settings.window_factor
    return math.ceil(hours * settings.hour)


def run_phase(settings: Settings, emulator: Emulator, network, provider: str, addresses: int, log) -> PhaseResult:
    namespaces = network.add(addresses)
    per_address = math.ceil(settings.machines / addresses)
    window = first_guest_window(settings, emulator, provider, per_address)
    result = PhaseResult(provider, addresses, settings, window, start=time.time())
    result.limits_before = emulator.rate_limits(provider)
    calls_before = emulator.calls(provider)
    phase_dir = os.path.join(settings.work, f"{provider}-{addresses}")
    log(f"{provider}, {settings.machines} machines behind {addresses} address(es) "
        f"({per_address} each): first_guest_window {window} s = {window / settings.hour:.2f} simulated h")
    os.makedirs(phase_dir)
    gate = Gate(os.path.join(phase_dir, "start.fifo"))
    try:
        for index in range(settings.machines):
            name, source = namespaces[index % addresses]
            directory = os.path.join(phase_dir, f"m{index:05d}")
            os.makedirs(directory)
            config = write_config(directory, provider, emulator, settings.margin, window)
            daemon = start_daemon(settings.bin_dir, index, name, directory, config, gate)
            result.machines.append(Machine(daemon, source))
        result.spawn_seconds = time.time() - result.start
        result.start = time.time()
        gate.release(settings.machines)
        log(f"  {settings.machines} processes spawned in {result.spawn_seconds:.1f} s, then started together")
        watcher = Watcher(settings, emulator, provider, result, calls_before)
        watcher.watch(log)
        result.memory_kib = [private_kib(m.daemon.process.pid) for m in result.machines
                             if m.daemon.process.poll() is None]
        if settings.restart_offline_hours:
            _restart(settings, result, watcher, log)
        result.limits_after = emulator.rate_limits(provider)
    finally:
        result.end = result.end or time.time()
        result.killed = stop_all([m.daemon.process for m in result.machines])
        gate.close()
        network.remove([name for name, _ in namespaces])
    return result


class Watcher:
    """Reads every metrics file and the emulator's counters, once per `settings.poll`."""

    def __init__(self, settings: Settings, emulator: Emulator, provider: str, result: PhaseResult,
                 calls_before: dict[str, float]) -> None:
        self.settings, self.emulator, self.provider, self.result = settings, emulator, provider, result
        self.calls_last = calls_before
        self.last = time.time()

    def poll(self) -> None:
        now = self.last = time.time()
        calls = self.emulator.calls(self.provider)
        for route, delta in counter_deltas(self.calls_last, calls).items():
            if delta:
                self.result.backend.append((now, route, delta))
        self.calls_last = calls
        for machine in self.result.machines:
            _read(machine, now, self.result)

    def watch(self, log, done=None) -> None:
        """Polls until `done(now)` names why to stop (by default: every machine has had a session
        for the steady hours), or the cap."""
        settings, result = self.settings, self.result
        # Without --minutes, a deadline all the same: twice the window, the steady hours and 6 more.
        default_cap = (result.spawn_seconds + 2 * result.window + (settings.steady_hours + 6) * settings.hour
                       + (settings.restart_offline_hours + 6) * settings.hour * (done is not None))
        cap = settings.minutes * 60 if settings.minutes else default_cap
        next_report = result.start + settings.hour
        while True:
            time.sleep(max(0.0, self.last + settings.poll - time.time()))
            self.poll()
            now = self.last
            with_session = sum(1 for m in result.machines if m.first_issued)
            if now >= next_report:
                while next_report <= now:
                    next_report += settings.hour
                refused = sum(n for _, key, n in result.events if key.count("|") == 1 and key.endswith("|rate_limited"))
                log(f"  {(now - result.start) / settings.hour:5.1f} h: {with_session}/{len(result.machines)} "
                    f"with a session; {refused:g} requests answered 429 so far")
            if len(result.died) == len(result.machines):
                result.stopped_by = "every daemon died"
                break
            if done is not None:
                if reason := done(now):
                    result.restart_stopped_by = reason
                    break
                continue
            if with_session == len(result.machines):
                last = max(m.first_issued for m in result.machines)
                if settings.stop_when_refreshed and all(m.refreshes for m in result.machines):
                    result.stopped_by = "every machine refreshed once"
                    break
                if not settings.stop_when_refreshed and now >= last + settings.steady_hours * settings.hour:
                    result.stopped_by = f"{settings.steady_hours:g} simulated h after the last first session"
                    break
            if now - result.start >= cap:
                result.stopped_by = f"the deadline of {cap / 60:g} real minutes"
                break
        result.end = time.time()


def _read(machine: Machine, now: float, result: PhaseResult) -> None:
    process = machine.daemon.process
    if machine.stopped:
        return
    if process.poll() is not None:
        if all(index != machine.daemon.index for index, _ in result.died):
            result.died.append((machine.daemon.index, process.returncode))
    try:
        with open(machine.daemon.metrics_path) as file:
            current = reading(parse_prometheus(file.read()))
    except (OSError, ValueError):
        return
    before = machine.last
    previous_requests = {f"{op}|{outcome}": v for (op, outcome), v in (before.requests if before else {}).items()}
    requests = {f"{op}|{outcome}": v for (op, outcome), v in current.requests.items()}
    for key, delta in counter_deltas(previous_requests, requests).items():
        if delta:
            result.events.append((now, key, delta))
            result.events.append((now, f"{machine.source}|{key}", delta))
    if current.token_issued and not machine.first_issued:
        machine.first_issued = current.token_issued
    if result.restart_at and current.token_issued >= result.restart_at and not machine.restart_issued:
        machine.restart_issued = current.token_issued
    # A token kept over a restart is renewed at start, not when planned: not a refresh moment.
    kept = result.restart_at and before and before.token_issued < result.restart_at
    if before and before.token_issued and current.token_issued > before.token_issued and not kept:
        lifetime = before.token_expiry - before.token_issued
        if lifetime > 0:
            machine.refreshes.append((current.token_issued - before.token_issued) / lifetime)
    if before and before.has_session and not current.has_session:
        machine.lost_session += 1
    machine.last = current


def _restart(settings: Settings, result: PhaseResult, watcher: Watcher, log) -> None:
    """Every daemon stopped together, kept off for the offline hours (so its token expires, as
    in a power cut), and started again together on its keyring."""
    for machine in result.machines:
        machine.stopped = True
    stop_all([m.daemon.process for m in result.machines])
    for machine in result.machines:
        machine.sign_outs_before += machine.last.sign_outs if machine.last else 0
        machine.last = None
        if os.path.exists(machine.daemon.metrics_path):
            os.unlink(machine.daemon.metrics_path)
    log(f"  every daemon stopped; starting them all again in {settings.restart_offline_hours:g} simulated h")
    time.sleep(settings.restart_offline_hours * settings.hour)
    watcher.poll()

    def done(now: float) -> str | None:
        if not all(m.restart_issued for m in result.machines):
            return None
        last = max(m.restart_issued for m in result.machines)
        return "half a simulated hour after the last machine's fresh token" if now >= last + settings.hour / 2 else None

    spawned = time.time()
    gate = Gate(os.path.join(os.path.dirname(result.machines[0].daemon.directory), "restart.fifo"))
    try:
        for machine in result.machines:
            old = machine.daemon
            machine.daemon = start_daemon(settings.bin_dir, old.index, old.namespace, old.directory,
                                          os.path.join(old.directory, "sesamed.toml"), gate)
        result.restart_spawn_seconds = time.time() - spawned
        result.restart_at = time.time()
        gate.release(len(result.machines))
        for machine in result.machines:
            machine.stopped = False
        log(f"  {len(result.machines)} processes spawned again in {result.restart_spawn_seconds:.1f} s, "
            f"then started together")
        watcher.watch(log, done)
    finally:
        gate.close()

"""The processes of a fleet simulation: one emulator, N daemons, each waited for with a
deadline and stopped at the end (SIGTERM, then SIGKILL past the deadline)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import time
import urllib.request

# Documented per-address limits: name, count, seconds, burst (docs/emulator.md).
DOCUMENTED_LIMITS = [("account_creation", 100, 3600, 100), ("anonymous_users", 30, 3600, 30),
                     ("token_refresh", 150, 300, 30), ("verify", 30, 300, 30), ("otp", 30, 300, 30)]


def raise_open_files() -> int:
    """Lifts this process's (and so its children's) open-files limit to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def private_kib(pid: int) -> int:
    """Private (not shared) memory of a process, from smaps_rollup."""
    total = 0
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    return total


def stop_all(children: list[subprocess.Popen], deadline_seconds: float = 30) -> int:
    """SIGTERM to every child still running, then SIGKILL to those not gone by the deadline;
    returns how many had to be killed."""
    for child in children:
        if child.poll() is None:
            try:
                child.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + deadline_seconds
    killed = 0
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            killed += 1
    return killed


class Emulator:
    """sesame-emulator with the documented limits, their windows divided by `scale`."""

    def __init__(self, bin_dir: str, work: str, host: str, scale: int, token_ttl: int) -> None:
        argv = [os.path.join(bin_dir, "sesame-emulator"), "--host", host, "--auth-port", "0",
                "--database-port", "0", "--supabase-port", "0", "--supabase-jwt-expiry", str(token_ttl),
                "--rate-limits", "documented", "--log-level", "warning"]
        self.limits = {}
        for name, count, seconds, burst in DOCUMENTED_LIMITS:
            if seconds % scale:
                raise ValueError(f"--scale {scale} does not divide {name}'s {seconds} s")
            argv += ["--rate-limit", f"{name}={count}/{seconds // scale}:{burst}"]
            self.limits[name] = (count * 3600 / seconds, burst)  # per simulated hour
        out_path = os.path.join(work, "emulator.out")
        self.process = subprocess.Popen(argv, stdout=open(out_path, "wb"),
                                         stderr=open(os.path.join(work, "emulator.log"), "ab"))
        deadline = time.monotonic() + 60
        lines: list[str] = []
        while time.monotonic() < deadline and self.process.poll() is None:
            lines = open(out_path).read().splitlines()
            if sum("listening on" in line for line in lines) >= 3 and any("publishable key" in line for line in lines):
                break
            time.sleep(0.05)
        else:
            self.process.kill()
            raise RuntimeError(f"sesame-emulator did not start (see {work}/emulator.log)")
        self.urls = {}
        for line in lines:
            if "listening on" in line:
                self.urls[line.split(":", 1)[1].split()[0]] = line.rsplit(" ", 1)[1]
            elif "publishable key" in line:
                self.anon_key = line.rsplit(" ", 1)[1]
        self.ports = {"firebase": self.urls["auth"], "supabase": self.urls["supabase"]}
        self.token_ttl = token_ttl
        self.call("firebase", "/sesame/v1/faults", {"tokenTtlSeconds": token_ttl})

    def call(self, provider: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.ports[provider] + path, data=data, method="POST" if data else "GET")
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)

    def calls(self, provider: str) -> dict[str, float]:
        return {key: float(value) for key, value in self.call(provider, "/sesame/v1/faults")["calls"].items()}

    def rate_limits(self, provider: str) -> dict[str, dict]:
        return {limit["name"]: limit for limit in self.call(provider, "/sesame/v1/rate-limits")["limits"]}

    def close(self) -> None:
        stop_all([self.process])


class Daemon:
    def __init__(self, index: int, namespace: str, directory: str, process: subprocess.Popen) -> None:
        self.index = index
        self.namespace = namespace
        self.directory = directory
        self.process = process
        self.metrics_path = os.path.join(directory, "sesame.prom")


def write_config(directory: str, provider: str, emulator: Emulator, margin: int, window: int) -> str:
    socket_path = os.path.join(directory, "s.sock")
    backend = emulator.ports[provider].split("//", 1)[1]
    if provider == "firebase":
        section = f'[firebase]\napi_key = "fleet"\nproject_id = "demo-project"\nauth_emulator_host = "{backend}"\n'
    else:
        section = f'[supabase]\nurl = "http://{backend}"\nanon_key = "{emulator.anon_key}"\n'
    path = os.path.join(directory, "sesamed.toml")
    with open(path, "w") as config:
        config.write(f'[backend]\nprovider = "{provider}"\n{section}'
                     f'[session]\nrefresh_margin = {margin}\nfirst_guest_window = {window}\n'
                     f'[socket]\npath = "{socket_path}"\n'
                     f'[metrics]\ntextfile_path = "{os.path.join(directory, "sesame.prom")}"\n')
    return path


class Gate:
    """A FIFO that every daemon of a phase waits on before it execs, so a fleet whose processes
    take minutes to spawn still starts at one moment (`release`): each waiting shell reads one
    line, and the gate writes one line per daemon. The gate holds the FIFO open for reading and
    writing, so a shell that reaches it late still finds its line."""

    def __init__(self, path: str) -> None:
        os.mkfifo(path, 0o600)
        self.path = path
        self.fd = os.open(path, os.O_RDWR)

    def release(self, count: int) -> None:
        remaining = b"\n" * count
        while remaining:
            remaining = remaining[os.write(self.fd, remaining):]

    def close(self) -> None:
        os.close(self.fd)
        os.unlink(self.path)


def start_daemon(bin_dir: str, index: int, namespace: str, directory: str, config: str, gate: Gate) -> Daemon:
    """sesamed in `namespace`, once `gate` lets it go (`ip netns exec` execs a shell that execs
    sesamed, so the child's pid is the daemon's)."""
    log = open(os.path.join(directory, "sesamed.log"), "ab")
    process = subprocess.Popen(["ip", "netns", "exec", namespace, "sh", "-c", 'read _ < "$0"; exec "$@"', gate.path,
                                os.path.join(bin_dir, "sesamed"), "--config", config,
                                "--state-dir", os.path.join(directory, "state"), "--log-level", "warning"],
                               stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    log.close()
    return Daemon(index, namespace, directory, process)

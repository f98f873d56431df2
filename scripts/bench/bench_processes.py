"""The processes of one benchmark run: emulator, daemon and echo floor, pinned and cleaned up."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import time


def private_kib(pid: int) -> int:
    """Private (not shared) memory of a process: what it costs beyond shared library pages."""
    total = 0
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_nanoseconds(pid: int) -> int:
    """A process's CPU time in nanoseconds (`schedstat` of every thread: measured, not sampled in ticks)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except OSError:
            pass
    return total


class Processes:
    def __init__(self, work: str, bin_dir: str, tools: str) -> None:
        self.work = work
        self.bin_dir = bin_dir
        self.tools = tools
        self.children: list[subprocess.Popen] = []
        self.daemon: subprocess.Popen | None = None
        self.echo: subprocess.Popen | None = None
        self.daemon_socket = os.path.join(work, "d.sock")
        self.notify: socket.socket | None = None

    @staticmethod
    def pin(core: int):
        """A preexec_fn that pins the child to one core (when there are two) and lifts its fd limit."""
        def apply() -> None:
            if (os.cpu_count() or 1) >= 2:
                os.sched_setaffinity(0, {core})
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return apply

    def __enter__(self) -> "Processes":
        out = os.path.join(self.work, "emulator.out")
        emulator = self._spawn([os.path.join(self.bin_dir, "sesame-emulator"), "--auth-port", "0",
                                "--database-port", "0"], stdout=open(out, "wb"), core=0)
        deadline = time.monotonic() + 30
        ports: list[str] = []
        while len(ports) < 2 and time.monotonic() < deadline and emulator.poll() is None:
            ports = [line.rsplit(":", 1)[1] for line in open(out).read().splitlines() if "listening on" in line]
            time.sleep(0.05)
        if len(ports) < 2:
            raise RuntimeError("sesame-emulator did not start")
        with open(os.path.join(self.work, "d.toml"), "w") as config:
            config.write(f'[firebase]\napi_key = "bench"\nproject_id = "demo-project"\n'
                         f'auth_emulator_host = "127.0.0.1:{ports[0]}"\n'
                         f'[socket]\npath = "{self.daemon_socket}"\nmax_connections = 20000\n')
        return self

    def __exit__(self, *exc: object) -> None:
        if self.notify is not None:
            self.notify.close()
        for child in reversed(self.children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()

    def _spawn(self, argv: list[str], core: int, **options) -> subprocess.Popen:
        options.setdefault("stderr", open(os.path.join(self.work, os.path.basename(argv[0]) + ".log"), "ab"))
        child = subprocess.Popen(argv, preexec_fn=self.pin(core), **options)
        self.children.append(child)
        return child

    def start_daemon_twice(self, environment: dict[str, str] | None = None) -> float:
        """Starts sesamed, waits for its guest, stops it, and starts it again on the stored
        session; returns the milliseconds from exec to READY=1 of the second start. The
        notify socket stays open (``notify``) for what the daemon sends after READY=1;
        `environment` is added to the daemon's (WATCHDOG_USEC, …)."""
        self._start_daemon(environment or {})
        self._wait_signed_in()
        self.daemon.send_signal(signal.SIGTERM)
        self.daemon.wait(timeout=20)
        elapsed = self._start_daemon(environment or {})
        self._wait_signed_in()
        return elapsed

    def _start_daemon(self, environment: dict[str, str]) -> float:
        notify_path = os.path.join(self.work, "notify.sock")
        if os.path.exists(notify_path):
            os.unlink(notify_path)
        if self.notify is not None:
            self.notify.close()
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(notify_path)
        self.notify.settimeout(30)
        started = time.monotonic()
        env = dict(os.environ, NOTIFY_SOCKET=notify_path, **environment)
        self.daemon = self._spawn([os.path.join(self.bin_dir, "sesamed"), "--config",
                                   os.path.join(self.work, "d.toml"), "--state-dir",
                                   os.path.join(self.work, "state"), "--log-level", "warning"], core=1, env=env)
        while b"READY=1" not in self.notify.recv(4096):
            pass
        return (time.monotonic() - started) * 1000

    def _wait_signed_in(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                    connection.connect(self.daemon_socket)
                    connection.sendall(b'{"jsonrpc":"2.0","id":1,"method":"getState"}\n')
                    answer = connection.recv(65536)
                    if b'"anonymous"' in answer or b'"authenticated"' in answer:
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("sesamed did not sign in")

    def start_echo(self, reply_bytes: int) -> str:
        path = os.path.join(self.work, "echo.sock")
        self.echo = self._spawn([os.path.join(self.tools, "echo-floor"), path, str(reply_bytes)], core=1,
                                stdout=subprocess.PIPE)
        self.echo.stdout.readline()
        return path

    def start_nio_echo(self, reply_bytes: int) -> tuple[str, int] | None:
        """Starts sesame-nio-echo (SwiftNIO with one handler) when it was built; its socket and pid."""
        binary = os.path.join(self.bin_dir, "sesame-nio-echo")
        if not os.path.exists(binary):
            return None
        path = os.path.join(self.work, "nio-echo.sock")
        child = self._spawn([binary, path, str(reply_bytes)], core=1, stdout=subprocess.PIPE)
        child.stdout.readline()
        return path, child.pid

    def idle_connections_kib(self, count: int) -> float:
        """Private memory the daemon spends per idle connection: `count` connections (each said
        hello) held open, over a baseline taken with a few connections already open, so the
        code the first connection runs (paged back in after an idle release) is not charged
        to connections."""
        warm = self._hold(10)
        before = private_kib(self.daemon.pid)
        holder = self._hold(count)
        after = private_kib(self.daemon.pid)
        for process in (holder, warm):
            process.stdin.close()
            process.wait(timeout=30)
        return (after - before) / count

    def idle_kib(self, seconds: float) -> int:
        """Private memory once the daemon has had no request for `seconds` (it gives memory back
        after `memory.release_when_idle`, 5 s by default, checked every 5 s)."""
        time.sleep(seconds)
        return private_kib(self.daemon.pid)

    def _hold(self, count: int) -> subprocess.Popen:
        holder = subprocess.Popen([os.path.join(self.tools, "sesame-load"), "idle", self.daemon_socket, str(count)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, preexec_fn=self.pin(0))
        holder.stdout.readline()
        return holder

#!/usr/bin/env python3
"""`make run` as a person types it, in a terminal (a pseudo-terminal here): the build says one
line instead of its output, the session shows, and Ctrl-C stops both processes with no
`make: *** ... Interrupt` and make's terminal left clean. scripts/test-make-run.py (from the
repository's root; the binaries are built by make run itself, quietly)."""
import os
import pty
import shutil
import select
import socket
import sys
import tempfile
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    run_dir = tempfile.mkdtemp(prefix="sesame-make-run-")
    env = dict(os.environ, SESAME_RUN_DIR=run_dir, SESAME_AUTH_PORT=str(free_port()),
               SESAME_DATABASE_PORT=str(free_port()), SESAME_SUPABASE_PORT=str(free_port()))
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS"):  # as typed, not as a sub-make of make test
        env.pop(name, None)
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe("make", ["make", "run"], env)
    output = b""

    def read_until(marker: bytes, seconds: float) -> bool:
        nonlocal output
        deadline = time.monotonic() + seconds
        while marker not in output and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # EIO: every process on the terminal has closed it
                    return marker in output
                if not chunk:
                    return marker in output
                output += chunk
        return marker in output

    failures = []
    # A first build of the three products takes minutes on a shared machine.
    if not read_until(b"Press Ctrl-C to stop both.", 1800):
        failures.append("make run never showed its banner")
    before_session = output.split(b"sesamed is running")[0].decode(errors="replace")
    for needle in ("warning:", "Compiling", "Build complete", "Build of product", "Building for", "swift build"):
        if needle in before_session:
            failures.append(f"make run shows its build output ({needle!r})")
    os.write(fd, b"\x03")  # Ctrl-C, as the terminal sends it: SIGINT to the foreground group
    read_until(b"\x00never", 60)  # to EOF: every process has let the terminal go
    _, status = os.waitpid(pid, 0)
    sock = os.path.join(run_dir, "sesamed.sock")
    with socket.socket(socket.AF_UNIX) as client:
        try:
            client.connect(sock)
            failures.append("sesamed still answers after Ctrl-C")
        except OSError:
            pass
    text = output.decode(errors="replace")
    shutil.rmtree(run_dir, ignore_errors=True)
    if "Stopping sesamed and sesame-emulator" not in text:
        failures.append("Ctrl-C did not stop the daemon and the emulator")
    if "make: ***" in text or "Interrupt" in text:
        failures.append("make reported the Ctrl-C as a failure")
    if failures:
        sys.stderr.write(text + "\n")
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    print(f"make run under a terminal: quiet build, session shown, Ctrl-C clean (status {status:#x})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

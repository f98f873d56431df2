#!/usr/bin/env python3
"""`make soak`: SIGKILL sesamed at random points of a mixed workload, many times, then check
that nothing was lost.

One sesame-emulator runs for the whole soak. Each round starts sesamed on the same keyring,
lets clients hammer it (sign-ups, links, merges, refreshes, sign-outs, username claims, many
subscribers, a migrator) and kills it with SIGKILL after a random delay. After the last round
the daemon runs undisturbed until its pending work drains, and the checks run:

- every restart opened the keyring (no exit 65, no exit 75) and reached a signed-in state;
- the session is consistent with the backend (the uid exists there, with the right email);
- no merge is lost (none pending once drained) and no deletion is lost (every guest that a
  client ever saw and that the daemon gave up is gone at the backend);
- orphans: anonymous accounts at the backend that no client ever saw (created by the backend
  but killed before the keyring write) are counted, not failed: see docs/RELIABILITY.md.

It prints one summary line and exits 1 when a check fails. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from soak_backend import Backend  # noqa: E402
from soak_workload import Observations, Workload  # noqa: E402
from soak_wire import Connection, RpcError, wait_for_socket  # noqa: E402


def write_config(directory: str, backend: Backend) -> str:
    path = os.path.join(directory, "sesamed.toml")
    with open(path, "w") as handle:
        handle.write(
            f"""[firebase]
api_key = "soak-key"
project_id = "{backend.project}"
auth_emulator_host = "{backend.auth_host}"
database_emulator_host = "{backend.database_host}"
[socket]
path = "{directory}/s.sock"
mode = "0600"
[merge]
hold = 3
[session]
refresh_margin = 300
"""
        )
    return path


class Daemon:
    def __init__(self, binary: str, directory: str, config: str) -> None:
        self.binary = binary
        self.directory = directory
        self.config = config
        self.socket = os.path.join(directory, "s.sock")
        self.process: subprocess.Popen[bytes] | None = None
        self.generation = 0

    def start(self) -> None:
        self.generation += 1
        log = open(os.path.join(self.directory, f"sesamed.{self.generation % 4}.log"), "wb")
        env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
        self.process = subprocess.Popen(
            [self.binary, "--config", self.config, "--state-dir", os.path.join(self.directory, "state")],
            stdout=log, stderr=log, env=env)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> int:
        assert self.process
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)

    def exit_status(self) -> int | None:
        return self.process.poll() if self.process else None


def wait_signed_in(daemon: Daemon, deadline: float) -> dict:
    """The state once the daemon answers with a user (anonymous or authenticated)."""
    while time.monotonic() < deadline:
        status = daemon.exit_status()
        if status is not None:
            raise RuntimeError(f"sesamed exited with status {status} at start (keyring unreadable or locked?)")
        try:
            with Connection(daemon.socket, timeout=2) as connection:
                state = connection.call("getState")
                if state["status"] in ("anonymous", "authenticated"):
                    return state
        except (OSError, RpcError):
            pass
        time.sleep(0.02)
    raise RuntimeError("sesamed did not reach a signed-in state in time")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=".build/debug", help="where sesamed and sesame-emulator are")
    parser.add_argument("--rounds", type=int, default=1000, help="how many SIGKILLs")
    parser.add_argument("--clients", type=int, default=6, help="concurrent workload clients per round")
    parser.add_argument("--subscribers", type=int, default=24, help="subscribed connections per round")
    parser.add_argument("--max-delay-ms", type=int, default=400, help="longest time before the kill")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--verbose", action="store_true", help="also print the count of every answer")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="sesame-soak-")
    backend = Backend.start(os.path.join(args.bin_dir, "sesame-emulator"), directory)
    daemon = Daemon(os.path.join(args.bin_dir, "sesamed"), directory, write_config(directory, backend))
    observations = Observations()
    failures: list[str] = []
    orphans: set[str] = set()
    started = time.monotonic()
    try:
        backend.create_accounts(8)
        for round_number in range(args.rounds):
            daemon.start()
            try:
                observations.note_state(wait_signed_in(daemon, time.monotonic() + 30))
            except RuntimeError as error:
                failures.append(f"round {round_number}: {error}")
                break
            workload = Workload(daemon.socket, backend, observations, rng, args.clients, args.subscribers)
            workload.start()
            time.sleep(rng.uniform(0, args.max_delay_ms / 1000))
            daemon.kill()
            workload.stop()
            if (round_number + 1) % 100 == 0:
                print(f"soak: {round_number + 1} kills, {observations.summary()}", file=sys.stderr, flush=True)
        if not failures:
            failures += drain_and_check(daemon, backend, observations)
        orphans = backend.anonymous_uids() - observations.seen_uids
    finally:
        daemon.kill()
        backend.stop()
        if not args.keep and not failures:
            shutil.rmtree(directory, ignore_errors=True)

    elapsed = time.monotonic() - started
    verdict = "FAIL" if failures else "ok"
    print(
        f"soak {verdict}: {args.rounds} SIGKILLs in {elapsed:.0f} s (seed {seed}); "
        f"{observations.summary()}; orphaned anonymous users: {len(orphans)}; failures: {len(failures)}")
    if args.verbose:
        for key, count in sorted(observations.counts.items()):
            print(f"  {key}: {count}")
    for failure in failures[:20]:
        print(f"  {failure}")
    if failures:
        print(f"  logs kept in {directory}")
    return 1 if failures else 0


def drain_and_check(daemon: Daemon, backend: Backend, observations: Observations) -> list[str]:
    """Restart once more, wait for merges and deletions to drain, then compare with the backend."""
    failures: list[str] = []
    daemon.start()
    state = wait_signed_in(daemon, time.monotonic() + 30)
    with Connection(daemon.socket, timeout=5) as migrator:
        migrator.call("subscribe", {"migrator": True})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            state = migrator.call("getState")
            for merge in state.get("pendingMerges", []):
                try:
                    migrator.call("completeMerge", {"mergeId": merge["mergeId"]})
                except RpcError:
                    pass
            leftover = (observations.seen_uids - {state["user"]["uid"]}) & backend.anonymous_uids()
            if not state.get("pendingMerges") and not leftover:
                break
            time.sleep(0.25)
    uid = state["user"]["uid"]
    record = backend.account(uid)
    if record is None:
        failures.append(f"the daemon's user {uid} does not exist at the backend")
    elif state["user"].get("email") and record.get("email") != state["user"]["email"]:
        failures.append(f"email differs: daemon {state['user']['email']!r}, backend {record.get('email')!r}")
    if state.get("pendingMerges"):
        failures.append(f"{len(state['pendingMerges'])} merges still pending after drain")
    leftover = (observations.seen_uids - {uid}) & backend.anonymous_uids()
    for lost in sorted(leftover):
        failures.append(f"guest {lost} was given up but never deleted at the backend")
    status = daemon.stop()
    if status != 0:
        failures.append(f"sesamed exited {status} after SIGTERM")
    return failures


if __name__ == "__main__":
    sys.exit(main())

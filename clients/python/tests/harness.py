"""Starts the built sesame-emulator and sesamed on temporary paths, as the Swift end-to-end
harness does. The binaries come from $SESAME_BIN_DIR (set by `make test-python`), else the
repository's .build/debug."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from sesame_client import DaemonUnavailable, Sesame, SesameError

REPO = Path(__file__).resolve().parents[3]
PROJECT = "demo-project"


def bin_dir() -> Path:
    configured = os.environ.get("SESAME_BIN_DIR")
    directory = Path(configured) if configured else REPO / ".build" / "debug"
    for name in ("sesamed", "sesame-emulator"):
        if not os.access(directory / name, os.X_OK):
            raise RuntimeError(f"{directory / name} is missing: build it (swift build --product {name}) "
                               "or set SESAME_BIN_DIR to the folder that holds it")
    return directory


def wait_until(what: str, condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Polls a readiness condition (processes starting up), bounded; not for ordering events."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (SesameError, OSError):
            pass
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting until {what}")


class Emulator:
    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="pyemu-", dir="/tmp")
        self.stdout = open(os.path.join(self.directory, "out"), "w+")
        self.stderr = open(os.path.join(self.directory, "err"), "w")
        self.process = subprocess.Popen(
            [str(bin_dir() / "sesame-emulator"), "--auth-port", "0", "--database-port", "0", "--project", PROJECT],
            stdout=self.stdout, stderr=self.stderr)
        self.ports: Dict[str, int] = {}

        def ready() -> bool:
            for line in Path(self.directory, "out").read_text().splitlines():
                for kind in ("auth", "database"):
                    if f"{kind} listening" in line:
                        self.ports[kind] = int(line.rsplit(":", 1)[1])
            return len(self.ports) == 2
        wait_until("the emulator prints its ports", ready)

    @property
    def auth_host(self) -> str:
        return f"127.0.0.1:{self.ports['auth']}"

    @property
    def database_host(self) -> str:
        return f"127.0.0.1:{self.ports['database']}"

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, owner: bool = False) -> Any:
        headers = {"Content-Type": "application/json"}
        if owner:
            headers["Authorization"] = "Bearer owner"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://{self.auth_host}{path}", data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raw = error.read()
        return json.loads(raw) if raw else None

    def create_account(self, email: str, password: str) -> str:
        body = self.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test",
                            {"email": email, "password": password, "returnSecureToken": True})
        return str(body["localId"])

    def account_exists(self, uid: str) -> bool:
        body = self.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:lookup",
                            {"localId": [uid]}, owner=True)
        return bool(body and body.get("users"))

    def oob_link(self, email: str, request_type: str = "EMAIL_SIGNIN") -> Optional[str]:
        """The newest out-of-band link sent to an address."""
        body = self.request("GET", f"/emulator/v1/projects/{PROJECT}/oobCodes")
        links = [c.get("oobLink") for c in body.get("oobCodes", [])
                 if c.get("email") == email.lower() and c.get("requestType") == request_type]
        return str(links[-1]) if links else None

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.stdout.close()
        self.stderr.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Daemon:
    """sesamed against an ``Emulator``, with its socket, keyring and config in a short temp dir."""

    def __init__(self, emulator: Emulator, settings: Optional[Dict[str, Dict[str, str]]] = None) -> None:
        self.emulator = emulator
        self.directory = tempfile.mkdtemp(prefix="pyd-", dir="/tmp")
        os.chmod(self.directory, 0o755)
        sections: Dict[str, Dict[str, str]] = {
            "firebase": {"api_key": '"py-key"', "project_id": f'"{PROJECT}"',
                         "auth_emulator_host": f'"{emulator.auth_host}"',
                         "database_emulator_host": f'"{emulator.database_host}"'},
            "socket": {"path": f'"{self.socket_path}"'},
        }
        for section, keys in (settings or {}).items():
            sections.setdefault(section, {}).update(keys)
        toml = "".join(f"[{name}]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items()) for name, keys in sections.items())
        Path(self.directory, "sesamed.toml").write_text(toml)
        self.generation = 0
        self.process = self._launch()

    @property
    def socket_path(self) -> str:
        return os.path.join(self.directory, "s.sock")

    def _launch(self) -> "subprocess.Popen[bytes]":
        log = open(os.path.join(self.directory, f"sesamed.{self.generation}.err"), "w")
        try:
            return subprocess.Popen(
                [str(bin_dir() / "sesamed"), "--config", os.path.join(self.directory, "sesamed.toml"),
                 "--state-dir", os.path.join(self.directory, "state"), "--log-level", "debug"],
                stdout=subprocess.DEVNULL, stderr=log)
        finally:
            log.close()

    def client(self, **options: Any) -> Sesame:
        return Sesame(self.socket_path, **options)

    def log(self) -> str:
        return "".join(Path(self.directory, f"sesamed.{n}.err").read_text() for n in range(self.generation + 1))

    def wait_for_status(self, status: str = "anonymous") -> None:
        client = self.client(timeout=2.0)

        def reached() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"sesamed exited: {self.log()[-3000:]}")
            try:
                return client.state().status == status
            except DaemonUnavailable:
                return False
        wait_until(f"sesamed reports {status}", reached)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def restart(self) -> None:
        self.generation += 1
        self.process = self._launch()
        self.wait_for_status()

    def kill_and_restart(self) -> None:
        self.kill()
        self.restart()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
        shutil.rmtree(self.directory, ignore_errors=True)


def unique_email(prefix: str = "py") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def reasons(states: List[Any]) -> List[str]:
    """The authStateChanged reasons among recorded states."""
    derived = {"snapshot", "token-refreshed", "user-updated", "connectivity-changed", "resynchronized"}
    return [s.reason for s in states if s.reason not in derived]


class Recorder:
    """Collects what a callback receives; ``wait`` blocks until a condition on it holds."""

    def __init__(self) -> None:
        import threading
        self.values: List[Any] = []
        self.condition = threading.Condition()

    def __call__(self, value: Any) -> None:
        with self.condition:
            self.values.append(value)
            self.condition.notify_all()

    def wait(self, what: str, predicate: Callable[[List[Any]], bool], timeout: float = 30.0) -> List[Any]:
        with self.condition:
            if not self.condition.wait_for(lambda: predicate(self.values), timeout):
                raise AssertionError(f"timed out waiting for {what}; got {self.values}")
            return list(self.values)


def expect_consecutive(states: List[Any]) -> None:
    """Within each daemon instance (a run starting at a snapshot), sequences go up by one."""
    for previous, following in zip(states, states[1:]):
        if following.reason != "snapshot":
            assert following.sequence == previous.sequence + 1, (previous, following)


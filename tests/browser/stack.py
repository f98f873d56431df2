"""The processes of a browser test: sesame-emulator (both surfaces), sesamed against one of them,
and a line-delimited JSON-RPC connection to the daemon's socket."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Optional

PROJECT = "demo-project"


def bin_path(name: str) -> str:
    path = Path(os.environ["SESAME_BIN_DIR"]) / name
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} is missing: build it or set SESAME_BIN_DIR")
    return str(path)


def wait_until(what: str, condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Polls a readiness condition (a process starting up, a file appearing), bounded."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting until {what}")


class Emulator:
    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="bremu-", dir="/tmp")
        self.out = Path(self.directory, "out")
        with open(self.out, "w") as stdout, open(Path(self.directory, "err"), "w") as stderr:
            self.process = subprocess.Popen(
                [bin_path("sesame-emulator"), "--auth-port", "0", "--database-port", "0", "--supabase-port", "0",
                 "--project", PROJECT], stdout=stdout, stderr=stderr)
        self.printed: Dict[str, str] = {}
        prefixes = {"auth": "sesame-emulator: auth listening on http://",
                    "supabase": "sesame-emulator: supabase listening on ",
                    "anon": "sesame-emulator: supabase anon key "}

        def ready() -> bool:
            for line in self.out.read_text().splitlines():
                for key, prefix in prefixes.items():
                    if line.startswith(prefix):
                        self.printed[key] = line[len(prefix):].strip()
            return len(self.printed) == len(prefixes)
        wait_until("the emulator prints its ports", ready)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        shutil.rmtree(self.directory, ignore_errors=True)


class Daemon:
    def __init__(self, emulator: Emulator, backend: str) -> None:
        self.directory = tempfile.mkdtemp(prefix="brd-", dir="/tmp")
        if backend == "supabase":
            config = (f'[backend]\nprovider = "supabase"\n[supabase]\nurl = "{emulator.printed["supabase"]}"\n'
                      f'anon_key = "{emulator.printed["anon"]}"\n')
        else:
            config = (f'[firebase]\napi_key = "browser-key"\nproject_id = "{PROJECT}"\n'
                      f'auth_emulator_host = "{emulator.printed["auth"]}"\n')
        config += f'[socket]\npath = "{self.socket_path}"\n'
        Path(self.directory, "sesamed.toml").write_text(config)
        with open(Path(self.directory, "log"), "w") as log:
            self.process = subprocess.Popen(
                [bin_path("sesamed"), "--config", str(Path(self.directory, "sesamed.toml")),
                 "--state-dir", str(Path(self.directory, "state"))], stdout=subprocess.DEVNULL, stderr=log)
        wait_until("sesamed has an anonymous user", lambda: self.status() == "anonymous")

    @property
    def socket_path(self) -> str:
        return os.path.join(self.directory, "s.sock")

    def log(self) -> str:
        return Path(self.directory, "log").read_text()

    def call(self, method: str, **params: Any) -> Dict[str, Any]:
        """One request on a fresh connection: its `result`, or its `error` object."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(60)
            connection.connect(self.socket_path)
            request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
            connection.sendall((json.dumps(request) + "\n").encode())
            buffer = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    raise AssertionError(f"sesamed closed the connection during {method}")
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if message.get("id") == 1:
                        return dict(message.get("result") or {"error": message["error"]})

    def status(self) -> Optional[str]:
        try:
            return str(self.call("getState")["status"])
        except OSError:
            return None

    def state(self) -> Dict[str, Any]:
        return self.call("getState")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        shutil.rmtree(self.directory, ignore_errors=True)
